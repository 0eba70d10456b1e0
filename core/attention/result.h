#pragma once
// Result: what a backend computed for a Problem, whichever backend ran. All matrices are
// row-major float32 on the host.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/common/matrix.h"

namespace attnviz {

// The block sparsity of one head's mask (`attnviz compute --blocks B`): every size × size
// tile, row-major, 0 every cell hidden, 1 some, 2 none (BlockVisibility).
struct HeadBlocks {
  int size = 0;
  int tile_rows = 0;
  int tile_cols = 0;
  long long empty = 0, partial = 0, full = 0;
  std::vector<std::uint8_t> tiles;
};

struct HeadResult {
  Matrix scores;   // N × M raw scores Q_h·K_hᵀ, before scaling and masking
  Matrix weights;  // N × M softmax weights (after dropout, with dropout); masked entries exactly 0
  Matrix context;  // N × d_v, A_h·V_h (from the weights after dropout)
  // With dropout only (docs/design.md "Dropout"), else empty: the softmax's weights before
  // dropout, and which weights dropout kept (1) or dropped (0), whether the mask hides them or not.
  Matrix weights_before_dropout;  // N × M
  MaskMatrix kept;                // N × M
  // This head's own mask and rows that see nothing, only when the mask depends on the head
  // (an expression using h); empty otherwise: Result::mask is every head's.
  MaskMatrix mask = {};
  std::vector<int> masked_rows = {};
  std::optional<HeadBlocks> blocks = {};  // when asked for (--blocks)
};

struct Timing {
  double total_ms = 0.0;
  // Named stages in execution order, e.g. {"projections", 0.2}, {"scores", 1.1}, ...
  std::vector<std::pair<std::string, double>> stages_ms;
};

struct Result {
  std::string backend;  // "cpu" or "vulkan"
  std::string device;   // e.g. "Eigen 3.4.0 (2 threads)" or the Vulkan device name
  std::vector<std::string> tokens;
  std::vector<std::string> source_tokens;
  MaskMatrix mask;               // N × M, 1 = visible (head 0's when the mask depends on the head)
  std::vector<int> masked_rows;  // rows with no visible key (all-zero weights and context)
  std::vector<HeadResult> heads;
  Matrix output;  // N × (H·d_v), or N × d_out when W_O is given
  Timing timing;

  // The mask head h was computed under, and its rows that see nothing.
  [[nodiscard]] const MaskMatrix& mask_of(std::size_t h) const {
    return h < heads.size() && !heads[h].mask.visible.empty() ? heads[h].mask : mask;
  }
  [[nodiscard]] const std::vector<int>& masked_rows_of(std::size_t h) const {
    return h < heads.size() && !heads[h].mask.visible.empty() ? heads[h].masked_rows : masked_rows;
  }
};

}  // namespace attnviz
