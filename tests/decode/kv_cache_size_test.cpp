// The KV-cache size calculator against the figures teachers quote, worked by hand:
//   LLaMA-7B-shaped:     2 · 1 · 4096 · 32 · 32 · 128 · 2 = 2^31 bytes = 2 GiB
//   LLaMA-2-70B-shaped:  2 · 1 · 4096 · 80 · 8 · 128 · 2 = 1342177280 bytes = 1.25 GiB

#include <gtest/gtest.h>

#include <limits>

#include "core/decode/kv_cache_size.h"

namespace attnviz::decode {
namespace {

TEST(KvCacheSize, Llama7bIsExactlyTwoGiB) {
  const KvCachePreset* preset = find_kv_cache_preset("llama-7b");
  ASSERT_NE(preset, nullptr);
  EXPECT_EQ(kv_cache_bytes(preset->shape), 2147483648ULL);
  EXPECT_EQ(bytes_and_gib(kv_cache_bytes(preset->shape)), "2147483648 bytes (2.00 GiB)");
}

TEST(KvCacheSize, Llama2_70bIsOneAndAQuarterGiB) {
  const KvCachePreset* preset = find_kv_cache_preset("llama2-70b");
  ASSERT_NE(preset, nullptr);
  EXPECT_EQ(kv_cache_bytes(preset->shape), 1342177280ULL);
  EXPECT_EQ(bytes_and_gib(1342177280ULL), "1342177280 bytes (1.25 GiB)");
}

TEST(KvCacheSize, FormulaShowsTheNumbersFilledIn) {
  const KvCacheShape shape = find_kv_cache_preset("llama2-70b")->shape;
  EXPECT_EQ(kv_cache_formula_legend(shape),
            "bytes = 2 · batch · seq_len · layers · kv_heads · head_dim · bytes_per_value (f16: 2)");
  EXPECT_EQ(kv_cache_formula(shape), "      = 2 · 1 · 4096 · 80 · 8 · 128 · 2 = 1342177280 bytes (1.25 GiB)");
}

TEST(KvCacheSize, BytesPerValueOfEachType) {
  KvCacheShape shape{3, 5, 7, 11, 13, CacheDtype::f32};
  EXPECT_EQ(kv_cache_bytes(shape), 2ULL * 3 * 5 * 7 * 11 * 13 * 4);
  shape.dtype = CacheDtype::bf16;
  EXPECT_EQ(kv_cache_bytes(shape), 2ULL * 3 * 5 * 7 * 11 * 13 * 2);
  shape.dtype = CacheDtype::int8;
  EXPECT_EQ(kv_cache_bytes(shape), 2ULL * 3 * 5 * 7 * 11 * 13);
  EXPECT_EQ(parse_dtype("bf16"), CacheDtype::bf16);
  EXPECT_EQ(parse_dtype("fp16"), std::nullopt);
}

TEST(KvCacheSize, AProductBeyond64BitsNamesTheFactor) {
  // 2 · 2^62 = 2^63 fits; times 2 layers does not.
  KvCacheShape shape{1, 1ULL << 62, 2, 1, 1, CacheDtype::int8};
  try {
    (void)kv_cache_bytes(shape);
    FAIL() << "no overflow reported";
  } catch (const KvCacheOverflow& error) {
    EXPECT_EQ(error.factor(), CacheFactor::layers);
    EXPECT_NE(std::string(error.what()).find("64 bits"), std::string::npos) << error.what();
  }
  shape = {std::numeric_limits<std::uint64_t>::max(), 1, 1, 1, 1, CacheDtype::int8};
  EXPECT_THROW((void)kv_cache_bytes(shape), KvCacheOverflow);
  // The largest that fits: 2 · 2^62 · 1 byte, and 2^63 bytes print as 8589934592.00 GiB.
  shape = {1, 1ULL << 62, 1, 1, 1, CacheDtype::int8};
  EXPECT_EQ(kv_cache_bytes(shape), 1ULL << 63);
  EXPECT_EQ(bytes_and_gib(1ULL << 63), "9223372036854775808 bytes (8589934592.00 GiB)");
}

TEST(KvCacheSize, CurvesForMhaGqaAndMqaOfTheSeventyB) {
  const KvCachePreset& preset = *find_kv_cache_preset("llama2-70b");
  const std::vector<SizeCurve> curves = size_curves(preset.shape, preset.query_heads, {1024, 4096});
  ASSERT_EQ(curves.size(), 3u);
  EXPECT_EQ(curves[0].label, "MHA");
  EXPECT_EQ(curves[0].kv_heads, 64u);
  EXPECT_EQ(curves[0].bytes, (std::vector<std::uint64_t>{2684354560ULL, 10737418240ULL}));  // 8 × GQA
  EXPECT_EQ(curves[1].label, "GQA");
  EXPECT_EQ(curves[1].kv_heads, 8u);
  EXPECT_EQ(curves[1].bytes, (std::vector<std::uint64_t>{335544320ULL, 1342177280ULL}));
  EXPECT_EQ(curves[2].label, "MQA");
  EXPECT_EQ(curves[2].bytes, (std::vector<std::uint64_t>{41943040ULL, 167772160ULL}));  // GQA / 8
}

TEST(KvCacheSize, AnMhaShapeGetsAGroupingOfItsOwn) {
  const KvCachePreset& preset = *find_kv_cache_preset("llama-7b");
  const std::vector<SizeCurve> curves = size_curves(preset.shape, preset.query_heads, {4096});
  ASSERT_EQ(curves.size(), 3u);
  EXPECT_EQ(curves[1].kv_heads, 4u);  // 32 / 8 query heads per group
  EXPECT_EQ(curves[1].bytes[0], 2147483648ULL / 8);
  // Two query heads: no grouping strictly between MHA and MQA.
  EXPECT_EQ(size_curves(preset.shape, 2, {4096}).size(), 2u);
}

TEST(KvCacheSize, TheScenariosOwnCacheInFloat32) {
  // 8 tokens, 2 KV heads, K rows of 4 and V rows of 6 values: 8 · 2 · 10 · 4 = 640 bytes.
  const ScenarioCache cache = scenario_cache(8, 2, 4, 6);
  EXPECT_EQ(cache.bytes, 640u);
  EXPECT_EQ(cache.formula, "8 tokens · 2 KV heads · (4 + 6) · 4 bytes = 640 bytes");
  EXPECT_EQ(scenario_cache(1, 1, 1, 1).formula, "1 token · 1 KV head · (1 + 1) · 4 bytes = 8 bytes");
}

}  // namespace
}  // namespace attnviz::decode
