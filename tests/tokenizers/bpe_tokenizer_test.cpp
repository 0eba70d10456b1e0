#include "core/tokenizers/bpe_tokenizer.h"

#include <gtest/gtest.h>

#include "core/common/error.h"

namespace attnviz::tokenizers {
namespace {

// A SentencePiece-style vocabulary: specials, the 256 byte tokens, characters and merges.
BpeVocabulary sentencepiece_vocabulary(bool with_scores) {
  BpeVocabulary v;
  v.tokens = {"<unk>", "<s>", "</s>"};
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    v.tokens.push_back(name);
  }
  for (const char* piece : {"▁", "t", "h", "e", "c", "a", "▁t", "he", "▁the", "at", "▁c", "▁cat"}) v.tokens.push_back(piece);
  if (with_scores) {
    v.scores.assign(v.tokens.size(), -1000.0f);
    const std::vector<std::string> merged = {"▁t", "he", "▁the", "at", "▁c", "▁cat"};
    for (std::size_t rank = 0; rank < merged.size(); ++rank) {
      for (std::size_t id = 0; id < v.tokens.size(); ++id) {
        if (v.tokens[id] == merged[rank]) v.scores[id] = -static_cast<float>(rank);
      }
    }
  } else {
    v.merges = {{"▁", "t"}, {"h", "e"}, {"▁t", "he"}, {"a", "t"}, {"▁", "c"}, {"▁c", "at"}};
  }
  v.special_ids = {0, 1, 2};
  return v;
}

BpeSettings sentencepiece_settings() {
  BpeSettings s;
  s.byte_level = false;
  s.metaspace = true;
  s.prepend_metaspace = true;
  s.byte_fallback = true;
  s.unk_id = 0;
  s.prefix_ids = {1};
  return s;
}

TEST(BpeTokenizer, SentencePieceMergesAndScoresGiveTheSamePieces) {
  const BpeTokenizer by_merges(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  const BpeTokenizer by_scores(sentencepiece_vocabulary(true), sentencepiece_settings(), "<test>");
  const Encoding a = by_merges.encode("the cat", "--text");
  const Encoding b = by_scores.encode("the cat", "--text");
  EXPECT_EQ(a.ids, b.ids);
  EXPECT_EQ(a.tokens, (std::vector<std::string>{"<s>", "␣the", "␣cat"}));
}

TEST(BpeTokenizer, PiecesMissingFromTheVocabularyFallBackToBytes) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  const Encoding encoding = tokenizer.encode("a 한", "--text");
  EXPECT_EQ(encoding.tokens, (std::vector<std::string>{"<s>", "␣", "a", "␣", "한₁", "한₂", "한₃"}));
  EXPECT_EQ(tokenizer.label(encoding.ids[4]), "<0xED>");  // on its own a byte says no more
  EXPECT_EQ(tokenizer.label(tokenizer.find("<0x41>")), "A");
}

TEST(BpeTokenizer, ACandidateTokenIsLabelledAfterTheTokensBeforeIt) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  std::vector<int> before = tokenizer.encode("the", "--text").ids;
  before.insert(before.end(), {tokenizer.find("<0xED>"), tokenizer.find("<0x95>")});  // 한's first two bytes
  EXPECT_EQ(tokenizer.label_after(before, tokenizer.find("<0x9C>")), "한₃");
  EXPECT_EQ(tokenizer.label_after({}, tokenizer.find("<0x9C>")), "<0x9C>");
}

TEST(BpeTokenizer, ASpecialTokenBreaksACharacterAcrossIt) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  const std::vector<int> ids = {tokenizer.find("<0xED>"), tokenizer.find("<0x95>"), tokenizer.find("</s>"), tokenizer.find("<0x9C>")};
  EXPECT_EQ(tokenizer.labels(ids), (std::vector<std::string>{"<0xED>", "<0x95>", "</s>", "<0x9C>"}));
}

TEST(BpeTokenizer, SpecialTokensInTheTextStayWhole) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  const Encoding encoding = tokenizer.encode("the</s>cat", "--text");
  EXPECT_EQ(encoding.tokens, (std::vector<std::string>{"<s>", "␣the", "</s>", "c", "at"}));
}

TEST(BpeTokenizer, InvalidUtf8IsBadInputNamingTheByte) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  try {
    (void)tokenizer.encode("ab\xC3", "--text");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.pointer(), "--text");
    EXPECT_NE(e.problem().find("byte 2"), std::string::npos) << e.what();
  }
}

TEST(BpeTokenizer, MoreThanTheLimitOfTokensIsBadInput) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  EXPECT_THROW((void)tokenizer.encode(std::string(kMaxModelTokens, 'a'), "--text"), InputError);
}

TEST(BpeTokenizer, AMergeOfUnknownTokensIsAnErrorNamingIt) {
  BpeVocabulary v = sentencepiece_vocabulary(false);
  v.merges.emplace_back("x", "y");
  try {
    const BpeTokenizer tokenizer(std::move(v), sentencepiece_settings(), "tokenizer.json");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.pointer(), "merges/6");
  }
}

TEST(BpeTokenizer, ByteLevelVocabularySpellsBytesWithPrintableCharacters) {
  EXPECT_EQ(byte_to_unicode()[' '], U'Ġ');
  EXPECT_EQ(byte_to_unicode()['\n'], U'Ċ');
  EXPECT_EQ(byte_to_unicode()['a'], U'a');
  for (int b = 0; b < 256; ++b) EXPECT_EQ(unicode_to_byte(byte_to_unicode()[static_cast<std::size_t>(b)]), b);
}

}  // namespace
}  // namespace attnviz::tokenizers
