#pragma once
// The online softmax of one query row (Milakov & Gimelshein 2018; FlashAttention-2, Dao 2023,
// algorithm 1): the keys arrive a block at a time, and the row keeps only
//   m   the largest scaled visible score seen so far (−∞ before any),
//   l   Σ exp(s − m) over the visible scores seen so far,
//   O   Σ exp(s − m) · v over them (unnormalised, d_v values).
// A block whose largest score beats m moves m up; l and O were summed against the old m, so
// they are multiplied by exp(m_old − m_new) before the block's terms are added. At the end
// O / l is the row of softmax(S)·V; a row that saw nothing keeps l = 0 and gives 0.

#include <cmath>
#include <limits>

namespace attnviz::tiled {

inline constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

struct RowState {
  float m = kMinusInfinity;
  float l = 0.0f;
};

// exp(m_old − m_new), the factor l and O are rescaled by: 0 when the first visible score
// arrives (m_old = −∞; l and O are 0 anyway), 1 while the row has seen nothing (both −∞,
// where the difference would be NaN).
inline float rescale_factor(float m_old, float m_new) {
  if (m_new == kMinusInfinity) return 1.0f;
  return std::exp(m_old - m_new);
}

// exp(s − m) of a scaled score against the row's current maximum; 0 for a masked one (−∞).
inline float shifted_exp(float scaled_score, float m) {
  if (scaled_score == kMinusInfinity) return 0.0f;
  return std::exp(scaled_score - m);
}

// The row of the context: O / l, or 0 for a row that saw no key (never NaN).
inline float normalised(float o, float l) { return l > 0.0f ? o / l : 0.0f; }

}  // namespace attnviz::tiled
