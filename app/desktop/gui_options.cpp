#include "app/desktop/gui_options.h"

#include <charconv>

#include "app/cli/args.h"
#include "core/common/error.h"

namespace attnviz::desktop {
namespace {

constexpr const char* kOrigin = "<command line>";

const std::vector<cli::OptionSpec> kOptions = {{"--scenario"},
                                               {"--screenshot"},
                                               {"--frames"},
                                               {"--size"},
                                               {"--head"},
                                               {"--layout"},
                                               {"--theme"},
                                               {"--backend"},
                                               {"--pin-query"},
                                               {"--hover-token"},
                                               {"--ui-scale"},
                                               {"--device"},
                                               {"--validation", false},
                                               {"--stats", false},
                                               {"--bench-edits", false},
                                               {"--bench-shapes", false},
                                               {"--bench-no-heatmaps", false},
                                               {"--help", false},
                                               {"--text-file"},
                                               {"--blocks"},
                                               {"--model"},
                                               {"--text"},
                                               {"--layer"},
                                               {"--model-view", false}};

// "1600x1000" (or "1600X1000"), each side 320..8192.
void parse_size(const std::string& text, GuiOptions& options) {
  const std::size_t x = text.find_first_of("xX");
  int width = 0;
  int height = 0;
  bool ok = x != std::string::npos;
  if (ok) {
    const char* begin = text.data();
    const auto w = std::from_chars(begin, begin + x, width);
    const auto h = std::from_chars(begin + x + 1, begin + text.size(), height);
    ok = w.ec == std::errc() && w.ptr == begin + x && h.ec == std::errc() && h.ptr == begin + text.size();
  }
  if (!ok || width < 320 || height < 240 || width > 8192 || height > 8192) {
    throw InputError(kOrigin, "--size",
                     "expected WIDTHxHEIGHT in pixels, e.g. 1600x1000 (320x240 to 8192x8192), got \"" + text + "\"");
  }
  options.width = width;
  options.height = height;
  options.size_given = true;
}

float parse_scale(const std::string& text) {
  float value = 0.0f;
  const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || stop != text.data() + text.size() || !(value >= 0.5f && value <= 4.0f)) {
    throw InputError(kOrigin, "--ui-scale", "expected a number from 0.5 to 4, got \"" + text + "\"");
  }
  return value;
}

}  // namespace

const char* const kGuiHelp =
    "Usage: attnviz [options] [FILE]   open the window (with the scenario FILE)\n"
    "\n"
    "Options:\n"
    "  --scenario FILE       open FILE (or preset:NAME); without it the last session's work is\n"
    "                        restored from $XDG_CONFIG_HOME/attnviz/autosave.json\n"
    "  --text-file FILE      the sentence is this UTF-8 text file's content (with\n"
    "                        --scenario's settings, else the defaults); past 4096 tokens the\n"
    "                        Heatmaps panel shows an exact overview (up to 65536 tokens)\n"
    "  --model PATH          open a pretrained model too (a Hugging Face folder of GPT-2, a\n"
    "                        Llama-family model or BERT, or a .gguf file): it loads in the\n"
    "                        background, then the Heatmaps view shows its layers and the\n"
    "                        Model view its layers x heads, next tokens and rollout\n"
    "  --text \"...\"          the text the model reads (default: --text-file's text, else\n"
    "                        a short sentence)\n"
    "  --layer L             the model's layer the Heatmaps view shows (--head: its head)\n"
    "  --model-view          start on the Model view\n"
    "  --screenshot OUT.png  render, write the window's pixels to OUT.png and exit\n"
    "  --frames N            close after N frames (with --screenshot: default 3)\n"
    "  --size WxH            window size in pixels (default: the size and place the window had\n"
    "                        last time, else 1600x1000 or what of it the screen has room for)\n"
    "  --head H              select head H (0-based)\n"
    "  --layout MODE         full (inputs and heatmaps), heatmaps (heatmaps only) or\n"
    "                        compare-ready (heatmaps and the Vulkan/Eigen comparison)\n"
    "  --theme light|dark    the window's colours (default: what View > Theme chose last,\n"
    "                        else light); presentation mode keeps its own light look\n"
    "  --backend KIND        auto (default: Eigen when the Vulkan device is a CPU driver such as\n"
    "                        lavapipe, Vulkan on a GPU), vulkan, cpu (Eigen) or both (with\n"
    "                        their differences)\n"
    "  --pin-query I         pin query row I (its weights as bars, its context vector)\n"
    "  --hover-token I       highlight token I as if the mouse were on it\n"
    "  --blocks B            show the mask's B x B tiles (empty, partial, full) on the heatmaps\n"
    "  --ui-scale S          scale fonts and spacing by S (default: the monitor's content scale)\n"
    "  --device N            the Vulkan device to use (see attnviz devices; or ATTNVIZ_DEVICE)\n"
    "  --validation          enable the Khronos validation layer and check that no two\n"
    "                        widgets share an ImGui ID; any message fails (exit 1)\n"
    "  --stats               print frame-time statistics when the window closes; with\n"
    "                        --frames N a measuring run: the mouse is ignored and nothing\n"
    "                        is autosaved, so runs compare (the keyboard still works)\n"
    "  --bench-edits         change a weight every frame (measures live recompute)\n"
    "  --bench-shapes        change the model's shape (K/V heads, d_k) after every recompute\n"
    "                        (measures a change of shape)\n"
    "  --bench-no-heatmaps   lay out and label every heatmap but draw no cells (measures the\n"
    "                        window's frame without them, next to a normal run)\n"
    "\n"
    "Keyboard: Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo, Ctrl+O open, Ctrl+S save,\n"
    "Ctrl+Shift+E save the view on screen as an image, F8 heatmaps-only layout, F11\n"
    "presentation mode, 1-7 the views (7: an open model's), F1 every shortcut; in a heatmap:\n"
    "wheel zooms, drag pans, double-click resets.\n"
    "\n"
    "Language: the window speaks the desktop's (LANGUAGE, LC_ALL, LC_MESSAGES, LANG: a\n"
    "ko_KR.UTF-8 desktop gets Korean); View > Language switches between English and Korean\n"
    "and is remembered; ATTNVIZ_LANGUAGE=en, ko or pseudo (the layout check) chooses at start.\n"
    "Figures exported from the window speak its language; from the command line, --lang ko\n"
    "gives Korean figures (attnviz export, heads, lens, attribute and patch; e.g. attnviz\n"
    "export --scenario preset:korean-restaurant --lang ko --out weights.png).\n";

