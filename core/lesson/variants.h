#pragma once
// The compare view's model: two or four variants of one scenario that differ in exactly one
// setting (the mask, the number of heads, or how many key/value heads they share), and one
// colour range for all of them so equal colours mean equal numbers.
//
// Variants are built from the base scenario's *resolved* inputs (its Problem): generated
// embeddings and weights are frozen into each variant, so only the compared setting differs.
// - Masks: no mask / causal / sliding window r (causal) / Longformer (window r, global tokens).
// - Heads: 1, 2, 4, 8 heads over the same W_Q, W_K, W_V columns (d_k = H·d_k / heads; the
//   scale follows d_k when it is 1/√d_k). Counts that do not divide the width are skipped.
// - Positions: none / sinusoidal / RoPE / ALiBi over the same embeddings and weights (RoPE is
//   left out, with a note, when d_k is odd).
// - K/V heads: MHA / GQA / MQA over the same query heads. Grouped K/V heads are the mean of
//   the MHA heads they replace (the conversion of Ainslie et al., 2023, "GQA"). A one-head
//   scenario is first split into several heads, or there would be nothing to share. A base
//   that already groups its K/V heads gets an MHA from its seed when its W_K / W_V are
//   generated (explicit ones are repeated per head, so MHA and the base's grouping look alike).

#include <optional>
#include <string>
#include <vector>

#include "core/attention/result.h"
#include "core/common/wording.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario.h"

namespace attnviz::lesson {

// Patterns: mask expressions of sparse attention (docs/design.md "Mask expressions"): causal,
// strided, attention sinks, block-local.
enum class CompareAxis { Masks, Heads, KvHeads, Positions, Patterns };
inline constexpr int kCompareAxisCount = 5;
const char* to_string(CompareAxis axis);  // "masks", "heads", "kv-heads", "positions", "patterns"
std::optional<CompareAxis> compare_axis_from_string(const std::string& name);

struct CompareOptions {
  CompareAxis axis = CompareAxis::Masks;
  int count = 4;               // 2 or 4 (fewer when the scenario allows fewer distinct variants)
  int window = 2;              // r of the sliding-window and Longformer variants
  std::vector<int> global{0};  // Longformer's global tokens
};

struct Variant {
  std::string label;  // "causal", "4 heads (d_k = 1)", "GQA: 2 K/V heads", in the Wording's language
  Scenario scenario;
  std::string key;  // the label in English, the same in every language (the window's ImGui IDs)
};

// The scenario with every input spelled out from `problem` (tokens, embeddings, weights).
Scenario freeze_inputs(const Scenario& base, const Problem& problem);

struct Comparison {
  std::vector<Variant> variants;
  // Why there are fewer copies than asked for, or how the base was changed first ("8 heads
  // left out: …"); empty when there is nothing to explain. The view shows it under the copies.
  std::string note;
};

// The labels and the note are worded by `wording` (core/common/wording.h; English by default);
// numbers, notation (d_k, K/V, RoPE) and mask expressions stay as written.
// Throws std::invalid_argument for a count other than 2 or 4.
Comparison derive_comparison(const Scenario& base, const Problem& problem, const CompareOptions& options,
                             const Wording& wording = {});
std::vector<Variant> derive_variants(const Scenario& base, const Problem& problem, const CompareOptions& options,
                                     const Wording& wording = {});

// One heatmap of the comparison: its values and the mask that applies to them.
struct ComparedMatrix {
  const Matrix* values = nullptr;
  const MaskMatrix* mask = nullptr;  // null: every entry counts
  float scale = 1.0f;                // shown = scale · stored (scaled scores of different d_k)
  float distance_bias = 0.0f;        // shown −= distance_bias · |row − col| (ALiBi's bias)
};

struct ValueRange {
  float min = 0.0f;
  float max = 1.0f;
};

enum class RangeKind {
  Weights,  // [0, largest weight]
  Scores,   // [−a, a], a = largest |visible value| (for the diverging colormap)
};

ValueRange shared_range(const std::vector<ComparedMatrix>& matrices, RangeKind kind);

// The head a variant shows for a requested head (variants may have fewer heads).
int shown_head(const Result& result, int requested);

}  // namespace attnviz::lesson
