#include "core/export/text_wrap.h"

#include <algorithm>

namespace attnviz::exporting {
namespace {

// Byte length of the UTF-8 sequence starting with `lead` (1 for stray bytes).
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

// A word too wide for a line: as many code points per line as fit (at least one).
void break_word(const std::string& word, double max_width, const std::function<double(const std::string&)>& measure,
                std::vector<std::string>& lines) {
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
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& word : words) {
    const std::string joined = line.empty() ? word : line + " " + word;
    if (measure(joined) <= max_width) {
      line = joined;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    if (measure(word) <= max_width) {
      line = word;
      continue;
    }
    break_word(word, max_width, measure, lines);
    // The last piece of a broken word starts the next line, so the following word can join it.
    line = lines.back();
    lines.pop_back();
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
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
  std::vector<std::string> lines;
  std::string line;
  for (const std::string& part : parts) {
    const std::string joined = line.empty() ? part : line + std::string(separator) + part;
    if (measure(joined) <= max_width) {
      line = joined;
      continue;
    }
    if (!line.empty()) lines.push_back(line);
    line.clear();
    // A part too long for a line of its own is wrapped at its spaces; its last line stays open.
    std::vector<std::string> pieces = wrap_text(part, max_width, measure);
    line = pieces.back();
    pieces.pop_back();
    lines.insert(lines.end(), pieces.begin(), pieces.end());
  }
  if (!line.empty() || lines.empty()) lines.push_back(line);
  return lines;
}

}  // namespace attnviz::exporting
