#include "core/scenario/generate.h"

#include <cmath>

namespace attnviz {
namespace {

// FNV-1a, 64 bit: hashes the name of what is generated (token text, matrix name, shape).
class Fnv1a64 {
 public:
  void bytes(std::string_view data) {
    for (const char c : data) {
      state_ ^= static_cast<unsigned char>(c);
      state_ *= 0x100000001b3ULL;
    }
  }
  // Little-endian bytes, so the hash does not depend on the machine's byte order.
  void u64(std::uint64_t value) {
    for (int i = 0; i < 8; ++i) {
      state_ ^= (value >> (8 * i)) & 0xFFu;
      state_ *= 0x100000001b3ULL;
    }
  }
  [[nodiscard]] std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

// SplitMix64 (Steele, Lea, Flood 2014): a tiny, well-mixed generator with a 64-bit state.
class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Approximately N(0, 1) by the Irwin–Hall sum of twelve uniforms minus 6 (mean 0, variance
  // exactly 1, tails cut at ±6). Only exact integer and double additions are involved, so
  // every platform produces the same bits; Box–Muller would need log and cos, whose last
  // bits differ between maths libraries.
  double standard_normal() {
    std::uint64_t sum = 0;
    for (int i = 0; i < 12; ++i) sum += next() >> 40;  // 24-bit uniforms
    return static_cast<double>(sum) * 0x1.0p-24 - 6.0;
  }

 private:
  std::uint64_t state_;
};

}  // namespace

std::vector<float> generate_embedding(std::string_view token, std::uint64_t seed, int d_model) {
  Fnv1a64 hash;
  hash.bytes("attnviz-embedding");
  hash.u64(seed);
  hash.u64(static_cast<std::uint64_t>(d_model));
  hash.bytes(token);
  SplitMix64 random(hash.value());
  std::vector<float> values(static_cast<std::size_t>(d_model));
  for (float& v : values) v = static_cast<float>(random.standard_normal());
  return values;
}

Matrix generate_embeddings(const std::vector<std::string>& tokens, std::uint64_t seed, int d_model) {
  Matrix x(static_cast<int>(tokens.size()), d_model);
  for (int r = 0; r < x.rows; ++r) {
    const std::vector<float> row = generate_embedding(tokens[static_cast<std::size_t>(r)], seed, d_model);
    std::copy(row.begin(), row.end(), x.row(r));
  }
  return x;
}

Matrix generate_weight(std::uint64_t seed, std::string_view name, int rows, int cols) {
  Fnv1a64 hash;
  hash.bytes("attnviz-weight");
  hash.u64(seed);
  hash.u64(static_cast<std::uint64_t>(rows));
  hash.u64(static_cast<std::uint64_t>(cols));
  hash.bytes(name);
  SplitMix64 random(hash.value());
  // Standard deviation 1/√rows keeps X·W at unit variance for unit-variance X (sqrt is
  // correctly rounded by IEEE 754, so this stays bit-identical everywhere).
  const double std_dev = 1.0 / std::sqrt(static_cast<double>(rows));
  Matrix w(rows, cols);
  for (float& v : w.data) v = static_cast<float>(random.standard_normal() * std_dev);
  return w;
}

}  // namespace attnviz
