// `attnviz kv-cache`, run as a user would (docs/design.md "KV-cache size").

#include <gtest/gtest.h>

#include "tests/cli/run_attnviz.h"

namespace attnviz {
namespace {

using testing::run_attnviz;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

TEST(KvCacheCommand, Llama7bShapeIsTwoGiB) {
  const auto result = run_attnviz("kv-cache --layers 32 --kv-heads 32 --head-dim 128 --seq 4096");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const std::vector<std::string> lines = lines_of(result.out);
  ASSERT_EQ(lines.size(), 3u) << result.out;
  EXPECT_EQ(lines[0], "2147483648 bytes (2.00 GiB)");
  EXPECT_EQ(lines[1], "bytes = 2 · batch · seq_len · layers · kv_heads · head_dim · bytes_per_value (f16: 2)");
  EXPECT_EQ(lines[2], "      = 2 · 1 · 4096 · 32 · 32 · 128 · 2 = 2147483648 bytes (2.00 GiB)");
  EXPECT_EQ(run_attnviz("kv-cache --preset llama-7b").out, result.out);
}

TEST(KvCacheCommand, Llama2_70bPresetIsOneAndAQuarterGiB) {
  const auto result = run_attnviz("kv-cache --preset llama2-70b");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(lines_of(result.out).at(0), "1342177280 bytes (1.25 GiB)");
  EXPECT_EQ(lines_of(result.out).at(2), "      = 2 · 1 · 4096 · 80 · 8 · 128 · 2 = 1342177280 bytes (1.25 GiB)");
}

TEST(KvCacheCommand, OptionsOverrideThePreset) {
  // 8192 tokens, batch 2, f32: 2 · 2 · 8192 · 80 · 8 · 128 · 4 = 10737418240 bytes = 10 GiB.
  const auto result = run_attnviz("kv-cache --preset llama2-70b --seq 8192 --batch 2 --dtype f32");
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(lines_of(result.out).at(0), "10737418240 bytes (10.00 GiB)");
  // int8 halves the fp16 figure: 1 GiB for the 7B shape.
  EXPECT_EQ(lines_of(run_attnviz("kv-cache --preset llama-7b --dtype int8").out).at(0), "1073741824 bytes (1.00 GiB)");
}

void expect_bad_option(const std::string& arguments, const std::string& option) {
  const auto result = run_attnviz("kv-cache " + arguments);
  EXPECT_EQ(result.exit_code, 2) << arguments << "\n" << result.out << result.err;
  EXPECT_NE(result.err.find(option), std::string::npos) << arguments << ": " << result.err;
  EXPECT_EQ(result.err.find("terminate"), std::string::npos) << result.err;
}

TEST(KvCacheCommand, BadValuesExitTwoNamingTheOption) {
  const std::string shape = "--layers 32 --kv-heads 32 --head-dim 128";
  expect_bad_option(shape + " --seq 0", "--seq");
  expect_bad_option(shape + " --seq -4096", "--seq");
  expect_bad_option(shape + " --seq four", "--seq");
  expect_bad_option(shape + " --seq 4096.5", "--seq");
  expect_bad_option(shape + " --seq 4096 --batch 0", "--batch");
  expect_bad_option(shape + " --seq 4096 --dtype fp8", "--dtype");
  expect_bad_option(shape + " --seq 99999999999999999999999", "--seq");
  expect_bad_option("--layers 32 --head-dim 128 --seq 4096", "--kv-heads");  // missing
  expect_bad_option("--preset llama-13b", "--preset");
}

TEST(KvCacheCommand, AProductBeyond64BitsIsBadInput) {
  // 2 · 4611686018427387904 (2^62) = 2^63 still fits; times 2 layers does not.
  expect_bad_option("--layers 2 --kv-heads 1 --head-dim 1 --seq 4611686018427387904 --dtype int8", "--layers");
  const auto result =
      run_attnviz("kv-cache --layers 2 --kv-heads 1 --head-dim 1 --seq 4611686018427387904 --dtype int8");
  EXPECT_NE(result.err.find("64 bits"), std::string::npos) << result.err;
}

TEST(KvCacheCommand, Help) {
  const auto result = run_attnviz("kv-cache --help");
  EXPECT_EQ(result.exit_code, 0);
  for (const char* word : {"--layers", "--kv-heads", "--head-dim", "--seq", "--batch", "--dtype", "llama2-70b"}) {
    EXPECT_NE(result.out.find(word), std::string::npos) << word;
  }
}

}  // namespace
}  // namespace attnviz
