#include "core/text/sentence_tokens.h"

#include <algorithm>

#include "core/text/tokenizer.h"

namespace attnviz {

int TextTokens::count() const { return error.empty() ? static_cast<int>(tokens.size()) : limit + 1; }

TextTokens text_tokens(std::string_view text, TokenizerMode mode, const std::optional<std::vector<std::string>>& listed,
                       int limit) {
  TextTokens out;
  out.limit = limit;
  if (listed) {
    out.tokens = *listed;
    out.explicit_tokens = true;
    return out;
  }
  try {
    out.tokens = tokenize(text, mode, limit);
  } catch (const TokenizerError& e) {
    out.error = e.what();
    out.error_offset = e.byte_offset();
    out.too_long = e.kind() == TokenizerError::Kind::TooManyTokens;
  }
  return out;
}

std::string_view part_within_limit(std::string_view text, const TextTokens& tokens) {
  if (!tokens.too_long) return text;
  std::string_view part = text.substr(0, std::min(tokens.error_offset, text.size()));
  while (!part.empty() && (part.back() == ' ' || part.back() == '\t' || part.back() == '\r' || part.back() == '\n')) {
    part.remove_suffix(1);
  }
  return part;
}

namespace {

// 'path' for a shell: single quotes, a quote inside written '\''.
std::string shell_quoted(const std::string& path) {
  std::string out = "'";
  for (const char c : path) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string keep_first_tokens_command(std::string_view text, const TextTokens& tokens, const std::string& path) {
  return "head -c " + std::to_string(part_within_limit(text, tokens).size()) + " " + shell_quoted(path) +
         " > first-part.txt";
}

}  // namespace attnviz
