#include "core/train/initial_model.h"

#include <algorithm>
#include <cmath>

#include "core/common/error.h"
#include "core/model/model.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::train {
namespace fs = std::filesystem;

namespace {

// At most this many bytes go to the tokenizer at once: never more tokens than it takes.
constexpr std::size_t kPieceBytes = static_cast<std::size_t>(tokenizers::kMaxModelTokens);

void check_trainable(const model::ModelConfig& c, const std::string& origin, int context) {
  if (c.format != "safetensors") {
    throw InputError(origin, "--init",
                     "is a " + c.format +
                         " file: --init takes a model folder (config.json, .safetensors and the "
                         "tokenizer's files), whose tokenizer the trained folders copy");
  }
  if (c.architecture != model::Architecture::Gpt2) {
    throw InputError(
        origin, "config.json/architectures",
        "is " + c.architecture_name + " (" + c.family() + "): attnviz train continues a GPT-2 (GPT2LMHeadModel)");
  }
  if (!c.tie_word_embeddings)
    throw InputError(origin, "config.json/tie_word_embeddings",
                     "is false: attnviz train ties the unembedding to the token embedding, as GPT-2 does");
  if (std::abs(c.norm_eps - 1e-5) > 1e-12)
    throw InputError(origin, "config.json/layer_norm_epsilon", "is not 1e-5, the LayerNorm epsilon attnviz train uses");
  if (c.max_positions < context)
    throw InputError(origin, "config.json/n_positions",
                     "is " + std::to_string(c.max_positions) + ": shorter than --context " + std::to_string(context));
}

void copy_norm(const model::Norm& norm, int size, float* weight, float* bias) {
  std::copy_n(norm.weight, size, weight);
  if (norm.bias != nullptr)
    std::copy_n(norm.bias, size, bias);
  else
    std::fill_n(bias, size, 0.0f);
}

// A Conv1D matrix [in, out] (row-major, `row` floats a row) from output `first` on, and its bias.
void copy_linear(const model::Linear& linear, float* weight, int row, int first, float* bias) {
  std::vector<float> column(static_cast<std::size_t>(linear.in));
  for (int j = 0; j < linear.out; ++j) {
    linear.output_weights(j, column.data());
    for (int i = 0; i < linear.in; ++i)
      weight[static_cast<long>(i) * row + first + j] = column[static_cast<std::size_t>(i)];
    bias[first + j] = linear.bias != nullptr ? linear.bias[j] : 0.0f;
  }
}

void copy_table(const model::Table& table, float* into) {
  for (int r = 0; r < table.rows; ++r) table.row(r, into + static_cast<long>(r) * table.cols);
}

void copy_weights(const model::ModelWeights& w, const ModelShape& shape, std::vector<float>& parameters) {
  ModelTensors t = tensors_of(parameters.data(), shape);
  const int C = shape.d_model;
  copy_table(w.token_embedding, t.wte);
  copy_table(w.position_embedding, t.wpe);
  for (int l = 0; l < shape.layers; ++l) {
    const model::LayerWeights& from = w.layers[static_cast<std::size_t>(l)];
    const LayerTensors& to = t.layers[static_cast<std::size_t>(l)];
    copy_norm(from.attention_norm, C, to.ln1_w, to.ln1_b);
    copy_linear(from.q, to.qkv_w, 3 * C, 0, to.qkv_b);
    copy_linear(from.k, to.qkv_w, 3 * C, C, to.qkv_b);
    copy_linear(from.v, to.qkv_w, 3 * C, 2 * C, to.qkv_b);
    copy_linear(from.o, to.attn_proj_w, C, 0, to.attn_proj_b);
    copy_norm(from.mlp_norm, C, to.ln2_w, to.ln2_b);
    copy_linear(from.up, to.fc_w, shape.d_ff(), 0, to.fc_b);
    copy_linear(from.down, to.fc_proj_w, C, 0, to.fc_proj_b);
  }
  copy_norm(w.final_norm, C, t.lnf_w, t.lnf_b);
}

bool is_space_byte(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
bool starts_character(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

InitialModel read_initial_model(const fs::path& folder, int context) {
  const std::string origin = folder.string();
  if (!fs::is_directory(folder)) {
    throw InputError(origin, "--init",
                     "is not a folder: --init takes a GPT-2 model folder (config.json, .safetensors)");
  }
  const std::unique_ptr<model::Model> opened = model::Model::open(origin);
  const model::ModelConfig& c = opened->config();
  check_trainable(c, origin, context);
  InitialModel initial;
  initial.shape = {.layers = c.num_layers,
                   .heads = c.num_heads,
                   .d_model = c.d_model,
                   .positions = c.max_positions,
                   .vocab = c.vocab_size,
                   .mlp_width = c.d_ff};
  initial.parameters.assign(parameter_count(initial.shape), 0.0f);
  copy_weights(opened->weights(), initial.shape, initial.parameters);
  initial.tokenizer_files = tokenizer_files_in(folder);
  return initial;
}

std::vector<fs::path> tokenizer_files_in(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const char* name : {"tokenizer.json", "vocab.json", "merges.txt", "tokenizer_config.json",
                           "special_tokens_map.json", "added_tokens.json"}) {
    if (fs::is_regular_file(folder / name)) files.push_back(folder / name);
  }
  return files;
}

std::size_t training_text_cut(std::string_view text, std::size_t begin, std::size_t limit) {
  const std::size_t end = std::min(text.size(), begin + limit);
  if (end == text.size()) return end;
  for (std::size_t cut = end; cut > begin + 1; --cut) {  // a word's leading space, after a non-space
    if (text[cut] == ' ' && !is_space_byte(text[cut - 1])) return cut;
  }
  std::size_t cut = end;
  while (cut > begin + 1 && !starts_character(text[cut])) --cut;
  return cut;
}

std::vector<std::int32_t> encode_training_text(const fs::path& folder, std::string_view text,
                                               const std::string& origin) {
  if (!tokenizers::is_valid_utf8(text)) (void)tokenizers::decode_utf8(text, origin, "--text-file");  // names the byte
  model::LoadOptions tokenizer_only;
  tokenizer_only.weights = false;
  const std::unique_ptr<model::Model> opened = model::Model::open(folder.string(), tokenizer_only);
  std::vector<std::int32_t> ids;
  for (std::size_t begin = 0; begin < text.size();) {
    const std::size_t end = training_text_cut(text, begin, kPieceBytes);
    const tokenizers::Encoding piece = opened->tokenizer().encode(text.substr(begin, end - begin), origin);
    ids.insert(ids.end(), piece.ids.begin(), piece.ids.end());
    begin = end;
  }
  return ids;
}

}  // namespace attnviz::train
