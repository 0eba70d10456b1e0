#pragma once
// Tiled attention (FlashAttention-2 order, Dao 2023): for each block of Br query rows, walk
// the blocks of Bc keys keeping each row's running maximum m, running sum l and unnormalised
// output O (online_softmax.h); divide by l at the end. The N × M scores and weights are never
// held: a tile of them at a time. Tiles the mask hides entirely are skipped (the same test
// as every kernel's, Mask::block_visible), tiles it hides partly are masked inside.
//
// The context agrees with the materialised path (Backend) within 1e-5; a row that sees no
// key gives 0, never NaN. Two implementations behind one interface: the CPU here, Vulkan in
// core/gpu (make_vulkan_tiled). Either can trace one head tile by tile (tiled_trace.h).

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/attention/result.h"
#include "core/scenario/problem.h"
#include "core/tiled/tiled_trace.h"

namespace attnviz::tiled {

struct TiledOptions {
  int block_q = 16;               // Br ≥ 1
  int block_k = 16;               // Bc ≥ 1
  std::optional<int> trace_head;  // record every tile of this head
};

struct TiledHead {
  Matrix context;        // N × d_v
  std::vector<float> m;  // per row: the largest scaled visible score (−∞: none)
  std::vector<float> l;  // per row: Σ exp(s − m) over the visible keys (0: none)
};

struct TiledResult {
  std::string backend;  // "cpu" or "vulkan"
  std::string device;
  std::vector<TiledHead> heads;
  Matrix output;  // N × (H·d_v), or N × d_out with W_O
  std::optional<TiledTrace> trace;
  Timing timing;
};

class TiledRunner {
 public:
  virtual ~TiledRunner() = default;
  TiledRunner() = default;
  TiledRunner(const TiledRunner&) = delete;
  TiledRunner& operator=(const TiledRunner&) = delete;

  [[nodiscard]] virtual std::string name() const = 0;
  // The block size (Br = Bc) to use when none is asked for, for heads of these widths.
  [[nodiscard]] virtual int preferred_block(int d_k, int d_v) const = 0;
  // Throws std::invalid_argument for block sizes below 1 or a traced head outside the problem.
  virtual TiledResult run(const Problem& problem, const TiledOptions& options) = 0;
};

std::unique_ptr<TiledRunner> make_cpu_tiled();

// The host parts every runner shares (Eigen): the projections Q = X·W_Q (N × H·d_k),
// K = Xs·W_K (M × G·d_k), V = Xs·W_V (M × G·d_v), with RoPE each head's q and k rows turned at
// their positions (as the materialised backends do), and the heads' contexts side by side
// (· W_O when given) into the output.
struct Projections {
  Matrix q, k, v;
};
Projections project(const Problem& problem);
Matrix concatenate_heads(const Problem& problem, const std::vector<TiledHead>& heads);

// A tiled run as the materialised path's Result (`attnviz compute --kernel tiled`): tokens, the
// mask, the rows that see nothing, each head's context and the output. Each head's scores and
// weights are left empty (0 × 0): the tiled algorithm never holds them.
Result as_result(const Problem& problem, const TiledResult& tiled);

// Checks the options against the problem (std::invalid_argument naming what is wrong).
void check_options(const Problem& problem, const TiledOptions& options);

}  // namespace attnviz::tiled
