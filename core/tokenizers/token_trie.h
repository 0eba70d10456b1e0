#pragma once
// The longest of many strings that a text starts with, in time that grows with the match, not
// with how many strings there are: a tokenizer.json's added tokens (100,000 of them were
// compared one by one at every character: 13 s for 64 KB of text) and WordPiece's vocabulary
// (its greedy longest match tried every end of a word: quadratic in the word's length).
//
// A trie over bytes, stored flat: each node's edges are a sorted run of (byte, child) pairs.
// Strings that are UTF-8 text match a UTF-8 text only at its character boundaries when the
// search starts at one.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz::tokenizers {

class TokenTrie {
 public:
  struct Match {
    int id = -1;
    std::size_t length = 0;  // bytes of the text it covers
  };

  TokenTrie() = default;
  // (string, id) pairs; of equal strings the first given wins; empty strings are left out.
  explicit TokenTrie(std::vector<std::pair<std::string, int>> entries);

  // The longest string `text` starts with, if any.
  [[nodiscard]] std::optional<Match> longest_prefix(std::string_view text) const;
  [[nodiscard]] bool empty() const { return nodes_.size() <= 1; }

 private:
  struct Node {
    std::uint32_t first_edge = 0;
    std::uint32_t edge_count = 0;
    int id = -1;
  };
  std::vector<Node> nodes_;
  std::vector<unsigned char> edge_bytes_;
  std::vector<std::uint32_t> edge_targets_;
};

}  // namespace attnviz::tokenizers
