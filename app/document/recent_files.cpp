#include "app/document/recent_files.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <system_error>
#include <utility>

#include "app/i18n/translate.h"
#include "core/common/atomic_file.h"

namespace attnviz::document {
namespace {

namespace fs = std::filesystem;

constexpr const char* kFormat = "attnviz-recent/1";
// Ten paths: anything far larger is not ours, and is not read whole into memory.
constexpr std::uintmax_t kMostBytes = 256 * 1024;
constexpr std::size_t kLongestPath = 4096;

constexpr std::pair<RecentKind, const char*> kKindNames[] = {
    {RecentKind::Scenario, "scenario"}, {RecentKind::Model, "model"}, {RecentKind::Text, "text"}};

const char* kind_name(RecentKind kind) {
  for (const auto& [known, name] : kKindNames)
    if (known == kind) return name;
  return "scenario";
}

bool read_kind(const std::string& name, RecentKind& kind) {
  for (const auto& [known, known_name] : kKindNames) {
    if (name == known_name) {
      kind = known;
      return true;
    }
  }
  return false;
}

}  // namespace

void RecentFiles::add(const RecentFile& file) {
  if (file.path.empty()) return;
  std::erase_if(entries_, [&](const RecentFile& entry) { return entry.path == file.path; });
  entries_.insert(entries_.begin(), file);
  if (entries_.size() > kMostRecent) entries_.resize(kMostRecent);
  ++revision_;
}

void RecentFiles::remove(const std::string& path) {
  if (std::erase_if(entries_, [&](const RecentFile& entry) { return entry.path == path; }) > 0) ++revision_;
}

void RecentFiles::clear() {
  if (entries_.empty()) return;
  entries_.clear();
  ++revision_;
}

std::string RecentFiles::serialise() const {
  nlohmann::json list = nlohmann::json::array();
  for (const RecentFile& entry : entries_) list.push_back({{"path", entry.path}, {"kind", kind_name(entry.kind)}});
  const nlohmann::json json = {{"format", kFormat}, {"files", list}};
  return json.dump(2) + "\n";
}

RecentFiles::Parsed RecentFiles::parse(const std::string& text) {
  Parsed parsed;
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) {
    parsed.problem = i18n::tr("it is not JSON");
    return parsed;
  }
  if (!json.is_object() || json.value("format", std::string()) != kFormat || !json.contains("files") ||
      !json["files"].is_array()) {
    parsed.problem = i18n::tr("it is not a list of recent files");
    return parsed;
  }
  std::size_t skipped = 0;
  // Read oldest first so that add() leaves them in the file's order, duplicates and all cut.
  const nlohmann::json& files = json["files"];
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    RecentFile entry;
    const bool readable = it->is_object() && it->contains("path") && (*it)["path"].is_string() &&
                          it->contains("kind") && (*it)["kind"].is_string() &&
                          read_kind((*it)["kind"].get<std::string>(), entry.kind);
    if (readable) entry.path = (*it)["path"].get<std::string>();
    if (!readable || entry.path.empty() || entry.path.size() > kLongestPath) {
      ++skipped;
      continue;
    }
    parsed.files.add(entry);
  }
  if (skipped > 0)
    parsed.problem = i18n::format(i18n::trn("%zu unreadable entry was left out", "%zu unreadable entries were left out",
                                            static_cast<unsigned long>(skipped)),
                                  skipped);
  parsed.files.revision_ = 0;  // as read: nothing to write back
  return parsed;
}

fs::path recent_files_file() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return fs::path(xdg) / "attnviz" / "recent.json";
  const char* home = std::getenv("HOME");
  const fs::path base = home != nullptr && *home != '\0' ? home : fs::temp_directory_path();
  return base / ".config" / "attnviz" / "recent.json";
}

RecentFiles::Parsed read_recent_files(const fs::path& file) {
  std::error_code error;
  if (!fs::exists(file, error)) return {};
  RecentFiles::Parsed unreadable;
  if (!fs::is_regular_file(file, error) || error) {
    unreadable.problem = i18n::tr("it is not a file");
    return unreadable;
  }
  if (fs::file_size(file, error) > kMostBytes || error) {
    unreadable.problem = i18n::tr("it is too large to be a list of recent files");
    return unreadable;
  }
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in.is_open()) text << in.rdbuf();
  if (!in.is_open() || in.bad()) {
    unreadable.problem = i18n::tr("it could not be read");
    return unreadable;
  }
  return RecentFiles::parse(text.str());
}

std::string write_recent_files(const fs::path& file, const RecentFiles& files) {
  try {
    std::error_code ignored;
    fs::create_directories(file.parent_path(), ignored);
    write_file_atomically(file, files.serialise());
    return "";
  } catch (const std::exception& error) {
    return error.what();
  }
}

}  // namespace attnviz::document
