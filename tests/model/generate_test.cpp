// Greedy generation with the KV cache against full forward passes: at every step the chosen
// token is the full pass's best next token over the prompt and the tokens generated so far,
// and the step's attention row over the cache is the full pass's last row, for GPT-2 (learned
// positions), Llama (RoPE, grouped-query heads) and Mistral (a sliding window of 3: a rolling
// cache). The full pass is itself held to the float64 reference by check_models.py.

#include "core/model/generate.h"

#include <gtest/gtest.h>

#include "core/cpu/cpu_backend.h"
#include "core/model/cancelled.h"
#include "tests/model/test_files.h"

namespace attnviz::model {
namespace {

using namespace testing;

constexpr double kTolerance = 1e-5;

tokenizers::Encoding encoding_of(const Model& model, const std::vector<int>& ids) {
  tokenizers::Encoding e;
  e.ids = ids;
  for (const int id : ids) e.tokens.push_back(model.tokenizer().label(id));
  e.type_ids.assign(ids.size(), 0);
  return e;
}

// Every step against a full pass over the prompt and the tokens generated before it.
void expect_steps_match_full_passes(const std::string& name, int tokens) {
  SCOPED_TRACE(name);
  const auto model = Model::open((test_models() / name).string());
  const auto backend = make_cpu_backend();
  const auto prompt = model->tokenizer().encode("the cat sat on the mat", "--text");
  GenerateOptions options;
  options.max_new_tokens = tokens;
  Generator generator(*model);
  const Generation g = generator.run(prompt, options);
  ASSERT_FALSE(g.steps.empty());
  const ModelConfig& c = model->config();
  const std::vector<int> all = g.ids();
  for (std::size_t s = 0; s < g.steps.size(); ++s) {
    SCOPED_TRACE("step " + std::to_string(s));
    const GenerationStep& step = g.steps[s];
    const std::vector<int> so_far(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(prompt.ids.size() + s));
    ForwardPass pass(*model, *backend);
    const ForwardResult& full = pass.run(encoding_of(*model, so_far), {});
    EXPECT_EQ(step.id, full.next_tokens.front().id);
    EXPECT_NEAR(step.next_tokens.front().p, full.next_tokens.front().p, kTolerance);
    const int last = static_cast<int>(so_far.size()) - 1;
    EXPECT_EQ(step.query_position, last);
    const int held = c.sliding_window ? std::min(last + 1, *c.sliding_window) : last + 1;
    EXPECT_EQ(step.cache_length, held);
    EXPECT_EQ(step.first_cached, last + 1 - held);
    EXPECT_EQ(step.cache_bytes, static_cast<std::uint64_t>(2 * c.num_layers * c.num_kv_heads * c.head_dim * 4 * held));
    ASSERT_EQ(step.layers.size(), static_cast<std::size_t>(c.num_layers));
    for (int l = 0; l < c.num_layers; ++l) {
      const Result& attention = full.layers[static_cast<std::size_t>(l)].attention;
      for (int h = 0; h < c.num_heads; ++h) {
        const HeadResult& head = attention.heads[static_cast<std::size_t>(h)];
        double weight_sum = 0.0;
        for (int j = 0; j <= last; ++j) {
          const int cached = j - step.first_cached;
          if (cached < 0) {  // evicted from the rolling cache: the full pass's window hides it
            EXPECT_EQ(head.weights.at(last, j), 0.0f);
            continue;
          }
          EXPECT_NEAR(step.layers[static_cast<std::size_t>(l)].weights.at(h, cached), head.weights.at(last, j),
                      kTolerance);
          EXPECT_NEAR(step.layers[static_cast<std::size_t>(l)].scores.at(h, cached), head.scores.at(last, j),
                      kTolerance * 10);
          weight_sum += step.layers[static_cast<std::size_t>(l)].weights.at(h, cached);
        }
        EXPECT_NEAR(weight_sum, 1.0, 1e-5);
      }
    }
  }
}

TEST(Generate, Gpt2StepsEqualFullPasses) { expect_steps_match_full_passes("gpt2", 6); }
TEST(Generate, LlamaWithGroupedQueryHeadsAndRopeStepsEqualFullPasses) { expect_steps_match_full_passes("llama", 6); }
TEST(Generate, MistralsRollingCacheStepsEqualFullPasses) { expect_steps_match_full_passes("mistral", 6); }

TEST(Generate, KeptLayersOnlyAndTheTokensAreAppendedToThePrompt) {
  const auto model = Model::open((test_models() / "llama").string());
  GenerateOptions options;
  options.max_new_tokens = 3;
  options.layers = std::vector<int>{1};
  const auto prompt = model->tokenizer().encode("the cat", "--text");
  const Generation g = Generator(*model).run(prompt, options);
  ASSERT_EQ(g.steps.front().layers.size(), 1u);
  EXPECT_EQ(g.steps.front().layers.front().layer, 1);
  EXPECT_EQ(g.steps.front().query_token, prompt.tokens.back());
  EXPECT_EQ(g.tokens().size(), prompt.ids.size() + g.steps.size());
  if (g.steps.size() > 1) {
    EXPECT_EQ(g.steps[1].query_token, g.steps[0].token);
  }
}

TEST(Generate, TokensAreLabelledAsOneTextAcrossPromptAndGeneratedTokens) {
  const auto model = Model::open((test_models() / "gpt2").string());
  const tokenizers::Tokenizer& tokenizer = model->tokenizer();
  // Each id labelled on its own: 한's three bytes read <0xED> <0x95> <0x9C>.
  const tokenizers::Encoding prompt = encoding_of(*model, tokenizer.encode("the cat \xED\x95\x9C", "--text").ids);
  GenerateOptions options;
  options.max_new_tokens = 4;
  const Generation g = Generator(*model).run(prompt, options);
  const std::vector<std::string> labels = tokenizer.labels(g.ids());
  EXPECT_EQ(g.tokens(), labels);
  EXPECT_EQ(std::vector<std::string>(g.prompt_tokens.end() - 3, g.prompt_tokens.end()),
            (std::vector<std::string>{"한₁", "한₂", "한₃"}));
  for (std::size_t s = 0; s < g.steps.size(); ++s) EXPECT_EQ(g.steps[s].query_token, labels[prompt.ids.size() + s - 1]);
}

TEST(Generate, AHeadSwitchedOffChangesWhatIsGeneratedLikeTheFullPass) {
  const auto model = Model::open((test_models() / "gpt2").string());
  const auto backend = make_cpu_backend();
  const auto prompt = model->tokenizer().encode("the cat sat", "--text");
  GenerateOptions options;
  options.max_new_tokens = 1;
  options.edits.head_factors[{0, 1}] = 0.0f;
  const Generation g = Generator(*model).run(prompt, options);
  ForwardOptions forward;
  forward.edits = options.edits;
  ForwardPass pass(*model, *backend);
  EXPECT_NEAR(g.steps[0].next_tokens[0].p, pass.run(prompt, forward).next_tokens[0].p, kTolerance);
}

TEST(Generate, StopsAtThePositionTable) {
  const auto model = Model::open((test_models() / "gpt2").string());  // 32 positions
  const auto prompt = model->tokenizer().encode("the cat sat on the mat the cat sat on the mat the cat", "--text");
  GenerateOptions options;
  options.max_new_tokens = 100;
  const Generation g = Generator(*model).run(prompt, options);
  if (g.stop == StopReason::PositionTable) {
    EXPECT_EQ(g.ids().size(), static_cast<std::size_t>(model->config().max_positions));
  } else {
    EXPECT_EQ(g.stop, StopReason::EndOfText);  // a random model may choose <|endoftext|> first
    EXPECT_TRUE(g.ends_text(g.steps.back().id));
  }
  // Its config.json names no eos_token_id: the vocabulary's <|endoftext|> is found by name.
  EXPECT_EQ(g.end_of_text_ids, std::vector<int>{model->tokenizer().find("<|endoftext|>")});
}

TEST(Generate, StopsAtTheEndOfTextIdsItsConfigNames) {
  const auto model = Model::open((test_models() / "gpt2").string());
  const auto prompt = model->tokenizer().encode("the cat sat", "--text");
  GenerateOptions options;
  options.max_new_tokens = 4;
  const Generation free = Generator(*model).run(prompt, options);
  ASSERT_GE(free.steps.size(), 2u);
  // The same model, its config naming the first generated token (and one more) as end of text.
  const auto folder = copy_of("gpt2", "gpt2-eos");
  std::string config = read_text(folder / "config.json");
  config.insert(config.find('{') + 1, "\"eos_token_id\": [0, " + std::to_string(free.steps[0].id) + "], ");
  write_bytes(folder / "config.json", config);
  const auto stopping = Model::open(folder.string());
  const Generation g = Generator(*stopping).run(prompt, options);
  EXPECT_EQ(g.end_of_text_ids, (std::vector<int>{0, free.steps[0].id}));
  ASSERT_EQ(g.steps.size(), 1u);
  EXPECT_EQ(g.steps[0].id, free.steps[0].id);
  EXPECT_EQ(g.stop, StopReason::EndOfText);
}

TEST(Generate, BertIsRefusedAndBadOptionsAreNamed) {
  const auto bert = Model::open((test_models() / "bert").string());
  const auto text = bert->tokenizer().encode("the cat", "--text");
  EXPECT_EQ(input_error([&] { (void)Generator(*bert).run(text, {}); }).pointer(), "architecture");
  const auto model = Model::open((test_models() / "gpt2").string());
  const auto prompt = model->tokenizer().encode("the cat", "--text");
  GenerateOptions tokens;
  tokens.max_new_tokens = 0;
  EXPECT_EQ(input_error([&] { (void)Generator(*model).run(prompt, tokens); }).pointer(), "--tokens");
  GenerateOptions layers;
  layers.layers = std::vector<int>{5};
  EXPECT_EQ(input_error([&] { (void)Generator(*model).run(prompt, layers); }).pointer(), "--layers");
  std::string long_text;
  for (int i = 0; i < 40; ++i) long_text += "the ";
  EXPECT_EQ(
      input_error([&] { (void)Generator(*model).run(model->tokenizer().encode(long_text, "--text"), {}); }).pointer(),
      "--text");
}

TEST(Generate, CancellingStopsBetweenTokens) {
  const auto model = Model::open((test_models() / "llama").string());
  std::stop_source stop;
  GenerateOptions options;
  options.max_new_tokens = 8;
  options.stop = stop.get_token();
  options.progress = [&](const Progress& p) {
    if (p.stage.starts_with("token 2")) stop.request_stop();
  };
  EXPECT_THROW((void)Generator(*model).run(model->tokenizer().encode("the cat", "--text"), options), Cancelled);
}

}  // namespace
}  // namespace attnviz::model
