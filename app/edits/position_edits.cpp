#include "app/edits/position_edits.h"

#include <algorithm>
#include <cmath>

#include "app/i18n/translate.h"
#include "core/scenario/scenario_checks.h"

namespace attnviz::edits {

std::string positional_label(PositionalKind kind) {
  switch (kind) {
    case PositionalKind::None: return i18n::tr("none (a bag of words)");
    case PositionalKind::Sinusoidal: return i18n::tr("sinusoidal (added to X)");
    case PositionalKind::Rope: return i18n::tr("RoPE (turns q and k)");
    case PositionalKind::Alibi: return i18n::tr("ALiBi (distance penalty)");
  }
  return "";
}

Scenario set_positional(Scenario s, PositionalKind kind) {
  s.positional = kind;
  return s;
}

Scenario set_rope_theta(Scenario s, double theta) {
  if (!std::isfinite(theta)) return s;
  s.rope_theta = std::clamp(theta, kMinRopeTheta, kMaxRopeTheta);
  return s;
}

Scenario set_position_offset(Scenario s, int offset) {
  s.position_offset = std::clamp(offset, 0, kMaxPositionOffset);
  return s;
}

int even_d_k(int d_k) { return d_k % 2 == 0 ? d_k : d_k + 1; }

Scenario set_dropout(Scenario s, std::optional<DropoutSetting> dropout) {
  if (dropout) dropout->p = std::isfinite(dropout->p) ? std::clamp(dropout->p, 0.0, kMaxDropoutP) : 0.0;
  s.dropout = dropout;
  return s;
}

Scenario set_dropout_p(Scenario s, double p) {
  DropoutSetting dropout = s.dropout.value_or(DropoutSetting{});
  dropout.p = p;
  return set_dropout(std::move(s), dropout);
}

Scenario set_dropout_seed(Scenario s, std::uint64_t seed) {
  DropoutSetting dropout = s.dropout.value_or(DropoutSetting{});
  dropout.seed = seed;
  return set_dropout(std::move(s), dropout);
}

}  // namespace attnviz::edits
