#pragma once
// UTF-8 aware tokenizer. Modes (docs/design.md "Tokenizer"):
//   words           split on Unicode white space; each punctuation code point is its own token
//   words-no-punct  like words, punctuation dropped
//   chars           one token per code point, white space dropped

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/tokenizer_mode.h"

namespace attnviz {

inline constexpr int kDefaultMaxTokens = 4096;

// Invalid UTF-8 or too many tokens. byte_offset() is the offset of the first bad byte
// (or of the token that went over the limit).
class TokenizerError : public std::runtime_error {
 public:
  enum class Kind { InvalidUtf8, TooManyTokens };
  TokenizerError(const std::string& message, std::size_t byte_offset, Kind kind)
      : std::runtime_error(message), byte_offset_(byte_offset), kind_(kind) {}
  [[nodiscard]] std::size_t byte_offset() const { return byte_offset_; }
  [[nodiscard]] Kind kind() const { return kind_; }

 private:
  std::size_t byte_offset_;
  Kind kind_;
};

std::vector<std::string> tokenize(std::string_view text, TokenizerMode mode, int max_tokens = kDefaultMaxTokens);

}  // namespace attnviz
