#include "core/model/text_fit.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "core/common/error.h"
#include "core/model/forward.h"
#include "core/text/utf8.h"

namespace attnviz::model {
namespace {

// No token of a real vocabulary is this long: the first limit × this many bytes of a text hold
// more than `limit` tokens whenever the whole does, so the search never tokenizes more.
constexpr std::size_t kMaxTokenBytes = 64;

// Tokens of `text`, or INT_MAX where the tokenizer refuses it (past kMaxModelTokens).
int token_count(const tokenizers::Tokenizer& tokenizer, std::string_view text) {
  try {
    return static_cast<int>(tokenizer.encode(text).ids.size());
  } catch (const InputError&) {
    return INT_MAX;
  }
}

// Where a start of the text may end, up to `end`: before each space (or at each character),
// and at `end` when that is the text's end.
std::vector<std::size_t> cut_points(std::string_view text, std::size_t end, bool at_spaces) {
  std::vector<std::size_t> points;
  for (std::size_t i = 0; i < end;) {
    if (i > 0 && (!at_spaces || text[i] == ' ')) points.push_back(i);
    const std::optional<utf8::Decoded> decoded = utf8::decode_at(text, i);
    i += decoded ? decoded->length : 1;
  }
  if (end == text.size()) points.push_back(end);
  return points;
}

// The last point whose start of the text fits, when one does (counts grow with the prefix),
// and the count of the start one point longer: a number when that start was too long, INT_MAX
// when the tokenizer refused it for another reason.
struct Fitting {
  std::optional<TextCut> cut;
  int next_tokens = INT_MAX;
};

Fitting last_fitting(const tokenizers::Tokenizer& tokenizer, std::string_view text,
                     const std::vector<std::size_t>& points, int limit) {
  Fitting fitting;
  std::size_t low = 0;
  std::size_t high = points.size();
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    const std::string_view start = text.substr(0, points[middle]);
    const int tokens = token_count(tokenizer, start);
    if (tokens <= limit) {
      fitting.cut = TextCut{std::string(start), tokens};
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (high < points.size()) fitting.next_tokens = token_count(tokenizer, text.substr(0, points[high]));
  return fitting;
}

bool valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::optional<utf8::Decoded> decoded = utf8::decode_at(text, i);
    if (!decoded) return false;
    i += decoded->length;
  }
  return true;
}

}  // namespace

int token_limit(const ModelConfig& config, int kept_layers) {
  long long limit = tokenizers::kMaxModelTokens;
  if (const std::optional<int> positions = config.position_limit()) limit = std::min<long long>(limit, *positions);
  // The forward pass refuses kept_attention_cells(…) > kMaxKeptCells.
  const long long cells_per_token_pair = kept_attention_cells(kept_layers, std::max(config.num_heads, 1), 1);
  const auto largest = static_cast<long long>(std::sqrt(static_cast<double>(kMaxKeptCells / cells_per_token_pair)));
  return static_cast<int>(std::min(limit, largest));
}

std::optional<TextCut> cut_to_token_limit(const tokenizers::Tokenizer& tokenizer, std::string_view text, int limit) {
  if (limit <= 0) return std::nullopt;
  std::size_t searched = std::min(text.size(), static_cast<std::size_t>(limit) * kMaxTokenBytes);
  while (searched < text.size() && (static_cast<unsigned char>(text[searched]) & 0xC0) == 0x80)
    --searched;  // a character's start
  if (!valid_utf8(text.substr(0, searched))) return std::nullopt;
  Fitting fitting = last_fitting(tokenizer, text, cut_points(text, searched, true), limit);
  if (!fitting.cut || fitting.cut->text.empty()) {  // the first word alone is too long
    const std::size_t first_word_end = std::min(text.find(' ', 1), searched);
    fitting = last_fitting(tokenizer, text, cut_points(text, first_word_end, false), limit);
  }
  // Whole and within the limit, nothing that fits, or refused for more than its length.
  if (!fitting.cut || fitting.cut->text.empty() || fitting.cut->text.size() == text.size()) return std::nullopt;
  if (fitting.next_tokens == INT_MAX) return std::nullopt;
  return fitting.cut;
}

}  // namespace attnviz::model
