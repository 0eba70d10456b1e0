#pragma once
// A pretrained model's tokenizer: text to the ids the model was trained on, and each id as a
// label people can read. Implemented by BpeTokenizer (GPT-2's byte-level BPE, the Llama
// family's SentencePiece BPE with byte fallback, Qwen2's and Llama 3's byte-level BPE) and
// WordPieceTokenizer (BERT).

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::tokenizers {

// At most this many tokens from one text (the attention of every head is kept).
inline constexpr int kMaxModelTokens = 4096;

struct Encoding {
  std::vector<int> ids;
  std::vector<std::string> tokens;  // readable labels (token_label.h), one per id
  std::vector<int> type_ids;        // BERT's segment of each token (0, 1 after the first [SEP]); 0 elsewhere
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;
  Tokenizer() = default;
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // The ids of `text` with the special tokens the model expects around it (GPT-2: none; Llama:
  // <s> first; BERT: [CLS] … [SEP]). Throws InputError("<text>", where, ...) for text that is
  // not valid UTF-8 (naming the byte) or makes more than `max_tokens` tokens (at most
  // kMaxModelTokens). The text is tokenized a word at a time and the work stops once the limit is
  // passed, so a text of any length costs time and memory bounded by the limit: a text longer
  // than max_tokens × the longest token's bytes is refused before any tokenizing (a 60 MB text
  // once took 4.5 GB and 25 s to be refused).
  [[nodiscard]] virtual Encoding encode(std::string_view text, const std::string& where = "--text",
                                        int max_tokens = kMaxModelTokens) const = 0;
  // The readable label of one id on its own; "<id N>" outside the vocabulary.
  [[nodiscard]] virtual std::string label(int id) const = 0;
  // The labels of consecutive ids of one text (as in Encoding::tokens): a character cut between
  // tokens is read across them (token_label.h). By default each id's own label.
  [[nodiscard]] virtual std::vector<std::string> labels(std::span<const int> ids) const;
  // The label of `id` following `before` (a candidate next token).
  [[nodiscard]] std::string label_after(std::span<const int> before, int id) const;
  [[nodiscard]] virtual int vocab_size() const = 0;
  // "byte-level BPE", "SentencePiece BPE (byte fallback)", "WordPiece (uncased)", ...
  [[nodiscard]] virtual std::string description() const = 0;
  // The id of a token given as the vocabulary spells it ("[MASK]", "<s>"), or -1.
  [[nodiscard]] virtual int find(std::string_view token) const = 0;
};

// The error of a text past the limit: "makes 5000 tokens; at most 4096 are computed", or, where
// the tokenizer stopped at the limit, "makes more than 4096 tokens; ..." with `why` when given.
[[noreturn]] void throw_too_many_tokens(const std::string& where, std::size_t count, int max_tokens, bool stopped,
                                        const std::string& why = "");

// The tokens of a text of `bytes` bytes are at least bytes / max_token_bytes (no token covers more
// of the text than that): whether that alone is past `max_tokens`.
bool surely_too_many_tokens(std::size_t bytes, std::size_t max_token_bytes, int max_tokens);

}  // namespace attnviz::tokenizers
