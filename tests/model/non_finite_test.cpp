// Values beyond float32: damaged stored weights (an F16 NaN, a quantised block's NaN scale),
// finite weights whose products overflow, and configuration values that make the maths
// undefined (rope_theta 0). Each stops with an InputError naming the file or the layer, the
// tensor or stage, and the token: never a result holding NaN (which the JSON writes as null).

#include <gtest/gtest.h>

#include <fstream>

#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/generate.h"
#include "core/model/gguf.h"
#include "core/model/hf_model.h"
#include "core/model/safetensors.h"
#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

namespace fs = std::filesystem;
using namespace testing;

// Where a tensor's data starts in its file.
std::uint64_t tensor_offset(const fs::path& path, const std::string& name) {
  const MappedFile file(path.string());
  if (path.extension() == ".gguf") {
    const GgufFile gguf = read_gguf(file);
    return static_cast<std::uint64_t>(gguf.tensors.require(name, "test").data.data() - file.all().data());
  }
  TensorSet tensors;
  read_safetensors(file, tensors);
  return static_cast<std::uint64_t>(tensors.require(name, "test").data.data() - file.all().data());
}

// Overwrites bytes of a tensor's data, `offset` bytes into it.
void patch_tensor(const fs::path& path, const std::string& name, std::uint64_t offset, const std::string& bytes) {
  const std::uint64_t at = tensor_offset(path, name) + offset;
  std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
  file.seekp(static_cast<std::streamoff>(at));
  file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

InputError forward_error(const fs::path& model_path, const std::string& text) {
  const auto model = Model::open(model_path.string());
  const auto backend = make_cpu_backend();
  ForwardPass pass(*model, *backend);
  return input_error([&] { (void)pass.run(model->tokenizer().encode(text, "--text"), {}); });
}

int last_id(const fs::path& model_path, const std::string& text) {
  const auto model = Model::open(model_path.string());
  return model->tokenizer().encode(text, "--text").ids.back();
}

TEST(NonFinite, AnF16NaNInTheEmbeddingsNamesTheTensorAndTheRow) {
  const fs::path folder = copy_of("llama-f16", "f16-nan");
  const int id = last_id(folder, "cat");
  patch_tensor(folder / "model.safetensors", "model.embed_tokens.weight", static_cast<std::uint64_t>(id) * 32 * 2 + 6,
               little_endian<std::uint16_t>(0x7E00));
  const InputError e = forward_error(folder, "cat");
  EXPECT_EQ(e.origin(), (folder / "model.safetensors").string());
  EXPECT_EQ(e.pointer(), "model.embed_tokens.weight");
  EXPECT_NE(e.problem().find("row " + std::to_string(id)), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("not a finite number"), std::string::npos) << e.what();
}

TEST(NonFinite, AQ8NaNScaleInTheEmbeddingsNamesTheTensor) {
  const fs::path path = scratch("q8-nan.gguf");
  fs::copy_file(test_models() / "llama-q8.gguf", path, fs::copy_options::overwrite_existing);
  const int id = last_id(path, "cat");
  // A row of 256 values is 8 Q8_0 blocks, each its f16 scale, then 32 int8: the third's scale.
  patch_tensor(path, "token_embd.weight", static_cast<std::uint64_t>(id) * 8 * 34 + 2 * 34,
               little_endian<std::uint16_t>(0x7E00));
  const InputError e = forward_error(path, "cat");
  EXPECT_EQ(e.pointer(), "token_embd.weight");
  EXPECT_NE(e.problem().find("Q8_0"), std::string::npos) << e.what();
}

TEST(NonFinite, AStoredMatrixWithANaNNamesTheTensor) {
  const fs::path folder = copy_of("llama-f16", "f16-nan-matrix");
  patch_tensor(folder / "model.safetensors", "model.layers.1.mlp.up_proj.weight", 10,
               little_endian<std::uint16_t>(0xFC00));
  const InputError e = forward_error(folder, "the cat");
  EXPECT_EQ(e.pointer(), "model.layers.1.mlp.up_proj.weight");
}

TEST(NonFinite, FiniteWeightsWhoseProductsOverflowNameTheLayerStageAndToken) {
  const fs::path folder = copy_of("llama", "overflow");
  std::string huge;
  for (int i = 0; i < 48 * 32; ++i) huge += little_endian(3e38f);
  patch_tensor(folder / "model.safetensors", "model.layers.1.mlp.up_proj.weight", 0, huge);
  const InputError e = forward_error(folder, "the cat");
  EXPECT_EQ(e.origin(), folder.string());
  EXPECT_EQ(e.pointer(), "layer 1: the MLP's hidden layer");
  EXPECT_NE(e.problem().find("at token "), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("not a finite number"), std::string::npos) << e.what();

  // Generation stops alike.
  const auto model = Model::open(folder.string());
  GenerateOptions options;
  options.max_new_tokens = 2;
  const InputError g =
      input_error([&] { (void)Generator(*model).run(model->tokenizer().encode("the cat", "--text"), options); });
  EXPECT_EQ(g.pointer(), "layer 1: the MLP's hidden layer");
}

TEST(NonFinite, ConfigurationValuesThatBreakTheMathsAreRefused) {
  const std::string llama = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 8, "num_hidden_layers": 1,
    "num_attention_heads": 2, "intermediate_size": 16, "vocab_size": 10, )";
  for (const std::string field : {"rope_theta", "rms_norm_eps"}) {
    for (const std::string value : {"0", "-1"}) {
      const InputError e =
          input_error([&] { (void)parse_hf_config(llama + "\"" + field + "\": " + value + "}", "config.json"); });
      EXPECT_EQ(e.pointer(), "/" + field);
      EXPECT_NE(e.problem().find("finite number > 0"), std::string::npos) << e.what();
    }
  }
  const std::string gpt2 =
      R"({"architectures": ["GPT2LMHeadModel"], "n_embd": 8, "n_layer": 1, "n_head": 2, "vocab_size": 10, )";
  EXPECT_EQ(input_error([&] { (void)parse_hf_config(gpt2 + R"("layer_norm_epsilon": 0})", "c.json"); }).pointer(),
            "/layer_norm_epsilon");
}

}  // namespace
}  // namespace attnviz::model
