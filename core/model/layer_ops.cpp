#include "core/model/layer_ops.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>
#include <numbers>

#include "core/common/error.h"

namespace attnviz::model {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstStrided = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;
using MutableMap = Eigen::Map<RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;

// y = x·Wᵀ for W stored in rows of another type: blocks of output rows are dequantised into a
// scratch buffer that stays in the cache and multiplied at once, the blocks shared out among
// the threads (Eigen runs single-threaded inside the parallel region).
void apply_stored_rows(const ConstMap& input, const Linear& w, MutableMap& output) {
  const int rows_per_block = std::clamp((1 << 16) / std::max(w.in, 1), 8, 256);  // ~256 KiB of floats
  const int blocks = (w.out + rows_per_block - 1) / rows_per_block;
  int bad_row = -1;  // a row holding a value that is not finite (a damaged file): reported after the loop
#pragma omp parallel
  {
    std::vector<float> scratch(static_cast<std::size_t>(rows_per_block) * static_cast<std::size_t>(w.in));
#pragma omp for schedule(dynamic) reduction(max : bad_row)
    for (int b = 0; b < blocks; ++b) {
      const int first = b * rows_per_block;
      const int rows = std::min(rows_per_block, w.out - first);
      for (int r = 0; r < rows; ++r) w.stored.row(first + r, w.in, scratch.data() + static_cast<long>(r) * w.in);
      if (!all_finite(scratch.data(), static_cast<std::size_t>(rows) * static_cast<std::size_t>(w.in)))
        bad_row = std::max(bad_row, first);
      output.middleCols(first, rows).noalias() = input * ConstMap(scratch.data(), rows, w.in).transpose();
    }
  }
  if (bad_row >= 0) {
    throw InputError(w.stored.file ? *w.stored.file : "<model>", w.stored.name ? *w.stored.name : "weights",
                     "holds a value that is not a finite number (in rows " + std::to_string(bad_row) + " to " +
                         std::to_string(std::min(bad_row + rows_per_block, w.out) - 1) + ")");
  }
}

// y = x·Wᵀ (or x·W) for a wide float W (an unembedding: 50,257 to 128,256 outputs), its
// columns shared out among the threads in slices, each slice a single-threaded Eigen product.
// Eigen's own threading of one product this wide runs at 85-140 GFLOP/s on the 2-core machine
// (it packs and rereads the whole matrix); slices run at ~210 (README, "What the heads do").
void apply_wide(const ConstMap& input, const Linear& w, MutableMap& output) {
  constexpr int kSlice = 2048;  // columns: a slice of GPT-2's unembedding is 6 MB
  const int slices = (w.out + kSlice - 1) / kSlice;
#pragma omp parallel for schedule(dynamic)
  for (int s = 0; s < slices; ++s) {
    const int first = s * kSlice;
    const int count = std::min(kSlice, w.out - first);
    if (w.out_by_in) {
      output.middleCols(first, count).noalias() = input * ConstStrided(w.weight + static_cast<long>(first) * w.stride,
                                                                       count, w.in, Eigen::OuterStride<>(w.stride))
                                                              .transpose();
    } else {
      output.middleCols(first, count).noalias() =
          input * ConstStrided(w.weight + first, w.in, count, Eigen::OuterStride<>(w.stride));
    }
  }
}

}  // namespace

bool all_finite(const float* values, std::size_t count) {
  std::uint32_t any = 0;
  for (std::size_t i = 0; i < count; ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, values + i, 4);
    any |= static_cast<std::uint32_t>((bits & 0x7F800000u) == 0x7F800000u);
  }
  return any == 0;
}

int first_non_finite_row(const Matrix& m) {
  if (all_finite(m.data.data(), m.data.size())) return -1;
  for (int r = 0; r < m.rows; ++r) {
    if (!all_finite(m.row(r), static_cast<std::size_t>(m.cols))) return r;
  }
  return -1;
}

void apply_linear_rows(const Matrix& x, int first, int count, const Linear& w, Matrix& y) {
  y.reshape(count, w.out);
  const ConstMap input(x.row(first), count, x.cols);
  MutableMap output(y.data.data(), count, w.out);
  constexpr int kWide = 16384;  // outputs: only unembeddings are this wide in the models we read
  if (!w.weight) {
    apply_stored_rows(input, w, output);
  } else if (w.out >= kWide) {
    apply_wide(input, w, output);
  } else if (w.out_by_in) {
    output.noalias() = input * ConstStrided(w.weight, w.out, w.in, Eigen::OuterStride<>(w.stride)).transpose();
  } else {
    output.noalias() = input * ConstStrided(w.weight, w.in, w.out, Eigen::OuterStride<>(w.stride));
  }
  if (w.bias) output.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(w.bias, w.out);
}

void apply_linear(const Matrix& x, const Linear& w, Matrix& y) { apply_linear_rows(x, 0, x.rows, w, y); }

void layer_norm(const Matrix& x, const Norm& norm, double eps, Matrix& y) {
  y.reshape(x.rows, x.cols);
  const Eigen::Map<const Eigen::ArrayXf> weight(norm.weight, x.cols);
  for (int r = 0; r < x.rows; ++r) {
    const Eigen::Map<const Eigen::ArrayXf> row(x.row(r), x.cols);
    const float mean = row.mean();
    const float variance = (row - mean).square().mean();
    const float inverse = 1.0f / std::sqrt(variance + static_cast<float>(eps));
    Eigen::Map<Eigen::ArrayXf> out(y.row(r), x.cols);
    out = (row - mean) * inverse * weight;
    if (norm.bias) out += Eigen::Map<const Eigen::ArrayXf>(norm.bias, x.cols);
  }
}

