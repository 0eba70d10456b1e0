#include "app/edits/model_edits.h"

#include <algorithm>

#include "app/edits/matrix_edits.h"
#include "app/edits/sentence_edits.h"
#include "app/i18n/translate.h"
#include "core/scenario/generate.h"
#include "core/scenario/problem.h"

namespace attnviz::edits {
namespace {

// The block layouts of every matrix for the scenario's current dimensions.
struct Layout {
  Blocks d_model, wq_cols, kv_k_cols, kv_v_cols, wo_rows;
};

Layout layout_of(const Scenario& s) {
  return {{1, s.d_model}, {s.num_heads, s.d_k}, {s.num_kv_heads, s.d_k}, {s.num_kv_heads, s.d_v}, {s.num_heads, s.d_v}};
}

// Moves every explicit matrix from the layout `before` to the scenario's current one.
void reshape_explicit(Scenario& s, const Layout& before, const FreshMatrices& fresh) {
  const Layout after = layout_of(s);
  const auto weight = [&](std::optional<Matrix>& m, const char* name, Blocks old_cols, Blocks new_cols) {
    if (!m) return;
    const Matrix f = fresh.weight(name, after.d_model.total(), new_cols.total());
    *m = resize_blocks(*m, before.d_model, old_cols, after.d_model, new_cols, f);
  };
  weight(s.wq, "wq", before.wq_cols, after.wq_cols);
  weight(s.wk, "wk", before.kv_k_cols, after.kv_k_cols);
  weight(s.wv, "wv", before.kv_v_cols, after.kv_v_cols);
  if (s.wo) {
    const Blocks out{1, s.wo->cols};  // d_out is the user's choice: kept
    const Matrix f = fresh.weight("wo", after.wo_rows.total(), out.total());
    s.wo = resize_blocks(*s.wo, before.wo_rows, out, after.wo_rows, out, f);
  }
  const auto embeddings = [&](std::optional<Matrix>& m, const std::function<Matrix(int)>& make) {
    if (!m || before.d_model.size == after.d_model.size) return;
    const Blocks rows{1, m->rows};
    Matrix f = make(after.d_model.size);
    if (f.rows != m->rows || f.cols != after.d_model.size) f = Matrix(m->rows, after.d_model.size);
    *m = resize_blocks(*m, rows, before.d_model, rows, after.d_model, f);
  };
  embeddings(s.embeddings, fresh.embeddings);
  if (s.source) embeddings(s.source->embeddings, fresh.source_embeddings);
}

int clamp_dimension(int d) { return std::clamp(d, 1, max_dimension()); }

// Applies a change of dimensions, then brings the explicit matrices to the new shapes.
template <typename Change>
Scenario reshaped(Scenario s, const FreshMatrices& fresh, Change change) {
  const Layout before = layout_of(s);
  change(s);
  reshape_explicit(s, before, fresh);
  return s;
}

}  // namespace

int max_dimension() { return ProblemLimits{}.max_dim; }
int max_heads() { return ProblemLimits{}.max_heads; }

FreshMatrices default_fresh(const Scenario& scenario) {
  const std::uint64_t seed = scenario.seed;
  FreshMatrices fresh;
  fresh.weight = [seed](std::string_view name, int rows, int cols) { return generate_weight(seed, name, rows, cols); };
  const std::vector<std::string> tokens = sentence_tokens_of(scenario).tokens;
  fresh.embeddings = [seed, tokens](int d) { return generate_embeddings(tokens, seed, d); };
  std::vector<std::string> source_tokens;
  if (scenario.source) source_tokens = source_tokens_of(*scenario.source).tokens;
  fresh.source_embeddings = [seed, source_tokens](int d) { return generate_embeddings(source_tokens, seed, d); };
  return fresh;
}

Scenario set_d_model(Scenario s, int d_model, const FreshMatrices& fresh) {
  return reshaped(std::move(s), fresh, [&](Scenario& x) { x.d_model = clamp_dimension(d_model); });
}

Scenario set_num_heads(Scenario s, int heads, const FreshMatrices& fresh) {
  heads = std::clamp(heads, 1, max_heads());
  const Layout before = layout_of(s);
  const bool was_mha = s.num_kv_heads == s.num_heads;
  const int old_kv = s.num_kv_heads;
  s.num_heads = heads;
  if (was_mha) {
    s.num_kv_heads = heads;
  } else {
    int kv = 1;
    for (const int d : divisors(heads)) {
      if (d <= old_kv) kv = d;
    }
    s.num_kv_heads = kv;
  }
  reshape_explicit(s, before, fresh);
  return s;
}

Scenario set_num_kv_heads(Scenario s, int kv_heads, const FreshMatrices& fresh) {
  if (kv_heads < 1 || kv_heads > s.num_heads || s.num_heads % kv_heads != 0) return s;
  return reshaped(std::move(s), fresh, [&](Scenario& x) { x.num_kv_heads = kv_heads; });
}

Scenario set_d_k(Scenario s, int d_k, const FreshMatrices& fresh) {
  return reshaped(std::move(s), fresh, [&](Scenario& x) { x.d_k = clamp_dimension(d_k); });
}

Scenario set_d_v(Scenario s, int d_v, const FreshMatrices& fresh) {
  return reshaped(std::move(s), fresh, [&](Scenario& x) { x.d_v = clamp_dimension(d_v); });
}

Scenario set_output_projection(Scenario s, bool enabled) {
  if (!enabled) s.wo.reset();
  s.generate_wo = enabled;
  return s;
}

Scenario regenerate(Scenario s, std::uint64_t seed) {
  s.seed = seed;
  s.embeddings.reset();
  if (s.source) s.source->embeddings.reset();
  s.wq.reset();
  s.wk.reset();
  s.wv.reset();
  if (s.wo) {
    s.wo.reset();
    s.generate_wo = true;
  }
  return s;
}

std::vector<int> divisors(int n) {
  std::vector<int> out;
  for (int d = 1; d <= n; ++d) {
    if (n % d == 0) out.push_back(d);
  }
  return out;
}

std::string attention_kind(int heads, int kv_heads) {
  if (heads <= 1) return i18n::tr("single head");
  if (kv_heads == heads) return i18n::tr("multi-head (MHA)");
  if (kv_heads == 1) return i18n::format(i18n::tr("multi-query (MQA): all %d query heads share one K/V head"), heads);
  return i18n::format(i18n::tr("grouped-query (GQA): %d query heads share each K/V head"),
                      heads / std::max(kv_heads, 1));
}

double scale_from_temperature(double temperature) { return temperature > 0.0 ? 1.0 / temperature : 1.0; }
double temperature_from_scale(double scale) { return scale > 0.0 ? 1.0 / scale : 1.0; }

}  // namespace attnviz::edits
