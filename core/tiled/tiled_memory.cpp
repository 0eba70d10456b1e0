#include "core/tiled/tiled_memory.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace attnviz::tiled {
namespace {

std::uint64_t times(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) {
    throw std::overflow_error("tiled memory: the size does not fit in 64 bits");
  }
  return a * b;
}

}  // namespace

HeadMemory head_memory(const MemoryShape& s) {
  if (s.rows == 0 || s.cols == 0 || s.block_q == 0 || s.block_k == 0 || s.d_v == 0 || s.bytes_per_value == 0) {
    throw std::invalid_argument("tiled memory: every size must be at least 1");
  }
  const std::uint64_t br = std::min(s.block_q, s.rows);
  const std::uint64_t bc = std::min(s.block_k, s.cols);
  HeadMemory memory;
  memory.dense_bytes = times(times(times(2, s.rows), s.cols), s.bytes_per_value);
  memory.tile_bytes = times(times(br, bc), s.bytes_per_value);
  memory.row_state_bytes = times(times(2, br), s.bytes_per_value);
  memory.output_bytes = times(times(br, s.d_v), s.bytes_per_value);
  return memory;
}

}  // namespace attnviz::tiled
