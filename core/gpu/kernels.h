#pragma once
// The attention pipeline's compute kernels: one push-constant struct per shader (mirroring
// its GLSL block, checked by static_assert), the tile shapes chosen from the device's limits
// (passed as specialization constants), and the pipelines built once per backend.

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/attention/mask.h"
#include "core/vk/pipeline.h"

namespace attnviz::vk {
class Context;
struct DeviceLimits;
}  // namespace attnviz::vk

namespace attnviz::gpu {

// The parts the push-constant blocks share (shaders/common/dispatch.glsl).
// A matrix, or a stack of per-head (per-batch) ones, in a bound view, counted in the view's
// elements (RGBA32F texels, or floats for an R32F view): element c of row r of head h is at
// base + h·stride + r·pitch + c.
struct OperandPush {
  std::int32_t base;    // head 0's first element, relative to the start of the view (≤ 0)
  std::int32_t pitch;   // from one row to the next
  std::int32_t stride;  // from one head (or batch) to the next
};
static_assert(sizeof(OperandPush) == 3 * 4);

// The part of the grid one dispatch covers: heads (or batches) from head_base, rows
// [row_base, row_end), column quads [quad_base, quad_end).
struct ChunkPush {
  std::int32_t head_base, row_base, quad_base, row_end, quad_end;
};
static_assert(sizeof(ChunkPush) == 5 * 4);

// Vulkan guarantees 128 bytes of push constants (maxPushConstantsSize); every block fits.
inline constexpr std::size_t kMaxPushBytes = 128;

// shaders/matmul.comp. The operands count RGBA32F texels; the chunk's head_base is the first batch.
struct MatmulPush {
  std::int32_t inner;  // the shared dimension (floats)
  OperandPush a, b, c;
  ChunkPush chunk;
};
static_assert(sizeof(MatmulPush) == 15 * 4 && sizeof(MatmulPush) <= kMaxPushBytes);
static_assert(offsetof(MatmulPush, a) == 4 && offsetof(MatmulPush, c) == 28 && offsetof(MatmulPush, chunk) == 40);

// The masked kernels receive the mask as Mask::params() (N and M are mask.rows and mask.cols).

// shaders/scores.comp. The operands count texels; k's heads are the key/value heads.
struct ScoresPush {
  std::int32_t depth;  // texels per head row (d_k rounded up to 4, over 4)
  OperandPush q, k, s;
  std::int32_t group;  // query heads per key/value head
  ChunkPush chunk;     // heads, query rows, key quads
  std::int32_t zero_masked;
  MaskParams mask;
};
static_assert(sizeof(ScoresPush) == 27 * 4 && sizeof(ScoresPush) <= kMaxPushBytes);
static_assert(offsetof(ScoresPush, q) == 4 && offsetof(ScoresPush, group) == 40 && offsetof(ScoresPush, chunk) == 44 &&
              offsetof(ScoresPush, zero_masked) == 64 && offsetof(ScoresPush, mask) == 68);

// shaders/softmax.comp. The operands count texels; a chunk covers heads and rows.
struct SoftmaxPush {
  OperandPush s, w;
  float scale;
  ChunkPush chunk;
  MaskParams mask;
};
static_assert(sizeof(SoftmaxPush) == 22 * 4 && sizeof(SoftmaxPush) <= kMaxPushBytes);
static_assert(offsetof(SoftmaxPush, w) == 12 && offsetof(SoftmaxPush, scale) == 24 &&
              offsetof(SoftmaxPush, chunk) == 28 && offsetof(SoftmaxPush, mask) == 48);

// shaders/context.comp. w and v count texels; concat counts floats (the concatenated output is
// written per float, its stride is d_v: from one head's columns to the next).
struct ContextPush {
  std::int32_t dv;
  OperandPush w, v, concat;
  std::int32_t group;  // query heads per key/value head
  ChunkPush chunk;     // heads, query rows, d_v quads
  MaskParams mask;
};
static_assert(sizeof(ContextPush) == 26 * 4 && sizeof(ContextPush) <= kMaxPushBytes);
static_assert(offsetof(ContextPush, w) == 4 && offsetof(ContextPush, concat) == 28 &&
              offsetof(ContextPush, group) == 40 && offsetof(ContextPush, chunk) == 44 &&
              offsetof(ContextPush, mask) == 64);

// shaders/rope.comp: RoPE in place on Q or K. x counts floats (an R32F view); the chunk's
// "quads" are the pairs 0 … d_k/2 − 1.
struct RopePush {
  OperandPush x;
  OperandPush table;  // floats: row r of the table (cos of the pairs, then sin) is row r's
  ChunkPush chunk;
  std::int32_t half_dk;
};
static_assert(sizeof(RopePush) == 12 * 4 && sizeof(RopePush) <= kMaxPushBytes);
static_assert(offsetof(RopePush, table) == 12 && offsetof(RopePush, chunk) == 24 && offsetof(RopePush, half_dk) == 44);
inline constexpr int kRopeWorkgroup = 8;  // rope.comp's local size along pairs and along rows

// shaders/dropout.comp: the three operands count texels; a chunk covers heads, rows, quads.
struct DropoutPush {
  OperandPush before, after, kept;
  ChunkPush chunk;
  std::int32_t cols;  // M
  std::uint32_t threshold;
  std::uint32_t seed_low;
  std::uint32_t seed_high;
  float keep_scale;
};
static_assert(sizeof(DropoutPush) == 19 * 4 && sizeof(DropoutPush) <= kMaxPushBytes);
static_assert(offsetof(DropoutPush, chunk) == 36 && offsetof(DropoutPush, cols) == 56 &&
              offsetof(DropoutPush, keep_scale) == 72);
inline constexpr int kDropoutWorkgroup = 8;  // dropout.comp's local size along quads and along rows

// Must match TILE_R and TILE_C4 in shaders/common/gemm.glsl (and scores.comp's wider tile).
inline constexpr int kTileRowsPerInvocation = 8;
inline constexpr int kTileQuadsPerInvocation = 2;
inline constexpr int kScoresQuadsPerInvocation = 4;
inline constexpr int kMatmulQuadsPerInvocation = kTileQuadsPerInvocation;

// Workgroup shapes, from maxComputeWorkGroupInvocations / sizes and the subgroup size.
struct TileConfig {
  std::uint32_t gemm_x = 8;    // invocations along column quads (a subgroup's lanes read neighbours)
  std::uint32_t gemm_y = 8;    // invocations along rows
  std::uint32_t matmul_x = 8;  // matmul.comp's workgroup (it may stage through shared memory)
  std::uint32_t matmul_y = 8;
  std::uint32_t subgroup_size = 8;  // the softmax gives each row one subgroup
  std::uint32_t softmax_rows_per_workgroup = 8;
  // The matrix products (projections, scores, A·V) copy blocks of shared_k4 inner quads of their
  // operands into shared memory (GPUs); off on CPU devices, where texel fetches are faster
  // than shared-memory loads.
  bool stage_in_shared = false;
  std::uint32_t shared_k4 = 4;

