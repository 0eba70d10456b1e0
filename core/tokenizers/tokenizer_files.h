#pragma once
// Tokenizers from the files a model comes with:
//   - a Hugging Face folder: tokenizer.json (BPE or WordPiece, with its normalizer, pre-tokenizer
//     and post-processor), else vocab.json + merges.txt (GPT-2), else vocab.txt (BERT, with
//     tokenizer_config.json's do_lower_case);
//   - a GGUF file's metadata (tokenizer.ggml.*), gathered by core/model into GgufTokenizerData.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/tokenizers/tokenizer.h"

namespace attnviz::tokenizers {

// Which tokenizer a folder without tokenizer.json is expected to have.
enum class TokenizerHint { ByteLevelBpe, SentencePieceBpe, WordPiece };

// Throws InputError naming the folder (or the file) and the field: no tokenizer files at all,
// a tokenizer.json of a kind attnviz does not read, a malformed file.
std::unique_ptr<Tokenizer> load_tokenizer_folder(const std::filesystem::path& folder, TokenizerHint hint);

// One tokenizer file directly (tokenizer.json), for tests and the fuzzer.
std::unique_ptr<Tokenizer> parse_tokenizer_json(std::string_view text, const std::string& origin);

struct GgufTokenizerData {
  std::string model;  // tokenizer.ggml.model: "gpt2" (byte-level BPE) or "llama" (SentencePiece)
  std::string pre;    // tokenizer.ggml.pre: the split pattern of a byte-level vocabulary
  std::vector<std::string> tokens;
  std::vector<float> scores;
  std::vector<int> token_types;  // 1 normal, 2 unknown, 3 control, 4 user-defined, 5 unused, 6 byte
  std::vector<std::string> merges;
  std::optional<int> bos, eos, unk;
  std::optional<bool> add_bos, add_eos, add_space_prefix;
};

// Throws InputError(origin, "tokenizer.ggml.…", ...).
std::unique_ptr<Tokenizer> make_gguf_tokenizer(GgufTokenizerData data, const std::string& origin);

}  // namespace attnviz::tokenizers
