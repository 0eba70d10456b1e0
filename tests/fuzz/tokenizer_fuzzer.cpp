// The tokenizer (core/text) on arbitrary bytes in each mode: tokens or a TokenizerError, never
// a crash; every token is non-empty and valid UTF-8, and there are at most the limit.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/text/tokenizer.h"
#include "core/text/utf8.h"

namespace {

bool valid_utf8(std::string_view text) {
  for (std::size_t offset = 0; offset < text.size();) {
    const auto decoded = attnviz::utf8::decode_at(text, offset);
    if (!decoded) return false;
    offset += decoded->length;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the mode and a small token limit (so the limit is reached too).
  const attnviz::TokenizerMode modes[] = {attnviz::TokenizerMode::Words, attnviz::TokenizerMode::WordsNoPunct,
                                          attnviz::TokenizerMode::Chars};
  const attnviz::TokenizerMode mode = modes[data[0] % 3];
  const int max_tokens = data[0] & 0x80 ? 16 : attnviz::kDefaultMaxTokens;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const std::vector<std::string> tokens = attnviz::tokenize(text, mode, max_tokens);
    if (static_cast<int>(tokens.size()) > max_tokens) std::abort();
    for (const std::string& token : tokens) {
      if (token.empty() || !valid_utf8(token)) std::abort();
    }
  } catch (const attnviz::TokenizerError& error) {
    if (error.byte_offset() > text.size()) std::abort();
  }
  return 0;
}
