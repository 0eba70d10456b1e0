#include "app/classroom/start_options.h"

#include <algorithm>
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
  if (!options.compare_axis) cli::require_choice("--compare", axis_name, {"masks", "heads", "kv-heads", "positions"});
  if (colon == std::string::npos) return;
  const std::string count = text.substr(colon + 1);
  if (count != "2" && count != "4")
    throw InputError(kOrigin, "--compare", "the count after ':' must be 2 or 4, got \"" + count + "\"");
  options.compare_count = count == "2" ? 2 : 4;
}

}  // namespace

const std::vector<cli::OptionSpec>& start_option_specs() {
  static const std::vector<cli::OptionSpec> specs = {{"--view"}, {"--step"}, {"--mistake"}, {"--compare"}, {"--present", false}};
  return specs;
}

const char* const kStartOptionsHelp =
    "  --view VIEW           open on a view: heatmaps, step (step by step), compare, cross\n"
    "                        (cross-attention)\n"
    "  --step N              the step view's page, 1 (embeddings) to 10 (output), 11 (the\n"
    "                        classic mistakes)\n"
    "  --mistake NAME        the step view's page 11: columns (softmax over the wrong axis),\n"
    "                        no-scaling, mask-after (masking after the softmax) or\n"
    "                        renormalised (masking after it, then renormalising)\n"
    "  --compare AXIS[:N]    what the compare view varies: masks, heads, kv-heads or positions,\n"
    "                        in N = 2 or 4 copies (default 4)\n"
    "  --present             presentation mode: large high-contrast text, heatmaps and views\n"
    "                        only, full screen (not with --screenshot)\n";

StartOptions parse_start_options(const cli::ParsedArgs& parsed) {
  StartOptions options;
  if (auto view = parsed.get("--view")) {
    options.view = ui::main_view_from_string(*view);
    if (!options.view) cli::require_choice("--view", *view, {"heatmaps", "step", "compare", "cross"});
  }
  if (auto step = parsed.get_int("--step", 1, lesson::kStepCount)) options.step = *step - 1;
  if (auto mistake = parsed.get("--mistake")) {
    const std::vector<std::string> names = {"columns", "no-scaling", "mask-after", "renormalised"};
    const auto found = std::find(names.begin(), names.end(), *mistake);
    if (found == names.end()) cli::require_choice("--mistake", *mistake, names);
    options.mistake = static_cast<int>(found - names.begin());
  }
  if (auto compare = parsed.get("--compare")) parse_compare(*compare, options);
  options.present = parsed.has("--present");
  return options;
}

void apply_start_options(const StartOptions& options, ui::ClassroomState& state) {
  if (options.view) state.select_tab = options.view;
  state.start_view_given = options.view.has_value();
  if (options.step) state.step = *options.step;
  if (options.mistake) state.mistake = *options.mistake;
  if (options.compare_axis) state.compare.axis = *options.compare_axis;
  if (options.compare_count) state.compare.count = *options.compare_count;
  state.start_presenting = options.present;
}

}  // namespace attnviz::classroom
