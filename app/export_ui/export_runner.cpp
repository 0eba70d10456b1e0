#include "app/export_ui/export_runner.h"

#include <algorithm>
#include <exception>
#include <functional>
#include <stdexcept>
#include <system_error>

#include "app/i18n/translate.h"
#include "core/common/error.h"
#include "core/overview/overview_export.h"

namespace attnviz::export_ui {
namespace {

// A path without a file extension names a folder, even for a single file (the window's
// "Save to" field): created when missing, so the file goes in under its own name.
void create_folder_if_meant(const std::filesystem::path& out) {
  std::error_code error;
  if (out.has_extension() || std::filesystem::exists(out, error)) return;
  std::filesystem::create_directories(out, error);
  if (error) {
    throw std::runtime_error(
        i18n::format(i18n::tr("cannot create the folder %s: %s"), out.string().c_str(), error.message().c_str()));
  }
}

}  // namespace

// Renders everything before the first byte is written (a bad choice writes nothing), then
// writes and reports.
ExportOutcome run_rendered_export(const std::function<std::vector<exporting::ExportedFile>()>& render,
                                  const std::filesystem::path& out, ui::Notices& notices) {
  ExportOutcome outcome;
  try {
    if (out.empty())
      throw InputError(i18n::tr("Export"), i18n::tr("save to"), i18n::tr("is empty: type a folder or a file name"));
    const std::vector<exporting::ExportedFile> files = render();
    create_folder_if_meant(out);
    outcome.written = exporting::write_export(files, out, i18n::tr("Export"));
    outcome.ok = true;
    const std::filesystem::path where = outcome.written.size() == 1 ? outcome.written.front().parent_path() : out;
    outcome.message = i18n::format(i18n::tr("Exported %s to %s"), list_names(outcome.written).c_str(),
                                   where.empty() ? "." : where.string().c_str());
    // What a file could not do as asked (values that do not fit, a font): a warning, once each.
    std::vector<std::string> warnings;
    for (const exporting::ExportedFile& file : files) {
      for (const std::string& warning : file.warnings) {
        if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) warnings.push_back(warning);
      }
    }
    for (const std::string& warning : warnings)
      outcome.message += "\n" + i18n::format(i18n::tr("Note: %s"), warning.c_str());
    notices.post(warnings.empty() ? ui::NoticeLevel::Info : ui::NoticeLevel::Warning, outcome.message);
  } catch (const std::exception& error) {
    // InputError (a choice that does not fit), std::runtime_error (the OS refused: no such
    // folder, read-only, disk full; core names the path), std::bad_alloc (an image too large).
    outcome.ok = false;
    outcome.message = i18n::format(i18n::tr("Export failed: %s"), error.what());
    notices.post(ui::NoticeLevel::Error, outcome.message);
  }
  return outcome;
}

std::vector<exporting::ExportedFile> render_plan(const ExportPlan& plan, const exporting::ExportSource& source) {
  std::vector<exporting::ExportedFile> files;
  for (const ExportRequest& request : plan.requests) {
    std::vector<exporting::ExportedFile> part = exporting::render_export(request, source);
    for (exporting::ExportedFile& file : part) files.push_back(std::move(file));
  }
  return files;
}

std::string list_names(const std::vector<std::filesystem::path>& paths, std::size_t shown) {
  std::string text;
  const std::size_t named = paths.size() <= shown + 1 ? paths.size() : shown;
  for (std::size_t i = 0; i < named; ++i) {
    if (i > 0) text += i + 1 == named && named == paths.size() ? i18n::tr(" and ") : ", ";
    text += paths[i].filename().string();
  }
  if (named < paths.size()) text += i18n::format(i18n::tr(" and %zu more"), paths.size() - named);
  return text;
}

ExportOutcome run_export(const ExportPlan& plan, const exporting::ExportSource& source,
                         const std::filesystem::path& out, ui::Notices& notices) {
  return run_rendered_export([&] { return render_plan(plan, source); }, out, notices);
}

ExportOutcome run_overview_export(const overview::Overview& overview, const Scenario& scenario, const Problem& problem,
                                  exporting::ExportFormat format, const std::filesystem::path& out,
                                  ui::Notices& notices) {
  return run_rendered_export(
      [&] {
        overview::OverviewExportOptions options;
        options.format = format;
        options.row_tokens = problem.tokens;
        options.col_tokens = problem.source_tokens;
        options.origin = i18n::tr("Export");
        options.wording = i18n::wording();
        return overview::render_overview(overview, exporting::describe_for_export(scenario, problem, options.wording),
                                         options);
      },
      out, notices);
}

}  // namespace attnviz::export_ui
