// Opening models: both formats of one model, the errors a user meets (each naming the file and
// the field or tensor), progress, cancellation, the memory check.

#include "core/model/model.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "core/model/cancelled.h"
#include "core/model/gguf.h"
#include "core/model/hf_model.h"
#include "core/model/safetensors.h"
#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

namespace fs = std::filesystem;
using namespace testing;

TEST(ModelOpen, BothFormatsOfOneModelHaveTheSameConfigurationAndHeadWeights) {
  const auto st = Model::open((test_models() / "llama").string());
  const auto gguf = Model::open((test_models() / "llama.gguf").string());
  EXPECT_EQ(st->config().num_layers, gguf->config().num_layers);
  EXPECT_EQ(st->config().num_kv_heads, 2);
  EXPECT_EQ(gguf->config().num_kv_heads, 2);
  for (const Projection p : {Projection::Query, Projection::Key, Projection::Value}) {
    // GGUF's Q and K rows come back from llama.cpp's order to Hugging Face's.
    EXPECT_EQ(st->head_weight(1, 3, p), gguf->head_weight(1, 3, p));
  }
  EXPECT_EQ(st->tokenizer().encode("the cat", "--text").ids, gguf->tokenizer().encode("the cat", "--text").ids);
}

TEST(ModelOpen, AFileInsideTheFolderOpensTheFolder) {
  const auto model = Model::open((test_models() / "gpt2" / "config.json").string());
  EXPECT_EQ(model->config().architecture, Architecture::Gpt2);
  EXPECT_NE(model->description().find("GPT2LMHeadModel"), std::string::npos);
}

