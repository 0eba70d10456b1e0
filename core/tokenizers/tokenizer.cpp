#include "core/tokenizers/tokenizer.h"

#include <algorithm>

#include "core/common/error.h"

namespace attnviz::tokenizers {

std::vector<std::string> Tokenizer::labels(std::span<const int> ids) const {
  std::vector<std::string> out;
  out.reserve(ids.size());
  for (const int id : ids) out.push_back(label(id));
  return out;
}

std::string Tokenizer::label_after(std::span<const int> before, int id) const {
  // A character is at most 4 bytes and a text token at least 1, so the 3 tokens before hold every
  // byte of a character this one finishes.
  const std::span<const int> near = before.last(std::min<std::size_t>(before.size(), 3));
  std::vector<int> ids(near.begin(), near.end());
  ids.push_back(id);
  return labels(ids).back();
}

void throw_too_many_tokens(const std::string& where, std::size_t count, int max_tokens, bool stopped,
                           const std::string& why) {
  const std::string limit = std::to_string(max_tokens);
  throw InputError("<text>", where,
                   (stopped ? "makes more than " + limit : "makes " + std::to_string(count)) + " tokens" + why +
                       "; at most " + limit + " are computed");
}

bool surely_too_many_tokens(std::size_t bytes, std::size_t max_token_bytes, int max_tokens) {
  if (max_token_bytes == 0 || max_tokens < 0) return false;
  const std::size_t fewest = bytes / max_token_bytes + (bytes % max_token_bytes != 0 ? 1 : 0);
  return fewest > static_cast<std::size_t>(max_tokens);
}

}  // namespace attnviz::tokenizers
