// Tile and workgroup shapes come from the device's limits (they reach the shaders as
// specialization constants). Checked here on made-up limits of typical devices, no device
// needed; the parity tests run the resulting kernels.

#include <gtest/gtest.h>

#include "core/gpu/kernels.h"
#include "core/vk/context.h"

namespace attnviz::gpu {
namespace {

vk::DeviceLimits gpu_limits(std::uint32_t subgroup, std::uint32_t shared_bytes) {
  vk::DeviceLimits limits;
  limits.subgroup_size = subgroup;
  limits.max_workgroup_invocations = 1024;
  limits.max_workgroup_size[0] = 1024;
  limits.max_workgroup_size[1] = 1024;
  limits.max_workgroup_size[2] = 64;
  limits.max_shared_memory = shared_bytes;
  return limits;
}

std::uint32_t invocations(std::uint32_t x, std::uint32_t y) { return x * y; }

TEST(TileConfig, LavapipeGetsTwoSubgroupsOfEightPerWorkgroupAndNoStaging) {
  vk::DeviceLimits limits = gpu_limits(8, 32768);
  limits.max_workgroup_invocations = 1024;
  const TileConfig tiles = choose_tile_config(limits, VK_PHYSICAL_DEVICE_TYPE_CPU);
  EXPECT_EQ(invocations(tiles.gemm_x, tiles.gemm_y), 64u);
  EXPECT_FALSE(tiles.stage_in_shared);
  EXPECT_EQ(matmul_shared_bytes(tiles), 0u);
  EXPECT_EQ(tiles.softmax_rows_per_workgroup * tiles.subgroup_size, 64u);
}

TEST(TileConfig, WiderSubgroupsGetLargerWorkgroups) {
  const TileConfig nvidia = choose_tile_config(gpu_limits(32, 49152), VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  const TileConfig amd = choose_tile_config(gpu_limits(64, 65536), VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
  EXPECT_EQ(invocations(nvidia.gemm_x, nvidia.gemm_y), 64u);
  EXPECT_EQ(invocations(amd.gemm_x, amd.gemm_y), 128u);
  EXPECT_EQ(amd.subgroup_size, 64u);
  EXPECT_EQ(amd.softmax_rows_per_workgroup, 1u);
}

TEST(TileConfig, SharedMemoryStagingFitsTheDevice) {
  // (Vulkan guarantees 16 KiB; the score kernel needs 3 KiB at least.)
  for (const std::uint32_t shared : {49152u, 16384u, 8192u, 4096u}) {
    const TileConfig tiles = choose_tile_config(gpu_limits(32, shared), VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU);
    EXPECT_TRUE(tiles.stage_in_shared) << shared;
    EXPECT_LE(staged_shared_bytes(tiles), shared);
  }
  // The largest blocks that fit: 8 quads in 48 KiB, fewer in less.
  EXPECT_EQ(choose_tile_config(gpu_limits(32, 49152), VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).shared_k4, 8u);
  EXPECT_LT(choose_tile_config(gpu_limits(32, 8192), VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).shared_k4, 8u);
  // Too little shared memory for even the smallest block: no staging at all.
  EXPECT_FALSE(choose_tile_config(gpu_limits(32, 1024), VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU).stage_in_shared);
}

// The smallest limits Vulkan allows (128 invocations, 128 × 128 × 64, 16 KiB shared memory).
TEST(TileConfig, TheSmallestLimitsVulkanAllowsAreRespected) {
  for (const std::uint32_t subgroup : {4u, 32u, 64u, 128u}) {
    vk::DeviceLimits limits = gpu_limits(subgroup, 16384);
    limits.max_workgroup_invocations = 128;
    limits.max_workgroup_size[0] = 128;
    limits.max_workgroup_size[1] = 128;
    const TileConfig tiles = choose_tile_config(limits, VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU);
    EXPECT_LE(invocations(tiles.gemm_x, tiles.gemm_y), 128u) << subgroup;
    EXPECT_LE(invocations(tiles.matmul_x, tiles.matmul_y), 128u) << subgroup;
    EXPECT_LE(tiles.softmax_rows_per_workgroup * tiles.subgroup_size, 128u) << subgroup;
    EXPECT_GE(tiles.softmax_rows_per_workgroup, 1u) << subgroup;
    EXPECT_LE(staged_shared_bytes(tiles), 16384u) << subgroup;
  }
}

}  // namespace
}  // namespace attnviz::gpu
