#pragma once
// Activation patching between two texts of the same length in tokens (Vig et al. 2020; Meng et
// al. 2022): for every head, the target's logit when the first (clean) text is run with that
// head's output (its context before W_O, at every position or at one) taken from the second
// (corrupted) text's run; and the two clean runs' logits. Each patched run reruns the pass from
// the patched layer only (ForwardPass::rerun_from); with one position patched, only the rows from
// it to the target's, a layer's heads together (ForwardPass::rerun_rows: the earlier rows are
// causally untouched), so that every head costs about one row per later layer when it is the
// target's: all of them together about a pass over the text.

#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/attention/backend.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::heads {

struct PatchingRequest {
  std::optional<int> target;    // nullopt: the clean run's likeliest next token at the position
  std::optional<int> position;  // nullopt: the last
  // The one position whose output is patched (TransformerLens's per-position patching), at most
  // `position`; nullopt: every position.
  std::optional<int> patched_position;
  model::ModelEdits edits;  // the window's head switches and weights, in all three runs
  std::stop_token stop;     // checked between heads (and layers): throws model::Cancelled
};

struct Patching {
  int position = 0;
  std::optional<int> patched_position;  // nullopt: every position was patched
  int target = 0;
  std::string target_token;
  double clean_logit = 0.0;
  double corrupted_logit = 0.0;
  std::vector<std::vector<double>> patched;  // [layer][head]: the target's logit with that head patched
};

// Throws InputError for texts of different lengths in tokens (naming --corrupted-text and both
// lengths), a model without an unembedding, a target outside the vocabulary (--target-id), a
// position beyond the texts (--position), a patched position beyond the texts or after the
// target's (--patch-positions); the forward pass's own errors. An encoder (BERT), whose earlier
// rows see the later ones, is patched at one position by full reruns.
Patching patch_every_head(const model::Model& model, Backend& backend, const tokenizers::Encoding& clean,
                          const tokenizers::Encoding& corrupted, const PatchingRequest& request);

// The longest start of `text` (cut between UTF-8 characters; trailing spaces dropped where that
// costs no token) that
// `tokenizer` makes at most `tokens` tokens of, special tokens counted: the window's offer to
// cut the longer of two texts to the other's length. A text already that short comes back whole.
std::string text_cut_to_tokens(const tokenizers::Tokenizer& tokenizer, std::string_view text, int tokens);

}  // namespace attnviz::heads
