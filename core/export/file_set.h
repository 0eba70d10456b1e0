#pragma once
// Writing a set of files all or nothing: an export of eight heads either leaves eight new files
// or none (and the files that were there keep their old bytes), never the first three.

#include <filesystem>
#include <string>
#include <vector>

namespace attnviz::exporting {

struct FileToWrite {
  std::filesystem::path path;
  const std::string* bytes = nullptr;
};

// Each file goes to a temporary name next to its target, flushed to disk; then existing
// targets are moved aside, the new files renamed into place, and the old ones deleted. When
// any step fails, what was done is undone and std::runtime_error says which file failed, why,
// and that none of the set was written.
void write_files_all_or_nothing(const std::vector<FileToWrite>& files);

}  // namespace attnviz::exporting
