// The training step allocates nothing after the first (issue 47, "Speed and memory": weights,
// gradients, two Adam moments and one batch's activations, nothing per step). This binary counts
// every operator new of the process, so it holds this test alone.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "core/train/gpt2.h"
#include "core/train/optimizer.h"
#include "core/train/tasks.h"

// Replacing operator new with malloc and delete with free is the standard's own pairing; GCC 12
// sees only the free and warns.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
#endif

namespace {
std::atomic<long> g_allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t /*size*/) noexcept { std::free(p); }

namespace attnviz::train {
namespace {

// The default induction run's shape, so that the step takes every path a user's step takes
// (the attention on 2 threads included).
constexpr ModelShape kShape{.layers = 2, .heads = 4, .d_model = 64, .positions = 32, .vocab = 256};
constexpr int kBatch = 8;

TEST(TrainingStep, AllocatesNothingAfterTheFirstStep) {
  Gpt2 model(kShape, kBatch, kShape.positions);
  model.initialise(1);
  InductionTask task(64, kShape.positions, 1);
  Batch batch(kBatch, kShape.positions);
  OptimizerSettings settings;
  settings.warmup_steps = 10;
  Optimizer optimizer(settings, model.layout());
  const auto step = [&](long s) {
    task.fill(batch, s);
    model.zero_gradients();
    model.forward(batch.inputs, batch.targets);
    model.backward();
    optimizer.update(model.parameters(), model.gradients(), s);
  };
  step(0);  // the first step may set up OpenMP's threads and Eigen's workspace
  const long before = g_allocations.load();
  ASSERT_GT(before, 0) << "the count misses the construction's own allocations";
  for (long s = 1; s < 4; ++s) step(s);
  EXPECT_EQ(g_allocations.load() - before, 0) << "operator new calls in steps 1-3";
}

}  // namespace
}  // namespace attnviz::train
