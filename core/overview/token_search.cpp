// Token search (token_search.h): a number names a token; text is cut by the text's own
// tokenizer and compared token by token with Unicode lower case (utf8proc's, as BERT's).

#include "core/overview/token_search.h"

#include <algorithm>
#include <cstddef>

#include "core/text/tokenizer.h"
#include "core/text/utf8.h"
#include "core/tokenizers/unicode.h"

namespace attnviz::overview {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  return text;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "34617", "34,617", "34_617" or "#34617": the number, else nullopt. Separators stand only
// between digits; numbers past 10^15 are kept at that (out of range either way).
std::optional<long long> token_number(std::string_view text) {
  if (!text.empty() && text.front() == '#') text = trimmed(text.substr(1));
  if (text.empty() || !is_digit(text.front()) || !is_digit(text.back())) return std::nullopt;
  constexpr long long kCap = 1'000'000'000'000'000LL;
  long long value = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (is_digit(c)) {
      value = std::min(kCap, value * 10 + (c - '0'));
    } else if ((c != ',' && c != '_') || !is_digit(text[i - 1]) || !is_digit(text[i + 1])) {
      return std::nullopt;
    }
  }
  return value;
}

// Lower case, code point by code point (a byte that is not UTF-8 is kept as it is).
std::string folded(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (const auto decoded = utf8::decode_at(text, i)) {
      utf8::append(out, tokenizers::to_lower(decoded->code_point));
      i += decoded->length;
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

std::vector<int> exact_starts(const std::vector<std::string>& text, const std::vector<std::string>& phrase) {
  std::vector<int> starts;
  if (phrase.empty() || phrase.size() > text.size()) return starts;
  const std::size_t last = text.size() - phrase.size();
  for (std::size_t i = 0; i <= last; ++i) {
    if (std::equal(phrase.begin(), phrase.end(), text.begin() + static_cast<std::ptrdiff_t>(i))) {
      starts.push_back(static_cast<int>(i));
    }
  }
  return starts;
}

std::vector<int> containing_starts(const std::vector<std::string>& text, const std::string& word) {
  std::vector<int> starts;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i].find(word) != std::string::npos) starts.push_back(static_cast<int>(i));
  }
  return starts;
}

}  // namespace

TokenMatches find_tokens(const std::vector<std::string>& tokens, std::string_view query, TokenizerMode mode) {
  TokenMatches out;
  query = trimmed(query);
  if (query.empty()) return out;
  if (!tokenizers::is_valid_utf8(query)) {
    out.kind = TokenMatches::Kind::NotUtf8;
    return out;
  }
  if (const auto number = token_number(query)) {
    out.position = *number;
    if (*number < static_cast<long long>(tokens.size())) {
      out.kind = TokenMatches::Kind::Position;
      out.starts = {static_cast<int>(*number)};
    } else {
      out.kind = TokenMatches::Kind::OutOfRange;
    }
    return out;
  }
  if (query.size() >= 2 && query.front() == '"' && query.back() == '"') query = query.substr(1, query.size() - 2);
  out.phrase = std::string(trimmed(query));
  std::vector<std::string> phrase;
  try {
    phrase = tokenize(query, mode, kMaxSearchTokens);
  } catch (const TokenizerError& e) {
    out.kind =
        e.kind() == TokenizerError::Kind::TooManyTokens ? TokenMatches::Kind::TooLong : TokenMatches::Kind::NotUtf8;
    return out;
  }
  if (phrase.empty()) {
    out.kind = TokenMatches::Kind::NoTokens;
    return out;
  }
  for (std::string& token : phrase) token = folded(token);
  std::vector<std::string> text;
  text.reserve(tokens.size());
  for (const std::string& token : tokens) text.push_back(folded(token));
  out.length = static_cast<int>(phrase.size());
  out.starts = exact_starts(text, phrase);
  out.kind = TokenMatches::Kind::Exact;
  if (out.starts.empty() && phrase.size() == 1) {
    out.starts = containing_starts(text, phrase.front());
    out.kind = TokenMatches::Kind::Containing;
  }
  if (out.starts.empty()) out.kind = TokenMatches::Kind::NotFound;
  return out;
}

int next_match(const std::vector<int>& starts, std::optional<int> from, bool backwards) {
  if (starts.empty()) return -1;
  if (!from) return backwards ? starts.back() : starts.front();
  if (backwards) {
    const auto it = std::lower_bound(starts.begin(), starts.end(), *from);
    return it == starts.begin() ? starts.back() : *std::prev(it);
  }
  const auto it = std::upper_bound(starts.begin(), starts.end(), *from);
  return it == starts.end() ? starts.front() : *it;
}

int match_ordinal(const std::vector<int>& starts, int token) {
  const auto it = std::lower_bound(starts.begin(), starts.end(), token);
  return it != starts.end() && *it == token ? static_cast<int>(it - starts.begin()) + 1 : 0;
}

}  // namespace attnviz::overview
