#pragma once
// The bundled presets' titles (assets/presets/*.json), marked for the window's catalogue: a
// preset's title is shown — in the title bar, the menu bar, an exported figure — in the language
// of the Wording it is worded with. Any other title (the user's own) is shown as written.

#include <string>
#include <string_view>

#include "core/common/wording.h"

namespace attnviz {

[[nodiscard]] bool is_preset_title(std::string_view title);

// A preset's title in the words of `wording`; any other title unchanged.
[[nodiscard]] std::string worded_title(const std::string& title, const Wording& wording);

}  // namespace attnviz
