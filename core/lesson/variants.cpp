#include "core/lesson/variants.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

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

// A label worded in some language: called with the caller's Wording for the label, and with
// the default (English) for the variant's key.
using Label = std::function<std::string(const Wording&)>;

Variant worded_variant(const Label& label, Scenario scenario, const Wording& wording) {
  return {label(wording), std::move(scenario), label(Wording{})};
}

std::vector<Variant> mask_variants(const Scenario& frozen, const Problem& problem, const CompareOptions& options,
                                   const Wording& wording) {
  std::vector<int> global;
  for (int g : options.global)
    if (g >= 0 && g < problem.n() && g < problem.m()) global.push_back(g);
  const int r = std::max(options.window, 0);
  const std::string r_text = std::to_string(r);
  const std::string global_text =
      global.empty() ? std::string() : std::to_string(global.front()) + (global.size() > 1 ? "\u2026" : "");
  std::vector<std::pair<Label, MaskSetting>> masks = {
      {[](const Wording& w) { return w.tr("no mask"); }, MaskSetting{}},
      {[](const Wording& w) { return w.tr("causal"); }, MaskSetting{true, std::nullopt, {}}}};
  if (options.count == 4) {
    masks.push_back(
        {[&](const Wording& w) { return w.tr("sliding window r = %1$s", {r_text}); }, MaskSetting{true, r, {}}});
    masks.push_back({[&](const Wording& w) {
                       return global.empty() ? w.tr("Longformer r = %1$s", {r_text})
                                             : w.tr("Longformer r = %1$s, global %2$s", {r_text, global_text});
                     },
                     MaskSetting{false, r, global}});
  }
  std::vector<Variant> variants;
  for (auto& [label, mask] : masks) {
    Scenario s = frozen;
    s.mask = mask;
    variants.push_back(worded_variant(label, std::move(s), wording));
  }
  return variants;
}

// The sparse patterns of long-context models, each typed as the expression the Mask panel's
// "insert a pattern" gives (the label shows it, so the notation is learnt by comparing): causal
// and attention sinks, then strided and block-local. Their sizes follow the sentence so that
// each differs from causal on screen: 4 sinks and a stride and block of 4 from 16 tokens on,
// fewer for shorter sentences; the sinks' window is the masks axis's r (at least 1).
std::vector<Variant> pattern_variants(const Scenario& frozen, const Problem& problem, const CompareOptions& options,
                                      const Wording& wording) {
  const std::string r = std::to_string(std::max(options.window, 1));
  const std::string sinks = std::to_string(std::clamp(problem.n() / 8, 1, 4));
  const std::string stride = std::to_string(std::clamp(problem.n() / 4, 2, 4));
  // The patterns' names are words; their expressions are notation, the same in every language.
  std::vector<std::pair<const char*, std::string>> patterns = {
      {N_("causal"), "k <= q"}, {N_("attention sinks"), "k <= q && (k < " + sinks + " || q - k <= " + r + ")"}};
  if (options.count == 4) {
    patterns.push_back({N_("strided"), "k <= q && (q - k < " + stride + " || (q - k) % " + stride + " == 0)"});
    patterns.push_back({N_("block-local"), "q / " + stride + " == k / " + stride});
  }
  std::vector<Variant> variants;
  for (const auto& pattern : patterns) {
    Scenario s = frozen;
    s.mask = MaskSetting{};
    s.mask.expression = pattern.second;
    const Label label = [&pattern](const Wording& w) { return w.tr(pattern.first) + ": " + pattern.second; };
    variants.push_back(worded_variant(label, std::move(s), wording));
  }
  return variants;
}

// "8", "4 and 8", "2, 4 and 8" (`last_join`: "%1$s and %2$s" or "%1$s or %2$s", worded)
std::string counts_text(const std::vector<int>& counts,
                        const std::function<std::string(std::string_view, std::string_view)>& last_join) {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const std::string count = std::to_string(counts[i]);
    text = i == 0 ? count : i + 1 == counts.size() ? last_join(text, count) : text + ", " + count;
  }
  return text;
}

Comparison head_variants(const Scenario& frozen, const CompareOptions& options, const Wording& wording) {
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
    const std::string heads_text = std::to_string(heads);
    const std::string d_k = std::to_string(s.d_k);
    const Label label = [&](const Wording& w) {
      return w.trn("%1$s head (d_k = %2$s)", "%1$s heads (d_k = %2$s)", static_cast<unsigned long>(heads),
                   {heads_text, d_k});
    };
    comparison.variants.push_back(worded_variant(label, std::move(s), wording));
  }
  if (!left_out.empty()) {
    const std::string counts = counts_text(left_out, [&](std::string_view text, std::string_view last) {
      return wording.tr("%1$s and %2$s", {text, last});
    });
    comparison.note = wording.tr(
        "%1$s heads left out: W_Q's %2$s columns (heads \u00d7 d_k) and W_V's %3$s do not split into that many "
        "heads.",
        {counts, std::to_string(mha.num_heads * mha.d_k), std::to_string(mha.num_heads * mha.d_v)});
  }
  return comparison;
}

