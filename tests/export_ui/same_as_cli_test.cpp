// "The same from the window's Export button" (README, issue 5): the Korean preset's weights
// exported the way the window's Export button does it (its compute session on Vulkan, a view
// with the window's defaults) against `attnviz export` run as a user would.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "app/compute/compute_session.h"
#include "app/document/document.h"
#include "app/export_ui/export_runner.h"
#include "app/export_ui/window_source.h"
#include "core/scenario/scenario_json.h"
#include "core/vk/context.h"
#include "tests/cli/run_attnviz.h"

namespace attnviz::export_ui {
namespace {

namespace fs = std::filesystem;

class SameAsCli : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = testing::scratch_dir("export-same-as-cli"); }
  void TearDown() override { fs::remove_all(dir_); }

  // What `attnviz export --scenario preset:korean-restaurant <options>` writes.
  std::string cli_bytes(const std::string& options) const {
    const fs::path out = dir_ / "cli.png";
    const testing::CommandOutput run =
        testing::run_attnviz("export --scenario preset:korean-restaurant --what weights --format png --out '" +
                             out.string() + "' " + options);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return testing::read_text(out);
  }

  // What the weights heatmap's Export button writes, the window showing `mode`'s results.
  static std::string window_bytes(compute::BackendMode mode, const ui::ViewState& view) {
    const document::Document document(load_scenario("preset:korean-restaurant").scenario);
    compute::ComputeSession session(mode == compute::BackendMode::Cpu ? nullptr : vk::Context::create(), mode);
    session.update(document);
    EXPECT_TRUE(session.has_result()) << session.error();
    const ShownState shown = shown_state(view, session);
    const ExportPlan plan = plan_export(choices_for_heatmap(Quantity::Weights, shown), shown);
    EXPECT_TRUE(plan.notes.empty());
    const std::vector<exporting::ExportedFile> files = render_plan(plan, export_source(session, document));
    EXPECT_EQ(files.size(), 1u);
    EXPECT_EQ(files.front().name, "weights_head0.png");
    return files.empty() ? std::string() : files.front().bytes;
  }

  fs::path dir_;
};

// The window draws weights from 0 to 1 up to 40 tokens, so its export carries that range; the
// command line's automatic range runs to the largest weight (docs/export.md).
TEST_F(SameAsCli, TheWindowsDefaultViewIsTheCommandWithItsRange) {
  const ui::ViewState defaults;
  const std::string window = window_bytes(compute::BackendMode::Vulkan, defaults);
  ASSERT_FALSE(window.empty());
  EXPECT_TRUE(window == cli_bytes("--range 0,1")) << "the Export button and attnviz export --range 0,1 differ";
  EXPECT_TRUE(window == window_bytes(compute::BackendMode::Cpu, defaults))
      << "Vulkan and Eigen results draw differently";
}

TEST_F(SameAsCli, WithWeightsToTheLargestTheWindowIsTheCommandAsIs) {
  ui::ViewState view;
  view.weights_range = ui::WeightsRange::Auto;  // View > Weights scale > 0 to the largest weight
  EXPECT_TRUE(window_bytes(compute::BackendMode::Vulkan, view) == cli_bytes(""))
      << "the Export button and attnviz export differ";
}

// Issue 11: the Korean preset with another sentence and four heads was exported headed "the
// Korean worked example (8 tokens, d_model 4, one head)". A title that no longer describes the
// content is never printed: the figure is headed by the sentence instead.
TEST(ExportTitle, AStaleTitleNeverHeadsAFigure) {
  const Scenario korean = load_scenario("preset:korean-restaurant").scenario;
  document::Document document(korean);
  Scenario edited = korean;
  edited.tokens.reset();
  edited.embeddings.reset();
  edited.sentence = "five small words here now";
  edited.num_heads = 4;
  edited.num_kv_heads = 1;
  edited.d_k = 2;
  edited.d_v = 2;
  edited.wq.reset();
  edited.wk.reset();
  edited.wv.reset();
  document.apply(edited, "Edit");
  compute::ComputeSession session(nullptr, compute::BackendMode::Cpu);
  session.update(document);
  ASSERT_TRUE(session.has_result()) << session.error();
  const ui::ViewState view;
  const ShownState shown = shown_state(view, session);
  ExportChoices choices = choices_for_heatmap(Quantity::Weights, shown);
  choices.format = ExportFormat::Svg;
  const std::vector<exporting::ExportedFile> files =
      render_plan(plan_export(choices, shown), export_source(session, document));
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files.front().bytes.find("Korean worked example"), std::string::npos);
  EXPECT_NE(files.front().bytes.find("five small words here now"), std::string::npos);

  // A title the user wrote for the new content heads it.
  edited.title = "Five words, four heads";
  document.apply(edited, "Title");
  session.update(document);
  const std::vector<exporting::ExportedFile> titled =
      render_plan(plan_export(choices, shown_state(view, session)), export_source(session, document));
  ASSERT_EQ(titled.size(), 1u);
  EXPECT_NE(titled.front().bytes.find("Five words, four heads"), std::string::npos);
}

}  // namespace
}  // namespace attnviz::export_ui
