#pragma once
// The arithmetic of the Vulkan overview (overview_vulkan.cpp), apart so that it is tested
// without a device: which keys each dispatch walks, and where the workgroups of pass 2 leave
// their partial values (shaders/overview_pool.comp).

#include <span>
#include <vector>

#include "core/overview/overview.h"
#include "core/overview/pixel_grid.h"

namespace attnviz::overview::vulkan {

struct KeyRange {
  int begin = 0;
  int end = 0;
};

// Keys [first, end) in dispatches of at most `most` keys (a multiple of `tile`), their ends on
// pixel column boundaries (multiples of block_cols from `first`) whenever a column fits in one.
std::vector<KeyRange> key_ranges(int first, int end, int most, int tile, int block_cols);

// The most keys a dispatch may walk on a CPU device (llvmpipe ends any shader loop after
// 65,535 iterations; kept near 16,384): the dot products (dk4 per key) and, in pass 2, the
// pixel columns it flushes times the pixel rows a workgroup touches. GPUs take every key.
int cpu_device_keys(int dk4, int tile, int block_rows, int block_cols, int workgroup);

// Workgroups of `workgroup` consecutive rows over the window's rows; workgroup w touches pixel
// rows first .. first + count − 1 and writes their partials to slots w + first + k.
int partial_slots(const PixelGrid& grid, int workgroup);

// Folds the partials (partial_slots × grid.cols) into one value per pixel (max or sum, in
// double), the reductions finish_image() takes.
void fold_partials(const PixelGrid& grid, int workgroup, bool max, std::span<const float> partials,
                   std::vector<double>& reduced);

}  // namespace attnviz::overview::vulkan
