// The document's caption in the menu bar and the name Save As proposes.
#include "app/document/document_names.h"

#include <gtest/gtest.h>

namespace attnviz::document {
namespace {

Scenario korean() {
  Scenario s;
  s.title = "Korean worked example \u2014 \uC5B4\uC81C \uBC24\uC5D0\u2026 one head";
  s.sentence = "a b c";
  return s;
}

// Every character one unit wide: enough to test what is left out.
float chars(const std::string& text) { return static_cast<float>(text.size()); }

TEST(DocumentNames, SaveAsProposesAPlainAsciiNameNeverTheTitlesPunctuation) {
  Document preset(korean());
  EXPECT_EQ(default_file_name(preset), "korean-worked-example-one-head.json");
  Scenario edited = preset.scenario();
  edited.num_heads = 4;
  preset.apply(edited, "Heads 4");
  EXPECT_EQ(default_file_name(preset), "korean-worked-example-one-head-edited.json");
  Document saved(korean(), std::filesystem::path("/tmp/mine.json"));
  EXPECT_EQ(default_file_name(saved), "mine.json");
  Scenario only_korean;
  only_korean.title = "\uC5B4\uC81C \uBC24\uC5D0";
  EXPECT_EQ(default_file_name(Document(only_korean)), "scenario.json");
  Scenario long_title;
  long_title.title = "a very long title that goes on and on about attention heads and masks";
  const std::string name = default_file_name(Document(long_title));
  EXPECT_LE(name.size(), 40u + 5u);
  EXPECT_EQ(name, "a-very-long-title-that-goes-on-and-on.json");
}

TEST(DocumentNames, ATitleThatNoLongerDescribesTheContentIsNotShownAsIfItDid) {
  Document document(korean());
  EXPECT_TRUE(document.title_matches());
  Caption caption = caption_of(document);
  ASSERT_EQ(caption.parts.size(), 1u);
  EXPECT_EQ(caption.parts[0], korean().title);
  EXPECT_FALSE(caption.unsaved);

  Scenario edited = document.scenario();
  edited.sentence = "one two three";
  document.apply(edited, "Sentence");
  EXPECT_FALSE(document.title_matches());
  caption = caption_of(document);
  ASSERT_EQ(caption.parts.size(), 2u);
  EXPECT_EQ(caption.parts[0], "Untitled");
  EXPECT_EQ(caption.parts[1].rfind("edited from \u201CKorean worked example", 0), 0u) << caption.parts[1];
  EXPECT_TRUE(caption.unsaved);

  // Undoing the edit makes the title true again; renaming describes the new content.
  document.undo();
  EXPECT_TRUE(document.title_matches());
  document.redo();
  Scenario renamed = document.scenario();
  renamed.title = "One two three";
  document.apply(renamed, "Title");
  EXPECT_TRUE(document.title_matches());
}

TEST(DocumentNames, AfterSavingTheMenuBarShowsTheFileFirst) {
  Document document(korean());
  Scenario edited = document.scenario();
  edited.num_heads = 4;
  document.apply(edited, "Heads 4");
  document.set_saved("/home/teacher/four-heads.json");
  Caption caption = caption_of(document);
  ASSERT_EQ(caption.parts.size(), 1u);  // the stale title is left out
  EXPECT_EQ(caption.parts[0], "four-heads.json");
  EXPECT_FALSE(caption.unsaved);
  document.confirm_title();  // Save As showed the title and the user kept it
  caption = caption_of(document);
  ASSERT_EQ(caption.parts.size(), 2u);
  EXPECT_EQ(caption.parts[1], korean().title);
}

TEST(DocumentNames, TheCaptionDropsTheTitleBeforeTheFileAndShortensTheFileLast) {
  Caption caption{{"korean.json", "Korean worked example"}, true};
  EXPECT_EQ(fitted_caption(caption, 100.0f, chars), "korean.json  \u2014  Korean worked example  \u2022");
  EXPECT_EQ(fitted_caption(caption, 20.0f, chars), "korean.json  \u2022");
  const std::string tiny = fitted_caption(caption, 14.0f, chars);
  EXPECT_LE(chars(tiny), 14.0f);
  EXPECT_NE(tiny.find("\u2026"), std::string::npos) << tiny;
  EXPECT_EQ(fitted_caption(caption, 3.0f, chars), "");
}

TEST(DocumentNames, ShortenKeepsWholeCodePoints) {
  EXPECT_EQ(shorten("abc", 5), "abc");
  EXPECT_EQ(shorten("abcdef", 4), "abc\u2026");
  EXPECT_EQ(shorten("\uC5B4\uC81C \uBC24\uC5D0", 3), "\uC5B4\uC81C\u2026");
}

}  // namespace
}  // namespace attnviz::document
