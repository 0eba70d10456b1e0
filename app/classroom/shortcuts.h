#pragma once
// Every classroom shortcut, in one table: the Help window lists it, the Classroom menu shows
// the keys beside its items, docs/classroom.md copies it.

#include <span>

namespace attnviz::classroom {

struct Shortcut {
  const char* keys;    // "Right / Page Down"
  const char* action;  // "next step"
};

std::span<const Shortcut> classroom_shortcuts();

}  // namespace attnviz::classroom
