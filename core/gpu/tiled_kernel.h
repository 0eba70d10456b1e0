#pragma once
// The tiled (FlashAttention-2) attention kernel, shaders/tiled_attention.comp, behind the same
// interface as the CPU's (core/tiled): a TiledRunner on a Vulkan device. The projections and
// the concatenation run on the host (tiled::project, tiled::concatenate_heads); the kernel
// does the attention itself, one workgroup per block of Br query rows and head, with the
// block's Q and the K and V tiles in shared memory and subgroup reductions for each row's max
// and sum.
//
// It computes each row's context, m and l (TiledResult::heads); it records no per-tile trace:
// a traced head gets a TiledTrace with its context, m and l and no tiles (the CPU runner has
// the tiles, and they are the same by construction: the same grid, the same skipping test).

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/attention/mask.h"
#include "core/tiled/tiled_attention.h"
#include "core/vk/context.h"

namespace attnviz::gpu {

// Mirrors the push-constant block of shaders/tiled_attention.comp.
struct TiledPush {
  std::int32_t block_q;  // Br
  std::int32_t block_k;  // Bc
  std::int32_t d_k;
  std::int32_t d_v;
  std::int32_t q_pitch;  // floats per row of Q: H·d_k
  std::int32_t k_pitch;  // G·d_k
  std::int32_t v_pitch;  // G·d_v
  std::int32_t group;    // query heads per key/value head
  float scale;
  std::int32_t kb_begin;  // the key blocks [kb_begin, kb_end) of this dispatch
  std::int32_t kb_end;
  std::uint32_t drop_threshold;  // dropout (core/scenario/dropout.h): 0 keeps every weight
  std::uint32_t seed_low;
  std::uint32_t seed_high;
  float keep_scale;
  MaskParams mask;
};
static_assert(sizeof(TiledPush) == 25 * 4 && sizeof(TiledPush) <= 128);
static_assert(offsetof(TiledPush, d_v) == 12 && offsetof(TiledPush, group) == 28 && offsetof(TiledPush, scale) == 32 &&
              offsetof(TiledPush, kb_begin) == 36 && offsetof(TiledPush, drop_threshold) == 44 &&
              offsetof(TiledPush, keep_scale) == 56 && offsetof(TiledPush, mask) == 60);

// Key blocks one dispatch walks: llvmpipe ends any shader loop after 65535 iterations in all,
// so each invocation's innermost loops are kept to about 16,384 iterations per dispatch (the
// state of the rows goes through the output buffer from one dispatch to the next).
int key_blocks_per_dispatch(int block_q, int block_k, int d_k, int d_v, int subgroups, int subgroup_size);

// Floats of shared memory a Br × Bc tile needs: K and V tiles, P, O, m and l, and when `staged`
// (GPUs: Q, K and V read from shared memory), the block's Br rows of Q.
std::int64_t tiled_shared_floats(int block_q, int block_k, int d_k, int d_v, bool staged);

// The largest square-ish tile (Br = Bc, a power of two up to 64) that fits the device's shared
// memory for these head widths, or 0 when not even 1 × 1 does.
int default_tiled_block(const vk::Context& context, int d_k, int d_v, bool staged);

}  // namespace attnviz::gpu

namespace attnviz::tiled {

enum class TiledPrecision {
  Float32,  // shaders/tiled_attention.comp: every product in fp32
  // shaders/tiled_attention_fp16.comp: Q·Kᵀ and P·V on fp16 cooperative matrices (tensor
  // cores), Q, K, V and P rounded to fp16, sums, softmax and O in fp32. Blocks are multiples
  // of 16.
  Float16,
};

struct VulkanTiledOptions {
  // Stage the block's Q and the K and V tiles in shared memory (default: on GPUs, not on CPU
  // devices such as lavapipe); tests force each way to run both on lavapipe.
  std::optional<bool> stage_in_shared;
  // Upload and read back through staging buffers even where the device's memory is mapped (as
  // on a discrete GPU); tests take that path on lavapipe with it.
  bool staged_transfers = false;
  // Float16 needs a context that enabled fp16 cooperative matrices (vk::Context::
  // matrix_cores()); make_vulkan_tiled throws BackendUnavailable, saying why, where it did not.
  TiledPrecision precision = TiledPrecision::Float32;
  // Tests: Float16 with its two matrix products in scalar code
  // (shaders/tiled_attention_fp16_emulated.comp), on any device with shaderFloat16 (lavapipe).
  bool emulate_matrix_cores = false;
};

// Throws BackendUnavailable (no device) like make_vulkan_backend. run() throws
// std::invalid_argument when the tile does not fit the device's shared memory.
std::unique_ptr<TiledRunner> make_vulkan_tiled(std::shared_ptr<vk::Context> context,
                                               const VulkanTiledOptions& options = {});
std::unique_ptr<TiledRunner> make_vulkan_tiled(const vk::ContextOptions& options = {});

}  // namespace attnviz::tiled
