// The classroom's scenario edits and start-up options, without a window.

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "app/classroom/classroom_edits.h"
#include "app/classroom/start_options.h"
#include "core/common/error.h"
#include "core/scenario/generate.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::classroom {
namespace {

Scenario korean() {
  Scenario s;
  s.sentence = "어제 밤에 배가 고파서";
  s.d_model = 4;
  return s;
}

TEST(SourceEdits, AddEditRemove) {
  Scenario s = add_source(korean());
  ASSERT_TRUE(s.source.has_value());
  EXPECT_EQ(s.source->sentence, s.sentence);  // starts as a copy to edit
  s = set_source_sentence(s, "Last night I was hungry");
  const Problem p = build_problem(s, "test");
  EXPECT_TRUE(p.cross_attention);
  EXPECT_EQ(p.source_tokens, (std::vector<std::string>{"Last", "night", "I", "was", "hungry"}));
  EXPECT_EQ(p.tokens.size(), 4u);
  s = set_source_tokenizer(s, TokenizerMode::Chars);
  EXPECT_EQ(build_problem(s, "test").m(), 19);  // letters without spaces
  EXPECT_FALSE(remove_source(s).source.has_value());
  EXPECT_THROW((void)set_source_sentence(korean(), "x"), std::logic_error);
}

TEST(SourceEdits, ExplicitEmbeddingsFollowTheirTokens) {
  Scenario s = add_source(korean());
  s = set_source_sentence(s, "a b c");
  Matrix rows(3, 4);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) rows.at(r, c) = static_cast<float>(10 * r + c);
  s.source->embeddings = rows;
  s = set_source_sentence(s, "a new b c");  // typing a word in the middle
  const Matrix& now = *s.source->embeddings;
  ASSERT_EQ(now.rows, 4);
  EXPECT_EQ(now.at(0, 1), 1.0f);   // "a" kept its row
  EXPECT_EQ(now.at(2, 1), 11.0f);  // "b" kept its row
  EXPECT_EQ(now.at(3, 1), 21.0f);  // "c" kept its row
  const std::vector<float> fresh = generate_embedding("new", s.seed, 4);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(now.at(1, c), fresh[static_cast<std::size_t>(c)]);
  EXPECT_NO_THROW((void)build_problem(s, "test"));
}

TEST(MaskShortcuts, CycleThroughFourMasksAndBack) {
  MaskSetting mask;
  const char* expected[] = {"causal", "sliding window r = 2", "Longformer r = 2, global token 0", "no mask"};
  for (const char* name : expected) {
    const MaskStep step = next_mask(mask);
    EXPECT_STREQ(step.name, name);
    mask = step.mask;
  }
  EXPECT_EQ(mask, MaskSetting{});
  MaskSetting odd;
  odd.window = 5;
  EXPECT_STREQ(next_mask(odd).name, "no mask");  // anything else restarts the cycle
  EXPECT_TRUE(toggle_causal(korean()).mask.causal);
  EXPECT_EQ(toggle_scaling(korean()).scale.kind, ScaleSetting::Kind::None);
  EXPECT_EQ(toggle_scaling(toggle_scaling(korean())).scale.kind, ScaleSetting::Kind::InvSqrtDk);
}

StartOptions parse(const std::vector<std::string>& args) {
  return parse_start_options(cli::parse_args(args, start_option_specs(), "attnviz"));
}

TEST(StartOptions, ParsesViewsStepsAndComparisons) {
  const StartOptions o = parse({"--view", "compare", "--step", "9", "--compare", "kv-heads:2", "--present"});
  EXPECT_EQ(o.view, ui::MainView::Compare);
  EXPECT_EQ(o.step, 8);
  EXPECT_EQ(o.compare_axis, lesson::CompareAxis::KvHeads);
  EXPECT_EQ(o.compare_count, 2);
  EXPECT_TRUE(o.present);
  EXPECT_EQ(parse({"--compare", "heads"}).compare_count, std::nullopt);

  ui::ClassroomState state;
  ViewStates views;
  apply_start_options(o, state, views);
  EXPECT_EQ(state.select_tab, ui::MainView::Compare);
  EXPECT_EQ(views.step, 8);
  EXPECT_EQ(views.compare.count, 2);
  EXPECT_TRUE(state.start_presenting);
}

