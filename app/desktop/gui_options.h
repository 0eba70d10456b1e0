#pragma once
// The window's command-line options (docs/design.md "Command line"):
//   attnviz [--scenario FILE] [--screenshot OUT.png [--frames N]] [--size WxH] [--head H]
//           [--layout full|heatmaps|compare-ready] [--backend vulkan|cpu|both] ...
// Mistakes throw InputError naming the option (exit code 2).

#include <optional>
#include <string>
#include <vector>

#include "app/classroom/start_options.h"
#include "app/compute/compute_session.h"
#include "app/ui/view_state.h"

namespace attnviz::desktop {

struct GuiOptions {
  std::optional<std::string> scenario;   // a file or preset:NAME; otherwise the autosave
  std::optional<std::string> text_file;  // its text is the sentence (beside --scenario, or alone)
  // `attnviz FILE` (a file manager's double-click): opened like --scenario, except that a file
  // that cannot be opened is reported in the window, which opens anyway, not by exit code 2.
  std::optional<std::string> file;
  std::optional<std::string> screenshot;  // write the window's pixels here after the last frame, exit
  // Close the window after this many frames (as if the user closed it). Default with
  // --screenshot: 3; otherwise run until the window is closed.
  std::optional<int> frames;
  int width = 1600;
  int height = 1000;
  bool size_given = false;  // --size: exactly that size, neither fitted to the screen nor remembered
  std::optional<int> head;  // the selected head (0-based)
  std::optional<ui::LayoutMode> layout;
  std::optional<ui::Theme> theme;  // --theme: over the one View > Theme remembered
  std::optional<compute::BackendMode> backend;
  std::optional<int> pin_query;    // pin this query row (screenshots of the bar chart)
  std::optional<int> hover_token;  // highlight this token as if hovered (screenshots)
  std::optional<int> blocks;       // show the mask's B × B block-sparsity tiles
  std::optional<float> ui_scale;   // overrides the monitor's content scale
  std::optional<int> device;       // the Vulkan device (see attnviz devices)
  bool validation = false;         // Khronos validation layer and unique widget IDs; any message fails (exit 1)
  bool stats = false;              // print frame-time statistics on exit
  bool edit_every_frame = false;   // --bench-edits: nudge a weight each frame (measures live recompute)
  bool shape_every_frame = false;  // --bench-shapes: a new K/V head count or d_k after each recompute
  bool without_heatmaps = false;   // --bench-no-heatmaps: the heatmaps' cells are not drawn
  bool help = false;
  classroom::StartOptions classroom;  // --view, --step, --compare, --present
  // A pretrained model opened beside the scenario (a folder or a .gguf file), the text it reads,
  // the layer the Heatmaps view shows (--head its head), and whether the Model view opens.
  std::optional<std::string> model;
  std::optional<std::string> model_text;
  std::optional<int> model_layer;
  bool model_view = false;

  // A run made by a script, not a person's session: --screenshot, or --stats with --frames.
  // Its pictures and timings must not depend on where the pointer is, and it keeps no autosave.
  // (--stats alone is a normal session that prints its frame times when closed.)
  [[nodiscard]] bool automated() const { return screenshot.has_value() || (stats && frames.has_value()); }
};

// Parses the arguments after the program name (none of them a subcommand).
GuiOptions parse_gui_options(const std::vector<std::string>& args);

extern const char* const kGuiHelp;

}  // namespace attnviz::desktop
