#pragma once
// Head roles as the window reads them (docs/design.md "What the heads do"): one role's value of
// every head, the scale a grid coloured by it uses, the heads sorted by it, and the cells of a
// text's attention that a head with the role attends to (the previous token; for induction the
// token after an earlier occurrence of the query's token), so that a view outlines them.

#include <array>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "core/heads/head_roles.h"

namespace attnviz::heads {

enum class Role : std::uint8_t { PreviousToken, FirstToken, Self, Induction, Duplicate, Entropy, MeanDistance };
inline constexpr std::array<Role, 7> kRoles = {Role::PreviousToken, Role::FirstToken, Role::Self,
                                               Role::Induction,     Role::Duplicate,  Role::Entropy,
                                               Role::MeanDistance};

// [kept layer][head], as head_roles() returns them.
using LayerRoles = std::vector<std::vector<HeadScores>>;

// The key attnviz heads writes the role under ("previous_token", "duplicate", ...).
const char* role_key(Role role);
// Its name for people, in English and marked for the window's catalogue ("previous token",
// "duplicate token"): the Model view and the exported figures translate it where they show it.
const char* role_name(Role role);
// The head's value of `role`; nullopt when it has none (induction on a text, a one-token text's
// previous token: NaN).
std::optional<double> role_value(const HeadScores& scores, Role role);

// The colour scale of a grid coloured by `role`: 0 to 1 for the roles that are a share of the
// weights (previous token … duplicate), so a weak head never looks strong because all are weak;
// 0 to the largest value for entropy (nats) and mean distance (tokens). {0, 1} when none has one.
std::pair<double, double> role_scale(const LayerRoles& roles, Role role);

struct RankedHead {
  int layer = 0;  // the index into LayerRoles (the kept layer)
  int head = 0;
  double value = 0.0;
};
// The `count` heads with the largest values of `role`, largest first (ties: the earlier layer,
// then head); heads without a value are left out.
std::vector<RankedHead> strongest_heads(const LayerRoles& roles, Role role, int count);

// The (query, key) cells of a text's attention (`ids`, causal or not) that `role` is read from:
// (i, i−1), (i, 0) or (i, i) for rows i ≥ 1; for induction (i, j+1) and for duplicate (i, j)
// for every earlier occurrence j < i of ids[i] (with j + 1 ≤ i); none for entropy and mean
// distance, which read whole rows. At most `limit` cells, in row order.
std::vector<std::pair<int, int>> role_key_cells(Role role, const std::vector<int>& ids, std::size_t limit = 65536);

}  // namespace attnviz::heads