TEST(ModelOpen, TheDescriptionQuotesTheParameterCountAsModelSizesAreQuoted) {
  EXPECT_EQ(parameter_count_text(999'999), "999,999");
  EXPECT_EQ(parameter_count_text(10'512), "10,512");  // the tests' tiny models
  EXPECT_EQ(parameter_count_text(512), "512");
  EXPECT_EQ(parameter_count_text(1'467'360), "1.47 M");
  EXPECT_EQ(parameter_count_text(124'439'808), "124 M");     // GPT-2 small
  EXPECT_EQ(parameter_count_text(1'100'048'384), "1.10 B");  // TinyLlama
  EXPECT_EQ(parameter_count_text(13'015'864'320), "13.0 B");
  const auto model = Model::open((test_models() / "gpt2").string());
  EXPECT_NE(model->description().find(parameter_count_text(model->parameter_count()) + " parameters"),
            std::string::npos);
}

TEST(ModelOpen, AnUnknownArchitectureNamesTheField) {
  const fs::path folder = copy_of("gpt2", "t5");
  replace_in_file(folder / "config.json", "GPT2LMHeadModel", "T5ForConditionalGeneration");
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.origin(), (folder / "config.json").string());
  EXPECT_EQ(e.pointer(), "/architectures/0");
  EXPECT_NE(e.problem().find("T5ForConditionalGeneration"), std::string::npos);
}

TEST(ModelOpen, ARopeScalingTypeThatIsNotAStringNamesTheField) {
  // Found by the config fuzzer: a number where the scaling's name belongs.
  const std::string config = R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 8, "num_hidden_layers": 1,
    "num_attention_heads": 2, "intermediate_size": 16, "vocab_size": 10, "rope_scaling": {"rope_type": 3}})";
  const InputError e = input_error([&] { (void)parse_hf_config(config, "config.json"); });
  EXPECT_EQ(e.pointer(), "/rope_scaling/rope_type");
  EXPECT_NE(e.problem().find("must be a string"), std::string::npos);
}

// A Llama config.json with the given head sizes (and nothing else out of the ordinary).
std::string llama_config(const std::string& heads) {
  return R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 32, "num_hidden_layers": 1, "intermediate_size": 16,
    "vocab_size": 10, )" +
         heads + "}";
}

TEST(ModelOpen, HeadSizesBeyondAnyRealModelAreRefusedByName) {
  // 65,536 × 65,536 is 2^32, which wrapped to 0 in an int: q_proj shaped [0, 32] passed the
  // shape check and RoPE wrote outside the queries (SIGSEGV).
  InputError e = input_error([&] {
    (void)parse_hf_config(
        llama_config(R"("num_attention_heads": 65536, "num_key_value_heads": 65536, "head_dim": 65536)"), "c.json");
  });
  EXPECT_EQ(e.pointer(), "/num_attention_heads");
  EXPECT_NE(e.problem().find("from 1 to 1024"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("65536"), std::string::npos) << e.what();
  e = input_error(
      [&] { (void)parse_hf_config(llama_config(R"("num_attention_heads": 4, "head_dim": 65536)"), "c.json"); });
  EXPECT_EQ(e.pointer(), "/head_dim");
  // Each within its bound, their product beyond the queries' width.
  e = input_error(
      [&] { (void)parse_hf_config(llama_config(R"("num_attention_heads": 1024, "head_dim": 1024)"), "c.json"); });
  EXPECT_EQ(e.pointer(), "/head_dim");
  EXPECT_NE(e.problem().find("1024 heads × 1024 dimensions = 1048576"), std::string::npos) << e.what();
  for (const std::string key : {"num_hidden_layers", "intermediate_size", "vocab_size", "max_position_embeddings"}) {
    std::string config = llama_config(R"("num_attention_heads": 4)");
    const std::size_t at = config.find("\"" + key + "\": ");
    if (at != std::string::npos) config.erase(at, config.find(',', at) + 1 - at);  // each key once
    config.insert(1, "\"" + key + "\": 100000000000, ");
    e = input_error([&] { (void)parse_hf_config(config, "c.json"); });
    EXPECT_EQ(e.pointer(), "/" + key);
    EXPECT_NE(e.problem().find("beyond any real model"), std::string::npos) << e.what();
  }
}

TEST(ModelOpen, TheEndOfTextIdsComeFromTheFile) {
  const fs::path folder = copy_of("llama", "llama-eos");
  std::string config = read_text(folder / "config.json");
  config.insert(config.find('{') + 1, R"("eos_token_id": [2, 3], )");
  write_bytes(folder / "config.json", config);
  EXPECT_EQ(Model::open(folder.string())->config().end_of_text_ids, (std::vector<int>{2, 3}));
  EXPECT_EQ(Model::open((test_models() / "llama.gguf").string())->config().end_of_text_ids, std::vector<int>{2});

  config.replace(config.find("[2, 3]"), 6, "[2, 99999]");
  write_bytes(folder / "config.json", config);
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.pointer(), "/eos_token_id/1");
  EXPECT_NE(e.problem().find("vocabulary"), std::string::npos);
}

TEST(ModelOpen, AMissingTokenizerSaysWhatIsNeeded) {
  const fs::path folder = copy_of("gpt2", "no-tokenizer");
  fs::remove(folder / "vocab.json");
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.pointer(), "tokenizer");
  EXPECT_NE(e.problem().find("vocab.json + merges.txt"), std::string::npos) << e.what();
}

TEST(ModelOpen, AMissingTensorIsNamed) {
  const fs::path folder = copy_of("gpt2", "fewer-layers");
  replace_in_file(folder / "config.json", "\"n_layer\": 2", "\"n_layer\": 3");
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.pointer(), "h.2.ln_1.weight");
}

TEST(ModelOpen, ATensorOfTheWrongShapeNamesItsShapeAndTheNeed) {
  const fs::path folder = copy_of("gpt2", "wider");
  replace_in_file(folder / "config.json", "\"n_inner\": 48", "\"n_inner\": 64");
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.pointer(), "h.0.mlp.c_fc.weight");
  EXPECT_NE(e.problem().find("16×48"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find("16×64"), std::string::npos) << e.what();
}

TEST(ModelOpen, PickleWeightsOnlyAreExplained) {
  const fs::path folder = copy_of("gpt2", "pickle");
  fs::rename(folder / "model.safetensors", folder / "pytorch_model.bin");
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_NE(e.problem().find("pytorch_model.bin"), std::string::npos) << e.what();
}

TEST(ModelOpen, ATruncatedFileNamesTheFileAndTheTensor) {
  const fs::path folder = copy_of("llama", "truncated");
  fs::resize_file(folder / "model.safetensors", fs::file_size(folder / "model.safetensors") - 100);
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_NE(e.origin().find("model.safetensors"), std::string::npos);
  EXPECT_NE(e.pointer().find(".weight"), std::string::npos) << e.what();
}

TEST(ModelOpen, AModelTooLargeForTheMemorySaysHowMuchItNeeds) {
  LoadOptions options;
  options.memory_limit = 1000;
  const InputError e = input_error([&] { (void)Model::open((test_models() / "llama.gguf").string(), options); });
  EXPECT_EQ(e.pointer(), "weights");
  EXPECT_NE(e.problem().find("GiB of memory"), std::string::npos) << e.what();
}

TEST(ModelOpen, ProgressRisesToOneAndCancellingStops) {
  std::vector<double> fractions;
  LoadOptions options;
  options.progress = [&](const Progress& p) { fractions.push_back(p.fraction); };
  (void)Model::open((test_models() / "llama.gguf").string(), options);
  ASSERT_GE(fractions.size(), 3u);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_EQ(fractions.back(), 1.0);

  std::stop_source stop;
  LoadOptions cancelled;
  cancelled.stop = stop.get_token();
  cancelled.progress = [&](const Progress& p) {
    if (p.fraction > 0.2) stop.request_stop();
  };
  EXPECT_THROW((void)Model::open((test_models() / "llama.gguf").string(), cancelled), Cancelled);
}

// Model::open(path) on a worker, failed (rather than hung) when it has not returned in 10 s: the
// FIFO is then opened for writing, which lets a reader stuck in open() go on.
InputError open_error_promptly(const fs::path& path, const fs::path& fifo) {
  auto opening =
      std::async(std::launch::async, [path] { return input_error([&] { (void)Model::open(path.string()); }); });
  if (opening.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
    ADD_FAILURE() << "Model::open(" << path << ") still waits after 10 s";
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  return opening.get();
}

TEST(ModelOpen, AFifoIsRefusedWithoutWaitingForAWriter) {
  const fs::path gguf = scratch("fifo.gguf");
  fs::remove(gguf);
  ASSERT_EQ(::mkfifo(gguf.c_str(), 0600), 0);
  InputError e = open_error_promptly(gguf, gguf);
  EXPECT_EQ(e.origin(), gguf.string());
  EXPECT_NE(e.problem().find("not a regular file"), std::string::npos) << e.what();

  const fs::path folder = copy_of("gpt2", "fifo-weights");
  fs::remove(folder / "model.safetensors");
  ASSERT_EQ(::mkfifo((folder / "model.safetensors").c_str(), 0600), 0);
  e = open_error_promptly(folder, folder / "model.safetensors");
  EXPECT_EQ(e.origin(), (folder / "model.safetensors").string());
  EXPECT_NE(e.problem().find("FIFO"), std::string::npos) << e.what();
  e = open_error_promptly(folder / "model.safetensors", folder / "model.safetensors");
  EXPECT_NE(e.problem().find("not a regular file"), std::string::npos) << e.what();
}

TEST(ModelOpen, CancellingStopsWhileTheHeadersAreRead) {
  std::stop_source stop;
  stop.request_stop();
  const MappedFile file((test_models() / "llama.gguf").string());
  EXPECT_THROW((void)read_gguf(file, stop.get_token()), Cancelled);
  const MappedFile weights((test_models() / "llama" / "model.safetensors").string());
  TensorSet tensors;
  EXPECT_THROW(read_safetensors(weights, tensors, stop.get_token()), Cancelled);
}

TEST(ModelOpen, ASymbolicLinkLoopIsNamed) {
  const fs::path loop = scratch("loop.gguf");
  fs::remove(loop);
  fs::create_symlink(loop.filename(), loop);  // loop.gguf → loop.gguf
  InputError e = input_error([&] { (void)Model::open(loop.string()); });
  EXPECT_EQ(e.origin(), loop.string());
  EXPECT_NE(e.problem().find("symbolic link loop"), std::string::npos) << e.what();

  const fs::path folder = copy_of("gpt2", "loop-weights");
  fs::remove(folder / "model.safetensors");
  fs::create_symlink("model.safetensors", folder / "model.safetensors");
  e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.origin(), (folder / "model.safetensors").string());
  EXPECT_NE(e.problem().find("symbolic link loop"), std::string::npos) << e.what();
  e = input_error([&] { const MappedFile file((folder / "model.safetensors").string()); });
  EXPECT_NE(e.problem().find("symbolic link loop"), std::string::npos) << e.what();
}

TEST(ModelOpen, ATokenizerWithIdsBeyondTheEmbeddingsNamesItsFile) {
  const fs::path folder = copy_of("gpt2", "small-vocab");
  const auto model = Model::open(folder.string());
  const int vocab = model->config().vocab_size;
  replace_in_file(folder / "config.json", "\"vocab_size\": " + std::to_string(vocab),
                  "\"vocab_size\": " + std::to_string(vocab - 1));
  const InputError e = input_error([&] { (void)Model::open(folder.string()); });
  EXPECT_EQ(e.origin(), (folder / "vocab.json").string());
  EXPECT_NE(e.problem().find(std::to_string(vocab) + " tokens"), std::string::npos) << e.what();
  EXPECT_NE(e.problem().find(std::to_string(vocab - 1) + " rows"), std::string::npos) << e.what();
}

TEST(ModelOpen, TheTokenizerAloneReadsNoWeights) {
  LoadOptions options;
  options.weights = false;
  options.memory_limit = 1;  // would refuse the weights
  const auto model = Model::open((test_models() / "bert").string(), options);
  EXPECT_EQ(model->tokenizer().encode("the cat", "--text").tokens,
            (std::vector<std::string>{"[CLS]", "the", "cat", "[SEP]"}));
  EXPECT_EQ(model->weights().layers.size(), 0u);
}

}  // namespace
}  // namespace attnviz::model
