#pragma once
// What the File menu's Open / Save As dialog lists and which path it settles on, without any
// UI: a folder's sub-folders and scenario files (or every file, for a text), and the path a
// typed name means.

#include <filesystem>
#include <string>
#include <vector>

namespace attnviz::edits {

struct ListedEntry {
  std::string name;  // as shown ("presets/", "life.json")
  std::filesystem::path path;
  bool is_directory = false;
};

struct Listing {
  std::vector<ListedEntry> entries;  // folders first, then the files, each sorted by name
  std::string error;                 // "cannot read /root: Permission denied" ("" when fine)
};

// Which files a listing shows beside the folders: scenarios (*.json), or any file (File ▸ Open
// text…: a text's name may end in .txt, .md or nothing at all).
enum class ListedFiles { Scenarios, All };

// The folders and files of `directory` (hidden ones, starting with '.', left out unless
// `show_hidden`). Never throws: an unreadable folder gives an error and no entries.
Listing list_directory(const std::filesystem::path& directory, ListedFiles files = ListedFiles::Scenarios,
                       bool show_hidden = false);

// The file a typed name means: relative names are inside `directory`, "~/" is the home
// folder, and a name without an extension gets ".json" (for saving).
std::filesystem::path resolve_typed_path(const std::filesystem::path& directory, const std::string& typed,
                                         bool add_json_extension);

}  // namespace attnviz::edits
