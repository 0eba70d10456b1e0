#pragma once
// The window's classroom options, so that screenshots (tests, README) and a teacher's
// desktop shortcut can open a view directly:
//   --view heatmaps|step|compare|cross|tiled|decode|model   the main area's tab (model: the
//                     Model view, which the desktop registers, as --model-view)
//   --step N          the step view's page (1–11), the Tiled view's tile, the Decode view's step
//                     (1: the prompt's prefill, 2: the first generated token, …)
//   --block-q BR      the Tiled view's tile height (query rows), --block-k BC its width (keys)
//   --prompt P        the Decode view's prompt: the first P tokens, prefilled at once
//   --compare AXIS[:COUNT]   masks|heads|kv-heads|positions, COUNT 2 or 4 (default 4); layers (--model)
//   --mistake NAME    the Mistakes page's subject: columns|no-scaling|mask-after|renormalised
//   --present         presentation mode (full screen unless --screenshot)
// Mistakes throw InputError naming the option (exit code 2): at once for what is wrong
// whatever the scenario, in check_start_options() for what the scenario makes wrong (a tile
// or a prompt past its sentence).

#include <optional>
#include <vector>

#include "app/cli/args.h"
#include "app/classroom/view_states.h"
#include "app/ui/classroom_state.h"
#include "core/scenario/problem.h"

namespace attnviz::classroom {

struct StartOptions {
  std::optional<ui::MainView> view;
  std::optional<int> step;  // 0-based: a page, a tile or a decoding step, after --view
  std::optional<int> block_q;
  std::optional<int> block_k;
  std::optional<int> prompt;
  std::optional<int> mistake;  // the Mistakes page's subject (lesson::mistake_at)
  std::optional<lesson::CompareAxis> compare_axis;
  std::optional<int> compare_count;
  bool compare_layers = false;  // --compare layers: a pretrained model's layers side by side
  bool present = false;
  bool model_view = false;  // --view model: the desktop's Model view (it needs --model)
};

// The options above, for the window's option list.
const std::vector<cli::OptionSpec>& start_option_specs();
StartOptions parse_start_options(const cli::ParsedArgs& parsed);
extern const char* const kStartOptionsHelp;

// Against the scenario opened from the command line: a --step past the Tiled view's last tile
// or the Decode view's last token, a --prompt longer than the sentence, the Decode view of a
// cross-attention scenario (decoding generates its own sentence).
void check_start_options(const StartOptions& options, const Problem& problem);

// Before the first frame: the tab to show, the page, the comparison, presentation mode.
void apply_start_options(const StartOptions& options, ui::ClassroomState& state, ViewStates& views);

}  // namespace attnviz::classroom
