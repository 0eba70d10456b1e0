#include "core/tokenizers/wordpiece_tokenizer.h"

#include <gtest/gtest.h>

#include "core/common/error.h"

namespace attnviz::tokenizers {
namespace {

const std::vector<std::string> kVocabulary = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "caf", "##e", "the",
                                              "cat", "##s", "!", "注", "意", "Cafe", "naive", "n", "##a"};

std::vector<std::string> tokens(const std::string& text, WordPieceSettings settings = {}) {
  return WordPieceTokenizer(kVocabulary, std::move(settings), "<test>").encode(text, "--text").tokens;
}

using Tokens = std::vector<std::string>;

TEST(WordPieceTokenizer, UncasedLowersAndStripsAccents) {
  EXPECT_EQ(tokens("Café cats!"), (Tokens{"[CLS]", "caf", "##e", "cat", "##s", "!", "[SEP]"}));
}

TEST(WordPieceTokenizer, CasedKeepsCaseAndAccents) {
  WordPieceSettings cased;
  cased.lower_case = false;
  cased.strip_accents = false;
  EXPECT_EQ(tokens("Cafe Café", cased), (Tokens{"[CLS]", "Cafe", "[UNK]", "[SEP]"}));
}

TEST(WordPieceTokenizer, IdeographsAreWordsOfTheirOwn) {
  EXPECT_EQ(tokens("注意"), (Tokens{"[CLS]", "注", "意", "[SEP]"}));
}

TEST(WordPieceTokenizer, AWordWithAMissingPieceIsOneUnknown) {
  EXPECT_EQ(tokens("catz the"), (Tokens{"[CLS]", "[UNK]", "the", "[SEP]"}));
}

TEST(WordPieceTokenizer, SpecialTokensStayWholeAndASepStartsSegmentOne) {
  const Encoding e = WordPieceTokenizer(kVocabulary, {}, "<test>").encode("the [MASK] [SEP] cat", "--text");
  EXPECT_EQ(e.tokens, (Tokens{"[CLS]", "the", "[MASK]", "[SEP]", "cat", "[SEP]"}));
  EXPECT_EQ(e.type_ids, (std::vector<int>{0, 0, 0, 0, 1, 1}));
}

TEST(WordPieceTokenizer, AVocabularyWithoutItsSpecialTokensIsRefused) {
  EXPECT_THROW(WordPieceTokenizer({"the", "cat"}, {}, "vocab.txt"), InputError);
}

}  // namespace
}  // namespace attnviz::tokenizers
