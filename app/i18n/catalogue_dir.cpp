#include "app/i18n/catalogue_dir.h"

#include <cstdlib>
#include <system_error>
#include <vector>

#include "core/common/binary_dir.h"

namespace attnviz::i18n {
namespace {

namespace fs = std::filesystem;

bool holds_catalogues(const fs::path& directory) {
  std::error_code error;
  return fs::is_regular_file(directory / "ko" / "LC_MESSAGES" / "attnviz.mo", error);
}

}  // namespace

std::optional<fs::path> catalogue_dir() {
  if (const char* chosen = std::getenv("ATTNVIZ_LOCALE_DIR"); chosen != nullptr && *chosen != '\0') return chosen;
  std::vector<fs::path> candidates;
  if (const fs::path here = binary_dir(); !here.empty()) {
    candidates.push_back(here.parent_path() / "locale");            // build/release/app/attnviz
    candidates.push_back(here.parent_path() / "share" / "locale");  // PREFIX/bin/attnviz
  }
  candidates.emplace_back(ATTNVIZ_INSTALL_LOCALEDIR);
  for (const fs::path& directory : candidates) {
    if (holds_catalogues(directory)) return directory.lexically_normal();
  }
  return std::nullopt;
}

}  // namespace attnviz::i18n
