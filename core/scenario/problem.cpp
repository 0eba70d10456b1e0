#include "core/scenario/problem.h"

#include <algorithm>

#include "core/common/error.h"
#include "core/scenario/generate.h"
#include "core/scenario/magnitude_check.h"
#include "core/scenario/mask_expression_check.h"
#include "core/scenario/positions.h"
#include "core/scenario/scenario_checks.h"
#include "core/text/tokenizer.h"

namespace attnviz {
namespace {

std::vector<std::string> resolve_tokens(const std::optional<std::vector<std::string>>& explicit_tokens,
                                        const std::string& sentence, TokenizerMode mode, const std::string& origin,
                                        const std::string& prefix, const ProblemLimits& limits) {
  std::vector<std::string> tokens;
  if (explicit_tokens) {
    tokens = *explicit_tokens;
    if (static_cast<long long>(tokens.size()) > limits.max_tokens) {
      throw InputError(
          origin, prefix + "/tokens",
          "has " + std::to_string(tokens.size()) + " tokens; the limit is " + std::to_string(limits.max_tokens));
    }
  } else {
    try {
      tokens = tokenize(sentence, mode, limits.max_tokens);
    } catch (const TokenizerError& e) {
      throw InputError(origin, prefix + "/sentence", e.what());
    }
  }
  if (tokens.empty()) {
    throw InputError(origin, prefix + (explicit_tokens ? "/tokens" : "/sentence"),
                     "has no tokens; type at least one word");
  }
  return tokens;
}

void check_limits(const Scenario& s, int n, int m, const std::string& origin, const ProblemLimits& limits) {
  auto check = [&](long long value, long long limit, const std::string& pointer, const std::string& what) {
    if (value > limit) {
      throw InputError(origin, pointer,
                       what + " is " + std::to_string(value) + "; the limit is " + std::to_string(limit));
    }
  };
  check(s.d_model, limits.max_dim, "/d_model", "d_model");
  check(s.num_heads, limits.max_heads, "/num_heads", "num_heads");
  check(static_cast<long long>(s.num_heads) * s.d_k, limits.max_dim, "/d_k", "num_heads·d_k");
  check(static_cast<long long>(s.num_heads) * s.d_v, limits.max_dim, "/d_v", "num_heads·d_v");
  if (s.wo) check(s.wo->cols, limits.max_dim, "/wo", "the number of W_O columns");
  check(static_cast<long long>(s.num_heads) * n * m, limits.max_attention_cells, "/num_heads",
        "num_heads × N × M (" + std::to_string(s.num_heads) + " × " + std::to_string(n) + " × " + std::to_string(m) +
            ")");
}

Matrix resolve_embeddings(const std::optional<Matrix>& explicit_embeddings, const std::vector<std::string>& tokens,
                          const Scenario& s, const std::string& origin, const std::string& prefix) {
  if (!explicit_embeddings) return generate_embeddings(tokens, s.seed, s.d_model);
  check_matrix_shape(*explicit_embeddings, static_cast<int>(tokens.size()), s.d_model, origin, prefix + "/embeddings",
                     "one row of d_model values per token, N × d_model");
  return *explicit_embeddings;
}

// A global index marks query row g (g < N) and key column g (g < M), so for cross-attention
// it must fall inside one of the two sentences.
void check_global_indices(const MaskSetting& mask, int n, int m, bool cross, const std::string& origin) {
  const int limit = std::max(n, m);
  const std::string lengths =
      cross ? "the sentence has " + std::to_string(n) + " tokens and the source " + std::to_string(m)
            : "the sentence has " + std::to_string(n) + " tokens";
  for (std::size_t i = 0; i < mask.global.size(); ++i) {
    if (mask.global[i] >= limit) {
      throw InputError(origin, "/mask/global/" + std::to_string(i),
                       "token index " + std::to_string(mask.global[i]) + " is out of range: " + lengths +
                           " (indices 0.." + std::to_string(limit - 1) + ")");
    }
  }
}

// The sinusoidal table added to the embeddings, each sentence at its own positions (a source
// sentence starts at position_offset too).
void add_sinusoidal_positions(Problem& p) {
  p.x_tokens = p.x;
  p.xs_tokens = p.xs;
  const auto add_table = [&](Matrix& x) {
    const Matrix table = sinusoidal_table(p.position_offset, x.rows, x.cols);
    for (std::size_t k = 0; k < x.size(); ++k) x.data[k] += table.data[k];
  };
  add_table(p.x);
  add_table(p.xs);
}

}  // namespace

Problem build_problem(const Scenario& s, const std::string& origin, const ProblemLimits& limits) {
  check_scenario(s, origin);
  Problem p;
  p.tokens = resolve_tokens(s.tokens, s.sentence, s.tokenizer, origin, "", limits);
  if (s.source) {
    p.cross_attention = true;
    p.source_tokens =
        resolve_tokens(s.source->tokens, s.source->sentence, s.source->tokenizer, origin, "/source", limits);
  } else {
    p.source_tokens = p.tokens;
  }
  const int n = static_cast<int>(p.tokens.size());
  const int m = static_cast<int>(p.source_tokens.size());
  check_limits(s, n, m, origin, limits);
  check_global_indices(s.mask, n, m, s.source.has_value(), origin);
  check_document_starts(s.mask, n, m, origin);

  p.x = resolve_embeddings(s.embeddings, p.tokens, s, origin, "");
  p.xs = s.source ? resolve_embeddings(s.source->embeddings, p.source_tokens, s, origin, "/source") : p.x;
  p.wq = s.wq ? *s.wq : generate_weight(s.seed, "wq", s.d_model, s.num_heads * s.d_k);
  p.wk = s.wk ? *s.wk : generate_weight(s.seed, "wk", s.d_model, s.num_kv_heads * s.d_k);
  p.wv = s.wv ? *s.wv : generate_weight(s.seed, "wv", s.d_model, s.num_kv_heads * s.d_v);
  if (s.wo) {
    p.wo = *s.wo;
  } else if (s.generate_wo) {
    p.wo = generate_weight(s.seed, "wo", s.num_heads * s.d_v, s.d_model);
  }
  p.num_heads = s.num_heads;
  p.num_kv_heads = s.num_kv_heads;
  p.d_k = s.d_k;
  p.d_v = s.d_v;
  p.scale = s.scale.resolve(s.d_k);
  p.mask = s.mask;
  p.positional = s.positional;
  p.rope_theta = s.rope_theta;
  p.position_offset = s.position_offset;
  p.dropout = s.dropout;
  if (p.positional == PositionalKind::Sinusoidal) add_sinusoidal_positions(p);
  check_magnitudes(p, origin);
  return p;
}

}  // namespace attnviz
