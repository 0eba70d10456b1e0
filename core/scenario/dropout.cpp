#include "core/scenario/dropout.h"

#include <cmath>

namespace attnviz {
namespace {

std::uint32_t rotate_left(std::uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

// MurmurHash3_x86_32's body step (Appleby 2011) for one 4-byte block.
std::uint32_t mix_block(std::uint32_t h, std::uint32_t k) {
  k *= 0xcc9e2d51u;
  k = rotate_left(k, 15);
  k *= 0x1b873593u;
  h ^= k;
  h = rotate_left(h, 13);
  return h * 5u + 0xe6546b64u;
}

std::uint32_t finalise(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

}  // namespace

std::uint32_t dropout_hash(std::uint64_t seed, int head, int query, int key) {
  std::uint32_t h = 0;
  h = mix_block(h, static_cast<std::uint32_t>(seed & 0xffffffffu));
  h = mix_block(h, static_cast<std::uint32_t>(seed >> 32));
  h = mix_block(h, static_cast<std::uint32_t>(head));
  h = mix_block(h, static_cast<std::uint32_t>(query));
  h = mix_block(h, static_cast<std::uint32_t>(key));
  h ^= 20u;  // the length in bytes
  return finalise(h);
}

DropoutRule dropout_rule(const std::optional<DropoutSetting>& setting) {
  DropoutRule rule;
  if (!setting) return rule;
  rule.active = true;
  rule.seed = setting->seed;
  // p < 1, so p · 2³² < 2³² fits; floor, so p = 0 drops nothing.
  rule.threshold = static_cast<std::uint32_t>(std::floor(setting->p * 4294967296.0));
  rule.keep_scale = static_cast<float>(1.0 / (1.0 - setting->p));
  return rule;
}

}  // namespace attnviz