  [[nodiscard]] int tile_rows() const { return static_cast<int>(gemm_y) * kTileRowsPerInvocation; }
  [[nodiscard]] int tile_quads() const { return static_cast<int>(gemm_x) * kTileQuadsPerInvocation; }
  [[nodiscard]] int scores_tile_quads() const { return static_cast<int>(gemm_x) * kScoresQuadsPerInvocation; }
  [[nodiscard]] int matmul_tile_rows() const { return static_cast<int>(matmul_y) * kTileRowsPerInvocation; }
  [[nodiscard]] int matmul_tile_quads() const { return static_cast<int>(matmul_x) * kMatmulQuadsPerInvocation; }
};

// Tile shapes for a device: from its limits and type (CPU devices never stage in shared memory).
TileConfig choose_tile_config(const vk::DeviceLimits& limits, VkPhysicalDeviceType type);
TileConfig choose_tile_config(const vk::Context& context);

// Bytes of shared memory the matrix product, the score and the context kernels use with these
// tiles (0 without staging), and the largest of the three.
std::uint32_t matmul_shared_bytes(const TileConfig& tiles);
std::uint32_t scores_shared_bytes(const TileConfig& tiles);
std::uint32_t context_shared_bytes(const TileConfig& tiles);
std::uint32_t staged_shared_bytes(const TileConfig& tiles);

enum class Kernel { Matmul, Scores, Softmax, Context, Rope, Dropout, Count };

// Called after each kernel's pipeline is built: (built, total). The window says "preparing the
// GPU kernels… 3 of 6" while a thread of its own builds them (drivers compile at this point).
using KernelProgress = std::function<void(int built, int total)>;

class Kernels {
 public:
  Kernels(const vk::Context& context, const TileConfig& tiles, const KernelProgress& progress = {});
  [[nodiscard]] const vk::ComputePipeline& get(Kernel kernel) const {
    return pipelines_[static_cast<std::size_t>(kernel)];
  }
  [[nodiscard]] const TileConfig& tiles() const { return tiles_; }

 private:
  TileConfig tiles_;
  vk::ComputePipeline pipelines_[static_cast<std::size_t>(Kernel::Count)];
};

}  // namespace attnviz::gpu
