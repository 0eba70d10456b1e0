#pragma once
// The choices a structure-aware fuzz target reads from libFuzzer's bytes: the target builds a
// well-formed file around them (a GGUF or safetensors model whose sizes agree), and the bytes
// decide where it departs from well-formed, and how. Mutating one byte changes one decision, so
// libFuzzer reaches the checks deep inside a model load that random bytes never get past.

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>

namespace attnviz::fuzzing {

// Sizes and counts a reader must refuse or survive: zero, one, odd, the edges of the integer
// widths, and products that wrap to zero in 32 bits (65,536²).
inline constexpr std::uint64_t kInterestingSizes[] = {
    0,          1,          2,          3,          7,
    31,         32,         64,         1024,       65535,
    65536,      65537,      1u << 20,   1u << 24,   0x7FFFFFFF,
    0x80000000, 0xFFFFFFFF, 1ull << 32, 1ull << 62, std::numeric_limits<std::uint64_t>::max()};

class Choices {
 public:
  Choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}

  // The next byte; zeros once the input is spent (the well-formed choice everywhere).
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : byte() % n; }
  // Mostly `usual`; now and then one of the interesting sizes.
  std::uint64_t size_or(std::uint64_t usual) {
    const std::uint8_t b = byte();
    if (b < 224) return usual;
    return kInterestingSizes[b % std::size(kInterestingSizes)];
  }
  bool rarely() { return byte() >= 240; }
  template <typename T>
  T one_of(std::initializer_list<T> values) {
    return values.begin()[below(values.size())];
  }
  // The rest of the input, for tensor data.
  std::span<const std::uint8_t> rest() {
    const std::span<const std::uint8_t> r(data_ + at_, size_ - at_);
    at_ = size_;
    return r;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

}  // namespace attnviz::fuzzing
