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
        testing::run_attnviz("export --scenario preset:korean-restaurant --what weights --format png --out '" + out.string() +
                             "' " + options);
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
  EXPECT_TRUE(window == window_bytes(compute::BackendMode::Cpu, defaults)) << "Vulkan and Eigen results draw differently";
}

TEST_F(SameAsCli, WithWeightsToTheLargestTheWindowIsTheCommandAsIs) {
  ui::ViewState view;
  view.weights_range = ui::WeightsRange::Auto;  // View > Weights scale > 0 to the largest weight
  EXPECT_TRUE(window_bytes(compute::BackendMode::Vulkan, view) == cli_bytes(""))
      << "the Export button and attnviz export differ";
}

}  // namespace
}  // namespace attnviz::export_ui
