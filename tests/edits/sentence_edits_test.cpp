// The Sentence panel's edit logic: explicit embedding rows follow their tokens while the user
// types, globals past the end go, tokenizer errors leave the rest alone, chips toggle globals.
#include "app/edits/sentence_edits.h"

#include <gtest/gtest.h>

#include "core/scenario/problem.h"

namespace attnviz::edits {
namespace {

const std::vector<std::string> kAbc{"a", "b", "c"};

// New rows are filled with 9 so the tests see which rows are new.
std::vector<float> nines(std::string_view) { return {9.0f, 9.0f}; }

Matrix make(int rows, int cols, std::vector<float> values) {
  Matrix m(rows, cols);
  m.data = std::move(values);
  return m;
}

// "a b c" with d_model 2 and explicit embeddings row i = (i+1, -(i+1)).
Scenario abc() {
  Scenario s;
  s.sentence = "a b c";
  s.d_model = 2;
  s.embeddings = make(3, 2, {1, -1, 2, -2, 3, -3});
  return s;
}

TEST(AlignTokenRows, InsertDeleteReplace) {
  EXPECT_EQ(align_token_rows(kAbc, {"a", "x", "b", "c"}), (std::vector<int>{0, -1, 1, 2}));
  EXPECT_EQ(align_token_rows(kAbc, {"a", "c"}), (std::vector<int>{0, 2}));
  EXPECT_EQ(align_token_rows(kAbc, {"a", "b", "c", "d"}), (std::vector<int>{0, 1, 2, -1}));
  EXPECT_EQ(align_token_rows(kAbc, {"x", "y"}), (std::vector<int>{-1, -1}));
  EXPECT_EQ(align_token_rows(kAbc, {}), std::vector<int>{});
  EXPECT_EQ(align_token_rows({}, {"a"}), std::vector<int>{-1});
  // Repeated tokens: a row is never used twice.
  EXPECT_EQ(align_token_rows({"a", "a"}, {"a", "a", "a"}), (std::vector<int>{0, 1, -1}));
}

TEST(SetSentence, ExplicitRowsFollowTheirTokens) {
  const Scenario s = set_sentence(abc(), "a new b c", nines);
  EXPECT_EQ(*s.embeddings, make(4, 2, {1, -1, 9, 9, 2, -2, 3, -3}));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  const Scenario shorter = set_sentence(abc(), "a c", nines);
  EXPECT_EQ(*shorter.embeddings, make(2, 2, {1, -1, 3, -3}));
}

TEST(SetSentence, GeneratedEmbeddingsStayGenerated) {
  Scenario s;
  s.sentence = "a b";
  s = set_sentence(s, "a b c");
  EXPECT_FALSE(s.embeddings.has_value());
  EXPECT_EQ(s.sentence, "a b c");
}

TEST(SetSentence, NewRowsComeFromTheGeneratorByDefault) {
  Scenario reference;
  reference.sentence = "a new b c";
  reference.d_model = 2;
  const Matrix generated = build_problem(reference, "<test>").x;
  const Scenario s = set_sentence(abc(), "a new b c");
  EXPECT_EQ(s.embeddings->at(1, 0), generated.at(1, 0));
  EXPECT_EQ(s.embeddings->at(1, 1), generated.at(1, 1));
}

TEST(TokensErrorText, ATextPastTheOverviewsLimitSaysWhereInGroupedNumbers) {
  std::string text;
  for (int i = 0; i < 65537; ++i) text += "w ";
  const TokensOrError tokens = tokenize_text(text, TokenizerMode::Words);
  ASSERT_TRUE(tokens.too_long) << tokens.error;
  // 65,536 "w " before the first token past the limit.
  EXPECT_EQ(tokens_error_text(tokens), "This text has more than 65,536 tokens: token 65,537 starts at byte 131,072.");
}

TEST(TokensErrorText, OtherErrorsKeepTheTokenizersWordsAndATextThatSplitsHasNone) {
  const TokensOrError broken = tokenize_text("caf\xC3", TokenizerMode::Words);
  ASSERT_FALSE(broken.error.empty());
  EXPECT_EQ(tokens_error_text(broken), "Cannot split this text into tokens: " + broken.error);
  EXPECT_EQ(tokens_error_text(tokenize_text("a b c", TokenizerMode::Words)), "");
}

TEST(SetSentence, GlobalsPastTheEndAreDropped) {
  Scenario s = abc();
  s.mask.window = 1;
  s.mask.global = {0, 2};
  s = set_sentence(s, "a b", nines);
  EXPECT_EQ(s.mask.global, std::vector<int>{0});
  EXPECT_NO_THROW(build_problem(s, "<test>"));
}

TEST(SetSentence, KoreanWords) {
  Scenario s;
  s.sentence = "";
  s = set_sentence(s, "나는 학교에 간다");
  EXPECT_EQ(sentence_tokens_of(s).tokens, (std::vector<std::string>{"나는", "학교에", "간다"}));
}

TEST(SetSentence, ATokenizerErrorKeepsTheTextAndLeavesTheRest) {
  const Scenario s = set_sentence(abc(), "a \xff b", nines);
  EXPECT_EQ(s.sentence, "a \xff b");
  EXPECT_EQ(*s.embeddings, *abc().embeddings);
  const TokensOrError t = sentence_tokens_of(s);
  EXPECT_FALSE(t.error.empty());
  EXPECT_EQ(t.error_offset, 2u);
}

TEST(SetSentence, ExplicitTokensMakeTheSentenceACaption) {
  Scenario s = abc();
  s.tokens = kAbc;
  s = set_sentence(s, "anything at all", nines);
  EXPECT_EQ(s.embeddings->rows, 3);
  EXPECT_TRUE(sentence_tokens_of(s).explicit_tokens);
  const Scenario from_sentence = use_sentence_tokens(s, nines);
  EXPECT_FALSE(from_sentence.tokens.has_value());
  EXPECT_EQ(from_sentence.embeddings->rows, 3);  // "anything at all"
  EXPECT_NO_THROW(build_problem(from_sentence, "<test>"));
}

// Issue 11: typing is the first thing everyone tries, and with a preset (which lists its
// tokens) it changed nothing. The typed text becomes the tokens; the listed tokens' embeddings
// give way to generated ones; keep_tokens keeps the old behaviour.
TEST(TypeSentence, TypedTextReplacesListedTokensAndTheirEmbeddings) {
  Scenario s = abc();
  s.tokens = std::vector<std::string>{"A", "B", "C"};
  s.mask.window = 1;
  s.mask.global = {0, 2};
  const Scenario typed = type_sentence(s, "the cat", false);
  EXPECT_FALSE(typed.tokens.has_value());
  EXPECT_FALSE(typed.embeddings.has_value());
  EXPECT_EQ(typed.sentence, "the cat");
  EXPECT_EQ(typed.mask.global, std::vector<int>{0});  // token 2 is gone
  EXPECT_TRUE(gave_up_listed_tokens(s, typed));
  const Problem problem = build_problem(typed, "t");
  EXPECT_EQ(problem.tokens, (std::vector<std::string>{"the", "cat"}));
  EXPECT_EQ(problem.x.rows, 2);
  // Later keystrokes are ordinary sentence edits.
  const Scenario more = type_sentence(typed, "the cat sat", false);
  EXPECT_FALSE(gave_up_listed_tokens(typed, more));
  EXPECT_EQ(build_problem(more, "t").tokens.size(), 3u);
}

TEST(TypeSentence, KeepingTheListedTokensMakesTheTextACaption) {
  Scenario s = abc();
  s.tokens = std::vector<std::string>{"A", "B", "C"};
  const Scenario typed = type_sentence(s, "the cat", true);
  EXPECT_EQ(typed.tokens, s.tokens);
  EXPECT_EQ(typed.embeddings, s.embeddings);
  EXPECT_EQ(typed.sentence, "the cat");
  EXPECT_FALSE(gave_up_listed_tokens(s, typed));
}

TEST(TypeSentence, WithoutListedTokensRowsFollowTheirTokensAsBefore) {
  const Scenario typed = type_sentence(abc(), "a b c d", false);
  ASSERT_TRUE(typed.embeddings.has_value());
  EXPECT_EQ(typed.embeddings->rows, 4);
  EXPECT_EQ(typed.embeddings->at(2, 0), 3.0f);
}

TEST(SetTokenizer, CharsSplitsEveryCodePointAndRowsFollow) {
  Scenario s = abc();
  s.sentence = "ab";
  s.embeddings = make(1, 2, {5, 6});  // one word "ab"
  s = set_tokenizer(s, TokenizerMode::Chars, nines);
  EXPECT_EQ(s.tokenizer, TokenizerMode::Chars);
  EXPECT_EQ(*s.embeddings, make(2, 2, {9, 9, 9, 9}));
  EXPECT_NO_THROW(build_problem(s, "<test>"));
}

TEST(ClickToken, TogglesAGlobalAndGivesAWindow) {
  Scenario s = click_token(abc(), 1);
  EXPECT_EQ(s.mask.global, std::vector<int>{1});
  EXPECT_TRUE(s.mask.window.has_value());
  EXPECT_NO_THROW(build_problem(s, "<test>"));
  s = click_token(s, 1);
  EXPECT_TRUE(s.mask.global.empty());
}

TEST(ChipTooltip, SaysWhatAClickWillDo) {
  MaskSetting mask;
  const std::string local = chip_tooltip(3, "dessert", mask);
  EXPECT_NE(local.find("token 3 \u201Cdessert\u201D"), std::string::npos) << local;
  EXPECT_NE(local.find("Click to make it a global token"), std::string::npos) << local;
  EXPECT_NE(local.find("window of radius 1"), std::string::npos) << local;
  mask.window = 2;
  mask.global = {3};
  EXPECT_NE(chip_tooltip(3, "dessert", mask).find("global: sees every token"), std::string::npos);
}

TEST(ChipTooltip, QuotesAPartOfAVeryLongToken) {
  const std::string tooltip = chip_tooltip(0, std::string(1'000'000, 'a'), MaskSetting{});
  EXPECT_LT(tooltip.size(), 400u);
  EXPECT_NE(tooltip.find("token 0 \u201C" + std::string(200, 'a') + "\u2026\u201D"), std::string::npos) << tooltip;
}

TEST(TooLargeToEdit, TextsOfMegabytesOrWithAVeryLongWordAreShownReadOnly) {
  EXPECT_EQ(too_large_to_edit("the cat sat"), "");
  std::string book;
  while (book.size() < kMaxEditableBytes) book += "the cat sat on the mat\n";
  EXPECT_EQ(too_large_to_edit(book.substr(0, kMaxEditableBytes)), "");
  const std::string large = too_large_to_edit(book + "more");
  EXPECT_NE(large.find("it is 2.1 MB (the box edits texts up to 2 MiB)"), std::string::npos) << large;
  // A word counts characters, not bytes: 2,000 Hangul syllables are 6,000 bytes and still fit.
  std::string syllables;
  for (std::size_t i = 0; i < kMaxEditableWord; ++i) syllables += "가";
  EXPECT_EQ(too_large_to_edit("a " + syllables + " b"), "");
  EXPECT_EQ(too_large_to_edit("a " + syllables + "가 b"),
            "it has a word of 2,001 characters without a space (the box edits words of up to 2,000)");
  EXPECT_NE(too_large_to_edit(std::string(5000, 'x')).find("a word of 5,000 characters"), std::string::npos);
}

TEST(ChipLayout, WrapsWhenTheNextChipDoesNotFit) {
  EXPECT_TRUE(chip_fits_on_line(100, 4, 50, 154));
  EXPECT_FALSE(chip_fits_on_line(100, 4, 50, 153));
}

}  // namespace
}  // namespace attnviz::edits
