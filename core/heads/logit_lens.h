#pragma once
// The logit lens (nostalgebraist 2020): the residual stream after every layer put through the
// model's final norm and unembedding, as if the model ended there. Layer 0 is the embeddings,
// layer l ≥ 1 the stream after block l − 1; the last layer is the model's own prediction.

#include <optional>
#include <string>
#include <vector>

#include "core/model/forward.h"
#include "core/model/model.h"

namespace attnviz::heads {

struct LensToken {
  int id = 0;
  std::string token;
  double p = 0.0;
};

struct LensCell {
  std::vector<LensToken> top;    // best first (ties: the smaller id)
  std::optional<double> p_next;  // the text's next token: its probability (none at the last position)
  std::optional<int> rank_next;  // and its rank, 0 = best
};

// cells[layer][position], layers 0..L.
struct LogitLens {
  std::vector<std::vector<LensCell>> cells;
};

// `result` must hold the stream (ForwardOptions::keep_stream). Throws InputError when the model
// has no unembedding (require_unembedding).
LogitLens logit_lens(const model::Model& model, const model::ForwardResult& result, int top_k);

}  // namespace attnviz::heads
