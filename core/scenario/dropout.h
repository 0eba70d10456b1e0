#pragma once
// Dropout on the attention weights (docs/design.md "Dropout"): which weights are dropped is a
// pure function of (seed, query head, query, key), the same on every backend and in the
// reference script:
//   hash = MurmurHash3_x86_32 (seed 0) of five little-endian uint32 words:
//          seed & 0xffffffff, seed >> 32, head, query, key
//   kept  ⇔  hash ≥ ⌊p · 2³²⌋
// Kept weights are multiplied by the float32 nearest 1 / (1 − p); dropped ones become 0.

#include <cstdint>
#include <optional>

#include "core/scenario/scenario.h"

namespace attnviz {

std::uint32_t dropout_hash(std::uint64_t seed, int head, int query, int key);

struct DropoutRule {
  bool active = false;          // a dropout setting is present (p may still be 0)
  std::uint32_t threshold = 0;  // ⌊p · 2³²⌋: hashes below it are dropped
  std::uint64_t seed = 0;
  float keep_scale = 1.0f;  // 1 / (1 − p), rounded to float32

  [[nodiscard]] bool keeps(int head, int query, int key) const {
    return !active || dropout_hash(seed, head, query, key) >= threshold;
  }
  [[nodiscard]] std::uint32_t seed_low() const { return static_cast<std::uint32_t>(seed & 0xffffffffu); }
  [[nodiscard]] std::uint32_t seed_high() const { return static_cast<std::uint32_t>(seed >> 32); }
};

DropoutRule dropout_rule(const std::optional<DropoutSetting>& setting);

}  // namespace attnviz
