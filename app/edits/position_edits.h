#pragma once
// Edits of where positions enter attention and of dropout on the weights (docs/design.md
// "Positions", "Dropout"): pure functions of a Scenario, clamped into the ranges the core
// accepts, so the Model panel's controls always make a valid scenario (except RoPE on an odd
// d_k, which the panel reports and offers to fix with even_d_k).

#include <cstdint>
#include <optional>
#include <string>

#include "core/scenario/scenario.h"

namespace attnviz::edits {

// "none (a bag of words)", "sinusoidal (added to X)", "RoPE (turns q and k)", "ALiBi (distance penalty)".
std::string positional_label(PositionalKind kind);

Scenario set_positional(Scenario s, PositionalKind kind);
// θ clamped into [kMinRopeTheta, kMaxRopeTheta]; a value that is not finite leaves s unchanged.
inline constexpr double kMinRopeTheta = 1.0;
inline constexpr double kMaxRopeTheta = 1e9;
Scenario set_rope_theta(Scenario s, double theta);
// The first token's position, clamped into [0, kMaxPositionOffset].
Scenario set_position_offset(Scenario s, int offset);
// RoPE turns pairs: the nearest even d_k at or above d_k (d_k + 1 for an odd one).
int even_d_k(int d_k);

// Dropout on (p, seed) or off (nullopt). p is clamped into [0, kMaxDropoutP].
inline constexpr double kMaxDropoutP = 0.95;
Scenario set_dropout(Scenario s, std::optional<DropoutSetting> dropout);
Scenario set_dropout_p(Scenario s, double p);               // turns dropout on if it was off
Scenario set_dropout_seed(Scenario s, std::uint64_t seed);  // turns dropout on if it was off

}  // namespace attnviz::edits
