#pragma once
// Where every matrix of the attention pipeline lives on the device: one buffer ("slot") per
// matrix, row-major float32, rows padded to a multiple of 4 floats so that a row is a run of
// RGBA32F texels. Pure arithmetic, no Vulkan calls.
//
//   x: N × d_model4        xs: M × d_model4 (cross-attention only)
//   wq: H blocks of d_model × d_k4    wk: G blocks of d_model × d_k4    wv: G blocks of d_model × d_v4
//   wo: (H·d_v) × d_out4
//   q: H × N × d_k4    k: G × M × d_k4    v: G × M × d_v4 (one block per head, so that a head
//   or a range of its rows can be bound on its own)
//   scores, weights: H × N × M4
//   concat: N × round4(H·d_v) (head h = columns h·d_v ..; the output when there is no W_O)
//   output: N × d_out4 (with W_O)
//   globals: RGBA32UI texels of the mask's table: global tokens, or runs (shaders/common/mask.glsl)
//   rope: max(N, M) × d_k, RoPE's cos and sin per row (with RoPE only)
//   slopes: H floats, ALiBi's slope per head (0 without ALiBi)
//   weights_before, kept: H × N × M4 like the weights (with dropout only): the softmax's
//   weights, and 1.0 / 0.0 for each weight dropout kept / dropped

#include <array>
#include <cstdint>

#include "core/attention/mask.h"
#include "core/scenario/problem.h"

namespace attnviz::gpu {

struct AttentionShape {
  int n = 0, m = 0, d_model = 0, heads = 0, kv_heads = 0, d_k = 0, d_v = 0;
  bool has_wo = false;
  int d_out = 0;  // columns of the output: W_O's columns, or H·d_v
  bool cross = false;
  // Texels of the mask's table: the global-token table's size, or more for the runs of a
  // mask with an expression (grown by powers of two, so that editing one replans rarely).
  int mask_texels = 0;
  bool rope = false;     // RoPE rotates Q and K after the projections
  bool dropout = false;  // the softmax writes weights_before; dropout writes weights and kept

  static AttentionShape of(const Problem& problem, const Mask& mask);
  friend bool operator==(const AttentionShape&, const AttentionShape&) = default;
};

enum class Slot : int {
  X,
  Xs,
  Wq,
  Wk,
  Wv,
  Wo,
  Q,
  K,
  V,
  Scores,
  Weights,
  Concat,
  Output,
  Globals,
  Rope,
  Slopes,
  WeightsBefore,
  Kept,
  Count
};
inline constexpr std::size_t kSlotCount = static_cast<std::size_t>(Slot::Count);
const char* slot_name(Slot slot);

// A matrix, or a stack of per-head matrices, inside a slot. All counts are floats.
struct Placement {
  Slot slot = Slot::X;
  std::int64_t pitch = 0;         // from one row to the next
  std::int64_t batch_stride = 0;  // from one head to the next (a column offset for head blocks)
  std::int64_t cols = 0;          // padded width of one head's row
  int rows = 0;
  int batches = 1;

  [[nodiscard]] std::int64_t extent() const { return (batches - 1) * batch_stride + (rows - 1) * pitch + cols; }
  // Floats [first, end) holding rows [r0, r1) of heads [b0, b1).
  [[nodiscard]] std::int64_t first(int b0, int r0) const { return b0 * batch_stride + r0 * pitch; }
  [[nodiscard]] std::int64_t end(int b1, int r1) const { return (b1 - 1) * batch_stride + (r1 - 1) * pitch + cols; }
};

struct AttentionLayout {
  AttentionShape shape;
  int d_model4 = 0, d_k4 = 0, d_v4 = 0, m4 = 0, concat4 = 0, d_out4 = 0;
  Placement x, xs, wq, wk, wv, wo, q, k, v, scores, weights, concat, output;
  Placement rope;                                     // max(N, M) × d_k floats (RoPE only)
  Placement weights_before;                           // as weights (dropout only)
  Placement kept;                                     // as weights (dropout only)
  int globals_entries = 0;                            // texels of the mask's table (Mask::table_texel_count, at most)
  std::array<std::int64_t, kSlotCount> slot_bytes{};  // 0 for unused slots

  [[nodiscard]] const Placement& output_placement() const { return shape.has_wo ? output : concat; }
};

AttentionLayout make_layout(const AttentionShape& shape);

inline int round_up4(int value) { return (value + 3) / 4 * 4; }

}  // namespace attnviz::gpu
