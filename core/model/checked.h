#pragma once
// Sizes and offsets read from a model file are computed only through these: an overflow is
// the file's fault, reported as bad input naming the file and the field, never a wrap-around.

#include <cstdint>
#include <string>

#include "core/common/error.h"

namespace attnviz::model {

inline std::uint64_t checked_add(std::uint64_t a, std::uint64_t b, const std::string& file, const std::string& what) {
  std::uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) throw InputError(file, what, "offset or size overflows 64 bits");
  return sum;
}

inline std::uint64_t checked_mul(std::uint64_t a, std::uint64_t b, const std::string& file, const std::string& what) {
  std::uint64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) throw InputError(file, what, "size overflows 64 bits");
  return product;
}

}  // namespace attnviz::model
