#pragma once
// Edits of the sentence and its tokens, as pure functions used by the Sentence panel.
// Typing changes the token list; explicit embeddings (rows of X the user edited) follow the
// tokens they belong to, and global tokens past the end are dropped, so the scenario stays
// consistent while the user types.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text/sentence_tokens.h"
#include "core/scenario/scenario.h"

namespace attnviz::edits {

// The tokens the scenario's sentence gives (explicit tokens when it has them), or why the
// sentence cannot be tokenized ("invalid UTF-8 at byte 12", "more than 65536 tokens"). The
// window's panels read the current revision's from Document::tokens() instead (counted once).
using TokensOrError = TextTokens;
TokensOrError sentence_tokens_of(const Scenario& scenario);
TokensOrError source_tokens_of(const SourceSetting& source);
TokensOrError tokenize_text(std::string_view text, TokenizerMode mode);

// What the Sentence panel says of a text it cannot split: "Cannot split this text into tokens:
// invalid UTF-8 at byte offset 12 …", or for one past the overview's limit "This text has more
// than 65,536 tokens: token 65,537 starts at byte 131,072." (numbers grouped as the window writes
// them; the command line keeps the tokenizer's own words). "" when it splits.
std::string tokens_error_text(const TokensOrError& tokens);
// "more than 65,536 tokens … token 65,537 starts at byte 131,072": where a text past the
// overview's limit goes past it (`tokens.too_long`), as the Sentence panel and File ▸ Open text
// say it.
std::string first_token_past_limit_text(const TokensOrError& tokens);

// For each new token, the old token row it keeps (-1: a new token). Tokens in the common
// prefix and the common suffix of the two lists keep their rows, so typing in the middle of
// a sentence keeps the edited rows on both sides.
std::vector<int> align_token_rows(const std::vector<std::string>& old_tokens,
                                  const std::vector<std::string>& new_tokens);

// One embedding row for a new token (default: the core's generate_embedding with the seed).
using EmbeddingRow = std::function<std::vector<float>(std::string_view token)>;

// The scenario with a new sentence / tokenizer mode. Explicit embeddings are re-aligned to
// the new tokens (new rows from `new_row`) and globals past the end dropped. When the new
// sentence cannot be tokenized the text is still taken (the user is typing) and the rest left
// as it was; the panel shows the tokenizer's error.
Scenario set_sentence(Scenario s, std::string sentence, const EmbeddingRow& new_row);
Scenario set_sentence(Scenario s, std::string sentence);
Scenario set_tokenizer(Scenario s, TokenizerMode mode, const EmbeddingRow& new_row);
Scenario set_tokenizer(Scenario s, TokenizerMode mode);
// Text typed into the Sentence box. A scenario that lists its own tokens (the presets do)
// gives them up for the typed text's tokens, and its explicit embeddings for generated ones
// (each token's row from the seed, as for any typed word), unless `keep_tokens`: then the text
// is only a caption and the tokens stay. Otherwise as set_sentence.
Scenario type_sentence(Scenario s, std::string sentence, bool keep_tokens);
// Whether that edit gave up the listed tokens (the panel says so, and Ctrl+Z brings them back).
bool gave_up_listed_tokens(const Scenario& before, const Scenario& after);

// Drops the explicit token list: the sentence is tokenized again (rows kept as above).
Scenario use_sentence_tokens(Scenario s, const EmbeddingRow& new_row);
Scenario use_sentence_tokens(Scenario s);

// A click on token chip `index`: toggles it as a Longformer global token (giving the mask a
// window when it has none).
Scenario click_token(Scenario s, int index);

// The chip's tooltip: "token 3 “dessert” — global: sees every token and is seen by all.
// Click to make it local."
std::string chip_tooltip(int index, const std::string& token, const MaskSetting& mask);

// Why `sentence` is too large to edit in the Sentence box, or "" when it is not: more than
// kMaxEditableBytes, or a word (a run without white space) of more than kMaxEditableWord
// characters, which the box can only draw as one line measured whole every frame (a text
// without spaces, opened from a file, made each frame take seconds). The box then shows the
// text's beginning, read-only.
inline constexpr std::size_t kMaxEditableBytes = std::size_t{2} << 20;
inline constexpr std::size_t kMaxEditableWord = 2000;
std::string too_large_to_edit(std::string_view sentence);

// Chips flow like words: whether a chip `width` wide still fits on the line after the last
// chip ended at `last_right`, with `spacing` between chips, before `right_edge`.
bool chip_fits_on_line(float last_right, float spacing, float width, float right_edge);

}  // namespace attnviz::edits