// "GQA: 4 query, 2 K/V heads"
std::string kv_label(int heads, int kv_heads, const Wording& w) {
  const char* kind = kv_heads == heads ? "MHA" : kv_heads == 1 ? "MQA" : "GQA";
  return w.trn("%1$s: %2$s query, %3$s K/V head", "%1$s: %2$s query, %3$s K/V heads",
               static_cast<unsigned long>(kv_heads), {kind, std::to_string(heads), std::to_string(kv_heads)});
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

Comparison kv_variants(const Scenario& frozen, const Scenario& base, const CompareOptions& options,
                       const Wording& wording) {
  Scenario mha = mha_for_kv(frozen, base);
  Comparison comparison;
  if (mha.num_heads == 1) {
    for (int heads : {8, 4, 2})
      if (can_split(mha, heads)) {
        mha = split_heads(mha, heads);
        comparison.note = wording.tr(
            "The one-head scenario is split into %1$s heads of d_k = %2$s first: one head has nothing to share.",
            {std::to_string(heads), std::to_string(mha.d_k)});
        break;
      }
  }
  const int heads = mha.num_heads;
  std::vector<int> kv_counts = {heads};
  if (options.count == 4)
    for (int kv = heads / 2; kv > 1 && kv_counts.size() < 3; kv /= 2)
      if (heads % kv == 0) kv_counts.push_back(kv);
  if (heads > 1) kv_counts.push_back(1);
  for (int kv : kv_counts)
    comparison.variants.push_back(
        worded_variant([&](const Wording& w) { return kv_label(heads, kv, w); }, share_kv_heads(mha, kv), wording));
  if (static_cast<int>(kv_counts.size()) < options.count) {
    const std::string ways = counts_text(kv_counts, [&](std::string_view text, std::string_view last) {
      return wording.tr("%1$s or %2$s", {text, last});
    });
    const std::string only = wording.trn(
        "Only %1$s copy: %2$s query head has no K/V heads to share.",
        "Only %1$s copies: %2$s query heads can share %3$s K/V heads (each group the same size).",
        static_cast<unsigned long>(kv_counts.size()), {std::to_string(kv_counts.size()), std::to_string(heads), ways});
    comparison.note += (comparison.note.empty() ? "" : " ") + only;
  }
  return comparison;
}

// No positions, sinusoidal, RoPE and ALiBi over the same inputs; 2 copies: none and the
// scenario's own kind (RoPE when it has none).
Comparison position_variants(const Scenario& frozen, const CompareOptions& options, const Wording& wording) {
  std::vector<PositionalKind> kinds = {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Rope,
                                       PositionalKind::Alibi};
  if (options.count == 2)
    kinds = {PositionalKind::None,
             frozen.positional == PositionalKind::None ? PositionalKind::Rope : frozen.positional};
  Comparison comparison;
  for (const PositionalKind kind : kinds) {
    if (kind == PositionalKind::Rope && frozen.d_k % 2 != 0) {
      comparison.note =
          wording.tr("RoPE left out: it turns q and k in pairs and d_k = %1$s is odd.", {std::to_string(frozen.d_k)});
      continue;
    }
    Scenario s = frozen;
    s.positional = kind;
    const Label label = [kind](const Wording& w) {
      switch (kind) {
        case PositionalKind::None: return w.tr("no positions");
        case PositionalKind::Sinusoidal: return w.tr("sinusoidal");
        case PositionalKind::Rope: return std::string("RoPE");  // a name: not translated
        case PositionalKind::Alibi: break;
      }
      return std::string("ALiBi");  // a name: not translated
    };
    comparison.variants.push_back(worded_variant(label, std::move(s), wording));
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

Comparison derive_comparison(const Scenario& base, const Problem& problem, const CompareOptions& options,
                             const Wording& wording) {
  if (options.count != 2 && options.count != 4)
    throw std::invalid_argument(
        wording.tr("compare: %1$s variants asked for; 2 or 4 are possible", {std::to_string(options.count)}));
  const Scenario frozen = freeze_inputs(base, problem);
  switch (options.axis) {
    case CompareAxis::Masks: return {mask_variants(frozen, problem, options, wording), ""};
    case CompareAxis::Heads: return head_variants(frozen, options, wording);
    case CompareAxis::KvHeads: return kv_variants(frozen, base, options, wording);
    case CompareAxis::Positions: return position_variants(frozen, options, wording);
    case CompareAxis::Patterns: return {pattern_variants(frozen, problem, options, wording), ""};
  }
  return {};
}

std::vector<Variant> derive_variants(const Scenario& base, const Problem& problem, const CompareOptions& options,
                                     const Wording& wording) {
  return derive_comparison(base, problem, options, wording).variants;
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
