#pragma once
// Where the Export dialog saves: a folder a person expects, never the directory the program
// happened to be started from. The dialog proposes the folder of the last export (kept between
// runs), else the pictures folder as `xdg-user-dir PICTURES` finds it; a relative path typed
// into "Save to" is taken from that folder, and the dialog shows where it lands. No ImGui:
// unit-tested.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace attnviz::export_ui {

// Looks an environment variable up (nullptr when unset); std::getenv in the window.
using EnvironmentLookup = std::function<const char*(const char*)>;

// `xdg-user-dir PICTURES`: $XDG_PICTURES_DIR, else XDG_PICTURES_DIR in
// ${XDG_CONFIG_HOME:-~/.config}/user-dirs.dirs ("$HOME/Pictures" or an absolute path), else
// ~/Pictures when it exists, else the home directory (else the working directory).
std::filesystem::path pictures_directory(const EnvironmentLookup& environment);

// The folder last exported to, as kept in `memory` ($XDG_CONFIG_HOME/attnviz/export-folder);
// nullopt when there is none (or it is not an absolute path).
std::optional<std::filesystem::path> read_last_folder(const std::filesystem::path& memory);
// Keeps `folder` for the next run; a failure is ignored (the pictures folder is proposed then).
void write_last_folder(const std::filesystem::path& memory, const std::filesystem::path& folder);

// What "Save to" starts with: the last folder, else the pictures folder; always absolute.
std::filesystem::path default_export_folder(const std::optional<std::filesystem::path>& last,
                                            const EnvironmentLookup& environment);

// The absolute path `typed` names: "~/x" from the home directory, a relative path from
// `folder` (the one the dialog proposed), an absolute one as it is.
std::filesystem::path resolve_export_path(const std::string& typed, const std::filesystem::path& folder,
                                          const EnvironmentLookup& environment);

}  // namespace attnviz::export_ui
