#pragma once
// What the lens, attribution and patching share: whether the model has an unembedding to read
// the residual stream through, and one token's logit from a residual row.

#include <string>
#include <vector>

#include "core/model/model.h"

namespace attnviz::heads {

// Throws InputError(model path, "--model", why) when the model has no LM head (BERT without its
// masked-LM head), naming `what` ("the logit lens") as unavailable.
void require_unembedding(const model::Model& model, const std::string& what);
// The same, and also when the residual stream is not a sum of the blocks' outputs (BERT's
// post-norm): direct logit attribution needs the final residual as that sum.
void require_additive_stream(const model::Model& model, const std::string& what);

// Throws InputError naming `option` when `target` is not an id of the model's vocabulary, or
// `position` not a token of a text of `tokens` tokens.
void check_target(const model::Model& model, int target, const std::string& option);
void check_position(int position, int tokens, const std::string& option);

// W_U's column of `target` (d_model values): the unembedding of one token.
std::vector<double> unembedding_column(const model::Model& model, int target);

// The logit of `target` from a final residual row (d_model values), through the final norm (or
// BERT's masked-LM transform) and the unembedding, in float64 from the float32 row.
double target_logit(const model::Model& model, const float* residual, int target);

// The likeliest token at a residual row (ties: the smaller id).
int likeliest_token(const model::Model& model, const float* residual);

}  // namespace attnviz::heads
