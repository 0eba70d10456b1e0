#pragma once
// Edits of the scenario's matrices, as pure functions the Matrices and Model panels call.
// No ImGui here: everything is testable without a window.
//
// A scenario's matrices are either explicit (stored in the Scenario) or generated from the
// seed when absent. Editing one cell of a generated matrix first makes it explicit with the
// values the user sees (materialise), so the edit changes exactly one number.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/common/matrix.h"
#include "core/scenario/scenario.h"

namespace attnviz::edits {

// The matrices the Matrices panel edits. XSource: the source sentence's embeddings
// (cross-attention only).
enum class MatrixId { X, XSource, WQ, WK, WV, WO };

const char* matrix_name(MatrixId id);      // "X", "X_source", "W_Q", ...
const char* matrix_json_key(MatrixId id);  // "embeddings", "source/embeddings", "wq", ...

// The explicit matrix of the scenario, or null when it is generated (or there is no source).
const Matrix* explicit_matrix(const Scenario& scenario, MatrixId id);

// The explicit matrix, created from `resolved` (the values shown, e.g. the Problem's) when the
// scenario leaves it to the seed. For XSource the scenario must have a source.
Matrix& materialise(Scenario& scenario, MatrixId id, const Matrix& resolved);

// A typed cell value: a finite float, or why not ("not a number", "too large for float").
struct ParsedValue {
  std::optional<float> value;
  std::string error;  // "" when value is set
};
ParsedValue parse_cell_value(std::string_view text);

// Sets one cell. Returns an error message (and leaves the scenario alone) for a non-finite
// value or a cell outside the matrix; "" when done.
std::string set_cell(Scenario& scenario, MatrixId id, const Matrix& resolved, int row, int col, float value);

// Whole-matrix tools. All keep the shape.
void scale_matrix(Matrix& m, float factor);
void zero_matrix(Matrix& m);
void identity_matrix(Matrix& m);  // 1 on the main diagonal, 0 elsewhere (rectangular too)
// Fresh values from `seed` with the spread the generator gives this kind of matrix: weights
// ~ N(0, 1/rows) (so X·W keeps unit variance), embeddings ~ N(0, 1).
Matrix random_matrix(MatrixId id, std::uint64_t seed, int rows, int cols);

// Rows and columns grouped into equal blocks: a weight's columns are one block per head
// (count = heads, size = d_k), X's rows one block of N.
struct Blocks {
  int count = 1;
  int size = 0;
  [[nodiscard]] int total() const { return count * size; }
};

// The matrix with a new block layout: each cell that exists in both layouts (same block,
// same offset inside the block) keeps its old value, every other cell comes from `fresh`
// (already of the new shape). So growing d_k keeps each head's first columns, adding a head
// appends its block, and shrinking drops the ends of each block.
Matrix resize_blocks(const Matrix& old, Blocks old_rows, Blocks old_cols, Blocks new_rows, Blocks new_cols,
                     const Matrix& fresh);

// Which head a column (W_Q, W_K, W_V) or row (W_O) belongs to and its offset inside it.
// For X and X_source every index is "head" 0. For W_K / W_V the head is a key/value head.
struct HeadSlice {
  int head = 0;
  int offset = 0;
};
HeadSlice head_slice_of(MatrixId id, int index, int d_k, int d_v);
// Whether the columns (true) or the rows (false) of this matrix are split per head.
bool heads_split_columns(MatrixId id);
// The slice width per head of a matrix (d_k or d_v), 0 for X.
int head_slice_size(MatrixId id, int d_k, int d_v);

}  // namespace attnviz::edits
