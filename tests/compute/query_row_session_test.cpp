// The overview's pinned query, computed on its own worker: the row asked for last, exact; a
// newer ask replaces an older one; clear() lets go of the problem.
#include "app/compute/query_row_session.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tests/attention/random_problem.h"

namespace attnviz::compute {
namespace {

std::shared_ptr<const overview::QueryRow> wait_for_row(const QueryRowSession& session) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    if (auto row = session.row()) return row;
    if (!session.error().empty()) return nullptr;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return nullptr;
}

std::shared_ptr<const Problem> causal_problem(int n) {
  testing::TestRandom random(9);
  testing::ProblemShape shape;
  shape.n = shape.m = n;
  shape.heads = 2;
  shape.mask.causal = true;
  return std::make_shared<const Problem>(testing::random_problem(random, shape));
}

TEST(QueryRowSession, TheRowAskedForLastIsTheCoresRow) {
  const auto problem = causal_problem(900);
  QueryRowSession session;
  session.request(problem, 1, 10);
  session.request(problem, 1, 700);  // replaces the first
  const auto row = wait_for_row(session);
  ASSERT_TRUE(row) << session.error();
  EXPECT_EQ(row->query, 700);
  EXPECT_EQ(row->head, 1);
  const auto runner = overview::make_cpu_overview();
  const overview::QueryRow want = overview::query_row(*runner, *problem, 1, 700);
  EXPECT_EQ(row->values, want.values);
  EXPECT_EQ(row->hidden, want.hidden);
  EXPECT_EQ(row->visible_count(), 701);
}

TEST(QueryRowSession, AQueryPastTheTextSaysSoAndClearForgets) {
  const auto problem = causal_problem(50);
  QueryRowSession session;
  session.request(problem, 0, 50);
  EXPECT_FALSE(wait_for_row(session));
  EXPECT_NE(session.error().find("query 50 does not exist"), std::string::npos) << session.error();
  session.request(problem, 0, 3);
  ASSERT_TRUE(wait_for_row(session));
  session.clear();
  EXPECT_FALSE(session.row());
  EXPECT_TRUE(session.error().empty());
  EXPECT_EQ(problem.use_count(), 1) << "the session let go of the problem";
}

}  // namespace
}  // namespace attnviz::compute
