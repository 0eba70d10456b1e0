#pragma once
// Renders an export plan and writes its files, turning every failure into a visible notice
// (and a message for the dialog) instead of an exception: a bad choice, an unwritable folder,
// a full disk. Files are written atomically by core (write to a temporary name, then rename),
// so a failure never leaves a half-written file. No ImGui here: unit-tested.

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "app/export_ui/export_plan.h"
#include "app/ui/notices.h"
#include "core/overview/overview.h"

namespace attnviz::export_ui {

struct ExportOutcome {
  bool ok = false;
  std::vector<std::filesystem::path> written;
  std::string message;  // what happened, for the dialog ("Exported 3 files to …", then any warnings; or the error)
};

// All the plan's files, in its order (render_export of each request).
std::vector<exporting::ExportedFile> render_plan(const ExportPlan& plan, const exporting::ExportSource& source);

// Renders everything first, then writes as `attnviz export --out` does (one file: to `out`, or
// into it when it is a folder; several: into the folder `out`), except that an `out` without a
// file extension is always a folder, created when missing.
// Posts the outcome to `notices` (no key: a closed error must not silence the next one): an
// error, a warning when a file could not do everything as asked, else an info.
ExportOutcome run_export(const ExportPlan& plan, const exporting::ExportSource& source,
                         const std::filesystem::path& out, ui::Notices& notices);

// Any files, rendered by `render` first (a bad choice writes nothing), written and reported as
// run_export does.
ExportOutcome run_rendered_export(const std::function<std::vector<exporting::ExportedFile>()>& render,
                                  const std::filesystem::path& out, ui::Notices& notices);

// The overview a text past 4,096 tokens shows (core/overview/overview_export.h) in `format`
// (png, svg or npy), written and reported as run_export does: its caption from the scenario
// and problem it was computed from, its rows and columns labelled with their tokens.
ExportOutcome run_overview_export(const overview::Overview& overview, const Scenario& scenario, const Problem& problem,
                                  exporting::ExportFormat format, const std::filesystem::path& out,
                                  ui::Notices& notices);

// "weights_head0.png", or "scores_head0.png, weights_head0.png and 3 more".
std::string list_names(const std::vector<std::filesystem::path>& paths, std::size_t shown = 3);

}  // namespace attnviz::export_ui
