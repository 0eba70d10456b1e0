#pragma once
// Opening and saving scenarios from the window (File menu, presets, the command line's
// --scenario), so that no work is lost: a scenario that fails to load or cannot be computed
// shows the loader's message and leaves the document exactly as it was.

#include <filesystem>
#include <string>

#include "core/scenario/scenario_json.h"

namespace attnviz::document {
class Document;
}

namespace attnviz::ui {

class Notices;

// Loads a file or "preset:NAME" and checks that it can be computed (build_problem). On
// success it replaces the document (a new one, empty undo history; presets get no path, so
// Save asks where) and posts the loader's warnings; on failure it posts the message as an
// error and returns false without touching the document.
bool open_scenario(document::Document& document, Notices& notices, const std::string& path_or_preset);

// open_scenario's two outcomes, for a scenario read and checked off the window's thread
// (document::BackgroundLoad): the document replaced and the warnings posted, or the message
// posted with the document untouched.
void apply_opened(document::Document& document, Notices& notices, const std::string& path_or_preset,
                  LoadedScenario loaded);
void report_open_failure(Notices& notices, const std::string& path_or_preset, const std::string& message);

// Writes the document's scenario to `path` (atomically) and marks it saved there. On failure
// posts the error (naming the path) and returns false; the document stays modified.
bool save_scenario_to(document::Document& document, Notices& notices, const std::filesystem::path& path);

}  // namespace attnviz::ui
