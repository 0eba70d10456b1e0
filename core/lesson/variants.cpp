#include "core/lesson/variants.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/lesson/projections.h"
#include "core/scenario/generate.h"
#include "core/scenario/positions.h"

namespace attnviz::lesson {
namespace {

// K and V repeated per query head, so every head has its own block (GQA → the equivalent MHA).
Scenario expand_to_mha(Scenario s) {
  if (s.num_kv_heads == s.num_heads) return s;
  const int group = s.num_heads / s.num_kv_heads;
  std::vector<Matrix> k_blocks, v_blocks;
  for (int h = 0; h < s.num_heads; ++h) {
    k_blocks.push_back(column_block(*s.wk, (h / group) * s.d_k, s.d_k));
    v_blocks.push_back(column_block(*s.wv, (h / group) * s.d_v, s.d_v));
  }
  std::vector<const Matrix*> k_ptrs, v_ptrs;
  for (std::size_t h = 0; h < k_blocks.size(); ++h) {
    k_ptrs.push_back(&k_blocks[h]);
    v_ptrs.push_back(&v_blocks[h]);
  }
  s.wk = concatenate_columns(k_ptrs);
  s.wv = concatenate_columns(v_ptrs);
  s.num_kv_heads = s.num_heads;
  return s;
}

bool can_split(const Scenario& mha, int heads) {
  const int q_width = mha.num_heads * mha.d_k;
  const int v_width = mha.num_heads * mha.d_v;
  return heads > 0 && q_width % heads == 0 && v_width % heads == 0;
}

// The same projection columns read as `heads` heads (MHA in, MHA out).
Scenario split_heads(Scenario mha, int heads) {
  const int q_width = mha.num_heads * mha.d_k;
  const int v_width = mha.num_heads * mha.d_v;
  mha.d_k = q_width / heads;
  mha.d_v = v_width / heads;
  mha.num_heads = heads;
  mha.num_kv_heads = heads;
  return mha;
}

// Mean of the K (or V) blocks of each group of query heads.
Matrix pool_blocks(const Matrix& weights, int heads, int kv_heads, int width) {
  const int group = heads / kv_heads;
  Matrix pooled(weights.rows, kv_heads * width);
  for (int g = 0; g < kv_heads; ++g)
    for (int r = 0; r < weights.rows; ++r)
      for (int c = 0; c < width; ++c) {
        double sum = 0.0;
        for (int h = g * group; h < (g + 1) * group; ++h) sum += weights.at(r, h * width + c);
        pooled.at(r, g * width + c) = static_cast<float>(sum / group);
      }
  return pooled;
}

Scenario share_kv_heads(Scenario mha, int kv_heads) {
  mha.wk = pool_blocks(*mha.wk, mha.num_heads, kv_heads, mha.d_k);
  mha.wv = pool_blocks(*mha.wv, mha.num_heads, kv_heads, mha.d_v);
  mha.num_kv_heads = kv_heads;
  return mha;
}

std::vector<Variant> mask_variants(const Scenario& frozen, const Problem& problem, const CompareOptions& options) {
  std::vector<int> global;
  for (int g : options.global)
    if (g >= 0 && g < problem.n() && g < problem.m()) global.push_back(g);
  const int r = std::max(options.window, 0);
  std::vector<std::pair<std::string, MaskSetting>> masks = {{"no mask", MaskSetting{}},
                                                            {"causal", MaskSetting{true, std::nullopt, {}}}};
  if (options.count == 4) {
    masks.push_back({"sliding window r = " + std::to_string(r), MaskSetting{true, r, {}}});
    std::string label = "Longformer r = " + std::to_string(r);
    if (!global.empty()) label += ", global " + std::to_string(global.front()) + (global.size() > 1 ? "\u2026" : "");
    masks.push_back({label, MaskSetting{false, r, global}});
  }
  std::vector<Variant> variants;
  for (auto& [label, mask] : masks) {
    Scenario s = frozen;
    s.mask = mask;
    variants.push_back({label, std::move(s)});
  }
  return variants;
}

// The sparse patterns of long-context models, each typed as the expression the Mask panel's
// "insert a pattern" gives (the label shows it, so the notation is learnt by comparing): causal
// and attention sinks, then strided and block-local. Their sizes follow the sentence so that
// each differs from causal on screen: 4 sinks and a stride and block of 4 from 16 tokens on,
// fewer for shorter sentences; the sinks' window is the masks axis's r (at least 1).
std::vector<Variant> pattern_variants(const Scenario& frozen, const Problem& problem, const CompareOptions& options) {
  const std::string r = std::to_string(std::max(options.window, 1));
  const std::string sinks = std::to_string(std::clamp(problem.n() / 8, 1, 4));
  const std::string stride = std::to_string(std::clamp(problem.n() / 4, 2, 4));
  std::vector<std::pair<std::string, std::string>> patterns = {
      {"causal", "k <= q"}, {"attention sinks", "k <= q && (k < " + sinks + " || q - k <= " + r + ")"}};
  if (options.count == 4) {
    patterns.push_back({"strided", "k <= q && (q - k < " + stride + " || (q - k) % " + stride + " == 0)"});
    patterns.push_back({"block-local", "q / " + stride + " == k / " + stride});
  }
  std::vector<Variant> variants;
  for (auto& [name, expression] : patterns) {
    Scenario s = frozen;
    s.mask = MaskSetting{};
    s.mask.expression = expression;
    variants.push_back({name + ": " + expression, std::move(s)});
  }
  return variants;
}

// "8 heads", "4 and 8 heads", "2, 4 and 8 heads"
std::string counts_text(const std::vector<int>& counts, const char* noun) {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); ++i)
    text += (i == 0 ? "" : i + 1 == counts.size() ? " and " : ", ") + std::to_string(counts[i]);
  return text + " " + noun;
}

