#include "core/tokenizers/pretokenize.h"

#include "core/tokenizers/unicode.h"

namespace attnviz::tokenizers {
namespace {

constexpr std::string_view kGpt2Regex = R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
constexpr std::string_view kLlama3Regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
constexpr std::string_view kQwen2Regex =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

bool is_other(char32_t c) { return !is_space(c) && !is_letter(c) && !is_number(c); }
bool is_newline(char32_t c) { return c == U'\r' || c == U'\n'; }

class Scanner {
 public:
  Scanner(std::u32string_view text, SplitPattern pattern) : text_(text), pattern_(pattern) {}

  // The length of the piece starting at i (always ≥ 1).
  std::size_t match(std::size_t i) const {
    if (std::size_t n = contraction(i)) return n;
    if (pattern_ == SplitPattern::Gpt2) {
      if (std::size_t n = optional_space_then(i, is_letter)) return n;
      if (std::size_t n = optional_space_then(i, is_number)) return n;
      if (std::size_t n = optional_space_then(i, is_other)) return n;
    } else {
      if (std::size_t n = prefixed_letters(i)) return n;
      if (std::size_t n = digits(i, pattern_ == SplitPattern::Llama3 ? 3 : 1)) return n;
      if (std::size_t n = optional_space_then(i, is_other)) return n + run(i + n, is_newline);
      if (std::size_t n = spaces_to_newline(i)) return n;
    }
    return spaces(i);
  }

 private:
  char32_t at(std::size_t i) const { return i < text_.size() ? text_[i] : 0; }

  template <typename Class>
  std::size_t run(std::size_t i, Class in_class) const {
    std::size_t n = 0;
    while (i + n < text_.size() && in_class(text_[i + n])) ++n;
    return n;
  }

  std::size_t contraction(std::size_t i) const {
    if (at(i) != U'\'') return 0;
    const bool fold = pattern_ != SplitPattern::Gpt2;
    auto letter = [&](std::size_t k) { return fold ? to_lower(at(k)) : at(k); };
    for (const std::u32string_view suffix : {U"s", U"t", U"re", U"ve", U"m", U"ll", U"d"}) {
      bool same = true;
      for (std::size_t k = 0; k < suffix.size() && same; ++k) same = letter(i + 1 + k) == suffix[k];
      if (same) return 1 + suffix.size();
    }
    return 0;
  }

  // " ?CLASS+"
  template <typename Class>
  std::size_t optional_space_then(std::size_t i, Class in_class) const {
    const std::size_t space = at(i) == U' ' ? 1 : 0;
    const std::size_t n = run(i + space, in_class);
    return n == 0 ? 0 : space + n;
  }

  // "[^\r\n\p{L}\p{N}]?\p{L}+"
  std::size_t prefixed_letters(std::size_t i) const {
    if (i < text_.size() && !is_newline(at(i)) && !is_letter(at(i)) && !is_number(at(i))) {
      if (const std::size_t n = run(i + 1, is_letter)) return 1 + n;
    }
    return run(i, is_letter);
  }

  std::size_t digits(std::size_t i, std::size_t at_most) const {
    std::size_t n = run(i, is_number);
    return n < at_most ? n : at_most;
  }

  // "\s*[\r\n]+": up to and including the last line break of the white-space run.
  std::size_t spaces_to_newline(std::size_t i) const {
    const std::size_t n = run(i, is_space);
    for (std::size_t k = n; k > 0; --k) {
      if (is_newline(text_[i + k - 1])) return k;
    }
    return 0;
  }

  // "\s+(?!\S)|\s+": a white-space run followed by a word leaves its last space to the word.
  std::size_t spaces(std::size_t i) const {
    const std::size_t n = run(i, is_space);
    if (n == 0) return 1;  // never reached: every character is in some class; kept for safety
    if (i + n == text_.size() || n == 1) return n;
    return n - 1;
  }

  std::u32string_view text_;
  SplitPattern pattern_;
};

}  // namespace

std::optional<SplitPattern> split_pattern_from_regex(std::string_view regex) {
  if (regex == kGpt2Regex) return SplitPattern::Gpt2;
  if (regex == kLlama3Regex) return SplitPattern::Llama3;
  if (regex == kQwen2Regex) return SplitPattern::Qwen2;
  return std::nullopt;
}

std::vector<std::u32string_view> split_words(std::u32string_view text, SplitPattern pattern) {
  const Scanner scanner(text, pattern);
  std::vector<std::u32string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t n = scanner.match(i);
    words.push_back(text.substr(i, n));
    i += n;
  }
  return words;
}

}  // namespace attnviz::tokenizers
