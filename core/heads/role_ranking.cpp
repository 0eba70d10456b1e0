#include "core/heads/role_ranking.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "core/common/wording.h"

namespace attnviz::heads {

const char* role_name(Role role) {
  switch (role) {
    case Role::PreviousToken: return N_("previous token");
    case Role::FirstToken: return N_("first token");
    case Role::Self: return N_("self");
    case Role::Induction: return N_("induction");
    case Role::Duplicate: return N_("duplicate token");
    case Role::Entropy: return N_("entropy");
    case Role::MeanDistance: return N_("mean distance");
  }
  return "";
}

const char* role_key(Role role) {
  switch (role) {
    case Role::PreviousToken: return "previous_token";
    case Role::FirstToken: return "first_token";
    case Role::Self: return "self";
    case Role::Induction: return "induction";
    case Role::Duplicate: return "duplicate";
    case Role::Entropy: return "entropy";
    case Role::MeanDistance: return "mean_distance";
  }
  return "";
}

std::optional<double> role_value(const HeadScores& s, Role role) {
  std::optional<double> value;
  switch (role) {
    case Role::PreviousToken: value = s.previous_token; break;
    case Role::FirstToken: value = s.first_token; break;
    case Role::Self: value = s.self; break;
    case Role::Induction: value = s.induction; break;
    case Role::Duplicate: value = s.duplicate; break;
    case Role::Entropy: value = s.entropy; break;
    case Role::MeanDistance: value = s.mean_distance; break;
  }
  if (value && !std::isfinite(*value)) value.reset();
  return value;
}

std::pair<double, double> role_scale(const LayerRoles& roles, Role role) {
  if (role != Role::Entropy && role != Role::MeanDistance) return {0.0, 1.0};
  double largest = 0.0;
  for (const std::vector<HeadScores>& layer : roles)
    for (const HeadScores& head : layer) largest = std::max(largest, role_value(head, role).value_or(0.0));
  return {0.0, largest > 0.0 ? largest : 1.0};
}

std::vector<RankedHead> strongest_heads(const LayerRoles& roles, Role role, int count) {
  std::vector<RankedHead> ranked;
  for (std::size_t l = 0; l < roles.size(); ++l) {
    for (std::size_t h = 0; h < roles[l].size(); ++h) {
      if (const std::optional<double> v = role_value(roles[l][h], role))
        ranked.push_back({static_cast<int>(l), static_cast<int>(h), *v});
    }
  }
  // Stable: equal values keep the layer-then-head order they were pushed in.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const RankedHead& a, const RankedHead& b) { return a.value > b.value; });
  if (count >= 0 && ranked.size() > static_cast<std::size_t>(count)) ranked.resize(static_cast<std::size_t>(count));
  return ranked;
}

std::vector<std::pair<int, int>> role_key_cells(Role role, const std::vector<int>& ids, std::size_t limit) {
  std::vector<std::pair<int, int>> cells;
  const int n = static_cast<int>(ids.size());
  const auto add = [&](int query, int key) {
    if (cells.size() < limit) cells.emplace_back(query, key);
  };
  if (role == Role::Induction || role == Role::Duplicate) {
    // Each id's earlier positions, so that a long text is read once rather than once per query.
    std::map<int, std::vector<int>> seen;
    const int after = role == Role::Induction ? 1 : 0;
    for (int i = 0; i < n && cells.size() < limit; ++i) {
      std::vector<int>& earlier = seen[ids[static_cast<std::size_t>(i)]];
      for (const int j : earlier)
        if (j + after <= i) add(i, j + after);
      earlier.push_back(i);
    }
    return cells;
  }
  if (role == Role::Entropy || role == Role::MeanDistance) return cells;
  for (int i = 1; i < n && cells.size() < limit; ++i) {
    if (role == Role::PreviousToken) add(i, i - 1);
    if (role == Role::FirstToken) add(i, 0);
    if (role == Role::Self) add(i, i);
  }
  return cells;
}

}  // namespace attnviz::heads
