#pragma once
// Every shortcut of the window, in one table: the Help window (F1) lists it, the Classroom
// menu shows the keys beside its items, docs/classroom.md and the README copy it. The
// classroom's own keys come first; the window's (View, File, Edit menus, the heatmaps' mouse)
// follow, so that F1 shows every key there is.

#include <span>

namespace attnviz::classroom {

struct Shortcut {
  const char* keys;     // "Right, Page Down" (N_: shown translated; "Ctrl+Z" is the same everywhere)
  const char* action;   // "next step (step view)", N_: shown translated
  bool window = false;  // handled by the window's menus, not the classroom
};

std::span<const Shortcut> classroom_shortcuts();

}  // namespace attnviz::classroom
