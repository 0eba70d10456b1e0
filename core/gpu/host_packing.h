#pragma once
// Host-side conversions between the Problem / Result matrices and the padded device layout
// of attention_layout.h.

#include <cstddef>
#include <cstdint>

#include "core/common/matrix.h"
#include "core/gpu/attention_layout.h"

namespace attnviz::gpu {

// rows × cols → rows × pitch floats at `out` (padding zeroed).
void pack_rows(const Matrix& m, std::int64_t pitch, std::byte* out);

// Columns [b·block, (b+1)·block) of `w` become batch b: w.rows × pitch floats each, one after
// another (the per-head blocks of W_Q, W_K, W_V).
void pack_column_blocks(const Matrix& w, int batches, int block, std::int64_t pitch, std::byte* out);

// out.rows × out.cols floats read from `data` with row pitch `pitch` (floats), starting
// `first` floats in (`out` keeps its shape and storage).
void unpack_rows(const std::byte* data, std::int64_t first, std::int64_t pitch, Matrix& out);

// The same for a matrix of 1.0 / 0.0 floats (dropout's kept set) into 1 / 0 flags.
void unpack_flags(const std::byte* data, std::int64_t first, std::int64_t pitch, MaskMatrix& out);

}  // namespace attnviz::gpu
