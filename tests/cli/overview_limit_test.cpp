// A text past the overview's 65,536 tokens, and the advice attnviz gives for it followed as a
// user would: the `head -c` command it prints makes a text the overview takes. Seconds in a
// release build, minutes under the sanitizers (the attention of 65,536 tokens on the CPU):
// labelled slow, for the release run only. The refusal's wording is checked in every build
// (overview_export_test.cpp).

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/cli/run_attnviz.h"

namespace attnviz::testing {
namespace {

TEST(OverviewLimit, FollowingTheAdviceForATooLongTextGivesOneTheOverviewTakes) {
  const auto dir = scratch_dir("overview-limit");
  const auto huge = dir / "huge.txt";
  {
    std::ofstream text(huge);
    for (int i = 0; i < 65537; ++i) text << "w ";
  }
  const auto npy = dir / "h.npy";
  CommandOutput run =
      run_attnviz("export --text-file '" + huge.string() + "' --overview 8 --out '" + npy.string() + "'");
  ASSERT_EQ(run.exit_code, 2) << run.err;
  // The command as the message prints it, from "head -c" to the file it writes.
  const std::size_t from = run.err.find("head -c ");
  const std::size_t to = run.err.find("first-part.txt", from);
  ASSERT_TRUE(from != std::string::npos && to != std::string::npos) << run.err;
  const std::string advice = run.err.substr(from, to + std::string("first-part.txt").size() - from);
  ASSERT_EQ(std::system(("cd '" + dir.string() + "' && " + advice).c_str()), 0) << advice;

  run = run_attnviz("export --text-file '" + (dir / "first-part.txt").string() + "' --overview 8 --format npy --out '" +
                    npy.string() + "'");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(std::filesystem::exists(npy));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace attnviz::testing
