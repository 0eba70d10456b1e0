// attnviz export --overview: the scenario (or --text-file) as a Problem of up to 65,536 tokens,
// the overview on the chosen backend, the files written all or nothing (core/export).

#include "app/cli/overview_export.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <numeric>

#include "app/cli/args.h"
#include "app/cli/backend_choice.h"
#include "app/cli/text_input.h"
#include "app/cli/export_files.h"
#include "app/cli/figure_language.h"
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/overview/long_text.h"
#include "core/overview/overview_export.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

void refuse(const ParsedArgs& parsed, const char* option, const char* why) {
  if (parsed.has(option)) throw InputError(kOrigin, option, std::string("does not apply to --overview: ") + why);
}

std::optional<float> parse_float(const std::string& text) {
  float value = 0.0f;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::optional<int> parse_int(const std::string& text) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end) return std::nullopt;
  return value;
}

std::vector<int> parse_heads(const std::string& text) {
  std::vector<int> heads;
  if (text == "all") return heads;
  for (const std::string& part : split_list(text, ',')) {
    const std::optional<int> head = parse_int(part);
    if (!head || *head < 0)
      throw InputError(kOrigin, "--heads", "\"" + part + "\" is not a head number: use all or a list like 0,2");
    heads.push_back(*head);
  }
  return heads;
}

std::pair<int, int> parse_span(const char* option, const std::string& text) {
  const std::vector<std::string> parts = split_list(text, ':');
  const std::optional<int> first = parts.size() == 2 ? parse_int(parts[0]) : std::nullopt;
  const std::optional<int> end = parts.size() == 2 ? parse_int(parts[1]) : std::nullopt;
  if (!first || !end || *first < 0 || *end <= *first) {
    throw InputError(kOrigin, option, "\"" + text + "\" is not FIRST:END with 0 <= FIRST < END (e.g. 0:8)");
  }
  return {*first, *end};
}

overview::OverviewExportOptions parse_output(const ParsedArgs& parsed, const std::string& out) {
  overview::OverviewExportOptions options;
  options.origin = kOrigin;
  options.wording = figure_wording(parsed);
  if (const std::optional<std::string> name = parsed.get("--format")) {
    require_choice("--format", *name, {"png", "svg", "npy"});
    options.format = *exporting::format_from_name(*name);
  } else {
    options.format = exporting::format_from_extension(out).value_or(exporting::ExportFormat::Png);
    if (options.format != exporting::ExportFormat::Svg && options.format != exporting::ExportFormat::Npy) {
      options.format = exporting::ExportFormat::Png;
    }
  }
  if (const std::optional<std::string> name = parsed.get("--colormap")) {
    require_choice("--colormap", *name, exporting::colormap_names());
    options.colormap = exporting::colormap_from_name(*name);
  }
  const std::string range = parsed.get_or("--range", "auto");
  if (range != "auto") {
    const std::vector<std::string> parts = split_list(range, ',');
    const std::optional<float> low = parts.size() == 2 ? parse_float(parts[0]) : std::nullopt;
    const std::optional<float> high = parts.size() == 2 ? parse_float(parts[1]) : std::nullopt;
    if (!low || !high || !(*low < *high)) {
      throw InputError(kOrigin, "--range", "\"" + range + "\" is not auto or LOW,HIGH with LOW < HIGH (e.g. 0,1)");
    }
    options.range = std::pair{*low, *high};
  }
  const std::string scale = parsed.get_or("--scale", "auto");
  require_choice("--scale", scale, {"auto", "linear", "log"});
  options.scale = *exporting::scale_from_name(scale);
  if (options.scale == exporting::ColourScale::Log && options.range && options.range->first <= 0.0f) {
    throw InputError(kOrigin, "--range", "a log scale needs a range above 0");
  }
  options.title = parsed.get("--title");
  exporting::check_title(options.title, kOrigin);
  options.dpi = parsed.get_int("--dpi", 10, 2400).value_or(300);
  options.one_array = !parsed.has("--heads") || parsed.get_or("--heads", "all") == "all";
  return options;
}

