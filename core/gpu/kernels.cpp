#include "core/gpu/kernels.h"

#include <algorithm>
#include <array>

#include "attnviz_compute_shaders.h"
#include "core/vk/context.h"

namespace attnviz::gpu {
namespace {

constexpr VkDescriptorType kRead = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER;
constexpr VkDescriptorType kWrite = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;

std::uint32_t floor_power_of_two(std::uint32_t value) {
  std::uint32_t result = 1;
  while (result * 2 <= value) result *= 2;
  return result;
}

}  // namespace

TileConfig choose_tile_config(const vk::Context& context) {
  return choose_tile_config(context.limits(), context.device_type());
}

TileConfig choose_tile_config(const vk::DeviceLimits& limits, VkPhysicalDeviceType type) {
  TileConfig tiles;
  // Two subgroups' worth of invocations (at least 64, at most 256) keeps lavapipe's 8-wide
  // subgroups and GPUs' 32/64-wide ones busy without starving small problems of workgroups.
  const std::uint32_t wanted = std::clamp(2 * limits.subgroup_size, 64u, 256u);
  const std::uint32_t invocations = floor_power_of_two(std::min(wanted, limits.max_workgroup_invocations));
  tiles.gemm_x = std::min<std::uint32_t>(8, floor_power_of_two(limits.max_workgroup_size[0]));
  tiles.gemm_y = std::max<std::uint32_t>(
      1, std::min(invocations / tiles.gemm_x, floor_power_of_two(limits.max_workgroup_size[1])));
  tiles.matmul_x = tiles.gemm_x;
  tiles.matmul_y = tiles.gemm_y;
  tiles.subgroup_size = limits.subgroup_size;
  const std::uint32_t most_rows =
      std::max(1u, std::min(limits.max_workgroup_invocations, limits.max_workgroup_size[0]) / limits.subgroup_size);
  tiles.softmax_rows_per_workgroup = std::clamp(64u / limits.subgroup_size, 1u, most_rows);

  // Stage through shared memory on GPUs, in the largest blocks the device's shared memory holds.
  tiles.stage_in_shared = false;
  if (type != VK_PHYSICAL_DEVICE_TYPE_CPU) {
    for (std::uint32_t k4 : {8u, 4u, 2u, 1u}) {
      TileConfig staged = tiles;
      staged.stage_in_shared = true;
      staged.shared_k4 = k4;
      if (staged_shared_bytes(staged) <= limits.max_shared_memory) {
        tiles = staged;
        break;
      }
    }
  }
  return tiles;
}

std::uint32_t matmul_shared_bytes(const TileConfig& tiles) {
  if (!tiles.stage_in_shared) return 0;
  const auto rows = static_cast<std::uint32_t>(tiles.matmul_tile_rows());
  const auto quads = static_cast<std::uint32_t>(tiles.matmul_tile_quads());
  return (rows * tiles.shared_k4 + 4 * tiles.shared_k4 * quads) * 16;
}

std::uint32_t scores_shared_bytes(const TileConfig& tiles) {
  if (!tiles.stage_in_shared) return 0;
  const auto rows = static_cast<std::uint32_t>(tiles.tile_rows());
  const auto keys = 4 * static_cast<std::uint32_t>(tiles.scores_tile_quads());
  return (rows + keys) * tiles.shared_k4 * 16;
}

std::uint32_t context_shared_bytes(const TileConfig& tiles) {
  if (!tiles.stage_in_shared) return 0;
  const auto rows = static_cast<std::uint32_t>(tiles.tile_rows());
  const auto quads = static_cast<std::uint32_t>(tiles.tile_quads());
  return (rows * tiles.shared_k4 + 4 * tiles.shared_k4 * quads) * 16;
}

std::uint32_t staged_shared_bytes(const TileConfig& tiles) {
  return std::max({matmul_shared_bytes(tiles), scores_shared_bytes(tiles), context_shared_bytes(tiles)});
}

Kernels::Kernels(const vk::Context& context, const TileConfig& tiles, const KernelProgress& progress) : tiles_(tiles) {
  const VkDevice device = context.device();
  const VkPipelineCache cache = context.pipeline_cache();
  vk::SpecializationConstants gemm;
  gemm.set(0, tiles.gemm_x).set(1, tiles.gemm_y).set(2, tiles.stage_in_shared ? 1 : 0).set(3, tiles.shared_k4);
  vk::SpecializationConstants matmul;
  matmul.set(0, tiles.matmul_x).set(1, tiles.matmul_y).set(2, tiles.stage_in_shared ? 1 : 0).set(3, tiles.shared_k4);
  vk::SpecializationConstants softmax;
  softmax.set(0, tiles.softmax_rows_per_workgroup * tiles.subgroup_size).set(1, tiles.softmax_rows_per_workgroup);

  const std::array<VkDescriptorType, 3> matmul_bindings = {kRead, kRead, kWrite};
  const std::array<VkDescriptorType, 4> masked_gemm_bindings = {kRead, kRead, kRead, kWrite};
  const std::array<VkDescriptorType, 4> softmax_bindings = {kRead, kRead, kWrite, kRead};
  const std::array<VkDescriptorType, 2> rope_bindings = {kRead, kWrite};
  const std::array<VkDescriptorType, 3> dropout_bindings = {kRead, kWrite, kWrite};
  int built = 0;
  const auto add = [&](Kernel kernel, vk::ComputePipeline pipeline) {
    pipelines_[static_cast<std::size_t>(kernel)] = std::move(pipeline);
    if (progress) progress(++built, static_cast<int>(Kernel::Count));
  };
  add(Kernel::Matmul,
      vk::ComputePipeline(device, shaders::matmul_comp(), matmul_bindings, sizeof(MatmulPush), matmul, cache));
  add(Kernel::Scores,
      vk::ComputePipeline(device, shaders::scores_comp(), masked_gemm_bindings, sizeof(ScoresPush), gemm, cache));
  add(Kernel::Softmax,
      vk::ComputePipeline(device, shaders::softmax_comp(), softmax_bindings, sizeof(SoftmaxPush), softmax, cache));
  add(Kernel::Context,
      vk::ComputePipeline(device, shaders::context_comp(), masked_gemm_bindings, sizeof(ContextPush), gemm, cache));
  add(Kernel::Rope, vk::ComputePipeline(device, shaders::rope_comp(), rope_bindings, sizeof(RopePush), {}, cache));
  add(Kernel::Dropout,
      vk::ComputePipeline(device, shaders::dropout_comp(), dropout_bindings, sizeof(DropoutPush), {}, cache));
}

}  // namespace attnviz::gpu
