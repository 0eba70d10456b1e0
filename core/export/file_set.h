#pragma once
// Writing a set of files all or nothing: an export of eight heads either leaves eight new files
// or none (and the files that were there keep their old bytes), never the first three; and a
// file that is replaced is never missing, not even for a moment.

#include <filesystem>
#include <functional>
#include <string_view>
#include <string>
#include <vector>

namespace attnviz::exporting {

struct FileToWrite {
  std::filesystem::path path;
  const std::string* bytes = nullptr;
  // When set, writes the bytes instead, in pieces (a large export streamed a row at a time).
  std::function<void(const std::function<void(std::string_view)>&)> stream{};
};

// Each file goes to a temporary name next to its target, flushed to disk (AtomicFileWriter,
// core/common/atomic_file.h: symlinks followed; a device or FIFO is written through at once,
// which cannot be undone). Then each is renamed over its target, which replaces the old file
// in one step: a reader finds the old bytes or the new ones, and a process killed in between
// leaves every file whole. With several files, each one replaced first gets a second name (a
// hard link, the file staying in place), so that when a later one fails the old bytes are
// renamed back. Throws FileWriteError naming the file that failed, why, and that none of the
// set was written; path_problem() when the path itself is to blame.
void write_files_all_or_nothing(const std::vector<FileToWrite>& files);

}  // namespace attnviz::exporting
