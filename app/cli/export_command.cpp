// attnviz export: heatmap images (PNG, SVG) and matrices (CSV, NPY, JSON) from a scenario,
// without a window (docs/design.md "Command line"; docs/export.md).

#include <algorithm>
#include <charconv>
#include <ostream>

#include "app/cli/args.h"
#include "app/cli/backend_choice.h"
#include "app/cli/commands.h"
#include "app/cli/overview_export.h"
#include "app/cli/text_input.h"
#include "app/cli/model_export.h"
#include "app/cli/model_options.h"
#include "app/cli/export_files.h"
#include "app/cli/figure_language.h"
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/nearest_name.h"
#include "core/common/text_excerpt.h"
#include "core/export/export.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

namespace attnviz::cli {
namespace {

using exporting::ExportFormat;
using exporting::ExportRequest;
using exporting::Quantity;

constexpr const char* kOrigin = "<command line>";

constexpr const char* kHelpStart =
    "Usage: attnviz export --scenario FILE --out PATH [options]\n"
    "       attnviz export --text-file FILE --overview PIXELS --out PATH [options]\n"
    "       attnviz export --model PATH (--text TEXT | --text-file FILE) --layer L --out PATH [options]\n"
    "\n"
    "Writes heatmap images or the matrices behind them, without a window: of a scenario, or of\n"
    "one layer of a pretrained model run on a text (its heads, as a scenario's).\n"
    "\n"
    "Options:\n"
    "  --scenario FILE      a scenario file, or preset:NAME for a bundled preset\n";
constexpr const char* kHelpOptions =
    "  --out PATH           the file to write; a directory when several files are due\n"
    "                       (several heads or several --what) or PATH ends in /, each file\n"
    "                       named for what it holds: weights_head0.png, scores_grid.svg,\n"
    "                       weights.npy, mask.csv, ...\n"
    "  --what LIST          scores | scaled | weights | mask | context | diff | all, or a comma\n"
    "                       list (default weights). all = scores,scaled,weights,mask,context;\n"
    "                       diff = weights computed by Vulkan minus Eigen (needs Vulkan)\n"
    "  --heads LIST         all (default) or head numbers, e.g. 0,2\n"
    "  --format FORMAT      png | svg | csv | npy | json (default: from --out's extension, else\n"
    "                       png); a file --out with another format's extension is refused\n"
    "  --colormap NAME      viridis | magma | cividis | rdbu (default: viridis for weights and the\n"
    "                       mask, rdbu centred on 0 for scores, context and diff)\n"
    "  --range RANGE        auto (default: from the data; 0.0001,1 on a log scale) or LOW,HIGH,\n"
    "                       e.g. 0,1; values beyond it get the end colours (colorbar triangles)\n"
    "  --scale SCALE        auto | linear | log: colours of the weights by log10 of the weight\n"
    "                       (default auto: log beyond 40 tokens, as the window, unless --range\n"
    "                       starts at 0 or below); the other matrices are always linear\n"
    "  --cell PX            cell size in pixels (default: from the token count and --dpi)\n"
    "  --dpi N              resolution written into the PNG and the SVG size (default 300)\n"
    "  --values MODE        numbers in the cells: auto (up to 24 tokens, when they fit), on\n"
    "                       (whenever they fit; a warning when they do not), off\n"
    "  --title TEXT         the title's first line (default: the scenario's title)\n";
// After --lang (figure_language.h).
constexpr const char* kHelpLayout =
    "  --grid               all selected heads in one image with one colorbar (png, svg)\n"
    "  --rows FIRST:END     only rows FIRST to END-1 (0-based), e.g. a zoomed view\n"
    "  --cols FIRST:END     only columns FIRST to END-1\n"
    "  --backend KIND       cpu (Eigen, the default) or vulkan: which backend computes\n"
    "  --device N           the Vulkan device to use (see attnviz devices)\n"
    "\n"
    "With a pretrained model (see attnviz compute --help for --model):\n"
    "  --model PATH         a Hugging Face model folder or a .gguf file\n"
    "  --text TEXT          the text, through the model's own tokenizer (or --text-file FILE:\n"
    "                       the file's content)\n"
    "  --layer L            the layer whose heads are exported (0-based)\n"
    "  --what rollout       also (or only) the attention rollout through layers 0..L (Abnar &\n"
    "                       Zuidema 2020: heads averaged, 0.5·A + 0.5·I, rows renormalised,\n"
    "                       multiplied through the layers; --layer defaults to the last), written\n"
    "                       as rollout.png, rollout.csv, ...\n"
    "  --head-scale LIST    heads switched off or scaled before the export (as for compute)\n"
    "  --memory-limit SIZE  as for compute\n"
    "\n"
    "NPY: float32 in C order; --heads all gives one heads × N × M array.\n";
constexpr const char* kHelpEnd = "Exit codes: 0 success, 2 bad input, 3 backend unavailable, 1 other errors.\n";

const std::vector<OptionSpec> kOptions = {
    {"--scenario"}, {"--out"},     {"--what"},   {"--heads"},       {"--format"},    {"--colormap"},    {"--range"},
    {"--scale"},    {"--cell"},    {"--dpi"},    {"--values"},      {"--title"},     {"--grid", false}, {"--rows"},
    {"--cols"},     {"--backend"}, {"--device"}, {"--help", false}, {"--text-file"}, {"--overview"},    {"--pool"}};

// The scenario's options and, for --model, the model's (model_options.h) and --layer.
std::vector<OptionSpec> all_options() {
  std::vector<OptionSpec> options = kOptions;
  options.insert(options.end(), model_option_specs().begin(), model_option_specs().end());
  options.push_back({"--layer"});
  options.push_back(kLangOption);
  return options;
}

// --what with "rollout" taken out (a model's), and whether it was there.
std::pair<std::string, bool> without_rollout(const std::string& what) {
  std::string rest;
  bool rollout = false;
  for (const std::string& name : split_list(what, ',')) {
    if (name == "rollout")
      rollout = true;
    else
      rest += (rest.empty() ? "" : ",") + name;
  }
  return {rest, rollout};
}

template <typename Number>
std::optional<Number> parse_number(const std::string& text) {
  Number value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

// "all" may stand anywhere in the list ("all,diff"); check_request reports a matrix listed twice.
std::vector<Quantity> parse_what(const std::string& text) {
  std::vector<Quantity> what;
  for (const std::string& name : split_list(text, ',')) {
    if (name == "all") {
      what.insert(what.end(),
                  {Quantity::Scores, Quantity::Scaled, Quantity::Weights, Quantity::Mask, Quantity::Context});
      continue;
    }
    const std::optional<Quantity> quantity = exporting::quantity_from_name(name);
    if (!quantity) {
      const std::vector<std::string> names = {"scores", "scaled", "weights", "mask", "context", "diff", "all"};
      throw InputError(kOrigin, "--what",
                       quoted_excerpt(name) +
                           " is not one of: scores, scaled, weights, mask, context, diff, all (or a comma list)" +
                           did_you_mean(name, names));
    }
    what.push_back(*quantity);
  }
  return what;
}

std::optional<std::vector<int>> parse_heads(const std::string& text) {
  if (text == "all") return std::nullopt;
  std::vector<int> heads;
  for (const std::string& part : split_list(text, ',')) {
    const std::optional<int> head = parse_number<int>(part);
    if (!head || *head < 0) {
      throw InputError(kOrigin, "--heads", "\"" + part + "\" is not a head number: use all or a list like 0,2");
    }
    heads.push_back(*head);
  }
  return heads;
}

std::optional<std::pair<float, float>> parse_range(const std::string& text) {
  if (text == "auto") return std::nullopt;
  const std::vector<std::string> parts = split_list(text, ',');
  const std::optional<float> low = parts.size() == 2 ? parse_number<float>(parts[0]) : std::nullopt;
  const std::optional<float> high = parts.size() == 2 ? parse_number<float>(parts[1]) : std::nullopt;
  if (!low || !high || !(*low < *high)) {
    throw InputError(kOrigin, "--range", "\"" + text + "\" is not auto or LOW,HIGH with LOW < HIGH (e.g. 0,1)");
  }
  return std::pair{*low, *high};
}

// "FIRST:END" as a half-open range.
std::pair<int, int> parse_span(const std::string& option, const std::string& text) {
  const std::vector<std::string> parts = split_list(text, ':');
  const std::optional<int> first = parts.size() == 2 ? parse_number<int>(parts[0]) : std::nullopt;
  const std::optional<int> end = parts.size() == 2 ? parse_number<int>(parts[1]) : std::nullopt;
  if (!first || !end || *first < 0 || *end <= *first) {
    throw InputError(kOrigin, option, "\"" + text + "\" is not FIRST:END with 0 <= FIRST < END (e.g. 0:8)");
  }
  return {*first, *end};
}

// --format, else --out's extension, else png. A --format that contradicts a file's extension
// is refused by write_export (the window's Save to field gets the same check).
ExportFormat parse_format(const ParsedArgs& parsed, const std::string& out) {
  if (const std::optional<std::string> name = parsed.get("--format")) {
    require_choice("--format", *name, {"png", "svg", "csv", "npy", "json"});
    return *exporting::format_from_name(*name);
  }
  return exporting::format_from_extension(out).value_or(ExportFormat::Png);
}

ExportRequest parse_request(const ParsedArgs& parsed, const std::string& out, const std::string& what) {
  ExportRequest request;
  request.origin = kOrigin;
  request.what = what.empty() ? std::vector<Quantity>{} : parse_what(what);
  request.heads = parse_heads(parsed.get_or("--heads", "all"));
  request.format = parse_format(parsed, out);
  if (const std::optional<std::string> name = parsed.get("--colormap")) {
    require_choice("--colormap", *name, exporting::colormap_names());
    request.colormap = exporting::colormap_from_name(*name);
  }
  request.range = parse_range(parsed.get_or("--range", "auto"));
  const std::string scale = parsed.get_or("--scale", "auto");
  require_choice("--scale", scale, {"auto", "linear", "log"});
  request.scale = *exporting::scale_from_name(scale);
  request.cell_px = parsed.get_int("--cell", 1, 1000);
  request.dpi = parsed.get_int("--dpi", 10, 2400).value_or(300);
  const std::string values = parsed.get_or("--values", "auto");
  require_choice("--values", values, {"auto", "on", "off"});
  request.values = values == "on"    ? exporting::ValuesMode::On
                   : values == "off" ? exporting::ValuesMode::Off
                                     : exporting::ValuesMode::Auto;
  request.title = parsed.get("--title");
  request.wording = figure_wording(parsed);
  request.grid = parsed.has("--grid");
  if (parsed.has("--rows") || parsed.has("--cols")) {
    exporting::CellWindow window;
    if (const auto rows = parsed.get("--rows"))
      std::tie(window.row_begin, window.row_end) = parse_span("--rows", *rows);
    if (const auto cols = parsed.get("--cols"))
      std::tie(window.col_begin, window.col_end) = parse_span("--cols", *cols);
    request.window = window;
  }
  return request;
}

}  // namespace

int run_export_command(const Args& args, std::ostream& out, std::ostream& err) {
  const ParsedArgs parsed = parse_args(args, all_options(), "attnviz export");
  if (parsed.has("--help")) {
    out << kHelpStart << text_file_help(23) << kHelpOptions << kLangHelp << kHelpLayout << kOverviewHelp << kHelpEnd;
    return 0;
  }
  if (!parsed.positionals().empty()) {
    throw InputError(kOrigin, parsed.positionals().front(), "unexpected argument (see attnviz export --help)");
  }
  const std::optional<std::string> out_path = parsed.get("--out");
  if (parsed.has("--model")) {
    if (parsed.has("--scenario")) throw InputError(kOrigin, "--scenario", "give --scenario or --model, not both");
    if (parsed.has("--overview"))
      throw InputError(kOrigin, "--overview",
                       "draws a scenario's overview (--scenario or --text-file without --model), not a model's layers");
    if (!out_path || out_path->empty())
      throw InputError(kOrigin, "--out", "is required (a file, or a directory for several files)");
    const auto [what, rollout] = without_rollout(parsed.get_or("--what", "weights"));
    ExportRequest request = parse_request(parsed, *out_path, what);
    return naming_the_text_file(parsed, [&] { return run_model_export(parsed, request, rollout, out, err); });
  }
  for (const OptionSpec& option : model_option_specs()) {
    if (parsed.has(option.name)) throw InputError(kOrigin, option.name, "needs --model");
  }
  if (parsed.has("--layer")) throw InputError(kOrigin, "--layer", "needs --model");
  if (parsed.has("--overview")) return run_overview_export(parsed, out, err);
  if (parsed.has("--pool")) throw InputError(kOrigin, "--pool", "pools an overview: it needs --overview PIXELS");
  if (!parsed.has("--scenario") && !parsed.has("--text-file")) {
    throw InputError(kOrigin, "--scenario",
                     "is required (a file or preset:NAME), or --text-file FILE, or --model PATH");
  }
  if (!out_path || out_path->empty())
    throw InputError(kOrigin, "--out", "is required (a file, or a directory for several files)");
  ExportRequest request = parse_request(parsed, *out_path, parsed.get_or("--what", "weights"));
  const std::string backend = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend, {"cpu", "vulkan"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);

  const CommandScenario loaded = load_command_scenario(parsed, err, ProblemLimits{}.max_tokens);
  const Problem problem = build_command_problem(loaded);

  const bool wants_diff = std::find(request.what.begin(), request.what.end(), Quantity::Diff) != request.what.end();
  const bool wants_other =
      std::any_of(request.what.begin(), request.what.end(), [](Quantity q) { return q != Quantity::Diff; });
  exporting::ExportSource source;
  source.caption = exporting::describe_for_export(loaded.scenario, problem, request.wording);
  Result cpu;
  Result vulkan;
  Result chosen;
  if (wants_diff) {
    // Vulkan first: when it is unavailable the command stops (exit 3) before any Eigen work.
    vulkan = make_backend("vulkan", device)->compute(problem);
    cpu = make_backend("cpu", device)->compute(problem);
    source.cpu = &cpu;
    source.vulkan = &vulkan;
  }
  if (wants_other) {
    if (wants_diff) {
      source.result = backend == "vulkan" ? &vulkan : &cpu;
    } else {
      chosen = make_backend(backend, device)->compute(problem);
      source.result = &chosen;
    }
  }
  // Numbers are streamed to their files a row at a time: no copy of the matrices.
  const auto files = exporting::render_export_streamed(request, source);
  return write_exported_files(files, *out_path, out, err);
}

}  // namespace attnviz::cli
