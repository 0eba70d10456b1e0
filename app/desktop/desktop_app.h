#pragma once
// The window: `attnviz` with no subcommand. Opens a GLFW window, creates one Vulkan device for
// drawing and computing, and runs the frame loop until the window closes (or, with
// --screenshot, until the picture is written).

#include <iosfwd>
#include <string>
#include <vector>

namespace attnviz::desktop {

// Returns the exit code. Errors propagate as exceptions for main() to map: InputError (a bad
// option or --scenario, exit 2), BackendUnavailable (no Vulkan driver: the message says how to
// install one, exit 3), anything else (exit 1). With --validation, any message of the Khronos
// validation layer makes the exit code 1 (after the screenshot is written).
int run_gui(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace attnviz::desktop
