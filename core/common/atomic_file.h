#pragma once
// Writing files without ever leaving a half-written one behind: the bytes go to a
// temporary file in the same directory, are flushed, then renamed over the target.

#include <filesystem>
#include <string_view>

namespace attnviz {

// Throws std::runtime_error "cannot write PATH: REASON" (the OS error); on failure the
// previous file, if any, is untouched and no temporary file is left.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace attnviz
