#pragma once
// File ▸ Open Recent: the scenario files, texts (File ▸ Open text…) and models the user opened, most recent first, at most
// kMostRecent, kept between starts in $XDG_CONFIG_HOME/attnviz/recent.json (beside window.json
// and the autosave). The list only: the menu is app/panels/file_menu.cpp, the file is written
// by the frame loop whenever the list changed.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace attnviz::document {

// How an entry opens again: as a scenario file, as the sentence (a text), as a model.
enum class RecentKind { Scenario, Model, Text };

struct RecentFile {
  std::string path;  // absolute, as opened
  RecentKind kind = RecentKind::Scenario;
  friend bool operator==(const RecentFile&, const RecentFile&) = default;
};

class RecentFiles {
 public:
  static constexpr std::size_t kMostRecent = 10;

  // To the top; the same path further down goes (opened again, it is one entry).
  void add(const RecentFile& file);
  void remove(const std::string& path);
  void clear();

  [[nodiscard]] const std::vector<RecentFile>& entries() const { return entries_; }
  // Moves on with every change: the frame loop writes the file when it moved.
  [[nodiscard]] std::uint64_t revision() const { return revision_; }

  // The file's text (JSON), and the list read back from it.
  [[nodiscard]] std::string serialise() const;
  struct Parsed;
  static Parsed parse(const std::string& text);

 private:
  std::vector<RecentFile> entries_;
  std::uint64_t revision_ = 0;
};

// What a recent.json held: the entries it could read and, when it was not a list of ours
// (corrupt, cut short, another program's), why. Entries it could not read are left out, the
// others kept: one bad line does not cost the whole list.
struct RecentFiles::Parsed {
  RecentFiles files;
  std::string problem;  // "" when the text was read whole
};

// $XDG_CONFIG_HOME/attnviz/recent.json, or ~/.config/attnviz/recent.json.
std::filesystem::path recent_files_file();

// The list in `file`: empty without a problem when there is none yet; a file that cannot be read
// or parsed gives what could be read and the reason, for the window to say.
RecentFiles::Parsed read_recent_files(const std::filesystem::path& file);

// Writes it atomically; "" or why it could not.
std::string write_recent_files(const std::filesystem::path& file, const RecentFiles& files);

}  // namespace attnviz::document
