#pragma once
// A model's weights as float32 views, whatever the file stored: float32 tensors are read in
// place from the mapped file, the others dequantised once into memory the Model owns. A linear
// layer keeps the orientation it was stored in (nn.Linear and GGUF: outputs × inputs; GPT-2's
// Conv1D: inputs × outputs) and is applied as y = x·W (+ b) either way (layer_ops.h).

#include <vector>

namespace attnviz::model {

struct Linear {
  const float* weight = nullptr;
  int in = 0;
  int out = 0;
  bool out_by_in = true;  // stored as `out` rows of `in` values; false: `in` rows of `out` values
  int stride = 0;         // floats between stored rows (Q, K and V side by side in GPT-2's c_attn)
  const float* bias = nullptr;  // `out` values, or none

  [[nodiscard]] float at(int input, int output) const {  // W[input][output] in x·W terms
    return out_by_in ? weight[static_cast<long>(output) * stride + input] : weight[static_cast<long>(input) * stride + output];
  }
};

// LayerNorm (weight and bias) or RMSNorm (weight only).
struct Norm {
  const float* weight = nullptr;
  const float* bias = nullptr;
  int size = 0;
};

// A table of rows (embeddings): rows × cols, row-major.
struct Table {
  const float* data = nullptr;
  int rows = 0;
  int cols = 0;
  [[nodiscard]] const float* row(int r) const { return data + static_cast<long>(r) * cols; }
};

struct LayerWeights {
  Norm attention_norm;  // before attention (GPT-2 ln_1, Llama input_layernorm); BERT: after it
  Linear q, k, v, o;
  Norm mlp_norm;        // before the MLP (GPT-2 ln_2, Llama post_attention_layernorm); BERT: after it
  Linear up;            // GPT-2 c_fc, BERT intermediate, Llama up_proj
  Linear gate;          // Llama gate_proj (SwiGLU); empty otherwise
  Linear down;          // GPT-2 mlp.c_proj, BERT output.dense, Llama down_proj
};

struct ModelWeights {
  Table token_embedding;       // vocab × d_model
  Table position_embedding;    // GPT-2, BERT
  Table token_type_embedding;  // BERT
  Norm embedding_norm;         // BERT
  std::vector<LayerWeights> layers;
  Norm final_norm;             // GPT-2 ln_f, Llama norm
  Linear lm_head;              // vocab outputs (tied to the token embedding or its own)
  // BERT's masked-LM head: dense + GELU + LayerNorm, then the (tied) decoder with its bias.
  Linear mlm_transform;
  Norm mlm_norm;
};

}  // namespace attnviz::model
