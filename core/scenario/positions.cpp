#include "core/scenario/positions.h"

#include <cmath>

#include "core/scenario/problem.h"

namespace attnviz {

const char* to_string(PositionalKind kind) {
  switch (kind) {
    case PositionalKind::None: return "none";
    case PositionalKind::Sinusoidal: return "sinusoidal";
    case PositionalKind::Rope: return "rope";
    case PositionalKind::Alibi: return "alibi";
  }
  return "none";
}

std::optional<PositionalKind> positional_kind_from_string(std::string_view name) {
  for (const PositionalKind kind :
       {PositionalKind::None, PositionalKind::Sinusoidal, PositionalKind::Rope, PositionalKind::Alibi}) {
    if (name == to_string(kind)) return kind;
  }
  return std::nullopt;
}

Matrix sinusoidal_table(int first_position, int count, int d_model) {
  Matrix table(count, d_model);
  for (int r = 0; r < count; ++r) {
    const double pos = static_cast<double>(first_position) + r;
    for (int c = 0; c < d_model; ++c) {
      const int two_i = c - c % 2;
      const double angle = pos / std::pow(10000.0, static_cast<double>(two_i) / d_model);
      table.at(r, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  }
  return table;
}

std::vector<double> rope_frequencies(int d_k, double theta) {
  std::vector<double> frequencies(static_cast<std::size_t>(d_k / 2));
  for (int i = 0; i < d_k / 2; ++i) frequencies[static_cast<std::size_t>(i)] = std::pow(theta, -2.0 * i / d_k);
  return frequencies;
}

Matrix rope_table(int first_position, int count, int d_k, double theta) {
  const int half = d_k / 2;
  const std::vector<double> frequencies = rope_frequencies(d_k, theta);
  Matrix table(count, 2 * half);
  for (int r = 0; r < count; ++r) {
    const double pos = static_cast<double>(first_position) + r;
    for (int i = 0; i < half; ++i) {
      const double angle = pos * frequencies[static_cast<std::size_t>(i)];
      table.at(r, i) = static_cast<float>(std::cos(angle));
      table.at(r, half + i) = static_cast<float>(std::sin(angle));
    }
  }
  return table;
}

void rope_rotate(float* row, const float* table_row, int d_k) {
  const int half = d_k / 2;
  for (int i = 0; i < half; ++i) {
    const float c = table_row[i];
    const float s = table_row[half + i];
    const float a = row[i];
    const float b = row[half + i];
    row[i] = a * c - b * s;
    row[half + i] = b * c + a * s;
  }
}

double alibi_slope(int head, int heads) {
  int power = 1;
  while (power * 2 <= heads) power *= 2;
  if (head < power) return std::exp2(-8.0 * (head + 1) / power);
  // Every other slope of 2·power heads: 2^(−8(2k+1)/(2·power)) for k = head − power.
  return std::exp2(-8.0 * (2 * (head - power) + 1) / (2.0 * power));
}

std::vector<float> head_slopes(const Problem& problem) {
  std::vector<float> slopes(static_cast<std::size_t>(problem.num_heads), 0.0f);
  if (problem.positional != PositionalKind::Alibi) return slopes;
  for (int h = 0; h < problem.num_heads; ++h)
    slopes[static_cast<std::size_t>(h)] = static_cast<float>(alibi_slope(h, problem.num_heads));
  return slopes;
}

Matrix problem_rope_table(const Problem& problem) {
  if (problem.positional != PositionalKind::Rope) return Matrix();
  return rope_table(problem.position_offset, std::max(problem.n(), problem.m()), problem.d_k, problem.rope_theta);
}

}  // namespace attnviz
