#include "app/document/autosave.h"

#include <cstdlib>

namespace attnviz::document {

Autosave::Autosave(std::filesystem::path file, std::chrono::milliseconds delay) : file_(std::move(file)), delay_(delay) {}

std::filesystem::path Autosave::default_file() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::filesystem::path(xdg) / "attnviz" / "autosave.json";
  const char* home = std::getenv("HOME");
  const std::filesystem::path base = home != nullptr && *home != '\0' ? home : std::filesystem::temp_directory_path();
  return base / ".config" / "attnviz" / "autosave.json";
}

void Autosave::tick(const Document& document, Clock::time_point now) {
  if (document.revision() != seen_revision_) {
    seen_revision_ = document.revision();
    seen_at_ = now;
    return;
  }
  if (seen_revision_ != written_revision_ && now - seen_at_ >= delay_) write(document);
}

void Autosave::flush(const Document& document) {
  if (document.revision() != written_revision_) write(document);
}

void Autosave::write(const Document& document) {
  written_revision_ = document.revision();
  try {
    std::filesystem::create_directories(file_.parent_path());
    save_scenario(document.scenario_for_saving(), file_);
    last_error_.clear();
  } catch (const std::exception& error) {
    last_error_ = std::string("autosave failed: ") + error.what();
  }
}

std::optional<LoadedScenario> Autosave::restore() {
  std::error_code ignored;
  if (!std::filesystem::exists(file_, ignored)) return std::nullopt;
  try {
    LoadedScenario loaded = load_scenario(file_.string());
    last_error_.clear();
    return loaded;
  } catch (const std::exception& error) {
    last_error_ = std::string("could not restore the last session: ") + error.what();
    return std::nullopt;
  }
}

}  // namespace attnviz::document
