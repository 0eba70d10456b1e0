#pragma once
// The dispatches of one recompute for a given shape, split so that every bound range and
// every workgroup count respects the device's limits: heads are grouped, long sequences cut
// into row chunks, wide matrices into column chunks, each with base offsets in its push
// constants. Pure arithmetic (testable without a device); the backend turns each planned
// view into a VkBufferView and records the dispatches.

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <variant>
#include <vector>

#include "core/gpu/attention_layout.h"
#include "core/gpu/kernels.h"

namespace attnviz::vk {
struct DeviceLimits;
}  // namespace attnviz::vk

namespace attnviz::gpu {

struct PlanLimits {
  std::int64_t max_view_bytes = 0;   // the largest texel-buffer view (maxTexelBufferElements, overrides)
  std::int64_t view_alignment = 16;  // view offsets are multiples of this (a power of two ≥ 16)
  std::array<std::uint32_t, 3> max_groups{};

  static PlanLimits of(const vk::DeviceLimits& limits);
};

enum class Stage : int { Projections, Positions, Scores, Softmax, Dropout, Context, Output, Count };
const char* stage_name(Stage stage);

// A range of a slot bound as a texel buffer of `format`. Kernels address it relative to its
// start, so the planned push constants carry -offset / texel size as the matrix's base.
struct PlannedView {
  Slot slot = Slot::X;
  VkFormat format = VK_FORMAT_R32G32B32A32_SFLOAT;
  std::int64_t offset = 0;  // bytes
  std::int64_t range = 0;   // bytes
  friend bool operator==(const PlannedView&, const PlannedView&) = default;
};

using PushConstants = std::variant<MatmulPush, ScoresPush, SoftmaxPush, ContextPush, RopePush, DropoutPush>;

struct PlannedDispatch {
  Stage stage = Stage::Projections;
  Kernel kernel = Kernel::Matmul;
  std::vector<PlannedView> views;  // in binding order
  PushConstants push;              // geometry set; scale, mask and mode are filled per run
  std::array<std::uint32_t, 3> groups{};
};

// Throws BackendUnavailable when a single row (or a whole weight or value matrix) cannot be
// bound within the limits.
std::vector<PlannedDispatch> plan_attention(const AttentionLayout& layout, const TileConfig& tiles,
                                            const PlanLimits& limits);

}  // namespace attnviz::gpu
