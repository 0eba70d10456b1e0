// GGUF files that lie: counts, lengths, dimensions and offsets are checked against the file.

#include "core/model/gguf.h"
#include "core/model/gguf_model.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

std::string header(std::uint64_t tensors, std::uint64_t keys) {
  return "GGUF" + little_endian<std::uint32_t>(3) + little_endian<std::uint64_t>(tensors) +
         little_endian<std::uint64_t>(keys);
}

// One tensor info: name, dims (innermost first), ggml type, offset.
std::string tensor_info(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type,
                        std::uint64_t offset) {
  std::string bytes = gguf_string(name) + little_endian<std::uint32_t>(static_cast<std::uint32_t>(dims.size()));
  for (const auto dim : dims) bytes += little_endian(dim);
  return bytes + little_endian(type) + little_endian(offset);
}

std::string padded(std::string bytes) {
  bytes.resize((bytes.size() + 31) / 32 * 32, '\0');
  return bytes;
}

InputError read_error(const std::string& name, const std::string& bytes) {
  const auto path = scratch(name);
  write_bytes(path, bytes);
  return input_error([&] {
    const MappedFile file(path.string());
    (void)read_gguf(file);
  });
}

TEST(Gguf, MetadataAndTensorsAreRead) {
  const auto path = scratch("good.gguf");
  const std::string key = gguf_string("general.architecture") + little_endian<std::uint32_t>(8) + gguf_string("llama");
  const std::string bytes = padded(header(1, 1) + key + tensor_info("w", {32, 2}, 8, 0)) + std::string(68, '\x01');
  write_bytes(path, bytes);
  const MappedFile file(path.string());
  const GgufFile gguf = read_gguf(file);
  EXPECT_EQ(GgufMetadata(gguf, path).string("general.architecture"), "llama");
  const TensorRecord& w = gguf.tensors.require("w", "test");
  EXPECT_EQ(w.shape, (std::vector<std::uint64_t>{2, 32}));  // outermost first
  EXPECT_EQ(w.type, TensorType::Q8_0);
  EXPECT_EQ(w.data.size(), 68u);
}

TEST(Gguf, NotGgufSaysSo) { EXPECT_EQ(read_error("not.gguf", "GGML0000").pointer(), "header"); }

TEST(Gguf, AnotherVersionIsRefused) {
  EXPECT_EQ(read_error("v9.gguf", "GGUF" + little_endian<std::uint32_t>(9) + std::string(16, '\0')).pointer(),
            "version");
}

TEST(Gguf, CountsLargerThanTheFileAreRefusedBeforeAllocating) {
  EXPECT_EQ(read_error("keys.gguf", header(0, ~0ull >> 1)).pointer(), "metadata count");
  EXPECT_EQ(read_error("tensors.gguf", header(~0ull >> 1, 0)).pointer(), "tensor count");
}

TEST(Gguf, AStringLongerThanTheFileIsRefused) {
  const InputError e = read_error(
      "string.gguf", header(0, 1) + little_endian<std::uint64_t>(1ull << 40) + "abc" + std::string(64, '\0'));
  EXPECT_EQ(e.pointer(), "metadata key 0");
}

TEST(Gguf, ATensorPastTheEndNamesTheTensor) {
  const InputError e =
      read_error("truncated.gguf",
                 padded(header(1, 0) + tensor_info("blk.0.attn_q.weight", {32, 4}, 0, 0)) + std::string(16, '\0'));
  EXPECT_EQ(e.pointer(), "blk.0.attn_q.weight");
  EXPECT_NE(e.problem().find("past the end"), std::string::npos) << e.what();
}

TEST(Gguf, RowsThatAreNotWholeBlocksAreRefused) {
  const InputError e =
      read_error("blocks.gguf", padded(header(1, 0) + tensor_info("w", {31, 1}, 8, 0)) + std::string(64, '\0'));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("blocks"), std::string::npos) << e.what();
}

TEST(Gguf, DimensionsWhoseProductOverflowsAreRefused) {
  const InputError e =
      read_error("overflow.gguf", padded(header(1, 0) + tensor_info("w", {1ull << 33, 1ull << 33}, 0, 0)));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("overflows"), std::string::npos) << e.what();
}

TEST(Gguf, AMisalignedOffsetIsRefused) {
  const InputError e =
      read_error("aligned.gguf", padded(header(1, 0) + tensor_info("w", {1}, 0, 4)) + std::string(64, '\0'));
  EXPECT_EQ(e.pointer(), "w");
}

TEST(Gguf, AnUnknownTensorTypeIsKeptByName) {
  const auto path = scratch("q5k.gguf");
  write_bytes(path, padded(header(1, 0) + tensor_info("w", {256}, 13, 0)) + std::string(176, '\0'));
  const MappedFile file(path.string());
  const GgufFile gguf = read_gguf(file);
  EXPECT_EQ(gguf.tensors.require("w", "test").type, TensorType::Other);
  EXPECT_EQ(gguf.tensors.require("w", "test").type_name, "Q5_K");
}

