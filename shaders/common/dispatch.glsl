// The parts the attention kernels' push-constant blocks share. Mirrored by OperandPush and
// ChunkPush in core/gpu/kernels.h, whose static_asserts check every block's layout.

// A matrix, or a stack of per-head (per-batch) matrices, in a bound view, counted in the
// view's elements (RGBA32F texels, or floats in an R32F view): element c of row r of head h
// is at base + h·stride + r·pitch + c.
struct Operand {
  int base;    // head 0's first element, relative to the start of the view (≤ 0)
  int pitch;   // from one row to the next
  int stride;  // from one head (or batch) to the next
};

// The part of the grid this dispatch covers (the device's limits may split a pass into
// several): heads (or batches) from head_base, rows [row_base, row_end), column quads
// [quad_base, quad_end). Rows and quads past the ends are clamped into the chunk and never stored.
struct Chunk {
  int head_base;
  int row_base;
  int quad_base;
  int row_end;
  int quad_end;
};
