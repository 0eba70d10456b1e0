#pragma once
// A model's weights as the computation reads them, whatever the file stored. Float32 tensors are
// read in place from the mapped file. A matrix of another type (F16, BF16, Q8_0, Q4_0, Q4_K,
// Q6_K) stays as stored, in the mapped file too, and is dequantised to float32 a block of rows
// at a time as it is applied (layer_ops.h): so a model takes about its file's size in memory,
// not four times more, and each product runs on float32 rows still in the cache. Vectors
// (norms, biases) and GPT-2's Conv1D matrices of other types are dequantised once into memory
// the Model owns. A linear layer keeps the orientation it was stored in (nn.Linear and GGUF:
// outputs × inputs; GPT-2's Conv1D: inputs × outputs) and is applied as y = x·W (+ b) either way.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/tensor.h"

namespace attnviz::model {

// Stored rows of a type other than float32: row r at data + map(r) · row_bytes.
struct StoredRows {
  TensorType type = TensorType::F32;
  const std::byte* data = nullptr;
  std::uint64_t row_bytes = 0;
  const std::int32_t* row_map = nullptr;  // null: row r is stored row r (GGUF's reordered Q, K rows otherwise)
  const std::string* file = nullptr;      // for messages: where the tensor is, and its name
  const std::string* name = nullptr;

  [[nodiscard]] bool present() const { return data != nullptr; }
  // Stored row r's `count` values as float32.
  void row(int r, int count, float* out) const;
};

struct Linear {
  const float* weight = nullptr;  // float32 weights, or null when `stored` holds them
  StoredRows stored;              // outputs × inputs of another type
  int in = 0;
  int out = 0;
  bool out_by_in = true;        // stored as `out` rows of `in` values; false: `in` rows of `out` values
  int stride = 0;               // floats between stored rows (Q, K and V side by side in GPT-2's c_attn)
  const float* bias = nullptr;  // `out` values, or none

  // Column `output` of W in x·W terms (`in` values): one output's weights.
  void output_weights(int output, float* out_values) const;
};

// LayerNorm (weight and bias) or RMSNorm (weight only).
struct Norm {
  const float* weight = nullptr;
  const float* bias = nullptr;
  int size = 0;
};

// A table of rows (embeddings): rows × cols, float32 in place or stored rows of another type.
struct Table {
  const float* data = nullptr;
  StoredRows stored;
  int rows = 0;
  int cols = 0;
  void row(int r, float* out) const;
};

struct LayerWeights {
  Norm attention_norm;  // before attention (GPT-2 ln_1, Llama input_layernorm); BERT: after it
  Linear q, k, v, o;
  Norm mlp_norm;  // before the MLP (GPT-2 ln_2, Llama post_attention_layernorm); BERT: after it
  Linear up;      // GPT-2 c_fc, BERT intermediate, Llama up_proj
  Linear gate;    // Llama gate_proj (SwiGLU); empty otherwise
  Linear down;    // GPT-2 mlp.c_proj, BERT output.dense, Llama down_proj
};

struct ModelWeights {
  Table token_embedding;       // vocab × d_model
  Table position_embedding;    // GPT-2, BERT
  Table token_type_embedding;  // BERT
  Norm embedding_norm;         // BERT
  std::vector<LayerWeights> layers;
  Norm final_norm;  // GPT-2 ln_f, Llama norm
  Linear lm_head;   // vocab outputs (tied to the token embedding or its own)
  // BERT's masked-LM head: dense + GELU + LayerNorm, then the (tied) decoder with its bias.
  Linear mlm_transform;
  Norm mlm_norm;
};

}  // namespace attnviz::model
