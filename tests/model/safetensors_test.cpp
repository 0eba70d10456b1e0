// Safetensors headers that lie: every offset and shape is checked against the file, and each
// error names the file and the tensor.

#include "core/model/safetensors.h"

#include "core/common/text_excerpt.h"

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
  const InputError e = read_error(
      "truncated.safetensors",
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
  const InputError e =
      read_error("shape.safetensors",
                 safetensors(R"({"w": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})", std::string(8, '\0')));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("needs 12 bytes"), std::string::npos) << e.what();
}

TEST(Safetensors, AShapeWhoseSizeOverflowsIsRefused) {
  const InputError e = read_error(
      "overflow.safetensors",
      safetensors(R"({"w": {"dtype": "F32", "shape": [4294967296, 4294967296], "data_offsets": [0, 0]}})", ""));
  EXPECT_EQ(e.pointer(), "w/shape");
  EXPECT_NE(e.problem().find("overflows"), std::string::npos) << e.what();
}

TEST(Safetensors, OffsetsBackwardsOrNegativeAreRefused) {
  EXPECT_EQ(
      read_error("backwards.safetensors",
                 safetensors(R"({"w": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}})", std::string(8, '\0')))
          .pointer(),
      "w/data_offsets");
  EXPECT_EQ(read_error("negative.safetensors",
                       safetensors(R"({"w": {"dtype": "F32", "shape": [0], "data_offsets": [-1, 0]}})", ""))
                .pointer(),
            "w/data_offsets/0");
}

TEST(Safetensors, NotJsonSaysSo) {
  const InputError e = read_error("garbage.safetensors", safetensors("{\"w\": [1, 2", ""));
  EXPECT_EQ(e.pointer(), "header");
  EXPECT_NE(e.problem().find("not valid JSON"), std::string::npos) << e.what();
}

TEST(Safetensors, AnUnknownTypeIsKeptUntilItIsNeeded) {
  const auto path = scratch("ids.safetensors");
  write_bytes(path, safetensors(R"({"position_ids": {"dtype": "I64", "shape": [2], "data_offsets": [0, 16]}})",
                                std::string(16, '\0')));
  const MappedFile file(path.string());
  TensorSet tensors;
  read_safetensors(file, tensors);
  EXPECT_EQ(tensors.require("position_ids", "test").type, TensorType::Other);
}

TEST(Safetensors, ATensorNamedTwiceIsRefused) {
  // The JSON reader keeps the last of two equal keys: the first tensor would vanish unseen.
  const InputError e =
      read_error("twice.safetensors", safetensors(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
      "w": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}})",
                                                  std::string(8, '\0')));
  EXPECT_EQ(e.pointer(), "w");
  EXPECT_NE(e.problem().find("twice"), std::string::npos) << e.what();
  EXPECT_EQ(
      read_error("field-twice.safetensors", safetensors(R"({"w": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4],
      "data_offsets": [4, 8]}})",
                                                        std::string(8, '\0')))
          .pointer(),
      "w/data_offsets");
}

TEST(Safetensors, OverlappingTensorsAreRefusedNamingBoth) {
  const InputError e =
      read_error("overlap.safetensors", safetensors(R"({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
      "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}})",
                                                    std::string(12, '\0')));
  EXPECT_EQ(e.pointer(), "b/data_offsets");
  EXPECT_NE(e.problem().find("tensor a"), std::string::npos) << e.what();
  // Adjacent tensors and empty ones do not overlap.
  const auto path = scratch("adjacent.safetensors");
  write_bytes(path, safetensors(R"({"a": {"dtype": "F32", "shape": [1], "data_offsets": [0, 4]},
      "b": {"dtype": "F32", "shape": [1], "data_offsets": [4, 8]}, "c": {"dtype": "F32", "shape": [0], "data_offsets": [4, 4]}})",
                                std::string(8, '\0')));
  const MappedFile file(path.string());
  TensorSet tensors;
  EXPECT_NO_THROW(read_safetensors(file, tensors));
}

TEST(Safetensors, ANameWithEscapeCodesIsQuotedInMessages) {
  // "\u001b[2J" clears a terminal; the NUL would cut a C string.
  const InputError e =
      read_error("escape.safetensors",
                 safetensors(R"({"w\u001b[2J\u0000x": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}})",
                             std::string(8, '\0')));
  EXPECT_EQ(e.pointer(), R"("w\u001B[2J\u0000x")");
  EXPECT_EQ(std::string(e.what()).find('\x1b'), std::string::npos);
  EXPECT_EQ(e.pointer().find('\0'), std::string::npos);
  // A tensor the configuration needs, under a long name: cut.
  std::string long_name(500, 'a');
  long_name += "\xc2\x9b";
  const TensorSet none;
  const InputError missing = input_error([&] { (void)none.require(long_name, "m"); });
  EXPECT_LT(missing.pointer().size(), 300u);
  EXPECT_EQ(missing.pointer().find("\xc2\x9b"), std::string::npos);
  EXPECT_EQ(shown_name("a\xc2\x9b[2J"), R"("a\u009B[2J")");  // a C1 control: CSI, as ESC [ is
  EXPECT_EQ(shown_name("model.layers.0.mlp.up_proj.weight"), "model.layers.0.mlp.up_proj.weight");
}

}  // namespace
}  // namespace attnviz::model
