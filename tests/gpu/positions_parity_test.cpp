// The Vulkan backend against the Eigen path under positions and dropout: RoPE (rope.comp after
// the projections), ALiBi (the bias inside softmax.comp) and dropout (dropout.comp after the
// softmax: the same kept set bit for bit, the weights before and after), with GQA / MQA,
// cross-attention, masks, both score modes, a position offset; and the tiled kernel's
// contexts under the same settings against the dense Eigen path.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/cpu/cpu_backend.h"
#include "core/gpu/tiled_kernel.h"
#include "core/gpu/vulkan_attention.h"
#include "core/tiled/tiled_attention.h"
#include "tests/gpu/problem_factory.h"
#include "tests/vk/vk_test_support.h"

namespace attnviz {
namespace {

using testing::Lcg;
using testing::Shape;

struct PositionCase {
  const char* name;
  PositionalKind kind;
  bool dropout;
};

const PositionCase kCases[] = {{"rope", PositionalKind::Rope, false},
                               {"alibi", PositionalKind::Alibi, false},
                               {"dropout", PositionalKind::None, true},
                               {"rope+dropout", PositionalKind::Rope, true},
                               {"alibi+dropout", PositionalKind::Alibi, true}};

Shape random_shape(Lcg& random, int trial) {
  static constexpr int heads_choices[] = {1, 2, 3, 4, 6};
  Shape s;
  s.n = random.between(1, 40);
  s.cross = trial % 3 == 2;
  s.m = s.cross ? random.between(1, 40) : s.n;
  s.d_model = random.between(2, 12);
  s.heads = heads_choices[random.next() % 5];
  s.kv_heads = trial % 2 == 0 ? s.heads : 1;
  s.d_k = 2 * random.between(1, 6);  // even: RoPE turns pairs
  s.d_v = random.between(1, 9);
  s.d_out = random.chance(30) ? random.between(1, 6) : 0;
  s.scale = 1.0f / std::sqrt(static_cast<float>(s.d_k));
  s.mask.causal = trial % 4 != 3;
  if (trial % 5 == 4) s.mask.window = random.between(0, 4);
  return s;
}

Problem with_positions(Problem p, const PositionCase& c, Lcg& random) {
  p.positional = c.kind;
  p.position_offset = random.chance(30) ? random.between(1, 500) : 0;
  if (random.chance(30)) p.rope_theta = 500.0;
  if (c.dropout) p.dropout = DropoutSetting{random.uniform(0.05f, 0.6f), random.next() * 7919ULL};
  return p;
}

TEST(PositionsParity, RopeAlibiAndDropoutMatchTheEigenPath) {
  const auto context = testing::validated_context();
  gpu::VulkanAttention vulkan(context);
  const auto cpu = make_cpu_backend();
  Lcg random(4242);
  for (const PositionCase& c : kCases) {
    for (int trial = 0; trial < 5; ++trial) {
      const Shape shape = random_shape(random, trial);
      const Problem problem = with_positions(testing::make_problem(random, shape), c, random);
      for (const bool full_scores : {true, false}) {
        ComputeOptions options;
        options.scores_under_mask = full_scores;
        const Result gpu = vulkan.compute(problem, options);
        const Result host = cpu->compute(problem, options);
        const std::string what =
            std::string(c.name) + " trial " + std::to_string(trial) + ": " + testing::describe(shape);
        testing::expect_close(gpu, host, 1e-5, 1e-5, what);
        ASSERT_EQ(gpu.heads.size(), host.heads.size());
        for (std::size_t h = 0; h < gpu.heads.size(); ++h) {
          EXPECT_EQ(gpu.heads[h].kept, host.heads[h].kept) << what << " head " << h << ": the same dropped set";
          EXPECT_EQ(gpu.heads[h].weights_before_dropout.empty(), !c.dropout) << what;
        }
      }
      if (::testing::Test::HasFailure()) break;
    }
  }
  testing::expect_no_validation_messages(*context);
}

TEST(PositionsParity, TheTiledKernelAgreesWithTheDensePathUnderPositionsAndDropout) {
  const auto context = testing::validated_context();
  const auto tiled = tiled::make_vulkan_tiled(context);
  const auto cpu = make_cpu_backend();
  Lcg random(77);
  for (const PositionCase& c : kCases) {
    for (int trial = 0; trial < 3; ++trial) {
      const Shape shape = random_shape(random, trial);
      const Problem problem = with_positions(testing::make_problem(random, shape), c, random);
      const Result dense = cpu->compute(problem);
      const tiled::TiledResult result = tiled->run(problem, {3, 5, std::nullopt});
      for (std::size_t h = 0; h < dense.heads.size(); ++h) {
        for (std::size_t i = 0; i < dense.heads[h].context.size(); ++i) {
          EXPECT_NEAR(result.heads[h].context.data[i], dense.heads[h].context.data[i], 1e-5)
              << c.name << " trial " << trial << " head " << h << ": " << testing::describe(shape);
        }
      }
      if (::testing::Test::HasFailure()) break;
    }
  }
  testing::expect_no_validation_messages(*context);
}

}  // namespace
}  // namespace attnviz
