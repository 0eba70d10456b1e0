#include "app/desktop/gui_options.h"

#include <gtest/gtest.h>

#include "core/common/error.h"

namespace attnviz::desktop {
namespace {

TEST(GuiOptions, ScreenshotRunsThreeFramesUnlessTold) {
  GuiOptions o = parse_gui_options({"--scenario", "preset:gqa", "--screenshot", "out.png"});
  EXPECT_EQ(o.scenario, "preset:gqa");
  EXPECT_EQ(o.screenshot, "out.png");
  EXPECT_EQ(o.frames, 3);
  EXPECT_EQ(o.width, 1600);
  EXPECT_EQ(o.height, 1000);
  EXPECT_FALSE(o.size_given) << "the default: fitted to the screen, or the remembered size";
  o = parse_gui_options({"--screenshot=out.png", "--frames", "10", "--size", "1280x720"});
  EXPECT_EQ(o.frames, 10);
  EXPECT_EQ(o.width, 1280);
  EXPECT_EQ(o.height, 720);
  EXPECT_TRUE(o.size_given);
  EXPECT_FALSE(parse_gui_options({}).frames.has_value());  // interactive: until closed
}

TEST(GuiOptions, HeadLayoutBackendAndViewOptions) {
  const GuiOptions o =
      parse_gui_options({"--head", "3", "--layout", "compare-ready", "--backend", "both", "--pin-query", "2",
                         "--hover-token", "1", "--ui-scale", "1.5", "--validation", "--stats"});
  EXPECT_EQ(o.head, 3);
  EXPECT_EQ(o.layout, ui::LayoutMode::CompareReady);
  EXPECT_EQ(o.backend, compute::BackendMode::Both);
  EXPECT_EQ(o.pin_query, 2);
  EXPECT_EQ(o.hover_token, 1);
  EXPECT_FLOAT_EQ(*o.ui_scale, 1.5f);
  EXPECT_TRUE(o.validation);
  EXPECT_TRUE(o.stats);
}

// Each mistake names the option it is about.
void expect_error_about(const std::vector<std::string>& args, const std::string& option) {
  try {
    (void)parse_gui_options(args);
    ADD_FAILURE() << "accepted " << args.front();
  } catch (const InputError& error) {
    EXPECT_EQ(error.pointer(), option) << error.what();
  }
}

// `attnviz FILE`, as a file manager runs it: the file to open, reported in the window if bad.
TEST(GuiOptions, ALoneArgumentIsTheFileToOpen) {
  const GuiOptions o = parse_gui_options({"--size", "800x600", "my scenario.json"});
  EXPECT_EQ(o.file, "my scenario.json");
  EXPECT_FALSE(o.scenario.has_value());
}

TEST(GuiOptions, MistakesAreInputErrorsNamingTheOption) {
  expect_error_about({"--size", "big"}, "--size");
  expect_error_about({"--size", "100x100"}, "--size");
  expect_error_about({"--size", "1600x1000x3"}, "--size");
  expect_error_about({"--layout", "sideways"}, "--layout");
  expect_error_about({"--backend", "opengl"}, "--backend");
  expect_error_about({"--head", "-1"}, "--head");
  expect_error_about({"--frames", "0"}, "--frames");
  expect_error_about({"--ui-scale", "9"}, "--ui-scale");
  expect_error_about({"--bogus"}, "--bogus");
  expect_error_about({"first.json", "second.json"}, "second.json");  // one file at a time
  expect_error_about({"--scenario", "preset:gqa", "other.json"}, "other.json");
  expect_error_about({"--screenshot="}, "--screenshot");
}

// A pretrained model beside the scenario: its path, text, layer and the Model view to start on.
TEST(GuiOptions, ModelTextLayerAndModelView) {
  const GuiOptions o =
      parse_gui_options({"--model", "gpt2/", "--text", "The cat sat", "--layer", "5", "--head", "1", "--model-view"});
  EXPECT_EQ(o.model, "gpt2/");
  EXPECT_EQ(o.model_text, "The cat sat");
  EXPECT_EQ(o.model_layer, 5);
  EXPECT_EQ(o.head, 1);
  EXPECT_TRUE(o.model_view);
  const GuiOptions plain = parse_gui_options({"--model", "tiny.gguf"});
  EXPECT_FALSE(plain.model_text.has_value());  // the window's default text
  EXPECT_FALSE(plain.model_view);
  expect_error_about({"--model="}, "--model");
  expect_error_about({"--text", "hello"}, "--text");  // without a model
  expect_error_about({"--model-view"}, "--model-view");
  // The tab bar's last tab by the name --view uses for the other five.
  EXPECT_TRUE(parse_gui_options({"--model", "tiny.gguf", "--view", "model"}).model_view);
  expect_error_about({"--view", "model"}, "--view");
  expect_error_about({"--model", "gpt2/", "--layer", "-1"}, "--layer");
}

}  // namespace
}  // namespace attnviz::desktop
