// The window's overview session: a long text computed on its worker, and what the window is
// told when it cannot be (where and why, without core's internal "<mask>" or the window's "<gui>").
#include "app/compute/overview_session.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

namespace attnviz::compute {
namespace {

// `words` words, one token each.
Scenario long_text_scenario(int words, const std::string& expression = "") {
  Scenario s;
  const char* vocabulary[] = {"the", "cat", "sat", "on", "a", "mat", "and", "saw", "a", "dog"};
  for (int i = 0; i < words; ++i) {
    if (i > 0) s.sentence += ' ';
    s.sentence += vocabulary[(i * 7 + i / 3) % 10];
  }
  s.d_model = 8;
  s.num_heads = 2;
  s.num_kv_heads = 2;
  s.d_k = 4;
  s.d_v = 4;
  s.mask.expression = expression;
  return s;
}

void wait_until_done(const OverviewSession& session) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (session.running() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(session.running()) << "the overview did not finish in 120 s";
}

TEST(OverviewSession, ALongTextIsPooledOnTheWorker) {
  OverviewSession session;
  OverviewAsk ask;
  ask.pixel_rows = 50;
  ask.pixel_cols = 50;
  ask.head = 1;
  session.request(long_text_scenario(5000, "k <= q"), 1, ask);
  wait_until_done(session);
  EXPECT_EQ(session.error(), "");
  EXPECT_EQ(session.rows(), 5000);
  EXPECT_EQ(session.cols(), 5000);
  EXPECT_EQ(session.heads(), 2);
  ASSERT_NE(session.shown(), nullptr);
  EXPECT_EQ(session.shown_ask(), ask);
  EXPECT_EQ(session.generation(), 1u);
}

TEST(OverviewSession, ACancelledJobIsNotRunningAtOnceButIdleOnlyOnceItHasStopped) {
  // The export's finer image: its session is destroyed (joining its worker) only when idle, so
  // closing the popup never makes a frame wait for a job that is still stopping.
  OverviewSession session;
  EXPECT_TRUE(session.idle());
  session.request(long_text_scenario(20000), 1, OverviewAsk{});
  EXPECT_FALSE(session.idle());
  session.cancel();
  EXPECT_FALSE(session.running()) << "the window shows it as stopped at once";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!session.idle() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(session.idle());
  EXPECT_EQ(session.shown(), nullptr) << "a cancelled job shows nothing";
  EXPECT_EQ(session.error(), "cancelled");
}

TEST(OverviewSession, AMaskWithMoreRunsThanItHoldsIsReportedAsTheWindowsInput) {
  // Every other key: 6,000 rows of 3,000 runs, 18 million runs, past the 16,777,216 a mask holds.
  OverviewSession session;
  session.request(long_text_scenario(6000, "(q + k) % 2 == 0"), 1, OverviewAsk{});
  wait_until_done(session);
  const std::string error = session.error();
  EXPECT_TRUE(error.starts_with("/mask/expression: \"(q + k) % 2 == 0\" splits the rows")) << error;  // no "<mask>:"
  EXPECT_NE(error.find("16,777,216"), std::string::npos) << error;
  EXPECT_NE(error.find("6,000 rows"), std::string::npos) << error;
  EXPECT_EQ(session.shown(), nullptr);
}

TEST(OverviewSession, ARefusedRevisionIsNotComputedAgainForAnotherAsk) {
  // The window asks again whenever the image's pixel count changes, and the error's lines move
  // the image: asking again for the same refused text went round in a loop of 0.6 s attempts.
  OverviewSession session;
  const Scenario refused = long_text_scenario(6000, "(q + k) % 2 == 0");
  session.request(refused, 1, OverviewAsk{});
  wait_until_done(session);
  const std::string error = session.error();
  ASSERT_NE(error, "");
  OverviewAsk smaller;
  smaller.pixel_rows = smaller.pixel_cols = 448;
  session.request(refused, 1, smaller);
  EXPECT_FALSE(session.running());
  EXPECT_EQ(session.error(), error);
  session.request_again();  // the user's "try again": computed (and refused) once more
  session.request(refused, 1, smaller);
  EXPECT_TRUE(session.running());
  wait_until_done(session);
  EXPECT_EQ(session.error(), error);
}

TEST(OverviewSession, DropoutIsRefusedOnceForTheRevision) {
  OverviewSession session;
  Scenario dropout = long_text_scenario(5000);
  dropout.dropout = DropoutSetting{0.2, 3};
  session.request(dropout, 1, OverviewAsk{});
  wait_until_done(session);
  EXPECT_NE(session.error().find("dropout"), std::string::npos) << session.error();
  OverviewAsk other;
  other.pixel_rows = other.pixel_cols = 384;
  session.request(dropout, 1, other);
  EXPECT_FALSE(session.running());
  dropout.dropout.reset();
  session.request(dropout, 2, other);
  wait_until_done(session);
  EXPECT_EQ(session.error(), "");
  EXPECT_NE(session.shown(), nullptr);
}

TEST(OverviewSession, AFixedMaskAfterAnErrorIsComputedAndClearsIt) {
  OverviewSession session;
  session.request(long_text_scenario(6000, "(q + k) % 2 == 0"), 1, OverviewAsk{});
  wait_until_done(session);
  ASSERT_NE(session.error(), "");
  session.request(long_text_scenario(6000, "(q + k) % 2 == 0 || k <= 4096"), 2, OverviewAsk{});
  wait_until_done(session);
  EXPECT_EQ(session.error(), "");
  EXPECT_NE(session.shown(), nullptr);
}

}  // namespace
}  // namespace attnviz::compute
