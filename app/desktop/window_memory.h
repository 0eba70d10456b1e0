#pragma once
// The window's place, size, text size, language, theme and layout, remembered between starts in
// $XDG_CONFIG_HOME/attnviz/window.json (beside the autosave and recent.json): a teacher who
// arranged the window and enlarged the text for the room finds it so the next time. Not for
// screenshots, measuring runs or a window whose size the command line gave (--size); the
// language, theme and layout chosen in the View menu are remembered for those too (not for
// screenshots and measuring runs).

#include <filesystem>
#include <optional>
#include <string>

#include "app/ui/layout.h"
#include "app/ui/theme.h"
#include "app/window/glfw_window.h"

namespace attnviz::desktop {

struct RememberedWindow {
  window::WindowPlacement placement;
  float text_scale = 1.0f;             // View ▸ larger / smaller text (Ctrl+= / Ctrl+-)
  std::string language{};              // View ▸ Language: "en", "ko" (i18n::language_code); "" follows the desktop
  ui::Theme theme = ui::Theme::Light;  // View ▸ Theme
  ui::RememberedLayout layout{};       // the layout mode, the view shown, the panels open, the Model view's Show line
  friend bool operator==(const RememberedWindow&, const RememberedWindow&) = default;
};

// $XDG_CONFIG_HOME/attnviz/window.json, or ~/.config/attnviz/window.json.
std::filesystem::path remembered_window_file();

// What the file says, or nothing when it is missing, unreadable or holds anything unexpected
// (the window then opens at its default size: a broken memory is no reason to refuse to start).
// A theme or layout it cannot read is the default one, the rest kept.
std::optional<RememberedWindow> read_remembered_window(const std::filesystem::path& file);

// Writes it (atomically). Returns "" or why it could not (the caller says so on stderr).
std::string remember_window(const std::filesystem::path& file, const RememberedWindow& window);

}  // namespace attnviz::desktop
