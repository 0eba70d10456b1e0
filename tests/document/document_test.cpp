#include <gtest/gtest.h>

#include "app/document/document.h"

namespace attnviz::document {
namespace {

Scenario with_heads(int heads) {
  Scenario s;
  s.sentence = "a b c";
  s.num_heads = heads;
  return s;
}

TEST(Document, EveryEditCanBeUndoneAndRedone) {
  Document doc(with_heads(1));
  const auto start = doc.revision();
  doc.apply(with_heads(2), "Heads 2");
  doc.apply(with_heads(4), "Heads 4");
  EXPECT_GT(doc.revision(), start);
  EXPECT_EQ(doc.undo_label(), "Heads 4");
  ASSERT_TRUE(doc.undo());
  EXPECT_EQ(doc.scenario().num_heads, 2);
  ASSERT_TRUE(doc.undo());
  EXPECT_EQ(doc.scenario().num_heads, 1);
  EXPECT_FALSE(doc.undo());
  ASSERT_TRUE(doc.redo());
  ASSERT_TRUE(doc.redo());
  EXPECT_EQ(doc.scenario().num_heads, 4);
  EXPECT_FALSE(doc.redo());
}

TEST(Document, TokensAreSplitOncePerTextAndFollowEveryChangeOfIt) {
  Document doc(with_heads(1));
  const auto first = doc.tokens();
  EXPECT_EQ(first->queries.tokens, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(doc.tokens(), first) << "asked again in one revision: the same tokens";
  doc.apply(with_heads(2), "Heads 2");
  EXPECT_EQ(doc.tokens(), first) << "an edit that leaves the text alone keeps them";

  Scenario typed = doc.scenario();
  typed.sentence = "a b c d";
  doc.apply(typed, "Type");
  EXPECT_EQ(doc.tokens()->query_count(), 4);
  Scenario listed = doc.scenario();
  listed.tokens = std::vector<std::string>{"x", "y"};
  doc.apply(listed, "List tokens");
  EXPECT_TRUE(doc.tokens()->queries.explicit_tokens);
  EXPECT_EQ(doc.tokens()->query_count(), 2);
  Scenario cross = doc.scenario();
  cross.source = SourceSetting{};
  cross.source->sentence = "one two three four five";
  doc.apply(cross, "Source");
  EXPECT_EQ(doc.tokens()->key_count(), 5);
  cross.source->sentence = "one two";
  doc.apply(cross, "Shorter source");
  EXPECT_EQ(doc.tokens()->key_count(), 2);

  ASSERT_TRUE(doc.undo());
  EXPECT_EQ(doc.tokens()->key_count(), 5);
  doc.reset(with_heads(1), std::nullopt);
  EXPECT_EQ(doc.tokens()->query_count(), 3);
  EXPECT_FALSE(doc.tokens()->source.has_value());
}

TEST(Document, ANewEditClearsRedo) {
  Document doc(with_heads(1));
  doc.apply(with_heads(2), "Heads 2");
  doc.undo();
  doc.apply(with_heads(8), "Heads 8");
  EXPECT_FALSE(doc.can_redo());
  doc.undo();
  EXPECT_EQ(doc.scenario().num_heads, 1);
}

TEST(Document, ADragIsOneUndoStepUntilTheMergeEnds) {
  Document doc(with_heads(1));
  for (int h = 2; h <= 6; ++h) doc.apply(with_heads(h), "Heads", "model/heads");
  doc.end_merge();
  doc.apply(with_heads(7), "Heads", "model/heads");
  doc.undo();
  EXPECT_EQ(doc.scenario().num_heads, 6);
  doc.undo();
  EXPECT_EQ(doc.scenario().num_heads, 1);
}

TEST(Document, NoOpEditsLeaveNoTrace) {
  Document doc(with_heads(3));
  const auto revision = doc.revision();
  doc.apply(with_heads(3), "nothing");
  EXPECT_EQ(doc.revision(), revision);
  EXPECT_FALSE(doc.can_undo());
}

TEST(Document, ResetStartsAFreshHistoryAndSavingClearsModified) {
  Document doc(with_heads(1));
  doc.apply(with_heads(2), "Heads 2");
  EXPECT_TRUE(doc.modified());
  doc.set_saved("/tmp/x.json");
  EXPECT_FALSE(doc.modified());
  doc.reset(with_heads(5), std::nullopt);
  EXPECT_FALSE(doc.can_undo());
  EXPECT_FALSE(doc.modified());
  EXPECT_FALSE(doc.path().has_value());
}

TEST(Document, HistoryIsBounded) {
  Document doc(with_heads(1));
  for (int i = 0; i < static_cast<int>(Document::kMaxUndoSteps) + 50; ++i) doc.apply(with_heads(i + 2), "h");
  int steps = 0;
  while (doc.undo()) ++steps;
  EXPECT_EQ(steps, static_cast<int>(Document::kMaxUndoSteps));
}

// Each step holds the whole scenario before it: a text of megabytes kept 500 times would take
// gigabytes, so the history also keeps about max_undo_bytes of them (the newest always).
TEST(Document, HistoryIsBoundedInBytesToo) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  Scenario text = with_heads(1);
  text.sentence = std::string(kMiB, 'a');
  Document doc(text, std::nullopt, 10 * kMiB);
  for (int i = 0; i < 30; ++i) doc.apply(with_heads(i + 2), "h");  // each step: 1 MiB of text
  for (int i = 0; i < 30; ++i) {
    Scenario next = with_heads(i + 2);
    next.sentence = std::string(kMiB, static_cast<char>('b' + i % 20));
    doc.apply(std::move(next), "text");
  }
  EXPECT_LE(doc.undo_bytes(), 10 * kMiB);
  EXPECT_GT(doc.undo_bytes(), 8 * kMiB);
  int steps = 0;
  while (doc.undo()) ++steps;
  EXPECT_GE(steps, 8);
  EXPECT_LE(steps, 10);
  EXPECT_EQ(doc.undo_bytes(), 0u);
  // Redone, the steps count again.
  while (doc.redo()) {
  }
  EXPECT_GT(doc.undo_bytes(), 8 * kMiB);

  // A single step larger than the bound stays: one step back is always there.
  Document small(text, std::nullopt, kMiB / 2);
  small.apply(with_heads(3), "h");
  small.apply(with_heads(4), "h");
  EXPECT_TRUE(small.undo());
  EXPECT_EQ(small.scenario().num_heads, 3);
  EXPECT_FALSE(small.undo()) << "the 1 MiB step before was dropped for the bound";
}

}  // namespace
}  // namespace attnviz::document
