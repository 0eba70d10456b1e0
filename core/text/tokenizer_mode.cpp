#include "core/text/tokenizer_mode.h"

namespace attnviz {

const char* to_string(TokenizerMode mode) {
  switch (mode) {
    case TokenizerMode::Words: return "words";
    case TokenizerMode::WordsNoPunct: return "words-no-punct";
    case TokenizerMode::Chars: return "chars";
  }
  return "words";
}

std::optional<TokenizerMode> tokenizer_mode_from_string(std::string_view name) {
  if (name == "words") return TokenizerMode::Words;
  if (name == "words-no-punct") return TokenizerMode::WordsNoPunct;
  if (name == "chars") return TokenizerMode::Chars;
  return std::nullopt;
}

}  // namespace attnviz