Comparison head_variants(const Scenario& frozen, const CompareOptions& options) {
  const Scenario mha = expand_to_mha(frozen);
  Comparison comparison;
  std::vector<int> left_out;  // of the first `count` powers of two, the ones that do not split
  for (int heads = 1, tried = 0; heads <= 64 && static_cast<int>(comparison.variants.size()) < options.count;
       heads *= 2, ++tried) {
    if (!can_split(mha, heads)) {
      if (tried < options.count) left_out.push_back(heads);
      continue;
    }
    Scenario s = split_heads(mha, heads);
    comparison.variants.push_back(
        {std::to_string(heads) + (heads == 1 ? " head" : " heads") + " (d_k = " + std::to_string(s.d_k) + ")",
         std::move(s)});
  }
  if (!left_out.empty())
    comparison.note = counts_text(left_out, "heads") + " left out: W_Q's " + std::to_string(mha.num_heads * mha.d_k) +
                      " columns (heads \u00d7 d_k) and W_V's " + std::to_string(mha.num_heads * mha.d_v) +
                      " do not split into that many heads.";
  return comparison;
}

std::string kv_label(int heads, int kv_heads) {
  const char* kind = kv_heads == heads ? "MHA" : kv_heads == 1 ? "MQA" : "GQA";
  return std::string(kind) + ": " + std::to_string(heads) + " query, " + std::to_string(kv_heads) +
         (kv_heads == 1 ? " K/V head" : " K/V heads");
}

// The MHA the K/V variants pool from. A base that already shares K/V heads has fewer K/V
// blocks than query heads: generated weights are generated again for one K/V head per query
// head (what the scenario gives with num_kv_heads = num_heads), explicit ones are repeated.
Scenario mha_for_kv(const Scenario& frozen, const Scenario& base) {
  if (frozen.num_kv_heads == frozen.num_heads) return frozen;
  Scenario mha = expand_to_mha(frozen);
  if (!base.wk) mha.wk = generate_weight(base.seed, "wk", frozen.d_model, frozen.num_heads * frozen.d_k);
  if (!base.wv) mha.wv = generate_weight(base.seed, "wv", frozen.d_model, frozen.num_heads * frozen.d_v);
  return mha;
}

Comparison kv_variants(const Scenario& frozen, const Scenario& base, const CompareOptions& options) {
  Scenario mha = mha_for_kv(frozen, base);
  Comparison comparison;
  if (mha.num_heads == 1) {
    for (int heads : {8, 4, 2})
      if (can_split(mha, heads)) {
        mha = split_heads(mha, heads);
        comparison.note = "The one-head scenario is split into " + std::to_string(heads) +
                          " heads of d_k = " + std::to_string(mha.d_k) + " first: one head has nothing to share.";
        break;
      }
  }
  const int heads = mha.num_heads;
  std::vector<int> kv_counts = {heads};
  if (options.count == 4)
    for (int kv = heads / 2; kv > 1 && kv_counts.size() < 3; kv /= 2)
      if (heads % kv == 0) kv_counts.push_back(kv);
  if (heads > 1) kv_counts.push_back(1);
  for (int kv : kv_counts) comparison.variants.push_back({kv_label(heads, kv), share_kv_heads(mha, kv)});
  if (static_cast<int>(kv_counts.size()) < options.count) {
    std::string ways;
    for (std::size_t i = 0; i < kv_counts.size(); ++i)
      ways += (i == 0 ? "" : i + 1 == kv_counts.size() ? " or " : ", ") + std::to_string(kv_counts[i]);
    comparison.note += (comparison.note.empty() ? "" : " ") + std::string("Only ") + std::to_string(kv_counts.size()) +
                       " copies: " + std::to_string(heads) + " query heads can share " + ways +
                       " K/V heads (each group the same size).";
  }
  return comparison;
}

