#include "core/model/scenario.h"

#include <cmath>

namespace attnviz {

float ScaleSetting::resolve(int d_k) const {
  switch (kind) {
    case Kind::InvSqrtDk: return static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k)));
    case Kind::None: return 1.0f;
    case Kind::Value: return static_cast<float>(value);
  }
  return 1.0f;
}

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
