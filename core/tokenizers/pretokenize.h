#pragma once
// The regular expressions byte-level BPE tokenizers split text with before merging, written
// out as scanners over Unicode character classes (unicode.h). Each reproduces its pattern's
// leftmost-alternative, greedy matching exactly:
//
//   Gpt2:   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//   Llama3: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//           ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//   Qwen2:  the same with \p{N} one digit at a time

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::tokenizers {

enum class SplitPattern { Gpt2, Llama3, Qwen2 };

// The pattern a tokenizer.json "Split" pre-tokenizer names, when it is one of the above.
std::optional<SplitPattern> split_pattern_from_regex(std::string_view regex);

// The pieces of `text`, in order; together they are the whole text.
std::vector<std::u32string_view> split_words(std::u32string_view text, SplitPattern pattern);

}  // namespace attnviz::tokenizers
