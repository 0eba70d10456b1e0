// InputError's message: "ORIGIN: POINTER: PROBLEM" for a file or the command line, and without
// the origin where the user's own input is meant (the window's "<gui>").
#include "core/common/error.h"

#include <gtest/gtest.h>

namespace attnviz {
namespace {

TEST(InputError, SaysWhereAndWhatAndLeavesOutTheWindowsOwnOrigin) {
  const InputError file("life.json", "/d_k", "must be at least 1");
  EXPECT_STREQ(file.what(), "life.json: /d_k: must be at least 1");
  EXPECT_EQ(file.message_for("<gui>"), "life.json: /d_k: must be at least 1");
  const InputError window("<gui>", "/d_k", "must be at least 1");
  EXPECT_EQ(window.message_for("<gui>"), "/d_k: must be at least 1");
  const InputError bare("<gui>", "", "the text has no words");
  EXPECT_EQ(bare.message_for("<gui>"), "the text has no words");
}

}  // namespace
}  // namespace attnviz
