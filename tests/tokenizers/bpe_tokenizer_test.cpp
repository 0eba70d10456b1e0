#include "core/tokenizers/bpe_tokenizer.h"

#include <gtest/gtest.h>

#include <chrono>

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
  for (const char* piece : {"▁", "t", "h", "e", "c", "a", "▁t", "he", "▁the", "at", "▁c", "▁cat"})
    v.tokens.push_back(piece);
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
  const std::vector<int> ids = {tokenizer.find("<0xED>"), tokenizer.find("<0x95>"), tokenizer.find("</s>"),
                                tokenizer.find("<0x9C>")};
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

// A 60 MB text was tokenized whole before the limit was applied (4.5 GB, 25 s): a text longer than
// the limit times the longest token's bytes is refused at once, and any other stops at the limit.
TEST(BpeTokenizer, ATextSurelyPastTheLimitIsRefusedWithoutTokenizingIt) {
  const BpeTokenizer tokenizer(sentencepiece_vocabulary(false), sentencepiece_settings(), "<test>");
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)tokenizer.encode(std::string(std::size_t{64} << 20, 'a'), "--text");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(),
              "makes more than 4096 tokens: it has 67108864 bytes and no token of this tokenizer covers more than 6; "
              "at most 4096 are computed");
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  // Within that bound but past the limit: the words after the limit are not encoded.
  try {
    std::string words;
    for (int i = 0; i < 5000; ++i) words += "the ";
    (void)tokenizer.encode(words, "--text");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "makes more than 4096 tokens; at most 4096 are computed");
  }
  // Exactly at the limit: <s> and 4095 words.
  std::string words;
  for (int i = 0; i < 4095; ++i) words += i ? " the" : "the";
  EXPECT_EQ(tokenizer.encode(words, "--text").ids.size(), 4096u);
  EXPECT_EQ(tokenizer.encode("the cat", "--text", 3).ids.size(), 3u);
  EXPECT_THROW((void)tokenizer.encode("the cat", "--text", 2), InputError);
}

// An unknown stretch of any length can be one <unk>: no bound on the bytes of a token then.
TEST(BpeTokenizer, WithUnknownsThatFuseTheTextIsNotRefusedForItsLength) {
  BpeVocabulary v = sentencepiece_vocabulary(false);
  BpeSettings settings = sentencepiece_settings();
  settings.byte_fallback = false;
  const BpeTokenizer tokenizer(std::move(v), settings, "<test>");
  EXPECT_EQ(tokenizer.encode(std::string(100000, 'z'), "--text").tokens,
            (std::vector<std::string>{"<s>", "␣", "<unk>"}));
  // But the text is bounded then: a 60 MB word of unknowns was held whole as code points and symbols.
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)tokenizer.encode(std::string((std::size_t{60} << 20), 'z'), "--text");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(),
              "has 62914560 bytes; with this tokenizer (SentencePiece BPE, unknown characters fused into one <unk>) "
              "a text has at most 1048576 bytes");
  }
  // Generous (sanitizers, a loaded machine): a bound on a blow-up, not a measurement.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_EQ(tokenizer.encode(std::string(kMaxTextBytesWhereUnknownsFuse - 1, 'z'), "--text").tokens.size(), 3u);
}

// 100,000 added tokens were compared one by one at each character: 13 s for 64 KB of text.
TEST(BpeTokenizer, ManyAddedTokensAreFoundInTimeLinearInTheText) {
  BpeVocabulary v = sentencepiece_vocabulary(false);
  for (int i = 0; i < 100000; ++i) {
    v.special_ids.push_back(static_cast<int>(v.tokens.size()));
    v.tokens.push_back("<|zz_" + std::to_string(i) + "|>");
  }
  BpeSettings settings = sentencepiece_settings();
  settings.byte_fallback = false;  // unknowns fuse: no length bound, so the whole text is scanned
  const BpeTokenizer tokenizer(std::move(v), settings, "<test>");
  std::string text;
  // A prefix of thousands of them, never whole, to the longest text this tokenizer reads.
  while (text.size() + 6 + 12 <= kMaxTextBytesWhereUnknownsFuse) text += "<|zz_9";
  text += "<|zz_99999|>";
  const auto start = std::chrono::steady_clock::now();
  const Encoding encoding = tokenizer.encode(text, "--text");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_EQ(encoding.tokens, (std::vector<std::string>{"<s>", "␣", "<unk>", "<|zz_99999|>"}));
  EXPECT_EQ(tokenizer.encode("a<|zz_12|><|zz_1|><|zz_1", "--text").tokens,
            (std::vector<std::string>{"<s>", "␣", "a", "<|zz_12|>", "<|zz_1|>", "<unk>"}));
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
