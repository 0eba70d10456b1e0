#include "core/train/gpt2.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "core/train/layers.h"

namespace attnviz::train {

Activations::Activations(const ModelShape& s, int B, int T) {
  const auto size = [](int n) { return static_cast<std::size_t>(n); };
  const std::size_t L = size(s.layers), C = size(s.d_model), V = size(s.vocab), NH = size(s.heads);
  const std::size_t BT = size(B) * size(T);
  encoded.resize(BT * C);
  for (auto* v : {&ln1, &atty, &attproj, &residual2, &ln2, &fcproj, &residual3}) v->resize(L * BT * C);
  for (auto* v : {&ln1_mean, &ln1_rstd, &ln2_mean, &ln2_rstd}) v->resize(L * BT);
  qkv.resize(L * BT * 3 * C);
  att.resize(L * size(B) * NH * size(T) * size(T));
  fch.resize(L * BT * size(s.d_ff()));
  fch_gelu.resize(L * BT * size(s.d_ff()));
  lnf.resize(BT * C);
  lnf_mean.resize(BT);
  lnf_rstd.resize(BT);
  logits.resize(BT * V);
  probs.resize(BT * V);
  losses.resize(BT);
}

std::size_t Activations::floats() const {
  std::size_t n = 0;
  for (const auto* v :
       {&encoded,  &ln1, &ln1_mean, &ln1_rstd, &qkv,       &att, &atty,     &attproj,  &residual2, &ln2,   &ln2_mean,
        &ln2_rstd, &fch, &fch_gelu, &fcproj,   &residual3, &lnf, &lnf_mean, &lnf_rstd, &logits,    &probs, &losses}) {
    n += v->size();
  }
  return n;
}

std::size_t Activations::floats_for(const ModelShape& s, int B, int T) {
  const auto size = [](int n) { return static_cast<std::size_t>(n); };
  const std::size_t L = size(s.layers), C = size(s.d_model), V = size(s.vocab), NH = size(s.heads);
  const std::size_t BT = size(B) * size(T);
  const std::size_t per_layer =
      7 * BT * C + 4 * BT + 3 * BT * C + size(B) * NH * size(T) * size(T) + 2 * BT * size(s.d_ff());
  return BT * C + L * per_layer + BT * C + 2 * BT + 2 * BT * V + BT;
}

Gpt2::Gpt2(const ModelShape& shape, int batch, int context)
    : shape_(shape),
      batch_(batch),
      context_(context),
      layout_(parameter_layout(shape)),
      parameters_(parameter_count(shape)),
      gradients_(parameters_.size()),
      weights_(tensors_of(parameters_.data(), shape)),
      grads_(tensors_of(gradients_.data(), shape)),
      acts_(shape, batch, context),
      dacts_(shape, batch, context),
      inputs_(static_cast<std::size_t>(batch) * static_cast<std::size_t>(context)),
      targets_(inputs_.size()) {
  if (context > shape.positions) throw std::invalid_argument("Gpt2: the context is longer than the position table");
  if (shape.d_model % shape.heads != 0) throw std::invalid_argument("Gpt2: the heads must divide d_model");
}

void Gpt2::initialise(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const float residual_std = 0.02f / std::sqrt(2.0f * static_cast<float>(shape_.layers));
  for (const TensorSpec& spec : layout_) {
    float* data = parameters_.data() + spec.offset;
    const bool layer_norm = spec.name.find("ln_") != std::string::npos;
    if (!spec.is_matrix()) {
      const bool norm_weight = layer_norm && spec.name.ends_with(".weight");
      std::fill_n(data, spec.size, norm_weight ? 1.0f : 0.0f);
      continue;
    }
    const bool residual_projection = spec.name.ends_with("c_proj.weight");
    std::normal_distribution<float> normal(0.0f, residual_projection ? residual_std : 0.02f);
    for (std::size_t i = 0; i < spec.size; ++i) data[i] = normal(rng);
  }
}

float Gpt2::forward(std::span<const std::int32_t> inputs, std::span<const std::int32_t> targets) {
  const int B = batch_, T = context_, C = shape_.d_model, V = shape_.vocab, NH = shape_.heads;
  const int BT = B * T;
  if (inputs.size() != inputs_.size() || targets.size() != targets_.size()) {
    throw std::invalid_argument("Gpt2::forward: needs batch × context inputs and targets");
  }
  std::copy(inputs.begin(), inputs.end(), inputs_.begin());
  std::copy(targets.begin(), targets.end(), targets_.begin());
  Activations& a = acts_;
  const long btc = static_cast<long>(BT) * C;
  const int F = shape_.d_ff();  // the MLP's width, 4·C unless an --init model says otherwise
  const long btf = static_cast<long>(BT) * F;
  embedding_forward(a.encoded.data(), inputs_.data(), weights_.wte, weights_.wpe, B, T, C);  // (B,T,C)
  for (int l = 0; l < shape_.layers; ++l) {
    const LayerTensors& w = weights_.layers[static_cast<std::size_t>(l)];
    const float* residual = l == 0 ? a.encoded.data() : a.residual3.data() + (l - 1) * btc;
    float* ln1 = a.ln1.data() + l * btc;
    float* qkv = a.qkv.data() + l * btc * 3;
    float* att = a.att.data() + static_cast<long>(l) * B * NH * T * T;
    float* atty = a.atty.data() + l * btc;
    float* attproj = a.attproj.data() + l * btc;
    float* residual2 = a.residual2.data() + l * btc;
    float* ln2 = a.ln2.data() + l * btc;
    float* fch = a.fch.data() + l * btf;
    float* fch_gelu = a.fch_gelu.data() + l * btf;
    float* fcproj = a.fcproj.data() + l * btc;
    layernorm_forward(ln1, a.ln1_mean.data() + l * BT, a.ln1_rstd.data() + l * BT, residual, w.ln1_w, w.ln1_b, BT, C);
    matmul_forward(qkv, ln1, w.qkv_w, w.qkv_b, BT, C, 3 * C);               // (B,T,3C)
    attention_forward(atty, att, qkv, B, T, C, NH);                         // (B,T,C), (B,NH,T,T)
    matmul_forward(attproj, atty, w.attn_proj_w, w.attn_proj_b, BT, C, C);  // (B,T,C)
    residual_forward(residual2, residual, attproj, btc);                    // (B,T,C)
    layernorm_forward(ln2, a.ln2_mean.data() + l * BT, a.ln2_rstd.data() + l * BT, residual2, w.ln2_w, w.ln2_b, BT, C);
    matmul_forward(fch, ln2, w.fc_w, w.fc_b, BT, C, F);                      // (B,T,F), F = 4C
    gelu_forward(fch_gelu, fch, btf);                                        // (B,T,F)
    matmul_forward(fcproj, fch_gelu, w.fc_proj_w, w.fc_proj_b, BT, F, C);    // (B,T,C)
    residual_forward(a.residual3.data() + l * btc, residual2, fcproj, btc);  // (B,T,C)
  }
  const float* last = a.residual3.data() + (shape_.layers - 1) * btc;
  layernorm_forward(a.lnf.data(), a.lnf_mean.data(), a.lnf_rstd.data(), last, weights_.lnf_w, weights_.lnf_b, BT, C);
  unembedding_forward(a.logits.data(), a.lnf.data(), weights_.wte, BT, C, V);                      // (B,T,V)
  crossentropy_forward(a.probs.data(), a.losses.data(), a.logits.data(), targets_.data(), BT, V);  // (B,T)
  double sum = 0.0;
  for (const float loss : a.losses) sum += loss;
  return static_cast<float>(sum / BT);
}

void Gpt2::zero_gradients() { std::fill(gradients_.begin(), gradients_.end(), 0.0f); }

void Gpt2::backward() {
  const int B = batch_, T = context_, C = shape_.d_model, V = shape_.vocab, NH = shape_.heads;
  const int BT = B * T;
  const long btc = static_cast<long>(BT) * C;
  const int F = shape_.d_ff();  // the MLP's width, 4·C unless an --init model says otherwise
  const long btf = static_cast<long>(BT) * F;
  const Activations& a = acts_;
  Activations& d = dacts_;
  // The activations' gradients are sums (a residual feeds two paths): start each step at zero.
  for (auto* v : {&d.encoded, &d.ln1, &d.qkv, &d.atty, &d.attproj, &d.residual2, &d.ln2, &d.fch, &d.fch_gelu, &d.fcproj,
                  &d.residual3, &d.lnf, &d.logits}) {
    std::fill(v->begin(), v->end(), 0.0f);
  }
  crossentropy_backward(d.logits.data(), a.probs.data(), targets_.data(), BT, V);
  unembedding_backward(d.lnf.data(), grads_.wte, d.logits.data(), a.lnf.data(), weights_.wte, BT, C, V);
  const long last = (shape_.layers - 1) * btc;
  layernorm_backward(d.residual3.data() + last, grads_.lnf_w, grads_.lnf_b, d.lnf.data(), a.residual3.data() + last,
                     weights_.lnf_w, a.lnf_mean.data(), a.lnf_rstd.data(), BT, C);
  for (int l = shape_.layers - 1; l >= 0; --l) {
    const LayerTensors& w = weights_.layers[static_cast<std::size_t>(l)];
    const LayerTensors& g = grads_.layers[static_cast<std::size_t>(l)];
    const long at = l * btc;
    const float* residual = l == 0 ? a.encoded.data() : a.residual3.data() + at - btc;
    float* dresidual = l == 0 ? d.encoded.data() : d.residual3.data() + at - btc;
    const long att_at = static_cast<long>(l) * B * NH * T * T;
    residual_backward(d.residual2.data() + at, d.fcproj.data() + at, d.residual3.data() + at, btc);
    const long at_f = l * btf;  // layer l's (B,T,F) activations
    matmul_backward(d.fch_gelu.data() + at_f, g.fc_proj_w, g.fc_proj_b, d.fcproj.data() + at, a.fch_gelu.data() + at_f,
                    w.fc_proj_w, BT, F, C);
    gelu_backward(d.fch.data() + at_f, a.fch.data() + at_f, d.fch_gelu.data() + at_f, btf);
    matmul_backward(d.ln2.data() + at, g.fc_w, g.fc_b, d.fch.data() + at_f, a.ln2.data() + at, w.fc_w, BT, C, F);
    layernorm_backward(d.residual2.data() + at, g.ln2_w, g.ln2_b, d.ln2.data() + at, a.residual2.data() + at, w.ln2_w,
                       a.ln2_mean.data() + l * BT, a.ln2_rstd.data() + l * BT, BT, C);
    residual_backward(dresidual, d.attproj.data() + at, d.residual2.data() + at, btc);
    matmul_backward(d.atty.data() + at, g.attn_proj_w, g.attn_proj_b, d.attproj.data() + at, a.atty.data() + at,
                    w.attn_proj_w, BT, C, C);
    attention_backward(d.qkv.data() + 3 * at, d.att.data() + att_at, d.atty.data() + at, a.qkv.data() + 3 * at,
                       a.att.data() + att_at, B, T, C, NH);
    matmul_backward(d.ln1.data() + at, g.qkv_w, g.qkv_b, d.qkv.data() + 3 * at, a.ln1.data() + at, w.qkv_w, BT, C,
                    3 * C);
    layernorm_backward(dresidual, g.ln1_w, g.ln1_b, d.ln1.data() + at, residual, w.ln1_w, a.ln1_mean.data() + l * BT,
                       a.ln1_rstd.data() + l * BT, BT, C);
  }
  embedding_backward(grads_.wte, grads_.wpe, d.encoded.data(), inputs_.data(), B, T, C);
}

}  // namespace attnviz::train
