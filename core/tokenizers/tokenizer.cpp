#include "core/tokenizers/tokenizer.h"

#include <algorithm>

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

}  // namespace attnviz::tokenizers
