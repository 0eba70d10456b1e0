// tokenizer.json on arbitrary text: a tokenizer or an InputError naming the field; an accepted
// tokenizer encodes texts into ids inside its vocabulary with readable labels, never more ids
// than the limit it is given (a small one too, so that the stop at the limit is reached), and a
// long word or many special tokens in a row as fast as the rest. The same bytes,
// cut into tokens of 1 to 4 bytes, are labelled (one valid UTF-8 label each, and a note that
// does not fail).

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/error.h"
#include "core/tokenizers/token_label.h"
#include "core/tokenizers/tokenizer_files.h"
#include "core/tokenizers/unicode.h"

namespace {

void label_as_pieces(std::string_view text) {
  using attnviz::tokenizers::TokenPiece;
  std::vector<TokenPiece> pieces;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = static_cast<unsigned char>(text[at]) % 4 + 1;
    pieces.push_back({std::string(text.substr(at, length)), text[at] != '<'});
    at += length;
  }
  const std::vector<std::string> labels = attnviz::tokenizers::readable_labels(pieces);
  if (labels.size() != pieces.size()) std::abort();
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (pieces[i].is_text && !attnviz::tokenizers::is_valid_utf8(labels[i])) std::abort();
    (void)attnviz::tokenizers::cut_character_note(labels[i]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  label_as_pieces(text.substr(0, 4096));
  try {
    const auto tokenizer = attnviz::tokenizers::parse_tokenizer_json(text, "tokenizer.json");
    const std::string long_word(5000, 'a');
    std::string specials;
    for (int i = 0; i < 300; ++i) specials += i % 2 ? "[MASK]" : "<s>";
    const std::string samples[] = {"the cat sat on the mat", "  Hello,\n\tWORLD!! 2024",
                                   "어제 밤에 🙂 café [MASK] <s>", long_word, specials};
    for (std::size_t i = 0; i < std::size(samples); ++i) {
      try {
        const int limit = i % 2 ? 3 : attnviz::tokenizers::kMaxModelTokens;
        const auto encoding = tokenizer->encode(samples[i], "--text", limit);
        if (encoding.ids.size() != encoding.tokens.size()) std::abort();
        if (encoding.ids.size() > static_cast<std::size_t>(limit)) std::abort();
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