// A llama GGUF's metadata, each size a uint32 (the keys without "llama."), and a float32
// token_embd of `vocab` × `width` zeros.
// `floats`: float32 keys.
std::string llama_gguf(const std::vector<std::pair<std::string, std::uint32_t>>& sizes, std::uint64_t vocab = 4,
                       std::uint64_t width = 8, const std::vector<std::pair<std::string, float>>& floats = {}) {
  std::string keys = gguf_string("general.architecture") + little_endian<std::uint32_t>(8) + gguf_string("llama");
  for (const auto& [key, value] : sizes)
    keys += gguf_string("llama." + key) + little_endian<std::uint32_t>(4) + little_endian(value);
  for (const auto& [key, value] : floats)
    keys += gguf_string("llama." + key) + little_endian<std::uint32_t>(6) + little_endian(value);
  return padded(header(1, sizes.size() + floats.size() + 1) + keys +
                tensor_info("token_embd.weight", {width, vocab}, 0, 0)) +
         std::string(vocab * width * 4, '\0');
}

InputError config_error(const std::string& name, const std::string& bytes) {
  const auto path = scratch(name);
  write_bytes(path, bytes);
  return input_error([&] {
    const MappedFile file(path.string());
    (void)gguf_config(read_gguf(file), path.string());
  });
}

const std::vector<std::pair<std::string, std::uint32_t>> kSizes = {
    {"embedding_length", 8}, {"block_count", 1}, {"attention.head_count", 2}, {"feed_forward_length", 16}};

TEST(Gguf, ASmallLlamaConfigurationIsRead) {
  const auto path = scratch("sizes.gguf");
  write_bytes(path, llama_gguf(kSizes));
  const MappedFile file(path.string());
  const ModelConfig c = gguf_config(read_gguf(file), path.string());
  EXPECT_EQ(c.head_dim, 4);
  EXPECT_EQ(c.vocab_size, 4);
}

TEST(Gguf, HeadSizesBeyondAnyRealModelAreRefusedByName) {
  auto with = [](std::vector<std::pair<std::string, std::uint32_t>> sizes) {
    sizes.insert(sizes.end(), {{"attention.head_count_kv", 65536}, {"attention.key_length", 65536}});
    sizes[2].second = 65536;
    return sizes;
  };
  InputError e = config_error("heads.gguf", llama_gguf(with(kSizes)));
  EXPECT_EQ(e.pointer(), "llama.attention.head_count");
  EXPECT_NE(e.problem().find("from 1 to 1024"), std::string::npos) << e.what();
  auto sizes = kSizes;
  sizes[2].second = 1024;
  sizes.emplace_back("attention.key_length", 1024);
  e = config_error("width.gguf", llama_gguf(sizes));
  EXPECT_EQ(e.pointer(), "llama.attention.key_length");
  EXPECT_NE(e.problem().find("= 1048576"), std::string::npos) << e.what();
  sizes = kSizes;
  sizes[1].second = 1u << 30;
  EXPECT_EQ(config_error("layers.gguf", llama_gguf(sizes)).pointer(), "llama.block_count");
}

TEST(Gguf, AKeyGivenTwiceIsRefused) {
  const std::string key = gguf_string("general.architecture") + little_endian<std::uint32_t>(8) + gguf_string("llama");
  EXPECT_EQ(read_error("twice.gguf", padded(header(0, 2) + key + key)).pointer(), "general.architecture");
}

TEST(Gguf, ATensorNamedTwiceIsRefused) {
  const InputError e = read_error(
      "twice-tensor.gguf",
      padded(header(2, 0) + tensor_info("w", {8}, 0, 0) + tensor_info("w", {8}, 0, 32)) + std::string(64, '\0'));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("two tensors"), std::string::npos) << e.what();
}

TEST(Gguf, NamesWithControlCharactersAreQuoted) {
  const InputError e =
      read_error("escape.gguf", padded(header(1, 0) + tensor_info(std::string("w\x1b[2J\0", 6), {32, 4}, 0, 0)));
  EXPECT_EQ(e.pointer(), R"("w\u001B[2J\u0000")");
  EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos);
}

TEST(Gguf, AWrongEmbeddingLengthIsBlamedItself) {
  auto sizes = kSizes;
  sizes[0].second = 16;  // token_embd's rows hold 8
  sizes.emplace_back("rope.dimension_count", 4);
  const InputError e = config_error("length.gguf", llama_gguf(sizes));
  EXPECT_EQ(e.pointer(), "llama.embedding_length");
  EXPECT_NE(e.problem().find("rows of 8"), std::string::npos) << e.what();
}

TEST(Gguf, ARopeBaseOrEpsilonOfZeroIsRefused) {
  for (const char* key : {"rope.freq_base", "attention.layer_norm_rms_epsilon"}) {
    const InputError e = config_error("zero.gguf", llama_gguf(kSizes, 4, 8, {{key, 0.0f}}));
    EXPECT_EQ(e.pointer(), "llama." + std::string(key));
    EXPECT_NE(e.problem().find("finite number > 0"), std::string::npos) << e.what();
  }
  EXPECT_EQ(config_error("nan.gguf", llama_gguf(kSizes, 4, 8, {{"rope.freq_base", NAN}})).pointer(),
            "llama.rope.freq_base");
}

}  // namespace
}  // namespace attnviz::model
