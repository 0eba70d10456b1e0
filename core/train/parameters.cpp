#include "core/train/parameters.h"

namespace attnviz::train {
namespace {

// One layer's tensors, named after "h.L.", in buffer order (LayerTensors' order).
std::vector<TensorSpec> layer_specs(const ModelShape& s, int layer) {
  const int C = s.d_model, F = s.d_ff();
  const std::vector<std::pair<std::string, std::vector<int>>> parts = {{"ln_1.weight", {C}},
                                                                       {"ln_1.bias", {C}},
                                                                       {"attn.c_attn.weight", {C, 3 * C}},
                                                                       {"attn.c_attn.bias", {3 * C}},
                                                                       {"attn.c_proj.weight", {C, C}},
                                                                       {"attn.c_proj.bias", {C}},
                                                                       {"ln_2.weight", {C}},
                                                                       {"ln_2.bias", {C}},
                                                                       {"mlp.c_fc.weight", {C, F}},
                                                                       {"mlp.c_fc.bias", {F}},
                                                                       {"mlp.c_proj.weight", {F, C}},
                                                                       {"mlp.c_proj.bias", {C}}};
  std::vector<TensorSpec> specs;
  for (const auto& [name, shape] : parts) specs.push_back({"h." + std::to_string(layer) + "." + name, shape});
  return specs;
}

}  // namespace

std::vector<TensorSpec> parameter_layout(const ModelShape& s) {
  std::vector<TensorSpec> specs = {{"wte.weight", {s.vocab, s.d_model}}, {"wpe.weight", {s.positions, s.d_model}}};
  for (int l = 0; l < s.layers; ++l) {
    for (TensorSpec& spec : layer_specs(s, l)) specs.push_back(std::move(spec));
  }
  specs.push_back({"ln_f.weight", {s.d_model}});
  specs.push_back({"ln_f.bias", {s.d_model}});
  std::size_t offset = 0;
  for (TensorSpec& spec : specs) {
    spec.size = 1;
    for (const int n : spec.shape) spec.size *= static_cast<std::size_t>(n);
    spec.offset = offset;
    offset += spec.size;
  }
  return specs;
}

std::size_t parameter_count(const ModelShape& shape) {
  const std::vector<TensorSpec> specs = parameter_layout(shape);
  return specs.back().offset + specs.back().size;
}

ModelTensors tensors_of(float* buffer, const ModelShape& shape) {
  const std::vector<TensorSpec> specs = parameter_layout(shape);
  std::size_t next = 0;
  const auto take = [&] { return buffer + specs[next++].offset; };
  ModelTensors t;
  t.wte = take();
  t.wpe = take();
  for (int l = 0; l < shape.layers; ++l) {
    LayerTensors& layer = t.layers.emplace_back();
    for (float** field :
         {&layer.ln1_w, &layer.ln1_b, &layer.qkv_w, &layer.qkv_b, &layer.attn_proj_w, &layer.attn_proj_b, &layer.ln2_w,
          &layer.ln2_b, &layer.fc_w, &layer.fc_b, &layer.fc_proj_w, &layer.fc_proj_b}) {
      *field = take();
    }
  }
  t.lnf_w = take();
  t.lnf_b = take();
  return t;
}

}  // namespace attnviz::train
