// File ▸ Open text… without a window: a text file as the sentence, refused with a reason when
// it cannot be, and cut at the overview's 65,536 tokens only when asked.
#include "app/edits/text_edits.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "core/common/number_text.h"
#include "core/overview/overview.h"
#include "core/text/tokenizer.h"

namespace attnviz::edits {
namespace {

namespace fs = std::filesystem;

class OpenTextTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("attnviz_open_text_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    current_.sentence = "the cat sat";
    current_.title = "three words";
    current_.mask.causal = true;
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return dir_ / name;
  }

  // "w0 w1 w2 ...": `count` distinct words, each followed by `gap`.
  static std::string words(int count, const std::string& gap = " ") {
    std::string text;
    for (int i = 0; i < count; ++i) text += "w" + std::to_string(i) + gap;
    return text;
  }

  fs::path dir_;
  Scenario current_;
};

TEST_F(OpenTextTest, AShortTextBecomesTheSentenceAndTheFileNameTheTitle) {
  const OpenedText opened = open_text(current_, write("story.txt", "a dog ran home"), TextPart::Whole);
  ASSERT_TRUE(opened.scenario) << opened.error;
  EXPECT_EQ(opened.scenario->sentence, "a dog ran home");
  EXPECT_EQ(opened.scenario->title, "story.txt");
  EXPECT_TRUE(opened.scenario->mask.causal) << "the other settings stay";
  EXPECT_EQ(opened.undo_label, "Open text story.txt");
  EXPECT_EQ(opened.error, "");
  // Asking for the first tokens of a text that has fewer takes it whole, under its own name.
  const OpenedText first = open_text(current_, dir_ / "story.txt", TextPart::FirstTokens);
  ASSERT_TRUE(first.scenario);
  EXPECT_EQ(first.scenario->sentence, "a dog ran home");
  EXPECT_EQ(first.scenario->title, "story.txt");
}

TEST_F(OpenTextTest, MissingEmptyFolderAndBrokenFilesAreRefusedWithTheirReason) {
  const OpenedText missing = open_text(current_, dir_ / "nope.txt", TextPart::Whole);
  EXPECT_FALSE(missing.scenario);
  EXPECT_NE(missing.error.find("There is no file"), std::string::npos) << missing.error;
  EXPECT_FALSE(missing.too_long);

  EXPECT_NE(open_text(current_, dir_, TextPart::Whole).error.find("is not a regular file"), std::string::npos);
  EXPECT_NE(open_text(current_, write("blank.txt", " \n\t"), TextPart::Whole).error.find("no words"),
            std::string::npos);

  const OpenedText broken = open_text(current_, write("broken.txt", "hello \xff world"), TextPart::FirstTokens);
  EXPECT_FALSE(broken.scenario);
  EXPECT_NE(broken.error.find("broken.txt: invalid UTF-8 at byte offset 6"), std::string::npos) << broken.error;
  EXPECT_FALSE(broken.too_long) << "not a length problem: cutting would not help";
}

TEST_F(OpenTextTest, ATextPastTheOverviewsLimitIsOfferedCutAtItsFirst65536Tokens) {
  const int limit = kMaxSentenceTokens;
  // Line breaks and a double gap where the cut falls: it keeps no white space at its end.
  const std::string text = words(limit - 1) + "w" + std::to_string(limit - 1) + " \n\n  " + words(100, "\n");
  const fs::path path = write("book.txt", text);

  const OpenedText whole = open_text(current_, path, TextPart::Whole);
  EXPECT_FALSE(whole.scenario);
  EXPECT_TRUE(whole.too_long);
  // The window's numbers are grouped; the first token past the limit starts after the gap.
  const std::size_t past = text.find(" \n\n  ") + 5;
  ASSERT_EQ(past, 447'646u) << "the text's words changed: count the offset again";
  EXPECT_NE(whole.error.find(
                "book.txt: more than 65,536 tokens, the most the overview shows (token 65,537 starts at byte 447,646)"),
            std::string::npos)
      << whole.error;

  const OpenedText first = open_text(current_, path, TextPart::FirstTokens);
  ASSERT_TRUE(first.scenario) << first.error;
  const std::vector<std::string> tokens = tokenize(first.scenario->sentence, first.scenario->tokenizer, limit);
  ASSERT_EQ(tokens.size(), static_cast<std::size_t>(limit));
  EXPECT_EQ(tokens.back(), "w" + std::to_string(limit - 1));
  EXPECT_EQ(first.scenario->sentence, text.substr(0, text.find(" \n\n  ")));
  EXPECT_EQ(first.scenario->title, "book.txt (first 65,536 tokens)");
  EXPECT_EQ(first.undo_label, "Open the first 65,536 tokens of book.txt");
  const std::string sizes = "(" + format_grouped(static_cast<long long>(first.scenario->sentence.size())) + " of its " +
                            format_grouped(static_cast<long long>(text.size())) + " bytes)";
  EXPECT_NE(first.notice.find("the first 65,536 tokens of " + path.string() + " " + sizes), std::string::npos)
      << first.notice;
}

TEST_F(OpenTextTest, TheCutFollowsTheScenariosTokenizer) {
  // Characters: 65,536 letters' worth is far fewer words.
  current_.tokenizer = TokenizerMode::Chars;
  const OpenedText first = open_text(current_, write("letters.txt", std::string(70000, 'a')), TextPart::FirstTokens);
  ASSERT_TRUE(first.scenario) << first.error;
  EXPECT_EQ(first.scenario->sentence.size(), static_cast<std::size_t>(kMaxSentenceTokens));
}

// Typing two words at the end of a text of exactly 65,536 tokens took the overview away; one
// click keeps its first 65,536 tokens.
TEST_F(OpenTextTest, ATypedTextPastTheLimitIsCutToItsFirst65536Tokens) {
  const int limit = kMaxSentenceTokens;
  current_.sentence = words(limit) + "hello there";
  const std::optional<Scenario> kept = keep_first_tokens(current_);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->sentence, words(limit).substr(0, words(limit).size() - 1)) << "the space at the cut goes too";
  EXPECT_TRUE(kept->mask.causal) << "the other settings stay";
  EXPECT_EQ(kept->title, "three words");
  EXPECT_EQ(tokenize(kept->sentence, kept->tokenizer, limit).size(), static_cast<std::size_t>(limit));
  EXPECT_FALSE(keep_first_tokens(*kept)) << "within the limit: nothing to cut";
  EXPECT_EQ(keep_first_tokens_label(), "Keep the first 65,536 tokens");
  EXPECT_FALSE(keep_first_tokens(Scenario{})) << "a short sentence";
  // Listed tokens are the user's: not cut behind their back.
  Scenario listed = current_;
  listed.tokens = std::vector<std::string>{"a", "b"};
  EXPECT_FALSE(keep_first_tokens(listed));
}

TEST_F(OpenTextTest, ACrossAttentionSourcePastTheLimitIsCutAndTheSentenceKept) {
  const int limit = kMaxSentenceTokens;
  current_.source = SourceSetting{};
  current_.source->sentence = std::string(static_cast<std::size_t>(limit) + 10, 'x');
  current_.source->tokenizer = TokenizerMode::Chars;
  current_.source->embeddings = Matrix(2, 2);
  const std::optional<Scenario> kept = keep_first_tokens(current_);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->sentence, current_.sentence);
  EXPECT_EQ(kept->source->sentence.size(), static_cast<std::size_t>(limit));
  EXPECT_FALSE(kept->source->embeddings) << "the source's embeddings are generated for its new length";
}

// A text only the overview shows is cut to the 4,096 tokens the views of every matrix take,
// sentence and source alike.
TEST_F(OpenTextTest, ATextOnlyTheOverviewShowsIsCutToTheMaterialisedViewsLimit) {
  const int limit = ProblemLimits{}.max_tokens;
  current_.sentence = words(20000);
  current_.source = SourceSetting{};
  current_.source->sentence = std::string(5000, 'x');
  current_.source->tokenizer = TokenizerMode::Chars;
  const std::optional<Scenario> kept = keep_first_tokens(current_, limit);
  ASSERT_TRUE(kept);
  EXPECT_EQ(kept->sentence, words(limit).substr(0, words(limit).size() - 1));
  EXPECT_EQ(kept->source->sentence.size(), static_cast<std::size_t>(limit));
  EXPECT_EQ(keep_first_tokens_label(limit), "Keep the first 4,096 tokens");
  EXPECT_FALSE(keep_first_tokens(*kept, limit)) << "within the limit: nothing to cut";
  EXPECT_FALSE(keep_first_tokens(current_)) << "within the overview's limit";
}

}  // namespace
}  // namespace attnviz::edits
