// The Training view's session (app/compute/training_session.h): a tiny induction run started,
// paused and stepped off the test's thread, its losses and snapshots (at most kMaxSnapshots,
// the first and the last kept), a snapshot saved as a model folder, and a failure said.

#include "app/compute/training_session.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace attnviz::compute {
namespace {

namespace fs = std::filesystem;

TrainingSettings tiny(const fs::path& out, long steps) {
  TrainingSettings s;
  s.layers = 1;
  s.heads = 2;
  s.d_model = 16;
  s.context = 12;
  s.batch = 4;
  s.steps = steps;
  s.out = out;
  s.threads = 1;
  return s;
}

class TrainingSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("attnviz-training-session-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  fs::path folder_;
};

TEST_F(TrainingSessionTest, ARunEndsWithEveryLossAndAtMostTheKeptSnapshots) {
  TrainingSession session;
  session.start(tiny(folder_, 150));
  EXPECT_EQ(session.state(), TrainingState::Running);
  session.wait();
  EXPECT_EQ(session.state(), TrainingState::Finished) << session.error();
  EXPECT_EQ(session.steps_done(), 150);
  EXPECT_EQ(session.losses().size(), 150u);
  EXPECT_EQ(session.repeat_losses().size(), 150u);
  const auto& snapshots = session.snapshots();
  ASSERT_GE(snapshots.size(), 2u);
  EXPECT_LE(snapshots.size(), TrainingSession::kMaxSnapshots);
  EXPECT_EQ(snapshots.front()->step, 0);
  EXPECT_EQ(snapshots.back()->step, 150);
  for (std::size_t i = 1; i < snapshots.size(); ++i) EXPECT_LT(snapshots[i - 1]->step, snapshots[i]->step);
  EXPECT_EQ(snapshots.back()->attention.size(), 2u);
  EXPECT_EQ(snapshots.back()->attention[0].rows, 12);
  EXPECT_EQ(session.probe_text().size(), 12u);
  EXPECT_TRUE(session.unsaved());

  session.save(snapshots.size() - 1);
  session.wait();
  EXPECT_EQ(session.saved(), folder_);
  EXPECT_TRUE(fs::exists(folder_ / "training_state.json"));
  EXPECT_FALSE(session.unsaved());
  session.save(0);
  session.wait();
  EXPECT_EQ(session.saved(), folder_ / "checkpoints" / "step-0");
  EXPECT_TRUE(fs::exists(folder_ / "checkpoints" / "step-0" / "model.safetensors"));
}

TEST_F(TrainingSessionTest, StepTakesOneStepAndResetForgetsTheRun) {
  TrainingSession session;
  session.step(tiny(folder_, 100));
  session.wait();
  EXPECT_EQ(session.state(), TrainingState::Paused);
  EXPECT_EQ(session.steps_done(), 1);
  EXPECT_EQ(session.snapshots().size(), 2u);  // the initialisation and step 1
  session.start(tiny(folder_, 100));
  session.pause();
  session.wait();
  EXPECT_NE(session.state(), TrainingState::Running);
  session.reset();
  session.poll();
  EXPECT_FALSE(session.has_run());
  EXPECT_TRUE(session.losses().empty());
  EXPECT_TRUE(session.snapshots().empty());
}

TEST_F(TrainingSessionTest, ATextTooShortForOneBatchStopsWithAMessage) {
  TrainingSession session;
  TrainingSettings settings = tiny(folder_, 10);
  settings.task = TrainingTask::Sentence;
  settings.text = "The cat sat on the mat.";
  session.start(settings);
  session.wait();
  EXPECT_EQ(session.state(), TrainingState::Failed);
  EXPECT_NE(session.error().find("needs at least"), std::string::npos) << session.error();
  EXPECT_FALSE(session.has_run());
}

TEST_F(TrainingSessionTest, ASaveThatFailsSaysSoAndKeepsTheRun) {
  fs::create_directories(folder_);
  const fs::path blocked = folder_ / "a-file";
  { std::ofstream(blocked) << "not a folder"; }
  TrainingSession session;
  session.step(tiny(blocked / "run", 10));
  session.wait();
  session.save(session.snapshots().size() - 1);
  session.wait();
  EXPECT_NE(session.error().find("Not saved"), std::string::npos) << session.error();
  EXPECT_EQ(session.state(), TrainingState::Paused);
  EXPECT_EQ(session.steps_done(), 1);
  EXPECT_TRUE(session.unsaved());
}

}  // namespace
}  // namespace attnviz::compute