// No positions, sinusoidal, RoPE and ALiBi over the same inputs; 2 copies: none and the
// scenario's own kind (RoPE when it has none).
Comparison position_variants(const Scenario& frozen, const CompareOptions& options) {
  std::vector<PositionalKind> kinds = {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Rope,
                                       PositionalKind::Alibi};
  if (options.count == 2)
    kinds = {PositionalKind::None,
             frozen.positional == PositionalKind::None ? PositionalKind::Rope : frozen.positional};
  Comparison comparison;
  for (const PositionalKind kind : kinds) {
    if (kind == PositionalKind::Rope && frozen.d_k % 2 != 0) {
      comparison.note = "RoPE left out: it turns q and k in pairs and d_k = " + std::to_string(frozen.d_k) + " is odd.";
      continue;
    }
    Scenario s = frozen;
    s.positional = kind;
    const char* label = kind == PositionalKind::None         ? "no positions"
                        : kind == PositionalKind::Sinusoidal ? "sinusoidal"
                        : kind == PositionalKind::Rope       ? "RoPE"
                                                             : "ALiBi";
    comparison.variants.push_back({label, std::move(s)});
  }
  return comparison;
}

}  // namespace

const char* to_string(CompareAxis axis) {
  switch (axis) {
    case CompareAxis::Masks: return "masks";
    case CompareAxis::Heads: return "heads";
    case CompareAxis::KvHeads: return "kv-heads";
    case CompareAxis::Positions: return "positions";
    case CompareAxis::Patterns: return "patterns";
  }
  return "masks";
}

std::optional<CompareAxis> compare_axis_from_string(const std::string& name) {
  for (CompareAxis axis :
       {CompareAxis::Masks, CompareAxis::Heads, CompareAxis::KvHeads, CompareAxis::Positions, CompareAxis::Patterns})
    if (name == to_string(axis)) return axis;
  return std::nullopt;
}

Scenario freeze_inputs(const Scenario& base, const Problem& problem) {
  Scenario s = base;
  s.tokens = problem.tokens;
  s.d_model = problem.d_model();
  s.embeddings = problem.x_tokens ? *problem.x_tokens : problem.x;  // without sinusoidal positions: they are a setting
  s.num_heads = problem.num_heads;
  s.num_kv_heads = problem.num_kv_heads;
  s.d_k = problem.d_k;
  s.d_v = problem.d_v;
  s.wq = problem.wq;
  s.wk = problem.wk;
  s.wv = problem.wv;
  s.wo = problem.wo;
  s.generate_wo = false;
  if (problem.cross_attention) {
    SourceSetting source = base.source.value_or(SourceSetting{});
    source.tokens = problem.source_tokens;
    source.embeddings = problem.xs_tokens ? *problem.xs_tokens : problem.xs;
    s.source = std::move(source);
  }
  return s;
}

Comparison derive_comparison(const Scenario& base, const Problem& problem, const CompareOptions& options) {
  if (options.count != 2 && options.count != 4)
    throw std::invalid_argument("compare: " + std::to_string(options.count) +
                                " variants asked for; 2 or 4 are possible");
  const Scenario frozen = freeze_inputs(base, problem);
  switch (options.axis) {
    case CompareAxis::Masks: return {mask_variants(frozen, problem, options), ""};
    case CompareAxis::Heads: return head_variants(frozen, options);
    case CompareAxis::KvHeads: return kv_variants(frozen, base, options);
    case CompareAxis::Positions: return position_variants(frozen, options);
    case CompareAxis::Patterns: return {pattern_variants(frozen, problem, options), ""};
  }
  return {};
}

std::vector<Variant> derive_variants(const Scenario& base, const Problem& problem, const CompareOptions& options) {
  return derive_comparison(base, problem, options).variants;
}

ValueRange shared_range(const std::vector<ComparedMatrix>& matrices, RangeKind kind) {
  float largest = 0.0f;
  for (const ComparedMatrix& m : matrices) {
    if (m.values == nullptr) continue;
    for (std::size_t k = 0; k < m.values->size(); ++k) {
      if (m.mask != nullptr && m.mask->visible[k] == 0) continue;
      const int row = static_cast<int>(k / static_cast<std::size_t>(std::max(m.values->cols, 1)));
      const int col = static_cast<int>(k % static_cast<std::size_t>(std::max(m.values->cols, 1)));
      const float v = m.scale * m.values->data[k] - m.distance_bias * static_cast<float>(std::abs(row - col));
      if (std::isfinite(v)) largest = std::max(largest, kind == RangeKind::Weights ? v : std::fabs(v));
    }
  }
  if (largest <= 0.0f) largest = 1.0f;
  return kind == RangeKind::Weights ? ValueRange{0.0f, largest} : ValueRange{-largest, largest};
}

int shown_head(const Result& result, int requested) {
  if (result.heads.empty()) return 0;
  return std::clamp(requested, 0, static_cast<int>(result.heads.size()) - 1);
}

}  // namespace attnviz::lesson
