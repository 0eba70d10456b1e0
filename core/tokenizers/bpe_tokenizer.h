#pragma once
// Byte-pair encoding as GPT-2 (byte-level), Qwen2 and Llama 3 (byte-level with their own split
// patterns) and the Llama family's SentencePiece models (characters, ▁ for spaces, bytes as
// <0xNN> tokens where a piece is not in the vocabulary) use it. Merges are applied lowest rank
// first (tokenizer.json, merges.txt) or highest score first (a GGUF file's SentencePiece
// scores), leftmost first among equals.

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/tokenizers/pretokenize.h"
#include "core/tokenizers/token_label.h"
#include "core/tokenizers/token_trie.h"
#include "core/tokenizers/tokenizer.h"

namespace attnviz::tokenizers {

struct BpeSettings {
  bool byte_level = true;             // GPT-2's byte-to-character table; false: SentencePiece pieces
  std::optional<SplitPattern> split;  // byte-level pre-tokenizer (none: the text is one word)
  bool add_prefix_space = false;      // byte-level: a space before the text, as GPT-2's option
  bool nfc = false;                   // Qwen2 normalises to NFC first
  bool metaspace = false;             // SentencePiece: spaces become ▁
  bool prepend_metaspace = false;     // SentencePiece's dummy prefix: ▁ before the text
  bool metaspace_split = false;       // split into words before each ▁
  bool byte_fallback = false;         // pieces missing from the vocabulary as <0xNN> tokens
  std::optional<int> unk_id;          // otherwise, an unknown piece becomes this id
  std::vector<int> prefix_ids;        // added before the text (Llama's <s>)
  std::vector<int> suffix_ids;
};

struct BpeVocabulary {
  std::vector<std::string> tokens;                          // by id, as the vocabulary spells them
  std::vector<std::pair<std::string, std::string>> merges;  // in rank order
  std::vector<float> scores;                                // by id, used when there are no merges (none: no merging)
  std::vector<int> special_ids;                             // split out of the text as they are
};

// The longest text a tokenizer whose unknown characters fuse into one <unk> reads (its token
// count does not bound the text's length).
inline constexpr std::size_t kMaxTextBytesWhereUnknownsFuse = std::size_t{1} << 20;

class BpeTokenizer final : public Tokenizer {
 public:
  // Throws InputError(origin, field, ...) for a merge of tokens the vocabulary lacks, a
  // duplicate token, ids out of range.
  BpeTokenizer(BpeVocabulary vocabulary, BpeSettings settings, const std::string& origin);

  [[nodiscard]] Encoding encode(std::string_view text, const std::string& where = "--text",
                                int max_tokens = kMaxModelTokens) const override;
  [[nodiscard]] std::string label(int id) const override;
  [[nodiscard]] std::vector<std::string> labels(std::span<const int> ids) const override;
  [[nodiscard]] int vocab_size() const override { return static_cast<int>(tokens_.size()); }
  [[nodiscard]] std::string description() const override;
  [[nodiscard]] int find(std::string_view token) const override;

 private:
  struct Merge {
    double rank;
    int id;
  };
  void encode_word(std::u32string_view word, std::vector<int>& ids) const;
  // Encodes words of the segment until `ids` holds `stop_at` ids; returns whether it stopped
  // before the segment's end.
  bool encode_segment(std::string_view segment, bool first, std::size_t stop_at, std::vector<int>& ids) const;
  std::optional<Merge> merge_of(int left, int right) const;
  std::size_t text_bytes_bound() const;
  void emit_unknown(const std::string& piece, std::vector<int>& ids) const;
  // The text an id stands for (bytes, ▁ as a space); special tokens as they are, not text.
  TokenPiece piece(int id) const;

  std::vector<std::string> tokens_;
  std::unordered_map<std::string, int> ids_;
  std::unordered_map<std::uint64_t, Merge> merges_;  // (left id << 32 | right id) → merge
  std::vector<float> scores_;
  std::vector<int> special_ids_;     // split out of the text as they are
  std::vector<bool> is_special_;     // by id
  TokenTrie special_trie_;           // their text → id, the longest match at each character
  std::size_t max_token_bytes_ = 0;  // the most bytes of the text one token covers; 0: no bound
  std::vector<int> byte_ids_;        // <0xNN> token of each byte (byte fallback), -1 where missing
  BpeSettings settings_;
};

// GPT-2's table from bytes to the printable characters its vocabulary spells them with
// ("Ġ" for a space), and back.
const std::vector<char32_t>& byte_to_unicode();
std::optional<unsigned char> unicode_to_byte(char32_t c);

}  // namespace attnviz::tokenizers
