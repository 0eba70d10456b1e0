#include "core/assets/embedded.h"

namespace attnviz::assets {

std::optional<std::string_view> find(std::string_view name) {
  for (const EmbeddedFile& file : embedded_files()) {
    if (file.name == name) return file.bytes;
  }
  return std::nullopt;
}

}  // namespace attnviz::assets