GuiOptions parse_gui_options(const std::vector<std::string>& args) {
  std::vector<cli::OptionSpec> specs = kOptions;
  specs.insert(specs.end(), classroom::start_option_specs().begin(), classroom::start_option_specs().end());
  const cli::ParsedArgs parsed = cli::parse_args(args, specs, "attnviz");
  GuiOptions options;
  if (parsed.positionals().size() > 1) {
    throw InputError(kOrigin, parsed.positionals()[1],
                     "one file at a time: attnviz opens a single scenario (see attnviz --help)");
  }
  options.help = parsed.has("--help");
  options.scenario = parsed.get("--scenario");
  if (!parsed.positionals().empty()) {
    if (options.scenario) {
      throw InputError(kOrigin, parsed.positionals().front(),
                       "is a second scenario besides --scenario; give one of them");
    }
    options.file = parsed.positionals().front();
  }
  options.text_file = parsed.get("--text-file");
  if (options.text_file && options.text_file->empty()) throw InputError(kOrigin, "--text-file", "needs a file name");
  if (options.text_file && options.file) {
    throw InputError(kOrigin, parsed.positionals().front(), "is a scenario besides --text-file; give it as --scenario");
  }
  options.screenshot = parsed.get("--screenshot");
  if (options.screenshot && options.screenshot->empty()) throw InputError(kOrigin, "--screenshot", "needs a file name");
  options.frames = parsed.get_int("--frames", 1, 1000000);
  if (options.screenshot && !options.frames) options.frames = 3;
  if (auto size = parsed.get("--size")) parse_size(*size, options);
  options.head = parsed.get_int("--head", 0, 1023);
  if (auto theme = parsed.get("--theme")) {
    options.theme = ui::theme_from_code(*theme);
    if (!options.theme) cli::require_choice("--theme", *theme, {"light", "dark"});
  }
  if (auto layout = parsed.get("--layout")) {
    options.layout = ui::layout_mode_from_string(*layout);
    if (!options.layout) cli::require_choice("--layout", *layout, {"full", "heatmaps", "compare-ready"});
  }
  if (auto backend = parsed.get("--backend")) {
    options.backend = compute::backend_mode_from_string(*backend);
    if (!options.backend) cli::require_choice("--backend", *backend, {"auto", "vulkan", "cpu", "both"});
  }
  options.pin_query = parsed.get_int("--pin-query", 0, 1 << 20);
  options.hover_token = parsed.get_int("--hover-token", 0, 1 << 20);
  options.blocks = parsed.get_int("--blocks", 1, 4096);
  if (auto scale = parsed.get("--ui-scale")) options.ui_scale = parse_scale(*scale);
  options.device = parsed.get_int("--device", 0, 1023);
  options.validation = parsed.has("--validation");
  options.stats = parsed.has("--stats");
  options.edit_every_frame = parsed.has("--bench-edits");
  options.shape_every_frame = parsed.has("--bench-shapes");
  options.without_heatmaps = parsed.has("--bench-no-heatmaps");
  options.classroom = classroom::parse_start_options(parsed);
  options.model = parsed.get("--model");
  if (options.model && options.model->empty())
    throw InputError(kOrigin, "--model", "needs a model folder or a .gguf file");
  options.model_text = parsed.get("--text");
  options.model_layer = parsed.get_int("--layer", 0, 100000);
  options.model_view = parsed.has("--model-view") || options.classroom.model_view;
  for (const char* needs_model : {"--text", "--layer", "--model-view"}) {
    if (parsed.has(needs_model) && !options.model)
      throw InputError(kOrigin, needs_model, "applies to a model: give --model PATH too");
  }
  if (options.classroom.model_view && !options.model) {
    throw InputError(kOrigin, "--view", "\"model\" is the Model view of a pretrained model: give --model PATH too");
  }
  return options;
}

}  // namespace attnviz::desktop
