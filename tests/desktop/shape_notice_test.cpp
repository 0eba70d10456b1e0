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
  EXPECT_FALSE(notice.defer(mqa, false)) << "the first result: nothing on screen to freeze";
  notice.computed(mqa);
  const ModelShape mha = shape_of(five_tokens(2));
  EXPECT_TRUE(notice.defer(mha, true)) << "K/V heads 1 -> 2: this frame draws the notice";
  EXPECT_TRUE(notice.showing());
  EXPECT_FALSE(notice.defer(mha, true)) << "the next frame recomputes";
  notice.computed(mha);
  EXPECT_FALSE(notice.showing());
  EXPECT_FALSE(notice.defer(mqa, true)) << "back to a shape computed before: no notice";
  EXPECT_FALSE(notice.defer(mha, true));
}

TEST(ShapeNotice, TypingNeverWaits) {
  ShapeNotice notice;
  Scenario s = five_tokens(1);
  notice.computed(shape_of(s));
  s.sentence = "one two three four five six seven";
  EXPECT_FALSE(notice.defer(shape_of(s), true));
  s.d_k = 8;
  EXPECT_TRUE(notice.defer(shape_of(s), true));
}

}  // namespace
}  // namespace attnviz::desktop
