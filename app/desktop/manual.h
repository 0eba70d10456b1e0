#pragma once
// `man attnviz`, made from the very texts `--help` prints (the usage, the window's options, the
// classroom options, each command's --help), so the two never disagree. `attnviz --help-roff`
// writes it; the build turns that into attnviz.1 (app/install).

#include <iosfwd>
#include <string>

namespace attnviz::desktop {

void print_manual(std::ostream& out);

// `text` as roff that shows it verbatim inside .nf/.fi: backslashes escaped, a line that
// would start a request protected, ASCII hyphens as \- so they stay hyphens when copied.
std::string roff_verbatim(const std::string& text);

}  // namespace attnviz::desktop
