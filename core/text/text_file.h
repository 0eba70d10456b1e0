#pragma once
// A text file read whole as a sentence (File ▸ Open text…, `--text-file`), bounded so that a
// wrong file never takes the machine's memory.

#include <cstddef>
#include <string>

namespace attnviz {

// The largest text file taken (a 65,536-token text is well under 1 MiB).
inline constexpr std::size_t kMaxTextFileBytes = std::size_t{64} << 20;

// The whole file as text. Throws InputError(path, "", problem) when it is missing, a folder,
// unreadable, larger than kMaxTextFileBytes, empty or only white space. (UTF-8 is checked by the
// tokenizer, which names the byte offset of a bad byte.)
std::string read_text_file(const std::string& path);

}  // namespace attnviz
