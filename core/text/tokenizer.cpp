#include "core/text/tokenizer.h"

#include <cstdio>

#include "core/text/utf8.h"

namespace attnviz {
namespace {

std::string hex_byte(unsigned char byte) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%02X", static_cast<unsigned>(byte));
  return text;
}

// Collects tokens, enforcing the limit as they are produced so a huge input stops early.
class TokenSink {
 public:
  explicit TokenSink(int max_tokens) : max_tokens_(max_tokens) {}

  void add(std::string_view text, std::size_t byte_offset) {
    if (static_cast<int>(tokens_.size()) >= max_tokens_) {
      throw TokenizerError("the text has more than " + std::to_string(max_tokens_) + " tokens (the limit); token " +
                               std::to_string(max_tokens_ + 1) + " starts at byte offset " +
                               std::to_string(byte_offset),
                           byte_offset, TokenizerError::Kind::TooManyTokens);
    }
    tokens_.emplace_back(text);
  }
  std::vector<std::string> take() { return std::move(tokens_); }

 private:
  int max_tokens_;
  std::vector<std::string> tokens_;
};

}  // namespace

std::vector<std::string> tokenize(std::string_view text, TokenizerMode mode, int max_tokens) {
  TokenSink sink(max_tokens);
  std::size_t word_start = std::string_view::npos;  // byte offset of the word being read
  auto end_word = [&](std::size_t at) {
    if (word_start != std::string_view::npos) sink.add(text.substr(word_start, at - word_start), word_start);
    word_start = std::string_view::npos;
  };

  std::size_t offset = 0;
  while (offset < text.size()) {
    const std::optional<utf8::Decoded> decoded = utf8::decode_at(text, offset);
    if (!decoded) {
      throw TokenizerError("invalid UTF-8 at byte offset " + std::to_string(offset) + " (byte " +
                               hex_byte(static_cast<unsigned char>(text[offset])) + ")",
                           offset, TokenizerError::Kind::InvalidUtf8);
    }
    const char32_t c = decoded->code_point;
    const std::string_view character = text.substr(offset, decoded->length);
    if (utf8::is_white_space(c)) {
      end_word(offset);
    } else if (mode == TokenizerMode::Chars) {
      sink.add(character, offset);
    } else if (utf8::is_punctuation(c)) {
      end_word(offset);
      if (mode == TokenizerMode::Words) sink.add(character, offset);
    } else if (word_start == std::string_view::npos) {
      word_start = offset;
    }
    offset += decoded->length;
  }
  end_word(text.size());
  return sink.take();
}

}  // namespace attnviz
