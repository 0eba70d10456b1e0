// train::Trainer (core/train/trainer.h), the run the window steps one step at a time: the same
// weights as train() after the same steps, its probe and the probe's attention, its errors, and
// the folders it saves.

#include "core/train/trainer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "core/common/error.h"
#include "core/train/checkpoint.h"

namespace attnviz::train {
namespace {

namespace fs = std::filesystem;

TrainOptions tiny_induction(const fs::path& out) {
  TrainOptions o;
  o.task = "induction";
  o.out = out;
  o.shape.layers = 1;
  o.shape.heads = 2;
  o.shape.d_model = 16;
  o.shape.positions = 12;
  o.batch = 4;
  o.steps = 3;
  o.task_vocab = 10;
  o.threads = 1;
  return o;
}

class TrainerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("attnviz-trainer-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  fs::path folder_;
};

TEST_F(TrainerTest, StepsTakeTrainsWeightsAndWritesNothingUntilSaved) {
  const TrainOptions options = tiny_induction(folder_ / "loop");
  train(options, {}, nullptr);
  const SafetensorsFile want = read_safetensors(options.out / "model.safetensors");

  TrainOptions stepped_options = options;
  stepped_options.out = folder_ / "stepped";
  Trainer trainer(stepped_options);
  for (long s = 1; s <= 3; ++s) {
    const StepReport report = trainer.step();
    EXPECT_EQ(report.step, s);
    EXPECT_TRUE(std::isfinite(report.loss));
    EXPECT_TRUE(report.repeat_loss.has_value());
  }
  EXPECT_EQ(trainer.steps_done(), 3);
  EXPECT_FALSE(fs::exists(stepped_options.out));
  trainer.save();
  const SafetensorsFile got = read_safetensors(stepped_options.out / "model.safetensors");
  ASSERT_EQ(got.tensors.size(), want.tensors.size());
  for (const auto& [name, values] : want.tensors) EXPECT_EQ(got.tensors.at(name), values) << name;
  EXPECT_TRUE(fs::exists(stepped_options.out / "training_state.json"));
  EXPECT_TRUE(fs::exists(stepped_options.out / "training.jsonl"));
}

TEST_F(TrainerTest, TheInductionProbeIsARandomHalfRepeatedAndItsAttentionIsCausal) {
  const TrainOptions options = tiny_induction(folder_);
  Trainer trainer(options);
  const auto& probe = trainer.probe();
  const int T = options.shape.positions;
  ASSERT_EQ(static_cast<int>(probe.size()), T);
  for (int t = T / 2; t < T; ++t)
    EXPECT_EQ(probe[static_cast<std::size_t>(t)], probe[static_cast<std::size_t>(t - T / 2)]);
  const std::vector<float> att = trainer.probe_attention(trainer.parameters());
  const int L = options.shape.layers, H = options.shape.heads;
  ASSERT_EQ(att.size(), static_cast<std::size_t>(L * H * T * T));
  for (int lh = 0; lh < L * H; ++lh) {
    for (int q = 0; q < T; ++q) {
      double sum = 0.0;
      for (int k = 0; k < T; ++k) {
        const float w = att[static_cast<std::size_t>((lh * T + q) * T + k)];
        if (k > q) {
          EXPECT_EQ(w, 0.0f);
        }
        sum += w;
      }
      EXPECT_NEAR(sum, 1.0, 1e-5);
    }
  }
  // Another snapshot's weights give another attention.
  std::vector<float> other(trainer.parameters().begin(), trainer.parameters().end());
  for (float& w : other) w *= 3.0f;
  EXPECT_NE(trainer.probe_attention(other), att);
}

TEST_F(TrainerTest, ATextGivenInMemoryIsTheProbeAndIsSavedBesideTheModel) {
  TrainOptions options = tiny_induction(folder_);
  options.task = "text";
  options.shape.positions = 8;
  options.batch = 2;
  options.text = "the cat sat on the mat, the dog sat on the log";
  Trainer trainer(options);
  const auto& probe = trainer.probe();
  ASSERT_EQ(probe.size(), 8u);
  EXPECT_EQ(std::string(probe.begin(), probe.end()), "the cat ");
  EXPECT_FALSE(trainer.step().repeat_loss.has_value());
  trainer.save();
  EXPECT_TRUE(fs::exists(folder_ / "text.txt"));
  const TrainResult resumed = resume(folder_, 2, 1, {}, nullptr);
  EXPECT_EQ(resumed.steps_done, 2);
}

TEST_F(TrainerTest, ATextShorterThanOneBatchIsRefused) {
  TrainOptions options = tiny_induction(folder_);
  options.task = "text";
  options.text = "too short";
  try {
    Trainer trainer(options);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs at least"), std::string::npos) << e.what();
  }
}

TEST_F(TrainerTest, ALossThatIsNotFiniteStopsTheStepNamingIt) {
  TrainOptions options = tiny_induction(folder_);
  options.optimizer.learning_rate = std::numeric_limits<float>::quiet_NaN();
  Trainer trainer(options);
  trainer.step();  // its loss is the initialisation's; its update makes every weight NaN
  try {
    trainer.step();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("step 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(trainer.steps_done(), 1);
}

TEST_F(TrainerTest, AnEarlierSnapshotIsSavedAsAModelFolder) {
  Trainer trainer(tiny_induction(folder_));
  const std::vector<float> first(trainer.parameters().begin(), trainer.parameters().end());
  trainer.step();
  trainer.save_model(folder_ / "snapshot", first, 0);
  const SafetensorsFile got = read_safetensors(folder_ / "snapshot" / "model.safetensors");
  EXPECT_EQ(got.metadata.value("step", ""), "0");
  EXPECT_TRUE(fs::exists(folder_ / "snapshot" / "config.json"));
  EXPECT_TRUE(fs::exists(folder_ / "snapshot" / "task.json"));
}

}  // namespace
}  // namespace attnviz::train
