#pragma once
// The trained model's sizes and its parameters: every tensor in one flat float32 buffer, in the
// order and under the names of Hugging Face's GPT-2 checkpoints (Conv1D weights [in, out]). The
// gradients and the two Adam moments are buffers of the same layout.

#include <cstddef>
#include <string>
#include <vector>

namespace attnviz::train {

struct ModelShape {
  int layers = 2;
  int heads = 4;
  int d_model = 64;
  int positions = 64;  // the position table: the longest context
  int vocab = 256;
  int mlp_width = 0;  // 0: 4·d_model, GPT-2's (a fresh model's); an --init folder's n_inner otherwise
  [[nodiscard]] int d_ff() const { return mlp_width > 0 ? mlp_width : 4 * d_model; }
};

// One tensor of the buffer: "h.0.attn.c_attn.weight", its shape (outermost first), where it starts.
struct TensorSpec {
  std::string name;
  std::vector<int> shape;
  std::size_t offset = 0;
  std::size_t size = 0;
  [[nodiscard]] bool is_matrix() const { return shape.size() == 2; }  // weight decay applies to these
};

// Every tensor of a GPT-2 of this shape, in buffer order.
std::vector<TensorSpec> parameter_layout(const ModelShape& shape);
std::size_t parameter_count(const ModelShape& shape);

// Pointers into one layer's part of a buffer (weights, gradients or a moment).
struct LayerTensors {
  float* ln1_w;
  float* ln1_b;
  float* qkv_w;  // (C, 3C)
  float* qkv_b;
  float* attn_proj_w;  // (C, C)
  float* attn_proj_b;
  float* ln2_w;
  float* ln2_b;
  float* fc_w;  // (C, F): F = d_ff(), 4C
  float* fc_b;
  float* fc_proj_w;  // (F, C)
  float* fc_proj_b;
};

struct ModelTensors {
  float* wte;  // (V, C): the token embedding and the unembedding
  float* wpe;  // (positions, C)
  std::vector<LayerTensors> layers;
  float* lnf_w;
  float* lnf_b;
};

// The tensors of `buffer` (parameter_count(shape) floats) by name.
ModelTensors tensors_of(float* buffer, const ModelShape& shape);

}  // namespace attnviz::train
