#pragma once
// The overview on a Vulkan device: the head's projections (shaders/overview_project.comp),
// pass 1 (shaders/overview_stats.comp) and pass 2 (shaders/overview_pool.comp), one query row
// per invocation with the key tiles staged in shared memory (common/overview.glsl); the few
// partial values of each pixel are folded and the image finished on the host (pooling.h).
// Submitted a dispatch at a time, so that a stop request ends the run within one dispatch.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "core/attention/mask.h"
#include "core/overview/overview.h"
#include "core/vk/context.h"

namespace attnviz::overview {

// Mirrors the push-constant block of shaders/common/overview.glsl.
struct OverviewPush {
  std::int32_t rows;
  std::int32_t row_begin;
  std::int32_t key_begin;
  std::int32_t key_end;
  std::int32_t k_first;
  float scale;
  std::int32_t weights;
  std::int32_t reduce_max;
  std::int32_t block_rows;
  std::int32_t block_cols;
  std::int32_t col_begin;
  std::int32_t col_end;
  std::int32_t pixel_cols;
  float slope;  // ALiBi's (0: no bias, and always for raw scores)
  MaskParams mask;
};
static_assert(sizeof(OverviewPush) == 24 * 4 && sizeof(OverviewPush) <= 128);
static_assert(offsetof(OverviewPush, scale) == 20 && offsetof(OverviewPush, pixel_cols) == 48 &&
              offsetof(OverviewPush, mask) == 56);

// Mirrors the push-constant block of shaders/overview_project.comp.
struct ProjectPush {
  std::int32_t rows, first, d_model, w_pitch, col0, d_k, dk4;
};
static_assert(sizeof(ProjectPush) == 7 * 4);

// Mirrors the push-constant block of shaders/overview_rope.comp.
struct OverviewRopePush {
  std::int32_t rows, first, pitch, half_dk;
};
static_assert(sizeof(OverviewRopePush) == 4 * 4);

struct VulkanOverviewOptions {
  // Stage the key tiles in shared memory (default: on GPUs, not on CPU devices such as lavapipe).
  std::optional<bool> stage_in_shared;
  // Keys per dispatch (default: every key on a GPU, llvmpipe's bound on a CPU device); tests
  // lower it to split the passes on a small problem.
  std::optional<int> keys_per_dispatch;
};

// Throws BackendUnavailable (no device) like make_vulkan_backend.
std::unique_ptr<OverviewRunner> make_vulkan_overview(std::shared_ptr<vk::Context> context,
                                                     const VulkanOverviewOptions& options = {});
std::unique_ptr<OverviewRunner> make_vulkan_overview(const vk::ContextOptions& options = {});

}  // namespace attnviz::overview
