#pragma once
// The KV-cache size calculator (docs/decode.md "KV-cache size"):
//
//   bytes = 2 · batch · seq_len · layers · kv_heads · head_dim · bytes_per_value
//
// (2: a K and a V row per token, layer and key/value head.) Every product is checked: one
// that does not fit in 64 bits throws KvCacheOverflow naming the factor that overflowed.

#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::decode {

enum class CacheDtype { f32, f16, bf16, int8 };

int bytes_per_value(CacheDtype dtype);  // 4, 2, 2, 1
std::string_view dtype_name(CacheDtype dtype);
std::optional<CacheDtype> parse_dtype(std::string_view name);  // "f32", "f16", "bf16", "int8"

struct KvCacheShape {
  std::uint64_t batch = 1;
  std::uint64_t seq_len = 1;
  std::uint64_t layers = 1;
  std::uint64_t kv_heads = 1;
  std::uint64_t head_dim = 1;
  CacheDtype dtype = CacheDtype::f16;
};

// The factors of the formula in its order, each with the name of its field.
enum class CacheFactor { batch, seq_len, layers, kv_heads, head_dim, bytes_per_value };
std::string_view factor_name(CacheFactor factor);

class KvCacheOverflow : public std::overflow_error {
 public:
  explicit KvCacheOverflow(CacheFactor factor);
  [[nodiscard]] CacheFactor factor() const { return factor_; }

 private:
  CacheFactor factor_;
};

std::uint64_t kv_cache_bytes(const KvCacheShape& shape);

// "2147483648 bytes (2.00 GiB)": the bytes, and the GiB (2^30 bytes) to two decimals.
std::string bytes_and_gib(std::uint64_t bytes);
// The formula with its letters, then with the numbers filled in:
//   "bytes = 2 · batch · seq_len · layers · kv_heads · head_dim · bytes_per_value (f16: 2)"
//   "      = 2 · 1 · 4096 · 32 · 32 · 128 · 2 = 2147483648 bytes (2.00 GiB)"
std::string kv_cache_formula_legend(const KvCacheShape& shape);
std::string kv_cache_formula(const KvCacheShape& shape);

struct KvCachePreset {
  std::string_view name;  // as --preset takes it
  std::string_view description;
  std::uint64_t query_heads;  // for the MHA / GQA / MQA curves
  KvCacheShape shape;
};

// llama-7b: 32 layers, 32 KV heads (MHA), head dim 128, fp16, 4096 tokens: 2 GiB.
// llama2-70b: 80 layers, 8 KV heads (GQA, 64 query heads), head dim 128, fp16, 4096: 1.25 GiB.
std::span<const KvCachePreset> kv_cache_presets();
const KvCachePreset* find_kv_cache_preset(std::string_view name);  // null when unknown

// Size against sequence length for the shape's query heads shared three ways.
struct SizeCurve {
  std::string label;  // "MHA", "GQA", "MQA"
  std::uint64_t kv_heads = 1;
  std::vector<std::uint64_t> bytes;  // one per length
};
// MHA: kv_heads = query_heads; GQA: the shape's own kv_heads when 1 < kv_heads < query_heads,
// otherwise the divisor of query_heads nearest query_heads / 8 (absent when there is none
// strictly between 1 and query_heads); MQA: 1 kv head. Throws KvCacheOverflow like
// kv_cache_bytes.
std::vector<SizeCurve> size_curves(const KvCacheShape& shape, std::uint64_t query_heads,
                                   const std::vector<std::uint64_t>& lengths);

// The scenario's own cache, one layer in float32 as attnviz computes, K rows of d_k and V rows
// of d_v values (which may differ):  bytes = tokens · kv_heads · (d_k + d_v) · 4.
struct ScenarioCache {
  std::uint64_t bytes = 0;
  std::string formula;  // "8 tokens · 2 KV heads · (4 + 4) · 4 bytes = 512 bytes"
};
ScenarioCache scenario_cache(int tokens, int kv_heads, int d_k, int d_v);

}  // namespace attnviz::decode
