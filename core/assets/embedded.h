#pragma once
// Files from assets/ compiled into the binary (presets, colormaps), so attnviz runs from
// anywhere without an install step or a search path.

#include <optional>
#include <span>
#include <string_view>

namespace attnviz::assets {

struct EmbeddedFile {
  std::string_view name;  // path relative to assets/, e.g. "presets/life-is-short.json"
  std::string_view bytes;
};

// Generated at build time by cmake/embed_files_script.cmake.
std::span<const EmbeddedFile> embedded_files();

// The bytes of assets/NAME, or nullopt.
std::optional<std::string_view> find(std::string_view name);

}  // namespace attnviz::assets
