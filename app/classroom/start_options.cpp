#include "app/classroom/start_options.h"

#include <charconv>
#include <string>

#include "core/common/error.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

constexpr const char* kOrigin = "<command line>";

void parse_compare(const std::string& text, StartOptions& options) {
  const std::size_t colon = text.find(':');
  const std::string axis_name = text.substr(0, colon);
  options.compare_axis = lesson::compare_axis_from_string(axis_name);
  if (!options.compare_axis) cli::require_choice("--compare", axis_name, {"masks", "heads", "kv-heads"});
  if (colon == std::string::npos) return;
  const std::string count = text.substr(colon + 1);
  if (count != "2" && count != "4")
    throw InputError(kOrigin, "--compare", "the count after ':' must be 2 or 4, got \"" + count + "\"");
  options.compare_count = count == "2" ? 2 : 4;
}

}  // namespace

const std::vector<cli::OptionSpec>& start_option_specs() {
  static const std::vector<cli::OptionSpec> specs = {{"--view"}, {"--step"}, {"--compare"}, {"--present", false}};
  return specs;
}

const char* const kStartOptionsHelp =
    "  --view VIEW           open on a view: heatmaps, step (step by step), compare, cross\n"
    "                        (cross-attention)\n"
    "  --step N              the step view's page, 1 (embeddings) to 9 (output)\n"
    "  --compare AXIS[:N]    what the compare view varies: masks, heads or kv-heads, in N = 2\n"
    "                        or 4 copies (default 4)\n"
    "  --present             presentation mode: large high-contrast text, heatmaps and views\n"
    "                        only, full screen (not with --screenshot)\n";

StartOptions parse_start_options(const cli::ParsedArgs& parsed) {
  StartOptions options;
  if (auto view = parsed.get("--view")) {
    options.view = ui::main_view_from_string(*view);
    if (!options.view) cli::require_choice("--view", *view, {"heatmaps", "step", "compare", "cross"});
  }
  if (auto step = parsed.get_int("--step", 1, lesson::kStepCount)) options.step = *step - 1;
  if (auto compare = parsed.get("--compare")) parse_compare(*compare, options);
  options.present = parsed.has("--present");
  return options;
}

void apply_start_options(const StartOptions& options, ui::ClassroomState& state) {
  if (options.view) state.select_tab = options.view;
  state.start_view_given = options.view.has_value();
  if (options.step) state.step = *options.step;
  if (options.compare_axis) state.compare.axis = *options.compare_axis;
  if (options.compare_count) state.compare.count = *options.compare_count;
  state.start_presenting = options.present;
}

}  // namespace attnviz::classroom
