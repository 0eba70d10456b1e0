#include "core/tokenizers/wordpiece_tokenizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "core/common/error.h"

namespace attnviz::tokenizers {
namespace {

const std::vector<std::string> kVocabulary = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "caf",
                                              "##e",   "the",   "cat",   "##s",   "!",      "注",
                                              "意",    "Cafe",  "naive", "n",     "##a"};

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

// Greedy longest match tried every end of a word: 4,100 words of 10,000 characters took over a
// minute with max_input_chars_per_word 10000. Each piece is now a walk down a trie.
TEST(WordPieceTokenizer, LongWordsAreSplitInTimeLinearInTheirLength) {
  WordPieceSettings settings;
  settings.max_chars_per_word = 10000;
  const WordPieceTokenizer tokenizer({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "n", "##a", "##aa"}, settings, "<test>");
  const std::string word = "n" + std::string(9998, 'a') + "z";  // every piece found but the last: one [UNK]
  std::string text;
  for (int i = 0; i < 300; ++i) text += word + " ";
  const auto start = std::chrono::steady_clock::now();
  const Encoding encoding = tokenizer.encode(text, "--text");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  EXPECT_EQ(encoding.ids.size(), 302u);
  EXPECT_EQ(encoding.tokens[1], "[UNK]");
  EXPECT_EQ(tokenizer.encode("naaaaa", "--text").tokens, (Tokens{"[CLS]", "n", "##aa", "##aa", "##a", "[SEP]"}));
}

// The words after the limit are not split: a 60 MB text is refused in bounded memory.
TEST(WordPieceTokenizer, ATextPastTheLimitStopsThere) {
  std::string text;
  while (text.size() < (std::size_t{16} << 20)) text += "the cat, ";
  try {
    (void)WordPieceTokenizer(kVocabulary, {}, "<test>").encode(text, "--text");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "makes more than 4096 tokens; at most 4096 are computed");
  }
  std::string words;
  for (int i = 0; i < 4094; ++i) words += "the ";
  EXPECT_EQ(WordPieceTokenizer(kVocabulary, {}, "<test>").encode(words, "--text").ids.size(), 4096u);
  EXPECT_THROW((void)WordPieceTokenizer(kVocabulary, {}, "<test>").encode(words + "cat", "--text"), InputError);
}

// A 60 MB word without spaces or punctuation was held whole (1.4 GB, 100 s) to become one [UNK]:
// the text is read in pieces cut between two letters, the word carried across them.
TEST(WordPieceTokenizer, AWordLongerThanAPieceIsCarriedAcrossPieces) {
  const auto start = std::chrono::steady_clock::now();
  const std::string huge(std::size_t{4} << 20, 'a');  // 64 pieces
  EXPECT_EQ(tokens("the " + huge + " cat"), (Tokens{"[CLS]", "the", "[UNK]", "cat", "[SEP]"}));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  // Cut inside a word that fits: the same pieces as uncut.
  WordPieceSettings settings;
  settings.max_chars_per_word = 10000;
  const WordPieceTokenizer tokenizer({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "n", "##a", "##aa", "##b"}, settings,
                                     "<test>");
  const std::string word = "n" + std::string((std::size_t{64} << 10) + 5, 'a') + "b";  // past max_chars_per_word: [UNK]
  EXPECT_EQ(tokenizer.encode(std::string(65530, ' ') + word, "--text").tokens, (Tokens{"[CLS]", "[UNK]", "[SEP]"}));
  const std::string fits = "n" + std::string(2000, 'a') + "b";  // cut after 6 of its letters
  const Encoding cut = tokenizer.encode(std::string((std::size_t{64} << 10) - 6, ' ') + fits, "--text");
  ASSERT_EQ(cut.tokens.size(), 1004u);  // [CLS] n, 1000 ##aa, ##b [SEP]
  EXPECT_EQ(cut.tokens[1], "n");
  EXPECT_EQ(cut.tokens[2], "##aa");
  EXPECT_EQ(cut.tokens[1002], "##b");
}

// A run without ASCII spaces or punctuation (Chinese text, a long Hangul word) was held whole: it
// is cut after non-ASCII spaces, punctuation and CJK ideographs, and between two letters.
TEST(WordPieceTokenizer, NonAsciiTextIsReadInPiecesWithTheTokensOfTheWholeText) {
  WordPieceSettings cased;
  cased.lower_case = false;
  cased.strip_accents = false;
  const WordPieceTokenizer tokenizer({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "고양이", "##가", "中", "。"}, cased,
                                     "<test>");
  std::string sentences;  // ideographs and full stops only: no ASCII at all
  for (int i = 0; i < 433; ++i) sentences += "中中。";
  EXPECT_EQ(tokenizer.encode(sentences, "--text").ids.size(), 1301u);
  while (sentences.size() < (std::size_t{16} << 20)) sentences += sentences;
  const auto start = std::chrono::steady_clock::now();
  try {
    (void)tokenizer.encode(sentences, "--text");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.problem(), "makes more than 4096 tokens; at most 4096 are computed");
  }
  // Generous (sanitizers, a loaded machine): a bound on a blow-up, not a measurement.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  // A Hangul word of 300,000 syllables: one [UNK], read 64 KB at a time; the words after it count.
  std::string word;
  for (int i = 0; i < 100000; ++i) word += "고양이";
  EXPECT_EQ(tokenizer.encode("고양이가 " + word + " 고양이", "--text").tokens,
            (Tokens{"[CLS]", "고양이", "##가", "[UNK]", "고양이", "[SEP]"}));
  // Cut between two letters of a word that fits: the same pieces as uncut (accents stripped first).
  WordPieceSettings long_words;
  long_words.max_chars_per_word = 100000;
  const std::string hundred = "##" + std::string(100, 'e');
  const WordPieceTokenizer accents({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "e", "##e", hundred}, long_words, "<test>");
  std::string accented = "E";
  for (int i = 0; i < 40000; ++i) accented += "é";  // two bytes each: the 64 KB cut falls inside
  const Encoding cut = accents.encode(accented, "--text");
  ASSERT_EQ(cut.tokens.size(), 403u);  // [CLS] e, 400 × ##e…e, [SEP]
  EXPECT_EQ(cut.tokens[1], "e");
  EXPECT_EQ(std::count(cut.tokens.begin(), cut.tokens.end(), hundred), 400);
}

TEST(WordPieceTokenizer, AVocabularyWithoutItsSpecialTokensIsRefused) {
  EXPECT_THROW(WordPieceTokenizer({"the", "cat"}, {}, "vocab.txt"), InputError);
}

}  // namespace
}  // namespace attnviz::tokenizers
