#include "app/document/file_listing.h"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace attnviz::edits {

Listing list_directory(const std::filesystem::path& directory, ListedFiles shown, bool show_hidden) {
  namespace fs = std::filesystem;
  Listing listing;
  std::error_code ec;
  fs::directory_iterator it(directory, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    listing.error = "cannot read " + directory.string() + ": " + ec.message();
    return listing;
  }
  std::vector<ListedEntry> folders;
  std::vector<ListedEntry> files;
  for (const fs::directory_entry& entry : it) {
    const std::string name = entry.path().filename().string();
    if (!show_hidden && !name.empty() && name.front() == '.') continue;
    std::error_code type_ec;
    if (entry.is_directory(type_ec)) {
      folders.push_back({name + "/", entry.path(), true});
    } else if (shown == ListedFiles::All ? entry.is_regular_file(type_ec) : entry.path().extension() == ".json") {
      files.push_back({name, entry.path(), false});
    }
  }
  const auto by_name = [](const ListedEntry& a, const ListedEntry& b) { return a.name < b.name; };
  std::sort(folders.begin(), folders.end(), by_name);
  std::sort(files.begin(), files.end(), by_name);
  listing.entries = std::move(folders);
  listing.entries.insert(listing.entries.end(), files.begin(), files.end());
  return listing;
}

std::filesystem::path resolve_typed_path(const std::filesystem::path& directory, const std::string& typed,
                                         bool add_json_extension) {
  namespace fs = std::filesystem;
  fs::path path;
  if (typed.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    path = fs::path(home != nullptr ? home : "") / typed.substr(2);
  } else {
    path = fs::path(typed);
    if (path.is_relative()) path = directory / path;
  }
  if (add_json_extension && !path.has_extension() && !path.filename().empty()) path += ".json";
  return path.lexically_normal();
}

}  // namespace attnviz::edits
