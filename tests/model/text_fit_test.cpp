// How much of a text a model takes, and the longest start of a text within it, checked with
// the tiny models' real tokenizers: each cut is tokenized again here, and one word more must
// pass the limit.

#include "core/model/text_fit.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "core/cpu/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/generate.h"
#include "core/model/model.h"
#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

int tokens_of(const Model& model, const std::string& text) {
  return static_cast<int>(model.tokenizer().encode(text).ids.size());
}

std::string repeated(const std::string& words, int times) {
  std::string text;
  for (int i = 0; i < times; ++i) text += (i > 0 ? " " : "") + words;
  return text;
}

TEST(TextFit, TheLimitIsTheLeastOfThePositionsTheTokenizerAndTheKeptAttention) {
  ModelConfig gpt2;
  gpt2.architecture = Architecture::Gpt2;
  gpt2.max_positions = 1024;
  gpt2.num_heads = 12;
  EXPECT_EQ(token_limit(gpt2, 12), 1024);  // sqrt(2^28 / 144) = 1,365 tokens of kept attention
  gpt2.max_positions = 32;
  EXPECT_EQ(token_limit(gpt2, 2), 32);
  ModelConfig llama;  // RoPE: no position table
  llama.architecture = Architecture::Llama;
  llama.num_heads = 4;
  EXPECT_EQ(token_limit(llama, 2), tokenizers::kMaxModelTokens);
  llama.num_heads = 32;
  EXPECT_EQ(token_limit(llama, 32), 512);  // 32 layers × 32 heads × 512² = 2^28 cells
  EXPECT_LE(32LL * 32 * 512 * 512, kMaxKeptCells);
}

// The limit is where the forward pass starts refusing: one token more keeps too much attention,
// and the refusal carries the numbers the window words its message from.
TEST(TextFit, OneTokenPastTheKeptAttentionLimitIsRefused) {
  ModelConfig llama;
  llama.architecture = Architecture::Llama;
  llama.num_heads = 64;
  llama.num_layers = 80;
  for (const int layers : {1, 12, 80}) {
    const int limit = token_limit(llama, layers);
    EXPECT_LE(kept_attention_cells(layers, llama.num_heads, limit), kMaxKeptCells) << layers;
    EXPECT_GT(kept_attention_cells(layers, llama.num_heads, limit + 1), kMaxKeptCells) << layers;
    const KeptAttentionTooLarge refused(limit + 1, layers, llama.num_heads);
    EXPECT_EQ(refused.kept_layers(), layers);
    EXPECT_GT(refused.mebibytes(), kMaxKeptCells * 8 >> 20) << layers;  // rounded up
    EXPECT_THAT(refused.what(), ::testing::HasSubstr("--layers 0,5"));  // the command line's advice
  }
}

// The activations count: a Llama with an MLP of 2^20 took GBs at 320 tokens while the memory
// check counted only the weights.
TEST(TextFit, APassCountsItsActivationsAgainstTheMemoryLimit) {
  ModelConfig wide;
  wide.architecture = Architecture::Llama;
  wide.d_model = 32;
  wide.num_layers = 1;
  wide.num_heads = wide.num_kv_heads = 4;
  wide.head_dim = 8;
  wide.d_ff = 1 << 20;
  wide.vocab_size = 100;
  EXPECT_GT(forward_pass_bytes(wide, 320, 1), 2ull << 30);  // 320 × 2^20 × 2 floats alone
  wide.d_ff = 48;
  EXPECT_LT(forward_pass_bytes(wide, 320, 1), 32ull << 20);
  EXPECT_GT(forward_pass_bytes(wide, 640, 1), forward_pass_bytes(wide, 320, 1));

  const auto roomy = Model::open((test_models() / "llama").string());
  LoadOptions options;
  options.memory_limit = roomy->weight_bytes() + 1000;  // the weights fit, a pass does not
  const auto model = Model::open((test_models() / "llama").string(), options);
  const auto backend = make_cpu_backend();
  ForwardPass pass(*model, *backend);
  const InputError e = input_error([&] { (void)pass.run(model->tokenizer().encode("the cat sat", "--text"), {}); });
  EXPECT_EQ(e.pointer(), "--text");
  EXPECT_THAT(e.problem(), ::testing::HasSubstr("for its activations"));
  EXPECT_THAT(e.problem(), ::testing::HasSubstr("the memory limit is"));
  GenerateOptions generate;
  generate.max_new_tokens = 2;
  const InputError g =
      input_error([&] { (void)Generator(*model).run(model->tokenizer().encode("the cat", "--text"), generate); });
  EXPECT_THAT(g.problem(), ::testing::HasSubstr("for its activations"));
  // The window's cut for such a refusal: the most tokens whose pass fits, and one more does not.
  options.memory_limit = roomy->weight_bytes() + forward_pass_bytes(model->config(), 20, 2) + 1;
  const auto limited = Model::open((test_models() / "llama").string(), options);
  const int most = most_tokens_in_memory(*limited, 2, 4096);
  EXPECT_GE(most, 20);
  EXPECT_LT(most, 4096);
  EXPECT_NO_THROW(check_pass_memory(*limited, most, 2));
  EXPECT_THROW(check_pass_memory(*limited, most + 1, 2), InputError);
  EXPECT_EQ(most_tokens_in_memory(*limited, 2, 10), 10);  // never past what it is asked for
  options.memory_limit = roomy->weight_bytes();
  EXPECT_EQ(most_tokens_in_memory(*Model::open((test_models() / "llama").string(), options), 2, 4096), 0);
}

