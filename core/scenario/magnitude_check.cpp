#include "core/scenario/magnitude_check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/common/error.h"

namespace attnviz {
namespace {

// Well inside float32's largest value (3.4e38), so sums of bounded terms stay finite too.
constexpr double kLimit = 1e37;

double largest_row_norm(const Matrix& m) {
  double largest = 0.0;
  for (int r = 0; r < m.rows; ++r) {
    double sum = 0.0;
    for (int c = 0; c < m.cols; ++c) sum += static_cast<double>(m.at(r, c)) * m.at(r, c);
    largest = std::max(largest, std::sqrt(sum));
  }
  return largest;
}

// Frobenius norm of columns [first, first + count): bounds the 2-norm of that block.
double block_norm(const Matrix& m, int first, int count) {
  double sum = 0.0;
  for (int r = 0; r < m.rows; ++r) {
    for (int c = first; c < first + count; ++c) sum += static_cast<double>(m.at(r, c)) * m.at(r, c);
  }
  return std::sqrt(sum);
}

double largest_block_norm(const Matrix& m, int blocks, int width) {
  double largest = 0.0;
  for (int b = 0; b < blocks; ++b) largest = std::max(largest, block_norm(m, b * width, width));
  return largest;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value);
  return text;
}

struct Factor {
  const char* pointer;
  double size;
};

// The factor most to blame: the one furthest above 1.
const char* culprit(std::vector<Factor> factors) {
  return std::max_element(factors.begin(), factors.end(),
                          [](const Factor& a, const Factor& b) { return a.size < b.size; })
      ->pointer;
}

void refuse(const std::string& origin, const char* pointer, const std::string& what, double bound) {
  throw InputError(origin, pointer,
                   what + " can reach " + number(bound) +
                       ", beyond what float32 holds (3.4e+38): the scores would overflow to infinity. Make the "
                       "embeddings, weights or scale smaller");
}

}  // namespace

void check_magnitudes(const Problem& p, const std::string& origin) {
  const double x = largest_row_norm(p.x);
  const double xs = p.cross_attention ? largest_row_norm(p.xs) : x;
  const double wq = largest_block_norm(p.wq, p.num_heads, p.d_k);
  const double wk = largest_block_norm(p.wk, p.num_kv_heads, p.d_k);
  const double wv = largest_block_norm(p.wv, p.num_kv_heads, p.d_v);
  const double scale = std::max(1.0, std::fabs(static_cast<double>(p.scale)));
  const char* source_embeddings = p.cross_attention ? "/source/embeddings" : "/embeddings";

  const double q = x * wq;
  const double k = xs * wk;
  const double v = xs * wv;
  const double scores = scale * q * k;
  if (!(scores <= kLimit)) {
    refuse(origin, culprit({{"/embeddings", x}, {source_embeddings, xs}, {"/wq", wq}, {"/wk", wk}, {"/scale", scale}}),
           "scale · Q·Kᵀ (|X| " + number(x) + ", |W_Q| " + number(wq) + ", |W_K| " + number(wk) + ", scale " +
               number(p.scale) + ")",
           scores);
  }
  if (!(v <= kLimit)) refuse(origin, culprit({{source_embeddings, xs}, {"/wv", wv}}), "V = X·W_V", v);
  if (p.wo) {
    // Each context row is a convex combination of V rows; the concatenation has H of them.
    const double output = std::sqrt(static_cast<double>(p.num_heads)) * v * block_norm(*p.wo, 0, p.wo->cols);
    if (!(output <= kLimit)) refuse(origin, "/wo", "the output concat · W_O", output);
  }
}

}  // namespace attnviz
