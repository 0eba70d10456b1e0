#pragma once
// The attention pipeline's compute kernels: one push-constant struct per shader (mirroring
// its GLSL block, checked by static_assert), the tile shapes chosen from the device's limits
// (passed as specialization constants), and the pipelines built once per backend.

#include <cstddef>
#include <cstdint>

#include "core/attention/mask.h"
#include "core/vk/pipeline.h"

namespace attnviz::vk {

class Context;
struct DeviceLimits;

// shaders/matmul.comp. Offsets and pitches count RGBA32F texels (4 floats) of the bound views;
// rows and quads are the ends of this dispatch's chunk.
struct MatmulPush {
  std::int32_t rows, quads, inner;
  std::int32_t a_base, a_pitch, a_batch;
  std::int32_t b_base, b_pitch, b_batch;
  std::int32_t c_base, c_pitch, c_batch;
  std::int32_t row_base, quad_base, batch_base;
};
static_assert(sizeof(MatmulPush) == 15 * 4);
static_assert(offsetof(MatmulPush, batch_base) == 56);

// The masked kernels receive the mask as Mask::params() (N and M are mask.rows and mask.cols).

// shaders/scores.comp
struct ScoresPush {
  std::int32_t depth;
  std::int32_t q_base, q_pitch, q_head;
  std::int32_t k_base, k_pitch, k_head;
  std::int32_t s_base, s_pitch, s_head;
  std::int32_t group, head_base, row_base, quad_base;
  std::int32_t row_end, quad_end;  // this dispatch's chunk ends (clamps and store guards)
  std::int32_t zero_masked;
  MaskParams mask;
};
static_assert(sizeof(ScoresPush) == 24 * 4);
static_assert(offsetof(ScoresPush, mask) == 68);

// shaders/softmax.comp
struct SoftmaxPush {
  std::int32_t s_base, s_pitch, s_head;
  std::int32_t w_base, w_pitch, w_head;
  float scale;
  std::int32_t head_base, row_base, row_end;
  MaskParams mask;
};
static_assert(sizeof(SoftmaxPush) == 17 * 4);
static_assert(offsetof(SoftmaxPush, scale) == 24);
static_assert(offsetof(SoftmaxPush, mask) == 40);

// shaders/context.comp. out_* count floats: the concatenated output is written per float.
struct ContextPush {
  std::int32_t dv;
  std::int32_t w_base, w_pitch, w_head;
  std::int32_t v_base, v_pitch, v_head;
  std::int32_t out_base, out_pitch, out_head;
  std::int32_t group, head_base, row_base, quad_base;
  std::int32_t row_end, quad_end;  // this dispatch's chunk ends (clamps and store guards)
  MaskParams mask;
};
static_assert(sizeof(ContextPush) == 23 * 4);
static_assert(offsetof(ContextPush, mask) == 64);

// Must match TILE_R and TILE_C4 in shaders/common/gemm.glsl (and scores.comp's wider tile).
inline constexpr int kTileRowsPerInvocation = 8;
inline constexpr int kTileQuadsPerInvocation = 2;
inline constexpr int kScoresQuadsPerInvocation = 4;
inline constexpr int kMatmulQuadsPerInvocation = kTileQuadsPerInvocation;

// Workgroup shapes, from maxComputeWorkGroupInvocations / sizes and the subgroup size.
struct TileConfig {
  std::uint32_t gemm_x = 8;  // invocations along column quads (a subgroup's lanes read neighbours)
  std::uint32_t gemm_y = 8;  // invocations along rows
  std::uint32_t matmul_x = 8;  // matmul.comp's workgroup (it may stage through shared memory)
  std::uint32_t matmul_y = 8;
  std::uint32_t subgroup_size = 8;            // the softmax gives each row one subgroup
  std::uint32_t softmax_rows_per_workgroup = 8;
  // The matrix products copy blocks of shared_k4 inner quads of A and B into shared memory
  // (GPUs); off on CPU devices, where texel fetches are faster than shared-memory loads.
  bool stage_in_shared = false;
  std::uint32_t shared_k4 = 4;

  [[nodiscard]] int tile_rows() const { return static_cast<int>(gemm_y) * kTileRowsPerInvocation; }
  [[nodiscard]] int tile_quads() const { return static_cast<int>(gemm_x) * kTileQuadsPerInvocation; }
  [[nodiscard]] int scores_tile_quads() const { return static_cast<int>(gemm_x) * kScoresQuadsPerInvocation; }
  [[nodiscard]] int matmul_tile_rows() const { return static_cast<int>(matmul_y) * kTileRowsPerInvocation; }
  [[nodiscard]] int matmul_tile_quads() const { return static_cast<int>(matmul_x) * kMatmulQuadsPerInvocation; }
};

// Tile shapes for a device: from its limits and type (CPU devices never stage in shared memory).
TileConfig choose_tile_config(const DeviceLimits& limits, VkPhysicalDeviceType type);
TileConfig choose_tile_config(const Context& context);

// Bytes of shared memory the matrix product uses with these tiles (0 without staging).
std::uint32_t matmul_shared_bytes(const TileConfig& tiles);

enum class Kernel { Matmul, Scores, Softmax, Context, Count };

class Kernels {
 public:
  Kernels(const Context& context, const TileConfig& tiles);
  [[nodiscard]] const ComputePipeline& get(Kernel kernel) const { return pipelines_[static_cast<std::size_t>(kernel)]; }
  [[nodiscard]] const TileConfig& tiles() const { return tiles_; }

 private:
  TileConfig tiles_;
  ComputePipeline pipelines_[static_cast<std::size_t>(Kernel::Count)];
};

}  // namespace attnviz::vk