TEST(TextFit, ATooLongTextIsCutBeforeTheWordThatWouldPassTheLimit) {
  for (const char* name : {"gpt2", "llama", "bert"}) {
    SCOPED_TRACE(name);
    const auto model = Model::open((test_models() / name).string());
    const std::string text = repeated("the cat sat on the mat", 20);
    const std::optional<TextCut> cut = cut_to_token_limit(model->tokenizer(), text, 32);
    ASSERT_TRUE(cut.has_value());
    EXPECT_EQ(text.rfind(cut->text, 0), 0u) << "a start of the text";
    EXPECT_EQ(text[cut->text.size()], ' ') << "cut before a space";
    EXPECT_EQ(cut->tokens, tokens_of(*model, cut->text));
    EXPECT_LE(cut->tokens, 32);
    const std::size_t next_space = text.find(' ', cut->text.size() + 1);
    EXPECT_GT(tokens_of(*model, text.substr(0, next_space)), 32) << "one word more passes the limit";
  }
}

TEST(TextFit, ATextWithinTheLimitIsNotCut) {
  const auto model = Model::open((test_models() / "gpt2").string());
  EXPECT_FALSE(cut_to_token_limit(model->tokenizer(), "the cat sat on the mat", 32).has_value());
  EXPECT_FALSE(cut_to_token_limit(model->tokenizer(), "", 32).has_value());
}

TEST(TextFit, KoreanIsCutBetweenWordsAndAFirstWordTooLongWithinItsLetters) {
  const auto model = Model::open((test_models() / "gpt2").string());
  const std::string korean = repeated("\xec\x96\xb4\xec\xa0\x9c \xeb\xb0\xa4\xec\x97\x90", 20);  // 어제 밤에
  const std::optional<TextCut> cut = cut_to_token_limit(model->tokenizer(), korean, 32);
  ASSERT_TRUE(cut.has_value());
  EXPECT_EQ(korean[cut->text.size()], ' ');
  EXPECT_LE(tokens_of(*model, cut->text), 32);

  const std::string one_word(100, 'x');
  const std::optional<TextCut> letters = cut_to_token_limit(model->tokenizer(), one_word, 10);
  ASSERT_TRUE(letters.has_value());
  EXPECT_FALSE(letters->text.empty());
  EXPECT_LE(tokens_of(*model, letters->text), 10);
  EXPECT_GT(tokens_of(*model, one_word.substr(0, letters->text.size() + 1)), 10);
}

TEST(TextFit, ATextRefusedForBytesThatAreNotUtf8IsNotCut) {
  const auto model = Model::open((test_models() / "gpt2").string());
  const std::string text = repeated("the cat", 40) + "\xff";
  EXPECT_FALSE(cut_to_token_limit(model->tokenizer(), text, 32).has_value());
}

}  // namespace
}  // namespace attnviz::model
