// Safetensors headers that lie: every offset and shape is checked against the file, and each
// error names the file and the tensor.

#include "core/model/safetensors.h"

#include <gtest/gtest.h>

#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

InputError read_error(const std::string& name, const std::string& bytes) {
  const auto path = scratch(name);
  write_bytes(path, bytes);
  return input_error([&] {
    const MappedFile file(path.string());
    TensorSet tensors;
    read_safetensors(file, tensors);
  });
}

TEST(Safetensors, ATensorIsReadInPlace) {
  const auto path = scratch("good.safetensors");
  const std::string data = little_endian(1.5f) + little_endian(-2.0f);
  write_bytes(path, safetensors(R"({"w": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})", data));
  const MappedFile file(path.string());
  TensorSet tensors;
  read_safetensors(file, tensors);
  const TensorRecord& w = tensors.require("w", "test");
  EXPECT_EQ(w.shape, (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(w.data.size(), 8u);
  EXPECT_EQ(w.data.data(), file.all().data() + file.size() - 8);
}

TEST(Safetensors, ATruncatedFileNamesTheTensor) {
  const InputError e = read_error("truncated.safetensors",
                                  safetensors(R"({"h.0.w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}})", std::string(8, '\0')));
  EXPECT_NE(e.origin().find("truncated.safetensors"), std::string::npos);
  EXPECT_EQ(e.pointer(), "h.0.w/data_offsets");
  EXPECT_NE(e.problem().find("past the end"), std::string::npos) << e.what();
}

TEST(Safetensors, AHeaderLongerThanTheFileIsRefused) {
  const InputError e = read_error("long-header.safetensors", little_endian<std::uint64_t>(1000) + "{}");
  EXPECT_EQ(e.pointer(), "header");
  EXPECT_NE(e.problem().find("past the end"), std::string::npos) << e.what();
}

TEST(Safetensors, AHugeHeaderLengthIsRefusedBeforeAnythingIsRead) {
  const InputError e = read_error("huge-header.safetensors", little_endian<std::uint64_t>(~0ull) + "{}");
  EXPECT_EQ(e.pointer(), "header");
}

TEST(Safetensors, AShapeThatDisagreesWithTheOffsetsIsRefused) {
  const InputError e = read_error("shape.safetensors",
                                  safetensors(R"({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", std::string(8, '\0')));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("needs 12 bytes"), std::string::npos) << e.what();
}

TEST(Safetensors, AShapeWhoseSizeOverflowsIsRefused) {
  const InputError e = read_error("overflow.safetensors",
                                  safetensors(R"({"w": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 0]}})", ""));
  EXPECT_EQ(e.pointer(), "w/shape");
  EXPECT_NE(e.problem().find("overflows"), std::string::npos) << e.what();
}

TEST(Safetensors, OffsetsBackwardsOrNegativeAreRefused) {
  EXPECT_EQ(read_error("backwards.safetensors", safetensors(R"({"w": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}})", std::string(8, '\0'))).pointer(),
            "w/data_offsets");
  EXPECT_EQ(read_error("negative.safetensors", safetensors(R"({"w": {"dtype": "F32", "shape": [0], "data_offsets": [-1, 0]}})", "")).pointer(),
            "w/data_offsets/0");
}

TEST(Safetensors, NotJsonSaysSo) {
  const InputError e = read_error("garbage.safetensors", safetensors("{\"w\": [1, 2", ""));
  EXPECT_EQ(e.pointer(), "header");
  EXPECT_NE(e.problem().find("not valid JSON"), std::string::npos) << e.what();
}

TEST(Safetensors, AnUnknownTypeIsKeptUntilItIsNeeded) {
  const auto path = scratch("ids.safetensors");
  write_bytes(path, safetensors(R"({"position_ids": {"dtype": "I64", "shape": [2], "data_offsets": [0, 16]}})", std::string(16, '\0')));
  const MappedFile file(path.string());
  TensorSet tensors;
  read_safetensors(file, tensors);
  EXPECT_EQ(tensors.require("position_ids", "test").type, TensorType::Other);
}

}  // namespace
}  // namespace attnviz::model
