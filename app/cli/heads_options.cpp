#include "app/cli/heads_options.h"

#include <climits>
#include <filesystem>

#include "app/cli/figure_language.h"
#include "app/cli/json_output.h"
#include "core/common/error.h"
#include "core/export/export.h"
#include "core/export/heads_figures.h"

namespace attnviz::cli {

std::vector<OptionSpec> heads_option_specs(const std::vector<OptionSpec>& own) {
  std::vector<OptionSpec> specs = {{"--model"},  {"--memory-limit"}, {"--out"},
                                   {"--format"}, {"--help", false},  kLangOption};
  specs.insert(specs.end(), own.begin(), own.end());
  return specs;
}

void reject_positionals(const ParsedArgs& parsed, const std::string& command) {
  if (parsed.positionals().empty()) return;
  throw InputError("<command line>", parsed.positionals().front(),
                   "unexpected argument (see attnviz " + command + " --help)");
}

std::optional<int> target_id_option(const ParsedArgs& parsed) { return parsed.get_int("--target-id", 0, INT_MAX); }

std::optional<int> position_option(const ParsedArgs& parsed) { return parsed.get_int("--position", 0, INT_MAX); }

void write_heads_output(const ParsedArgs& parsed, const std::string& json, const std::function<std::string()>& csv,
                        const std::function<exporting::HeatmapFigure()>& figure, std::ostream& out, std::ostream& err) {
  using exporting::ExportFormat;
  const std::optional<std::string> path = parsed.get("--out");
  ExportFormat format = ExportFormat::Json;
  if (const std::optional<std::string> name = parsed.get("--format")) {
    const std::optional<ExportFormat> named = exporting::format_from_name(*name);
    if (!named || *named == ExportFormat::Npy)
      throw InputError("<command line>", "--format", "\"" + name->substr(0, 40) + "\" is not json, csv, png or svg");
    format = *named;
  } else if (path) {
    const std::optional<ExportFormat> by_extension = exporting::format_from_extension(*path);
    if (by_extension && *by_extension != ExportFormat::Npy) format = *by_extension;
  }
  if (exporting::is_image(format) && !path)
    throw InputError("<command line>", "--format",
                     std::string(exporting::format_name(format)) + " is an image: give --out FILE");
  if (format == ExportFormat::Json) {
    write_output(path, json, out);
  } else if (format == ExportFormat::Csv) {
    write_output(path, csv(), out);
  } else {
    std::vector<std::string> warnings;
    const std::string bytes = exporting::render_heads_figure(figure(), format, &warnings);
    for (const std::string& warning : warnings) err << "attnviz: warning: " << warning << "\n";
    write_output(path, bytes, out);
  }
}

}  // namespace attnviz::cli