overview::OverviewRequest parse_request(const ParsedArgs& parsed, const Problem& problem) {
  overview::OverviewRequest request;
  const int pixels = parsed.get_int("--overview", 1, 16384).value_or(1024);
  request.max_pixel_rows = request.max_pixel_cols = pixels;
  const std::string what = parsed.get_or("--what", "weights");
  require_choice("--what", what, {"weights", "scores", "scaled"});
  request.quantity = *overview::quantity_from_name(what);
  const std::string pool = parsed.get_or("--pool", "max");
  require_choice("--pool", pool, {"max", "mean"});
  request.pooling = *overview::pooling_from_name(pool);
  request.heads = parse_heads(parsed.get_or("--heads", "all"));
  for (const int h : request.heads) {
    if (h >= problem.num_heads) {
      throw InputError(kOrigin, "--heads", missing_head_message(h, problem.num_heads));
    }
  }
  overview::CellWindow window = overview::whole(problem.n(), problem.m());
  if (const auto rows = parsed.get("--rows")) std::tie(window.row_begin, window.row_end) = parse_span("--rows", *rows);
  if (const auto cols = parsed.get("--cols")) std::tie(window.col_begin, window.col_end) = parse_span("--cols", *cols);
  if (window.row_end > problem.n()) {
    throw InputError(kOrigin, "--rows",
                     "ends at " + std::to_string(window.row_end) + " but there are " + std::to_string(problem.n()) +
                         " query tokens");
  }
  if (window.col_end > problem.m()) {
    throw InputError(
        kOrigin, "--cols",
        "ends at " + std::to_string(window.col_end) + " but there are " + std::to_string(problem.m()) + " key tokens");
  }
  request.window = window;
  return request;
}

}  // namespace

int run_overview_export(const ParsedArgs& parsed, std::ostream& out, std::ostream& err) {
  refuse(parsed, "--grid", "each head is its own image");
  refuse(parsed, "--cell", "every pixel block is one image pixel");
  refuse(parsed, "--values", "an overview shows no numbers in its cells");
  const std::optional<std::string> out_path = parsed.get("--out");
  if (!out_path || out_path->empty())
    throw InputError(kOrigin, "--out", "is required (a file, or a directory for several files)");
  overview::OverviewExportOptions options = parse_output(parsed, *out_path);
  const std::string backend = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend, {"cpu", "vulkan"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);

  const CommandScenario loaded = load_command_scenario(parsed, err, overview::kMaxOverviewTokens);
  const Problem problem = overview::build_overview_problem(loaded.scenario, loaded.origin);
  const overview::OverviewRequest request = parse_request(parsed, problem);
  // An --out that cannot take the files is refused now, not after minutes of computing.
  std::vector<int> heads = request.heads;
  if (heads.empty()) {
    heads.resize(static_cast<std::size_t>(problem.num_heads));
    std::iota(heads.begin(), heads.end(), 0);
  }
  exporting::check_export_destination(overview::overview_file_names(request.quantity, request.pooling, heads, options),
                                      *out_path, kOrigin);
  options.row_tokens = problem.tokens;
  options.col_tokens = problem.source_tokens;
  const auto runner = make_overview_runner(backend, device);
  overview::Overview result;
  try {
    result = with_eigen_hint([&] { return runner->run(problem, request); });
  } catch (const InputError& e) {
    // The mask is the scenario's: its expression may hold more runs than a mask can at this
    // length, found only now. Name the scenario file, not the internal "<mask>".
    if (e.origin() != "<mask>") throw;
    throw InputError(parsed.get("--scenario").value_or(loaded.origin), e.pointer(), e.problem());
  } catch (const std::invalid_argument& e) {
    throw InputError(kOrigin, "--overview", e.what());
  }
  const auto files = overview::render_overview(
      result, exporting::describe_for_export(loaded.scenario, problem, options.wording), options);
  return write_exported_files(files, *out_path, out, err);
}

}  // namespace attnviz::cli
