#include "core/export/text_wrap.h"

#include <algorithm>

namespace attnviz::exporting {
namespace {

using Measure = std::function<double(const std::string&)>;

// Byte length of the UTF-8 sequence starting with `lead` (1 for stray bytes).
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// A word too wide for a line: as many code points per line as fit (at least one).
std::vector<std::string> break_word(const std::string& word, double max_width, const Measure& measure) {
  std::vector<std::string> lines;
  std::string line;
  std::size_t i = 0;
  while (i < word.size()) {
    const std::size_t length = std::min(sequence_length(static_cast<unsigned char>(word[i])), word.size() - i);
    const std::string next = line + word.substr(i, length);
    if (!line.empty() && measure(next) > max_width) {
      lines.push_back(line);
      line = word.substr(i, length);
    } else {
      line = next;
    }
    i += length;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// Joins `pieces` with `joiner` into lines no wider than `max_width`, as many per line as fit. A
// piece that does not fit after the line so far starts new lines as `split` cuts it (itself
// alone when it fits one); the last of them stays open, so the next piece can join it.
std::vector<std::string> pack(const std::vector<std::string>& pieces, const std::string& joiner, double max_width,
                              const Measure& measure,
                              const std::function<std::vector<std::string>(const std::string&)>& split) {
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& piece : pieces) {
    const std::string joined = line.empty() ? piece : line + joiner + piece;
    if (measure(joined) <= max_width) {
      line = joined;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    std::vector<std::string> cut = split(piece);
    line = cut.back();
    cut.pop_back();
    lines.insert(lines.end(), cut.begin(), cut.end());
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

// A short number ("4)", "8,", "0") stays on the line of the word it counts or names: a line
// ending "d_v" over a line "4)" reads badly. Each such word is joined to the one before it.
std::vector<std::string> glue_short_numbers(std::vector<std::string> words) {
  constexpr std::size_t kShort = 6;  // "4,096)"
  std::vector<std::string> glued;
  for (std::string& word : words) {
    const bool short_number = !word.empty() && word.front() >= '0' && word.front() <= '9' && word.size() <= kShort;
    if (short_number && !glued.empty())
      glued.back() += " " + word;
    else
      glued.push_back(std::move(word));
  }
  return glued;
}

}  // namespace

std::vector<std::string> wrap_text(std::string_view text, double max_width,
                                   const std::function<double(const std::string&)>& measure) {
  std::vector<std::string> words;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(' ', start), text.size());
    if (end > start) words.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  const auto fitted_or_broken = [&](const std::string& word) {
    return measure(word) <= max_width ? std::vector<std::string>{word} : break_word(word, max_width, measure);
  };
  return pack(glue_short_numbers(std::move(words)), " ", max_width, measure, fitted_or_broken);
}

std::vector<std::string> wrap_parts(std::string_view text, std::string_view separator, double max_width,
                                    const std::function<double(const std::string&)>& measure) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = separator.empty() ? std::string_view::npos : text.find(separator, start);
    parts.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + separator.size();
  }
  // A part too long for a line of its own is wrapped at its spaces.
  const auto wrapped = [&](const std::string& part) { return wrap_text(part, max_width, measure); };
  return pack(parts, std::string(separator), max_width, measure, wrapped);
}

}  // namespace attnviz::exporting
