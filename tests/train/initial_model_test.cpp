// Training from a model folder (core/train/initial_model.h, `attnviz train --task text --init`):
// the folder's weights become the trainer's, checked by core/model's forward pass on the same
// tokens; the text is tokenized whole, in pieces; what cannot be trained is refused by name; a
// run from --init resumes exactly and writes folders that keep its tokenizer.

#include "core/train/initial_model.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/common/error.h"
#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/model.h"
#include "core/train/checkpoint.h"
#include "core/train/gpt2.h"
#include "core/train/trainer.h"

namespace attnviz::train {
namespace {

namespace fs = std::filesystem;

const fs::path kGpt2 = fs::path(ATTNVIZ_TEST_MODELS) / "gpt2";  // n_inner 48 = 3 × n_embd: not GPT-2's 4×

std::string sentences(int count) {
  std::string text;
  const char* words[] = {"the cat sat on the mat. ", "a dog ran to see it; ", "then they slept.\n"};
  for (int i = 0; i < count; ++i) text += words[i % 3];
  return text;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

class InitialModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("attnviz-init-" + std::to_string(::getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }

  TrainOptions from_gpt2(const std::string& out) const {
    TrainOptions o;
    o.task = "text";
    o.text = sentences(40);
    o.init = kGpt2;
    o.out = folder_ / out;
    o.context = 8;
    o.batch = 2;
    o.steps = 4;
    o.threads = 1;
    return o;
  }
  fs::path folder_;
};

TEST_F(InitialModelTest, TheFoldersWeightsGiveCoreModelsLogits) {
  const InitialModel initial = read_initial_model(kGpt2, 8);
  const auto opened = model::Model::open(kGpt2.string());
  EXPECT_EQ(initial.shape.d_ff(), opened->config().d_ff);
  EXPECT_EQ(initial.shape.positions, opened->config().max_positions);
  EXPECT_EQ(initial.shape.vocab, opened->config().vocab_size);

  const tokenizers::Encoding text = opened->tokenizer().encode("the cat sat on the mat");
  const int T = static_cast<int>(text.ids.size());
  Gpt2 trained(initial.shape, 1, T);
  std::copy(initial.parameters.begin(), initial.parameters.end(), trained.parameters().begin());
  const std::vector<std::int32_t> ids(text.ids.begin(), text.ids.end());
  trained.forward(ids, ids);

  const auto backend = make_cpu_backend();
  model::ForwardPass pass(*opened, *backend);
  model::ForwardOptions options;
  options.top_k = initial.shape.vocab;
  const model::ForwardResult& result = pass.run(text, options);
  ASSERT_EQ(result.next_tokens.size(), static_cast<std::size_t>(initial.shape.vocab));
  const auto last =
      trained.logits().subspan(static_cast<std::size_t>(T - 1) * static_cast<std::size_t>(initial.shape.vocab));
  for (const model::TokenProbability& t : result.next_tokens) {
    EXPECT_NEAR(t.logit, last[static_cast<std::size_t>(t.id)], 1e-4f) << "token " << t.id;
  }
}

TEST_F(InitialModelTest, ALongTextIsTokenizedInPiecesAsAWhole) {
  const std::string text = sentences(300);  // about 6 KB: two pieces
  ASSERT_GT(text.size(), 4096u);
  model::LoadOptions tokenizer_only;
  tokenizer_only.weights = false;
  const auto opened = model::Model::open(kGpt2.string(), tokenizer_only);
  const std::vector<int> whole = opened->tokenizer().encode(text).ids;
  const std::vector<std::int32_t> pieces = encode_training_text(kGpt2, text, "story.txt");
  EXPECT_EQ(std::vector<int>(pieces.begin(), pieces.end()), whole);
}

TEST_F(InitialModelTest, ATextWithoutSpacesIsCutAtACharactersStart) {
  std::string korean;
  while (korean.size() < 10000) korean += "고양이가매트위에앉았다";
  for (std::size_t begin = 0; begin < korean.size();) {
    const std::size_t end = training_text_cut(korean, begin, 4096);
    ASSERT_GT(end, begin);
    ASSERT_LE(end - begin, 4096u);
    if (end < korean.size()) {
      EXPECT_NE(static_cast<unsigned char>(korean[end]) & 0xC0, 0x80) << "cut inside a character";
    }
    begin = end;
  }
  EXPECT_NO_THROW((void)encode_training_text(kGpt2, korean, "korean.txt"));
}

TEST_F(InitialModelTest, InvalidUtf8IsRefusedAtItsByte) {
  std::string text = sentences(300);
  text[5000] = '\xff';
  try {
    (void)encode_training_text(kGpt2, text, "story.txt");
    FAIL() << "invalid UTF-8 was tokenized";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("story.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("5000"), std::string::npos) << e.what();
  }
}

TEST_F(InitialModelTest, WhatCannotBeTrainedIsRefusedByName) {
  const auto refusal = [](const fs::path& folder, int context) {
    try {
      (void)read_initial_model(folder, context);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const fs::path models = ATTNVIZ_TEST_MODELS;
  EXPECT_NE(refusal(models / "llama", 8).find("GPT2LMHeadModel"), std::string::npos);
  EXPECT_NE(refusal(models / "bert", 8).find("BERT"), std::string::npos);
  EXPECT_NE(refusal(models / "gpt2.gguf", 8).find("not a folder"), std::string::npos);
  EXPECT_NE(refusal(folder_ / "missing", 8).find("not a folder"), std::string::npos);
  EXPECT_NE(refusal(kGpt2, 33).find("n_positions"), std::string::npos);  // its table has 32 rows

  TrainOptions induction = from_gpt2("induction");
  induction.task = "induction";
  EXPECT_THROW(train(induction, {}, nullptr), InputError);
  EXPECT_FALSE(fs::exists(induction.out));
}

TEST_F(InitialModelTest, ATextShorterThanOneBatchSaysItsTokens) {
  TrainOptions o = from_gpt2("short");
  o.text = "the cat sat on the mat";
  try {
    train(o, {}, nullptr);
    FAIL() << "a text of 6 tokens trained on batches of 2 × 8";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("6 tokens"), std::string::npos) << e.what();
  }
}

TEST_F(InitialModelTest, ARunFromAFolderResumesExactlyAndKeepsItsTokenizer) {
  const TrainOptions whole = from_gpt2("whole");
  train(whole, {}, nullptr);
  TrainOptions half = from_gpt2("halves");
  half.steps = 2;
  half.checkpoint_every = 2;
  train(half, {}, nullptr);
  resume(half.out, 4, 1, {}, nullptr);

  const SafetensorsFile want = read_safetensors(whole.out / "model.safetensors");
  const SafetensorsFile got = read_safetensors(half.out / "model.safetensors");
  for (const auto& [name, values] : want.tensors) EXPECT_EQ(got.tensors.at(name), values) << name;
  for (const fs::path& folder : {whole.out, half.out, half.out / "checkpoints" / "step-2"}) {
    EXPECT_EQ(read_bytes(folder / "vocab.json"), read_bytes(kGpt2 / "vocab.json")) << folder;
    EXPECT_EQ(read_bytes(folder / "merges.txt"), read_bytes(kGpt2 / "merges.txt")) << folder;
    const auto reopened = model::Model::open(folder.string());
    EXPECT_EQ(reopened->config().d_ff, 48) << folder;
    EXPECT_EQ(reopened->config().max_positions, 32) << folder;
  }
}

}  // namespace
}  // namespace attnviz::train