void rms_norm(const Matrix& x, const Norm& norm, double eps, Matrix& y) {
  y.reshape(x.rows, x.cols);
  const Eigen::Map<const Eigen::ArrayXf> weight(norm.weight, x.cols);
  for (int r = 0; r < x.rows; ++r) {
    const Eigen::Map<const Eigen::ArrayXf> row(x.row(r), x.cols);
    const float inverse = 1.0f / std::sqrt(row.square().mean() + static_cast<float>(eps));
    Eigen::Map<Eigen::ArrayXf>(y.row(r), x.cols) = row * inverse * weight;
  }
}

void gelu_tanh(Matrix& x) {
  // Eigen's vectorised tanh a chunk at a time: glibc's scalar tanhf was a third of GPT-2's pass
  // (64 tokens × 3,072 × 12 layers of it); core/train computes it the same way.
  constexpr long kChunk = 4096;
  const float k = std::sqrt(2.0f / std::numbers::pi_v<float>);
  const long n = static_cast<long>(x.data.size());
#pragma omp parallel for schedule(static) if (n >= 16 * kChunk)
  for (long first = 0; first < n; first += kChunk) {
    Eigen::Map<Eigen::ArrayXf> v(x.data.data() + first, std::min(kChunk, n - first));
    v = 0.5f * v * (1.0f + (k * (v + 0.044715f * v.cube())).tanh());
  }
}

void gelu_erf(Matrix& x) {
  for (float& v : x.data) v = 0.5f * v * (1.0f + std::erf(v / std::numbers::sqrt2_v<float>));
}

void silu_times(Matrix& gate, const Matrix& up) {
  constexpr long kChunk = 4096;  // Eigen's vectorised exp, as gelu_tanh's tanh
  const long n = static_cast<long>(gate.data.size());
#pragma omp parallel for schedule(static) if (n >= 16 * kChunk)
  for (long first = 0; first < n; first += kChunk) {
    const long count = std::min(kChunk, n - first);
    Eigen::Map<Eigen::ArrayXf> g(gate.data.data() + first, count);
    g = g / (1.0f + (-g).exp()) * Eigen::Map<const Eigen::ArrayXf>(up.data.data() + first, count);
  }
}

std::vector<double> rope_frequencies(const RopeSettings& rope) {
  const int half = rope.dims / 2;
  std::vector<double> frequencies(static_cast<std::size_t>(half));
  for (int i = 0; i < half; ++i) {
    double w = std::pow(rope.theta, -2.0 * i / rope.dims);
    if (rope.scaling == RopeSettings::Scaling::Linear) {
      w /= rope.factor;
    } else if (rope.scaling == RopeSettings::Scaling::Llama3) {
      // Llama 3.1's rule: long wavelengths slowed by `factor`, short ones kept, a blend between.
      const double wavelength = 2.0 * std::numbers::pi / w;
      const double low_wavelength = rope.original_max_positions / rope.low_freq_factor;
      const double high_wavelength = rope.original_max_positions / rope.high_freq_factor;
      if (wavelength > low_wavelength) {
        w /= rope.factor;
      } else if (wavelength >= high_wavelength) {
        const double smooth = (rope.original_max_positions / wavelength - rope.low_freq_factor) /
                              (rope.high_freq_factor - rope.low_freq_factor);
        w = (1.0 - smooth) * w / rope.factor + smooth * w;
      }
    }
    if (static_cast<std::size_t>(i) < rope.frequency_factors.size())
      w /= rope.frequency_factors[static_cast<std::size_t>(i)];
    frequencies[static_cast<std::size_t>(i)] = w;
  }
  return frequencies;
}

void rope_tables(const RopeSettings& rope, int positions, Matrix& cos, Matrix& sin) {
  const std::vector<double> frequencies = rope_frequencies(rope);
  const int half = static_cast<int>(frequencies.size());
  cos.reshape(positions, half);
  sin.reshape(positions, half);
  for (int p = 0; p < positions; ++p) {
    for (int i = 0; i < half; ++i) {
      // The angle in double: p·ω reaches thousands of radians, where float32 loses the phase.
      const double angle = p * frequencies[static_cast<std::size_t>(i)];
      cos.at(p, i) = static_cast<float>(std::cos(angle));
      sin.at(p, i) = static_cast<float>(std::sin(angle));
    }
  }
}

void apply_rope(Matrix& x, int heads, int head_dim, const Matrix& cos, const Matrix& sin) {
  const int half = head_dim / 2;
  for (int r = 0; r < x.rows; ++r) {
    const float* c = cos.row(r);
    const float* s = sin.row(r);
    for (int h = 0; h < heads; ++h) {
      float* v = x.row(r) + static_cast<long>(h) * head_dim;
      for (int i = 0; i < half; ++i) {
        const float a = v[i];
        const float b = v[i + half];
        v[i] = a * c[i] - b * s[i];
        v[i + half] = b * c[i] + a * s[i];
      }
    }
  }
}

}  // namespace attnviz::model
