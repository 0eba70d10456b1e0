#pragma once
// Every character beyond ASCII that the compiled catalogues' translations use: the glyphs the
// window's heading and small fonts need for translated text (app/window/fonts.h), a few hundred
// Hangul syllables rather than all 11,172 at every size.

#include <vector>

namespace attnviz::i18n {

// Sorted, each once; empty when no catalogue is found.
[[nodiscard]] std::vector<char32_t> catalogue_characters();

}  // namespace attnviz::i18n
