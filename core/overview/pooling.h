#pragma once
// What both overview runners share: the per-pixel reductions their score passes leave, and
// how the host turns them into the pooled image (docs/design.md "Overview").
//
// A runner reduces every visible cell of a pixel block into one number:
//   weights, max    the largest t = s − m_i − ln l_i (the image is exp(t), the largest weight)
//   weights, mean   Σ exp(t) = Σ of the block's weights
//   scores,  max    the largest (raw or scaled) score
//   scores,  mean   Σ of the scores
// Hidden cells are left out (a max starts at −∞, a sum at 0). finish_image() then divides the
// means (weights by the block's cell count: hidden cells weigh 0; scores by its visible cells)
// and marks the blocks the mask hides entirely.

#include <cstdint>
#include <span>
#include <vector>

#include "core/attention/mask.h"
#include "core/overview/overview.h"
#include "core/overview/pixel_grid.h"

namespace attnviz::overview {

// Does the pass reduce with max (else with a sum)?
inline bool reduces_max(Pooling pooling) { return pooling == Pooling::Max; }

// The per-row offset of the weights: weight = exp(s − offset) with offset = m + ln l; +∞ for a
// row that sees nothing (l = 0), so that every one of its cells gives exp(−∞) = 0.
float weight_offset(float m, float l);

// Every pixel block the mask hides entirely from head `head` (exact): 1 = hidden.
std::vector<std::uint8_t> hidden_blocks(const PixelGrid& grid, const Mask& mask, int head);

// The visible cells of every pixel block of head `head` (for the mean of scores).
std::vector<std::int64_t> visible_cells(const PixelGrid& grid, const Mask& mask, int head);

// Turns a runner's reductions into images: the hidden blocks (and, for the mean of scores, the
// visible cells per block) are worked out once per run, or once per head when the mask's
// expression reads h.
class ImageFinisher {
 public:
  ImageFinisher(const PixelGrid& grid, const Mask& mask, Quantity quantity, Pooling pooling);
  // `reduced` holds grid.pixels() values in the form above (double: sums of up to 2^32 cells
  // keep their digits).
  [[nodiscard]] PooledImage finish(int head, std::span<const double> reduced);

 private:
  void prepare(int head);

  PixelGrid grid_;
  const Mask* mask_;
  Quantity quantity_;
  Pooling pooling_;
  int prepared_set_ = -1;  // the mask's row set hidden_ and visible_ were made for
  std::vector<std::uint8_t> hidden_;
  std::vector<std::int64_t> visible_;
};

// The multiply-adds of d_k per score over the tiles of rows [i0, i1) × keys [j0, j1) in
// blocks of row_step × key_step that the mask does not hide entirely from head `head` (what a
// runner that skips hidden tiles computes).
std::int64_t visible_tile_macs(const Mask& mask, int head, int i0, int i1, int j0, int j1, int row_step, int key_step,
                               int d_k);

}  // namespace attnviz::overview
