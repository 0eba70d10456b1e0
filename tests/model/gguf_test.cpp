// GGUF files that lie: counts, lengths, dimensions and offsets are checked against the file.

#include "core/model/gguf.h"

#include <gtest/gtest.h>

#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

std::string header(std::uint64_t tensors, std::uint64_t keys) {
  return "GGUF" + little_endian<std::uint32_t>(3) + little_endian<std::uint64_t>(tensors) + little_endian<std::uint64_t>(keys);
}

// One tensor info: name, dims (innermost first), ggml type, offset.
std::string tensor_info(const std::string& name, std::vector<std::uint64_t> dims, std::uint32_t type, std::uint64_t offset) {
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
  EXPECT_EQ(read_error("v9.gguf", "GGUF" + little_endian<std::uint32_t>(9) + std::string(16, '\0')).pointer(), "version");
}

TEST(Gguf, CountsLargerThanTheFileAreRefusedBeforeAllocating) {
  EXPECT_EQ(read_error("keys.gguf", header(0, ~0ull >> 1)).pointer(), "metadata count");
  EXPECT_EQ(read_error("tensors.gguf", header(~0ull >> 1, 0)).pointer(), "tensor count");
}

TEST(Gguf, AStringLongerThanTheFileIsRefused) {
  const InputError e = read_error("string.gguf", header(0, 1) + little_endian<std::uint64_t>(1ull << 40) + "abc" + std::string(64, '\0'));
  EXPECT_EQ(e.pointer(), "metadata key 0");
}

TEST(Gguf, ATensorPastTheEndNamesTheTensor) {
  const InputError e = read_error("truncated.gguf", padded(header(1, 0) + tensor_info("blk.0.attn_q.weight", {32, 4}, 0, 0)) + std::string(16, '\0'));
  EXPECT_EQ(e.pointer(), "blk.0.attn_q.weight");
  EXPECT_NE(e.problem().find("past the end"), std::string::npos) << e.what();
}

TEST(Gguf, RowsThatAreNotWholeBlocksAreRefused) {
  const InputError e = read_error("blocks.gguf", padded(header(1, 0) + tensor_info("w", {31, 1}, 8, 0)) + std::string(64, '\0'));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("blocks"), std::string::npos) << e.what();
}

TEST(Gguf, DimensionsWhoseProductOverflowsAreRefused) {
  const InputError e = read_error("overflow.gguf", padded(header(1, 0) + tensor_info("w", {1ull << 33, 1ull << 33}, 0, 0)));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("overflows"), std::string::npos) << e.what();
}

TEST(Gguf, AMisalignedOffsetIsRefused) {
  const InputError e = read_error("aligned.gguf", padded(header(1, 0) + tensor_info("w", {1}, 0, 4)) + std::string(64, '\0'));
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

}  // namespace
}  // namespace attnviz::model
