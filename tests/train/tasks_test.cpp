// The tasks (core/train/tasks.h): induction's one repeat and its copyable targets, text windows.

#include "core/train/tasks.h"

#include <gtest/gtest.h>

#include <set>

namespace attnviz::train {
namespace {

TEST(InductionTask, EachSequenceHoldsOneRepeatAndMarksOnlyCopyableTargets) {
  constexpr int T = 32, B = 64, V = 26;
  const auto at = [](int i) { return static_cast<std::size_t>(i); };
  InductionTask task(V, T, 7);
  Batch batch(B, T);
  task.fill(batch, 0);
  const std::vector<int> allowed = task.token_ids();
  ASSERT_EQ(allowed.size(), static_cast<std::size_t>(V));
  std::set<int> lengths;
  for (int b = 0; b < B; ++b) {
    // The sequence: inputs then the last target.
    std::vector<int> seq(batch.inputs.begin() + b * T, batch.inputs.begin() + (b + 1) * T);
    seq.push_back(batch.targets[at((b + 1) * T - 1)]);
    for (int t = 0; t < T; ++t) ASSERT_EQ(batch.targets[at(b * T + t)], seq[at(t + 1)]);
    for (const int id : seq) ASSERT_NE(std::find(allowed.begin(), allowed.end(), id), allowed.end());
    int marked = 0, first = -1;
    for (int t = 0; t < T; ++t) {
      if (batch.repeat[at(b * T + t)] == 0) continue;
      if (first < 0) first = t;
      ++marked;
    }
    // k − 1 marked predictions in a row; each target equals the token k back.
    const int k = marked + 1;
    ASSERT_GE(k, 4);
    ASSERT_LE(k, T / 2);
    lengths.insert(k);
    for (int t = first; t < first + marked; ++t) {
      ASSERT_EQ(batch.repeat[at(b * T + t)], 1);
      EXPECT_EQ(seq[at(t + 1)], seq[at(t + 1 - k)]) << "sequence " << b << " position " << t;
    }
  }
  EXPECT_GE(lengths.size(), 6u) << "k varies widely";
}

TEST(InductionTask, ReadableTokensAreLettersFirst) {
  const std::vector<int> ids = readable_byte_ids(28);
  EXPECT_EQ(ids.front(), 'a');
  EXPECT_EQ(ids[26], 'A');
  EXPECT_EQ(readable_byte_ids(kReadableTokens).size(), 94u);
  EXPECT_THROW(readable_byte_ids(95), std::invalid_argument);
}

TEST(TextTask, SequentialSamplingReadsWindowsInOrder) {
  std::vector<std::int32_t> ids(100);
  for (std::size_t i = 0; i < 100; ++i) ids[i] = static_cast<std::int32_t>(i);
  TextTask task(ids, Sampling::Sequential, 1);
  Batch batch(3, 10);
  task.fill(batch, 0);
  for (std::size_t b = 0; b < 3; ++b) {
    EXPECT_EQ(batch.inputs[b * 10], b * 10);
    EXPECT_EQ(batch.targets[b * 10 + 9], b * 10 + 10);
  }
  task.fill(batch, 2);  // sequences 6, 7, 8
  EXPECT_EQ(batch.inputs[20], 80);
  task.fill(batch, 3);  // sequences 9, 10, 11: 9 windows of 10 + 1 fit in 100 ids, so they wrap to 0, 1, 2
  EXPECT_EQ(batch.inputs[0], 0);
  EXPECT_EQ(batch.inputs[10], 10);
  EXPECT_EQ(batch.inputs[20], 20);
}

TEST(Tasks, TheRandomStateRestoresTheSameBatches) {
  InductionTask task(20, 16, 3);
  Batch first(4, 16), second(4, 16);
  task.fill(first, 0);
  const std::string state = task.random_state();
  task.fill(first, 1);
  InductionTask other(20, 16, 99);
  other.restore_random_state(state);
  other.fill(second, 1);
  EXPECT_EQ(first.inputs, second.inputs);
}

}  // namespace
}  // namespace attnviz::train
