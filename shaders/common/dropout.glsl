// Dropout's rule (docs/design.md "Dropout"), the same as attnviz::dropout_hash and
// DropoutRule::keeps (core/scenario/dropout.h): MurmurHash3_x86_32 (seed 0) of the five
// little-endian words (seed low, seed high, head, query, key); a weight is kept when the hash
// is at least threshold = floor(p · 2^32).
#ifndef ATTNVIZ_DROPOUT_GLSL
#define ATTNVIZ_DROPOUT_GLSL

uint dropout_rotl(uint x, int r) { return (x << r) | (x >> (32 - r)); }

uint dropout_mix(uint h, uint k) {
  k *= 0xcc9e2d51u;
  k = dropout_rotl(k, 15);
  k *= 0x1b873593u;
  h ^= k;
  h = dropout_rotl(h, 13);
  return h * 5u + 0xe6546b64u;
}

uint dropout_hash(uint seed_low, uint seed_high, int head, int query, int key) {
  uint h = 0u;
  h = dropout_mix(h, seed_low);
  h = dropout_mix(h, seed_high);
  h = dropout_mix(h, uint(head));
  h = dropout_mix(h, uint(query));
  h = dropout_mix(h, uint(key));
  h ^= 20u;
  h ^= h >> 16;
  h *= 0x85ebca6bu;
  h ^= h >> 13;
  h *= 0xc2b2ae35u;
  h ^= h >> 16;
  return h;
}

bool dropout_keeps(uint threshold, uint seed_low, uint seed_high, int head, int query, int key) {
  return dropout_hash(seed_low, seed_high, head, query, key) >= threshold;
}

#endif  // ATTNVIZ_DROPOUT_GLSL
