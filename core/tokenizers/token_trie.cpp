#include "core/tokenizers/token_trie.h"

#include <algorithm>

namespace attnviz::tokenizers {

TokenTrie::TokenTrie(std::vector<std::pair<std::string, int>> entries) {
  std::erase_if(entries, [](const auto& entry) { return entry.first.empty(); });
  // Sorted, the strings under each node are one run and its edges come out in byte order
  // (std::string compares bytes as unsigned char); stable, the first of equal strings leads.
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  nodes_.emplace_back();
  // Built breadth first with an explicit list of work, not recursion: an added token may be
  // megabytes long.
  struct Work {
    std::size_t begin;
    std::size_t end;
    std::size_t depth;
    std::uint32_t node;
  };
  std::vector<Work> work{{0, entries.size(), 0, 0}};
  while (!work.empty()) {
    Work item = work.back();
    work.pop_back();
    // Strings that end here sort first among those sharing this prefix.
    if (item.begin < item.end && entries[item.begin].first.size() == item.depth) {
      nodes_[item.node].id = entries[item.begin].second;
      while (item.begin < item.end && entries[item.begin].first.size() == item.depth) ++item.begin;
    }
    nodes_[item.node].first_edge = static_cast<std::uint32_t>(edge_bytes_.size());
    for (std::size_t group = item.begin; group < item.end;) {
      const char byte = entries[group].first[item.depth];
      std::size_t next = group;
      while (next < item.end && entries[next].first[item.depth] == byte) ++next;
      const auto child = static_cast<std::uint32_t>(nodes_.size());
      nodes_.emplace_back();
      edge_bytes_.push_back(static_cast<unsigned char>(byte));
      edge_targets_.push_back(child);
      ++nodes_[item.node].edge_count;
      work.push_back({group, next, item.depth + 1, child});
      group = next;
    }
  }
}

std::optional<TokenTrie::Match> TokenTrie::longest_prefix(std::string_view text) const {
  std::optional<Match> best;
  if (nodes_.empty()) return best;
  std::uint32_t node = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const Node& here = nodes_[node];
    const auto first = edge_bytes_.begin() + here.first_edge;
    const auto last = first + here.edge_count;
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto edge = std::lower_bound(first, last, byte);
    if (edge == last || *edge != byte) break;
    node = edge_targets_[static_cast<std::size_t>(edge - edge_bytes_.begin())];
    if (nodes_[node].id >= 0) best = Match{nodes_[node].id, i + 1};
  }
  return best;
}

}  // namespace attnviz::tokenizers
