#pragma once
// What one head's attention holds in memory, materialised against tiled (the Tiled view's
// memory line, docs/classroom.md "Tiled"):
//
//   dense   the N × M scores and the N × M weights: 2 · N · M values;
//   tiled   one query block at work: a Br × Bc tile of scores (exp'd in place into P), the
//           block's running m and l (Br each) and its unnormalised output O (Br × d_v).
//
// Q, K, V and the context (N × d_v) are the same for both and not counted. Edge blocks hold
// what is left (Br is at most N, Bc at most M). Sizes are per head, at `bytes_per_value`
// bytes per number (2 for fp16, 4 for the float32 attnviz computes with).

#include <cstdint>

namespace attnviz::tiled {

struct MemoryShape {
  std::uint64_t rows = 1;     // N queries
  std::uint64_t cols = 1;     // M keys
  std::uint64_t block_q = 1;  // Br
  std::uint64_t block_k = 1;  // Bc
  std::uint64_t d_v = 1;
  std::uint64_t bytes_per_value = 4;
};

struct HeadMemory {
  std::uint64_t dense_bytes = 0;      // scores + weights
  std::uint64_t tile_bytes = 0;       // Br × Bc
  std::uint64_t row_state_bytes = 0;  // m and l: 2 · Br
  std::uint64_t output_bytes = 0;     // O: Br × d_v
  [[nodiscard]] std::uint64_t tiled_bytes() const { return tile_bytes + row_state_bytes + output_bytes; }
};

// Throws std::invalid_argument for a zero size and std::overflow_error when the dense
// figure passes 2^64 − 1 bytes.
HeadMemory head_memory(const MemoryShape& shape);

// The sequence lengths the Tiled view compares the sentence with (d = 128, fp16).
inline constexpr std::uint64_t kLongContexts[] = {4096, 131072};
inline constexpr std::uint64_t kLongContextHeadDim = 128;
inline constexpr std::uint64_t kLongContextBytesPerValue = 2;

}  // namespace attnviz::tiled
