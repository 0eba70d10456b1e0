#pragma once
// BERT's tokenizer: its basic tokenizer (control characters dropped, spaces around CJK
// ideographs, lower case and accents stripped for uncased models, punctuation split off), then
// WordPiece's greedy longest match with "##" continuations, between [CLS] and [SEP]. Special
// tokens typed in the text ([MASK], [SEP]) stay whole; a [SEP] starts segment 1.

#include <string>
#include <unordered_map>
#include <vector>

#include "core/tokenizers/token_trie.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::tokenizers {

struct WordPieceSettings {
  bool lower_case = true;     // uncased models; strips accents too
  bool strip_accents = true;  // follows lower_case unless a tokenizer file says otherwise
  bool split_cjk = true;
  int max_chars_per_word = 100;
  std::string continuing_prefix = "##";
  std::string unk = "[UNK]", cls = "[CLS]", sep = "[SEP]";
  std::vector<std::string> specials = {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
};

class WordPieceTokenizer final : public Tokenizer {
 public:
  // Throws InputError(origin, ...) when the vocabulary lacks [UNK], [CLS] or [SEP].
  WordPieceTokenizer(std::vector<std::string> vocabulary, WordPieceSettings settings, const std::string& origin);

  [[nodiscard]] Encoding encode(std::string_view text, const std::string& where = "--text",
                                int max_tokens = kMaxModelTokens) const override;
  [[nodiscard]] std::string label(int id) const override;
  [[nodiscard]] int vocab_size() const override { return static_cast<int>(tokens_.size()); }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] int find(std::string_view token) const override;

 private:
  std::vector<std::u32string> basic_words(std::u32string_view text) const;
  void word_pieces(const std::u32string& word, std::vector<int>& ids) const;
  // The basic tokenizer and WordPiece over a stretch without special tokens, a piece at a time,
  // until `ids` holds `stop_at` ids; returns whether it stopped before the stretch's end.
  bool encode_stretch(std::string_view text, std::size_t stop_at, std::vector<int>& ids) const;

  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int> ids_;
  WordPieceSettings settings_;
  int unk_ = 0;
  int cls_ = 0;
  int sep_ = 0;
  TokenTrie specials_;       // typed in the text: kept whole (the longest match)
  TokenTrie word_starts_;    // the vocabulary's pieces that may start a word
  TokenTrie continuations_;  // those after the continuing prefix ("##ing" as "ing")
};

}  // namespace attnviz::tokenizers
