#pragma once
// How a sentence is cut into tokens (docs/design.md "Tokenizer"). Here rather than with the
// Scenario that stores it, so that the tokenizer does not depend on the scenario layer.

#include <optional>
#include <string_view>

namespace attnviz {

enum class TokenizerMode { Words, WordsNoPunct, Chars };

const char* to_string(TokenizerMode mode);  // "words", "words-no-punct", "chars"
std::optional<TokenizerMode> tokenizer_mode_from_string(std::string_view name);

}  // namespace attnviz
