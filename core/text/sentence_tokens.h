#pragma once
// A sentence's tokens as the window lists and counts them: its listed tokens, else its text
// tokenized up to a limit, or why the text cannot be split. Counting stops one token past the
// limit, so a 60 MB text is never split whole to learn that it is too long.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/tokenizer_mode.h"

namespace attnviz {

// The longest sentence any view takes: the overview's 65,536 tokens (the materialised
// matrices stop at 4,096, ProblemLimits).
inline constexpr int kMaxSentenceTokens = 65536;

struct TextTokens {
  std::vector<std::string> tokens;
  std::string error;             // "" when fine
  std::size_t error_offset = 0;  // byte offset of the problem in the text
  bool explicit_tokens = false;  // the scenario lists its tokens; the text is a caption
  bool too_long = false;         // the error is that it has more than `limit`
  int limit = kMaxSentenceTokens;
  // The count up to limit + 1: a text that cannot be split gives that (building its problem
  // says why).
  [[nodiscard]] int count() const;
};
TextTokens text_tokens(std::string_view text, TokenizerMode mode, const std::optional<std::vector<std::string>>& listed,
                       int limit = kMaxSentenceTokens);

// The part of `text` within the limit: the whole text, or for one with more than tokens.limit
// tokens (`tokens.too_long`, tokens being text_tokens of this text) the bytes before the first
// token past the limit, which hold exactly tokens.limit tokens.
std::string_view part_within_limit(std::string_view text, const TextTokens& tokens);

// "head -c BYTES 'PATH' > first-part.txt": the shell command that keeps the first tokens.limit
// tokens of `text` (the file at `path`), tokens being text_tokens of it with `too_long` set.
std::string keep_first_tokens_command(std::string_view text, const TextTokens& tokens, const std::string& path);

}  // namespace attnviz
