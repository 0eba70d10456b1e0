#pragma once
// The window's classroom options, so that screenshots (tests, README) and a teacher's
// desktop shortcut can open a view directly:
//   --view heatmaps|step|compare|cross   the main area's tab
//   --step N                             the step view's page, 1–11
//   --compare AXIS[:COUNT]               masks|heads|kv-heads|positions, COUNT 2 or 4 (default 4)
//   --mistake NAME                       the Mistakes page's subject: columns|no-scaling|mask-after|renormalised
//   --present                            presentation mode (full screen unless --screenshot)
// Mistakes throw InputError naming the option (exit code 2).

#include <optional>
#include <vector>

#include "app/cli/args.h"
#include "app/ui/classroom_state.h"

namespace attnviz::classroom {

struct StartOptions {
  std::optional<ui::MainView> view;
  std::optional<int> step;  // 0-based
  std::optional<int> mistake;  // the Mistakes page's subject (lesson::mistake_at)
  std::optional<lesson::CompareAxis> compare_axis;
  std::optional<int> compare_count;
  bool present = false;
};

// The options above, for the window's option list.
const std::vector<cli::OptionSpec>& start_option_specs();
StartOptions parse_start_options(const cli::ParsedArgs& parsed);
extern const char* const kStartOptionsHelp;

// Before the first frame: the tab to show, the page, the comparison, presentation mode.
void apply_start_options(const StartOptions& options, ui::ClassroomState& state);

}  // namespace attnviz::classroom
