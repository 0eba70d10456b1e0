#pragma once
// Direct logit attribution: the final residual at a position is a sum of parts (the embeddings,
// each head's context times its rows of W_O, each attention's output bias, each MLP's output);
// with the final norm's scale frozen at its value for the whole residual, the target's logit is
// the sum of each part's share (docs/design.md "What the heads do"). GPT-2 and the Llama family.

#include <optional>
#include <string>
#include <vector>

#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::heads {

enum class PartKind { Embedding, Head, AttentionBias, Mlp, FinalBias };
const char* part_kind_name(PartKind kind);  // "embedding", "head", "attention_bias", "mlp", "final_bias"

struct AttributionPart {
  PartKind kind = PartKind::Embedding;
  int layer = -1;  // -1: not a layer's (embedding, final_bias)
  int head = -1;   // -1: not a head's
  double value = 0.0;
};

struct AttributionRequest {
  std::optional<int> target;    // nullopt: the likeliest next token at the position
  std::optional<int> position;  // nullopt: the last
};

struct Attribution {
  int position = 0;
  int target = 0;
  std::string target_token;
  double logit = 0.0;                  // the target's logit from the pass's final residual
  std::vector<AttributionPart> parts;  // embedding, then per layer its heads, bias, MLP; final_bias
};

// `result` must hold the stream (ForwardOptions::keep_stream) of every layer. Throws InputError
// for a model without an unembedding or with post-norm blocks (BERT), a target outside the
// vocabulary (--target-id) or a position beyond the text (--position).
Attribution attribute_logit(const model::Model& model, const model::ForwardResult& result,
                            const AttributionRequest& request);

}  // namespace attnviz::heads
