#pragma once
// Tensor elements to float32, from each type's definition (llama.cpp's ggml-common.h block
// layouts for the quantised ones; IEEE half and bfloat16 for the others).

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/model/tensor.h"

namespace attnviz::model {

float half_to_float(std::uint16_t bits);
float bfloat16_to_float(std::uint16_t bits);

// The first `count` elements held in `data` into `out`. count is a whole number of blocks and
// data holds at least those blocks (the readers check both when they read a header).
void dequantize(TensorType type, std::span<const std::byte> data, std::uint64_t count, float* out);

}  // namespace attnviz::model
