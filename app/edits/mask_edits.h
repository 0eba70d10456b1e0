#pragma once
// Edits of the attention mask (causal, window radius, Longformer global tokens), as pure
// functions used by the Mask and Sentence panels. Every result is a valid MaskSetting:
// globals only with a window (docs/design.md), sorted, without duplicates.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scenario/scenario.h"

namespace attnviz::edits {

// The window radius a global token gets when the mask has no window yet: the smallest that
// still shows a local band, so the global rows and columns stand out.
inline constexpr int kDefaultLongformerRadius = 1;
// Sliding window radius for the preset when there is none: Mistral-style r + 1 = 3 keys.
inline constexpr int kDefaultSlidingRadius = 2;

// Adds token `index` to the globals, or removes it when it is one. Adding gives the mask a
// window (kDefaultLongformerRadius) when it has none, since globals need one.
MaskSetting toggle_global(MaskSetting mask, int index);

// The window radius, or none. Removing the window removes the globals too (they need one).
MaskSetting set_window(MaskSetting mask, std::optional<int> radius);

enum class MaskPreset {
  None,           // every token sees every token
  Causal,         // decoder: j <= i
  SlidingWindow,  // causal + window (keeps a radius already set)
  Longformer,     // symmetric window + global tokens (keeps those already set, else token 0)
};
const char* mask_preset_name(MaskPreset preset);  // "None", "Causal", "Sliding window", "Longformer"
MaskSetting apply_mask_preset(const MaskSetting& current, MaskPreset preset);
// The preset the mask currently is, if any (the panel highlights its button).
std::optional<MaskPreset> matching_preset(const MaskSetting& mask);

// Drops globals that are not a token any more (index >= token_count), e.g. after the
// sentence got shorter.
MaskSetting prune_globals(MaskSetting mask, int token_count);

// "0, 3, 7" → {0, 3, 7}; spaces and commas separate. An error names the bad part
// ("\"x\" is not a token index", "12 is past the last token (9)").
struct ParsedGlobals {
  std::optional<std::vector<int>> indices;
  std::string error;
};
ParsedGlobals parse_global_list(std::string_view text, int token_count);
std::string format_global_list(const std::vector<int>& indices);  // "0, 3, 7"

// How many keys a query row sees in the middle of a long sentence: "all", "r + 1", "2r + 1".
std::string window_summary(const MaskSetting& mask);

// --- mask expressions (docs/design.md "Mask expressions") ---

// A pattern the Mask panel inserts into its expression field, so users learn the notation:
// causal, sliding window, Longformer, strided, sinks + window, prefix-LM, block-local, dilated
// window, documents (causal or not), with parameters that suit a sentence of `tokens` tokens
// (the stride and block √N as in the Sparse Transformer).
struct NamedPattern {
  std::string name;         // "Strided, s = 4"
  std::string expression;   // "k <= q && (q - k < 4 || (q - k) % 4 == 0)"
  std::string description;  // a line for the tooltip, with the paper
  bool needs_documents = false;
};
// Names and descriptions in the window's language (app/i18n), expressions in the one language.
std::vector<NamedPattern> named_patterns(int tokens);

// The named pattern `expression` is written from, with the parameters that suit `tokens`
// instead of its own (the same text once every number is set aside and spaces ignored): the
// strided preset's "... % 4 == 0" over 20,000 tokens gives "Strided, s = 141". None when no
// pattern matches or the expression already has this length's parameters. The window offers
// it when a long text leaves a pattern with more runs than a mask holds.
std::optional<NamedPattern> pattern_for_length(const std::string& expression, int tokens);

// Where documents start in a packed sentence: after each sentence end (. ! ? 。), else the
// sentence cut in two halves.
std::vector<int> documents_from_tokens(const std::vector<std::string>& tokens);

// The pattern as the whole mask: its expression, the fields off (the expression says it all),
// the global tokens kept (one, token 0, for Longformer when there are none), and documents
// from the sentence when doc() needs them and there are none.
MaskSetting apply_pattern(const MaskSetting& current, const NamedPattern& pattern,
                          const std::vector<std::string>& tokens);

// The expression replaced (empty: none), everything else kept.
MaskSetting set_expression(MaskSetting mask, std::string expression);

}  // namespace attnviz::edits