TEST(StartOptions, TheTiledAndDecodeViewsStepThroughTilesAndTokens) {
  const StartOptions tiled = parse({"--view", "tiled", "--step", "12", "--block-q", "3", "--block-k", "2"});
  EXPECT_EQ(tiled.view, ui::MainView::Tiled);
  EXPECT_EQ(tiled.step, 11) << "a tile, not a page: past the step view's 9";
  ui::ClassroomState state;
  ViewStates views;
  apply_start_options(tiled, state, views);
  EXPECT_EQ(views.tiled.tile, 11);
  EXPECT_EQ(views.tiled.block_q, 3);
  EXPECT_EQ(views.tiled.block_k, 2);
  EXPECT_EQ(views.step, 0) << "the step view's page is not the tile";

  const StartOptions decode = parse({"--view", "decode", "--step", "2", "--prompt", "3"});
  ui::ClassroomState decoding;
  ViewStates decoding_views;
  apply_start_options(decode, decoding, decoding_views);
  EXPECT_EQ(decoding.select_tab, ui::MainView::Decode);
  EXPECT_EQ(decoding_views.decode.step, 1);
  EXPECT_EQ(decoding_views.decode.prompt, 3);

  // Against the Korean sentence (8 tokens): 3 × 4 tiles of 3 × 2, 6 decoding steps after a prompt of 3.
  const Problem korean = build_problem(load_scenario("preset:korean-restaurant").scenario, "preset:korean-restaurant");
  EXPECT_NO_THROW(check_start_options(tiled, korean));
  EXPECT_NO_THROW(check_start_options(decode, korean));
  EXPECT_NO_THROW(check_start_options(parse({"--view", "decode", "--step", "6", "--prompt", "3"}), korean));
  const auto expect_refused = [&](const std::vector<std::string>& args, const std::string& option,
                                  const std::string& said) {
    try {
      check_start_options(parse(args), korean);
      ADD_FAILURE() << args[1] << " " << args[3] << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.pointer(), option) << e.what();
      EXPECT_NE(std::string(e.what()).find(said), std::string::npos) << e.what();
    }
  };
  expect_refused({"--view", "tiled", "--step", "13", "--block-q", "3", "--block-k", "2"}, "--step",
                 "12 tiles (3 \xc3\x97 4 blocks of 3 \xc3\x97 2)");
  expect_refused({"--view", "decode", "--step", "7", "--prompt", "3"}, "--step", "6 steps");
  expect_refused({"--view", "decode", "--prompt", "9"}, "--prompt", "8 tokens");
  const Problem cross = build_problem(load_scenario("preset:cross-attention").scenario, "preset:cross-attention");
  EXPECT_THROW(check_start_options(parse({"--view", "decode"}), cross), InputError);
  EXPECT_NO_THROW(check_start_options(parse({"--view", "tiled", "--step", "1"}), cross))
      << "tiles of cross-attention are fine";
}

TEST(StartOptions, MistakesNameTheOption) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--view", "slides"},
                                                                {"--step", "0"},
                                                                {"--step", "12"},
                                                                {"--compare", "colours"},
                                                                {"--compare", "masks:3"},
                                                                {"--block-q", "0"},
                                                                {"--block-k", "-2"},
                                                                {"--block-q", "wide"},
                                                                {"--prompt", "0"}}) {
    try {
      (void)parse(args);
      ADD_FAILURE() << args[0] << " " << args[1] << " was accepted";
    } catch (const InputError& e) {
      EXPECT_EQ(e.pointer(), args[0]) << e.what();
    }
  }
}

// docs/classroom.md quotes the start options' help as --help prints it: it once said the step
// view had pages 1 to 9 while --help said 1 to 11.
TEST(StartOptions, TheClassroomGuideQuotesTheHelpAsItIs) {
  std::ifstream in(std::string(ATTNVIZ_SOURCE_DIR) + "/docs/classroom.md");
  ASSERT_TRUE(in) << "docs/classroom.md";
  const std::string guide((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(guide.find(std::string("```\n") + kStartOptionsHelp + "```"), std::string::npos)
      << "docs/classroom.md, 'Opening a view from the command line', differs from --help:\n"
      << kStartOptionsHelp;
}

}  // namespace
}  // namespace attnviz::classroom
