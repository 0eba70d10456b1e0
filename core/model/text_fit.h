#pragma once
// How much of a text a model's forward pass takes, and the longest start of a text within it:
// the window offers "Keep the first N tokens" when a text is refused for its length, as the
// overview does for texts past 65,536 tokens.

#include <optional>
#include <string>
#include <string_view>

#include "core/model/model_config.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::model {

// The most tokens (special tokens included) a pass keeping `kept_layers` layers takes: the
// learned positions (GPT-2, BERT), the tokenizer's kMaxModelTokens, and the kept attention's
// kMaxKeptCells, whichever is least.
int token_limit(const ModelConfig& config, int kept_layers);

struct TextCut {
  std::string text;  // the start of the text that fits
  int tokens = 0;    // what the tokenizer makes of it
};

// When the tokenizer makes more than `limit` tokens of `text`: the longest start of it that it
// makes at most `limit` of, cut before a space (within the first word only where the first word
// alone is too long). nullopt when the text is within the limit, when nothing of it fits, or
// when the tokenizer refuses it for another reason (bytes that are not UTF-8).
std::optional<TextCut> cut_to_token_limit(const tokenizers::Tokenizer& tokenizer, std::string_view text, int limit);

}  // namespace attnviz::model
