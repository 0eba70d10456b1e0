#include "core/decode/kv_cache_size.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace attnviz::decode {
namespace {

struct Factor {
  CacheFactor which;
  std::uint64_t value;
};

std::array<Factor, 6> factors_of(const KvCacheShape& s) {
  return {{{CacheFactor::batch, s.batch},
           {CacheFactor::seq_len, s.seq_len},
           {CacheFactor::layers, s.layers},
           {CacheFactor::kv_heads, s.kv_heads},
           {CacheFactor::head_dim, s.head_dim},
           {CacheFactor::bytes_per_value, static_cast<std::uint64_t>(bytes_per_value(s.dtype))}}};
}

// Divisors of `heads` strictly between 1 and heads, the one nearest heads / 8 (ties: the larger).
std::optional<std::uint64_t> grouped_kv_heads(std::uint64_t heads) {
  std::optional<std::uint64_t> best;
  const double target = static_cast<double>(heads) / 8.0;
  for (std::uint64_t g = 2; g < heads; ++g) {
    if (heads % g != 0) continue;
    const double distance = std::abs(static_cast<double>(g) - target);
    if (!best || distance <= std::abs(static_cast<double>(*best) - target)) best = g;
  }
  return best;
}

}  // namespace

int bytes_per_value(CacheDtype dtype) {
  switch (dtype) {
    case CacheDtype::f32: return 4;
    case CacheDtype::f16: return 2;
    case CacheDtype::bf16: return 2;
    case CacheDtype::int8: return 1;
  }
  return 0;
}

std::string_view dtype_name(CacheDtype dtype) {
  switch (dtype) {
    case CacheDtype::f32: return "f32";
    case CacheDtype::f16: return "f16";
    case CacheDtype::bf16: return "bf16";
    case CacheDtype::int8: return "int8";
  }
  return "?";
}

std::optional<CacheDtype> parse_dtype(std::string_view name) {
  for (const CacheDtype dtype : {CacheDtype::f32, CacheDtype::f16, CacheDtype::bf16, CacheDtype::int8}) {
    if (dtype_name(dtype) == name) return dtype;
  }
  return std::nullopt;
}

std::string_view factor_name(CacheFactor factor) {
  switch (factor) {
    case CacheFactor::batch: return "batch";
    case CacheFactor::seq_len: return "seq_len";
    case CacheFactor::layers: return "layers";
    case CacheFactor::kv_heads: return "kv_heads";
    case CacheFactor::head_dim: return "head_dim";
    case CacheFactor::bytes_per_value: return "bytes_per_value";
  }
  return "?";
}

KvCacheOverflow::KvCacheOverflow(CacheFactor factor)
    : std::overflow_error("the KV-cache size does not fit in 64 bits (more than 2^64 − 1 bytes) once multiplied by " +
                          std::string(factor_name(factor))),
      factor_(factor) {}

std::uint64_t kv_cache_bytes(const KvCacheShape& shape) {
  std::uint64_t bytes = 2;  // a K row and a V row
  for (const Factor& factor : factors_of(shape)) {
    if (__builtin_mul_overflow(bytes, factor.value, &bytes)) throw KvCacheOverflow(factor.which);
  }
  return bytes;
}

std::string bytes_and_gib(std::uint64_t bytes) {
  char gib[64];
  std::snprintf(gib, sizeof gib, "%.2f", static_cast<double>(bytes) / 1073741824.0);
  return std::to_string(bytes) + " bytes (" + gib + " GiB)";
}

std::string kv_cache_formula_legend(const KvCacheShape& shape) {
  return "bytes = 2 · batch · seq_len · layers · kv_heads · head_dim · bytes_per_value (" +
         std::string(dtype_name(shape.dtype)) + ": " + std::to_string(bytes_per_value(shape.dtype)) + ")";
}

std::string kv_cache_formula(const KvCacheShape& shape) {
  std::string text = "      = 2";
  for (const Factor& factor : factors_of(shape)) text += " · " + std::to_string(factor.value);
  return text + " = " + bytes_and_gib(kv_cache_bytes(shape));
}

std::span<const KvCachePreset> kv_cache_presets() {
  static const std::array<KvCachePreset, 2> presets = {{
      {"llama-7b",
       "LLaMA-7B-shaped: 32 layers, 32 KV heads (MHA), head dim 128, fp16, 4096 tokens",
       32,
       {1, 4096, 32, 32, 128, CacheDtype::f16}},
      {"llama2-70b",
       "LLaMA-2-70B-shaped: 80 layers, 8 KV heads (GQA, 64 query heads), head dim 128, fp16, 4096 tokens",
       64,
       {1, 4096, 80, 8, 128, CacheDtype::f16}},
  }};
  return presets;
}

const KvCachePreset* find_kv_cache_preset(std::string_view name) {
  for (const KvCachePreset& preset : kv_cache_presets()) {
    if (preset.name == name) return &preset;
  }
  return nullptr;
}

std::vector<SizeCurve> size_curves(const KvCacheShape& shape, std::uint64_t query_heads,
                                   const std::vector<std::uint64_t>& lengths) {
  std::vector<SizeCurve> curves;
  auto add = [&](std::string label, std::uint64_t kv_heads) {
    SizeCurve curve{std::move(label), kv_heads, {}};
    KvCacheShape variant = shape;
    variant.kv_heads = kv_heads;
    for (const std::uint64_t length : lengths) {
      variant.seq_len = length;
      curve.bytes.push_back(kv_cache_bytes(variant));
    }
    curves.push_back(std::move(curve));
  };
  add("MHA", query_heads);
  const bool shape_is_grouped = shape.kv_heads > 1 && shape.kv_heads < query_heads;
  const std::optional<std::uint64_t> grouped = shape_is_grouped ? shape.kv_heads : grouped_kv_heads(query_heads);
  if (grouped) add("GQA", *grouped);
  add("MQA", 1);
  return curves;
}

ScenarioCache scenario_cache(int tokens, int kv_heads, int d_k, int d_v) {
  // Each factor is at most 4096 (docs/design.md "Limits"): no overflow below 2^50.
  auto u = [](int value) { return static_cast<std::uint64_t>(value); };
  ScenarioCache cache;
  cache.bytes = u(tokens) * u(kv_heads) * (u(d_k) + u(d_v)) * 4;
  cache.formula = std::to_string(tokens) + (tokens == 1 ? " token" : " tokens") + " · " + std::to_string(kv_heads) +
                  (kv_heads == 1 ? " KV head" : " KV heads") + " · (" + std::to_string(d_k) + " + " +
                  std::to_string(d_v) + ") · 4 bytes = " + std::to_string(cache.bytes) + " bytes";
  return cache;
}

}  // namespace attnviz::decode
