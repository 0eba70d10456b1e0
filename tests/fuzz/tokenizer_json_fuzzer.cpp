// tokenizer.json on arbitrary text: a tokenizer or an InputError naming the field; an accepted
// tokenizer encodes texts into ids inside its vocabulary with readable labels.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/common/error.h"
#include "core/tokenizers/tokenizer_files.h"
#include "core/tokenizers/unicode.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const auto tokenizer = attnviz::tokenizers::parse_tokenizer_json(text, "tokenizer.json");
    for (const char* sample : {"the cat sat on the mat", "  Hello,\n\tWORLD!! 2024", "어제 밤에 🙂 café [MASK] <s>"}) {
      try {
        const auto encoding = tokenizer->encode(sample, "--text");
        if (encoding.ids.size() != encoding.tokens.size()) std::abort();
        for (const int id : encoding.ids) {
          if (id < 0 || id >= tokenizer->vocab_size()) std::abort();
        }
        for (const auto& token : encoding.tokens) {
          if (!attnviz::tokenizers::is_valid_utf8(token)) std::abort();
        }
      } catch (const attnviz::InputError&) {
      }
    }
  } catch (const attnviz::InputError&) {
  }
  return 0;
}
