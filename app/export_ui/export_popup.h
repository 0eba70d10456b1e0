#pragma once
// The parts the small export popups share (the overview's, the rollout's) and, for "Save to",
// the Export dialog: a folder or a file name, proposed in the folder last exported to (kept
// between runs, export_folder.h), a relative path taken from that folder, and the folder of
// each export remembered for the next. SaveTo is plain (unit-tested); the rest draws.

#include <filesystem>
#include <functional>
#include <span>
#include <string>

#include "app/export_ui/export_runner.h"
#include "app/i18n/translate.h"

namespace attnviz::export_ui {

struct SaveTo {
  std::filesystem::path folder;  // proposed, absolute: what a relative `out` is taken from
  std::string out;               // as typed: a folder, or a file name for one file

  // The first time only: the folder last exported to (kept in `memory`), else the pictures folder.
  void propose(const std::filesystem::path& memory);
  // `out` as an absolute path.
  [[nodiscard]] std::filesystem::path resolved() const;
  // After a written export: the next one starts in its folder (never over its file), in this
  // run and the next.
  void remember(const std::filesystem::path& memory, const ExportOutcome& outcome);
};

// The message for a "Save to" left empty: a msgid, shown through i18n::tr().
inline constexpr const char* kEmptySaveTo = N_("Type a folder or a file name under Save to.");

// Exports into `save_to`'s path through `run` (which writes and posts the notice): on success
// the folder is remembered (in `memory` too), `error` cleared and the current popup closed;
// otherwise `error` says why and the popup stays open. An empty "Save to" is refused at once.
void export_from_popup(SaveTo& save_to, const std::filesystem::path& memory, std::string& error,
                       const std::function<ExportOutcome(const std::filesystem::path& out)>& run);

// A popup's modal window, centred, 40 font sizes wide at most; true while it is open (then
// ImGui::EndPopup()).
bool begin_export_popup(const char* popup);

// "PNG  SVG  CSV  NPY" as radio buttons on one line (labelled "PNG##id"); `chosen` indexes `formats`.
void draw_format_choice(const char* id, std::span<const exporting::ExportFormat> formats, int* chosen);

// "Save to", its text box, what it names ("… the file is named like `example_name` …"), where a
// relative path lands, and `error` when there is one. True when Enter was pressed in it.
bool draw_save_to(SaveTo& save_to, const char* id, const char* example_name, const std::string& error);

// Export and Cancel (or Escape), side by side ("Export##id", "Cancel##id").
struct PopupButtons {
  bool export_pressed = false;
  bool cancel_pressed = false;
};
PopupButtons draw_popup_buttons(const char* id, bool export_enabled);

}  // namespace attnviz::export_ui
