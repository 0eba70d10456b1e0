#pragma once
// --lang: the language an exported figure's words are in (titles, axis titles, legends, notes).
// The command line's own messages stay English; the figures speak what the window would.

#include "app/cli/args.h"
#include "core/common/wording.h"

namespace attnviz::cli {

inline const OptionSpec kLangOption{"--lang"};

// The help line of --lang, for each command that takes it.
inline constexpr const char* kLangHelp =
    "  --lang LANG          en (default) | ko: the language of the figures' words (titles, axis\n"
    "                       titles, legends, notes); numbers, formulas and tokens are unchanged\n";

// English unless --lang ko, which reads the Korean catalogue the build or the package installed
// (ATTNVIZ_LOCALE_DIR to point elsewhere). Throws InputError for another language and
// std::runtime_error when no catalogue is found.
[[nodiscard]] Wording figure_wording(const ParsedArgs& parsed);

}  // namespace attnviz::cli
