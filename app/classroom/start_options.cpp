#include "app/classroom/start_options.h"

#include <algorithm>
#include <charconv>
#include <string>

#include "app/classroom/view_steps.h"
#include "core/common/error.h"
#include "core/lesson/steps.h"

namespace attnviz::classroom {
namespace {

constexpr const char* kOrigin = "<command line>";
constexpr int kMaxStep = 1 << 24;  // far past any tile count the Tiled view can show

void parse_compare(const std::string& text, StartOptions& options) {
  const std::size_t colon = text.find(':');
  const std::string axis_name = text.substr(0, colon);
  if (axis_name == "layers" && colon == std::string::npos) {  // a pretrained model's layers (--model)
    options.compare_layers = true;
    return;
  }
  options.compare_axis = lesson::compare_axis_from_string(axis_name);
  if (!options.compare_axis)
    cli::require_choice("--compare", axis_name, {"layers", "masks", "heads", "kv-heads", "positions", "patterns"});
  if (colon == std::string::npos) return;
  const std::string count = text.substr(colon + 1);
  if (count != "2" && count != "4")
    throw InputError(kOrigin, "--compare", "the count after ':' must be 2 or 4, got \"" + count + "\"");
  options.compare_count = count == "2" ? 2 : 4;
}

bool steps_by_page(const StartOptions& options) {
  return !options.view || (*options.view != ui::MainView::Tiled && *options.view != ui::MainView::Decode);
}

std::string plural(int count, const char* one, const char* many) {
  return std::to_string(count) + " " + (count == 1 ? one : many);
}

}  // namespace

const std::vector<cli::OptionSpec>& start_option_specs() {
  static const std::vector<cli::OptionSpec> specs = {{"--view"},   {"--step"},    {"--block-q"}, {"--block-k"},
                                                     {"--prompt"}, {"--mistake"}, {"--compare"}, {"--present", false}};
  return specs;
}

const char* const kStartOptionsHelp =
    "  --view VIEW           open on a view: heatmaps, step (step by step), compare, cross\n"
    "                        (cross-attention), tiled (FlashAttention tile by tile),\n"
    "                        decode (KV-cache decoding token by token); model (the Model\n"
    "                        view of --model's model, as --model-view)\n"
    "  --step N              the step view's page, 1 (embeddings) to 10 (output), 11 (the\n"
    "                        classic mistakes); with --view tiled the N-th tile visited; with\n"
    "                        --view decode the N-th step: 1 prefills the prompt, 2 generates\n"
    "                        the next token, ...\n"
    "  --block-q BR          the Tiled view's tile height Br, in query rows (1 to 4096;\n"
    "                        default: a quarter of the sentence)\n"
    "  --block-k BC          the Tiled view's tile width Bc, in keys (1 to 4096)\n"
    "  --prompt P            the Decode view's prompt: its first P tokens are prefilled at once\n"
    "                        (default: half the sentence)\n"
    "  --mistake NAME        the step view's page 11: columns (softmax over the wrong axis),\n"
    "                        no-scaling, mask-after (masking after the softmax) or\n"
    "                        renormalised (masking after it, then renormalising)\n"
    "  --compare AXIS[:N]    what the compare view varies: masks, heads, kv-heads, positions or\n"
    "                        patterns (mask expressions), in N = 2 or 4 copies (default 4);\n"
    "                        layers: a model's layers side by side (with --model)\n"
    "  --present             presentation mode: large high-contrast text, heatmaps and views\n"
    "                        only, full screen (not with --screenshot)\n";

StartOptions parse_start_options(const cli::ParsedArgs& parsed) {
  StartOptions options;
  if (auto view = parsed.get("--view")) {
    options.view = ui::main_view_from_string(*view);
    options.model_view = *view == "model";
    if (!options.view && !options.model_view) {
      cli::require_choice("--view", *view, {"heatmaps", "step", "compare", "cross", "tiled", "decode", "model"});
    }
  }
  if (auto step = parsed.get_int("--step", 1, kMaxStep)) {
    if (steps_by_page(options) && *step > lesson::kStepCount) {
      throw InputError(kOrigin, "--step",
                       "the step view has " + std::to_string(lesson::kStepCount) + " pages, got " +
                           std::to_string(*step) + " (tiles and decoding steps go with --view tiled or decode)");
    }
    options.step = *step - 1;
  }
  options.block_q = parsed.get_int("--block-q", 1, kMaxBlock);
  options.block_k = parsed.get_int("--block-k", 1, kMaxBlock);
  options.prompt = parsed.get_int("--prompt", 1, kMaxBlock);
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

void check_start_options(const StartOptions& options, const Problem& problem) {
  const int tokens = problem.n();
  if (options.prompt && *options.prompt > tokens) {
    throw InputError(kOrigin, "--prompt",
                     std::to_string(*options.prompt) + " is longer than the sentence, which has " +
                         plural(tokens, "token", "tokens"));
  }
  const bool decoding = options.view == ui::MainView::Decode;
  if (decoding && problem.cross_attention) {
    throw InputError(kOrigin, "--view",
                     "decode needs a scenario without a source sentence: decoding generates the "
                     "sentence itself, and this one is cross-attention");
  }
  if (!options.step) return;
  const int step = *options.step + 1;
  if (options.view == ui::MainView::Tiled) {
    TiledViewState state;
    state.block_q = options.block_q.value_or(0);
    state.block_k = options.block_k.value_or(0);
    const tiled::TileGrid grid = tile_grid(state, problem);
    if (step > grid.tile_count()) {
      throw InputError(kOrigin, "--step",
                       std::to_string(step) + " is past the last tile: the Tiled view has " +
                           plural(grid.tile_count(), "tile", "tiles") + " (" + std::to_string(grid.query_blocks()) +
                           " \xc3\x97 " + std::to_string(grid.key_blocks()) + " blocks of " +
                           std::to_string(grid.block_q) + " \xc3\x97 " + std::to_string(grid.block_k) + ")");
    }
  }
  if (decoding) {
    DecodeViewState state;
    state.prompt = options.prompt.value_or(0);
    const int prompt = decode_prompt(state, tokens);
    const int steps = decode_step_count(prompt, tokens);
    if (step > steps) {
      throw InputError(kOrigin, "--step",
                       std::to_string(step) + " is past the last token: with a prompt of " + std::to_string(prompt) +
                           " of the sentence's " + plural(tokens, "token", "tokens") + ", the Decode view has " +
                           plural(steps, "step", "steps") + " (the prefill, then one per generated token)");
    }
  }
}

void apply_start_options(const StartOptions& options, ui::ClassroomState& state, ViewStates& views) {
  if (options.view) state.select_tab = options.view;
  state.start_view_given = options.view.has_value();
  if (options.step) {
    if (options.view == ui::MainView::Tiled)
      views.tiled.tile = *options.step;
    else if (options.view == ui::MainView::Decode)
      views.decode.step = *options.step;
    else
      views.step = *options.step;
  }
  if (options.block_q) views.tiled.block_q = *options.block_q;
  if (options.block_k) views.tiled.block_k = *options.block_k;
  if (options.prompt) views.decode.prompt = *options.prompt;
  if (options.mistake) views.mistake = *options.mistake;
  if (options.compare_axis) views.compare.axis = *options.compare_axis;
  views.compare_layers = options.compare_layers;
  if (options.compare_count) views.compare.count = *options.compare_count;
  state.start_presenting = options.present;
}

}  // namespace attnviz::classroom
