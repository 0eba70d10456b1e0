#pragma once
// Where the compiled catalogues (ko/LC_MESSAGES/attnviz.mo) are: ATTNVIZ_LOCALE_DIR, else beside
// the binary in the build tree (build/release/locale), else the install prefix the binary sits
// in (bin/../share/locale), else the prefix it was configured for.

#include <filesystem>
#include <optional>

namespace attnviz::i18n {

[[nodiscard]] std::optional<std::filesystem::path> catalogue_dir();

}  // namespace attnviz::i18n
