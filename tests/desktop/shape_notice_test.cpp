// "Preparing shaders…" (issue 11: K/V heads 1 → 2 froze the window for about 2 s on lavapipe):
// a shape not computed before is announced in one frame and computed in the next.
#include "app/desktop/shape_notice.h"

#include <gtest/gtest.h>

namespace attnviz::desktop {
namespace {

Scenario five_tokens(int kv_heads) {
  Scenario s;
  s.sentence = "one two three four five";
  s.num_heads = 2;
  s.num_kv_heads = kv_heads;
  return s;
}

TEST(ShapeNotice, ANewShapeIsAnnouncedOneFrameBeforeItsRecompute) {
  ShapeNotice notice;
  const ModelShape mqa = shape_of(five_tokens(1));
  EXPECT_FALSE(notice.defer(mqa, false, false)) << "the first result: nothing on screen to freeze";
  notice.computed(mqa);
  const ModelShape mha = shape_of(five_tokens(2));
  EXPECT_TRUE(notice.defer(mha, false, true)) << "K/V heads 1 -> 2: this frame draws the notice";
  EXPECT_TRUE(notice.showing());
  EXPECT_EQ(notice.why(), ShapeNotice::Why::NewShape);
  EXPECT_FALSE(notice.defer(mha, false, true)) << "the next frame recomputes";
  notice.computed(mha);
  EXPECT_FALSE(notice.showing());
  EXPECT_FALSE(notice.defer(mqa, false, true)) << "back to a shape computed before: no notice";
  EXPECT_FALSE(notice.defer(mha, false, true));
  EXPECT_FALSE(notice.defer(std::nullopt, false, true)) << "nothing changed";
}

// Issue 44: Vulkan chosen on lavapipe froze the window 3.5-4.4 s at its first run, without a word.
TEST(ShapeNotice, TheFirstVulkanRunIsAnnouncedOnce) {
  ShapeNotice notice;
  const ModelShape shape = shape_of(five_tokens(1));
  notice.computed(shape);  // Eigen's result is on screen
  EXPECT_TRUE(notice.defer(std::nullopt, true, true)) << "Vulkan taken over: this frame says so";
  EXPECT_EQ(notice.why(), ShapeNotice::Why::FirstVulkanRun);
  EXPECT_FALSE(notice.defer(std::nullopt, true, true)) << "the next frame runs Vulkan";
  notice.computed(shape);
  EXPECT_FALSE(notice.defer(std::nullopt, true, true)) << "once: a failed first run is not announced again";
  ShapeNotice starting;
  EXPECT_FALSE(starting.defer(std::nullopt, true, false)) << "never before a first result";
}

TEST(ShapeNotice, TypingNeverWaits) {
  ShapeNotice notice;
  Scenario s = five_tokens(1);
  notice.computed(shape_of(s));
  s.sentence = "one two three four five six seven";
  EXPECT_FALSE(notice.defer(shape_of(s), false, true));
  s.d_k = 8;
  EXPECT_TRUE(notice.defer(shape_of(s), false, true));
}

}  // namespace
}  // namespace attnviz::desktop
