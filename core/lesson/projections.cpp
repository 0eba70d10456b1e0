#include "core/lesson/projections.h"

#include <Eigen/Core>
#include <stdexcept>

#include "core/scenario/positions.h"

namespace attnviz::lesson {
namespace {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;
using MutableMap = Eigen::Map<RowMajor>;

Matrix product(const Matrix& a, const Matrix& b) {
  if (a.cols != b.rows) throw std::invalid_argument("lesson: matrix product of incompatible shapes");
  Matrix out(a.rows, b.cols);
  MutableMap(out.data.data(), out.rows, out.cols).noalias() =
      ConstMap(a.data.data(), a.rows, a.cols) * ConstMap(b.data.data(), b.rows, b.cols);
  return out;
}

}  // namespace

Projections compute_projections(const Problem& problem) {
  Projections out{
      product(problem.x, problem.wq), product(problem.xs, problem.wk), product(problem.xs, problem.wv), {}, {}};
  if (problem.positional != PositionalKind::Rope) return out;
  out.q_unrotated = out.q;
  out.k_unrotated = out.k;
  const Matrix table = problem_rope_table(problem);
  for (int r = 0; r < out.q.rows; ++r)
    for (int h = 0; h < problem.num_heads; ++h) rope_rotate(out.q.row(r) + h * problem.d_k, table.row(r), problem.d_k);
  for (int r = 0; r < out.k.rows; ++r)
    for (int g = 0; g < problem.num_kv_heads; ++g)
      rope_rotate(out.k.row(r) + g * problem.d_k, table.row(r), problem.d_k);
  return out;
}

Matrix column_block(const Matrix& matrix, int first, int count) {
  if (first < 0 || count < 0 || first + count > matrix.cols)
    throw std::out_of_range("lesson: column block outside the matrix");
  Matrix block(matrix.rows, count);
  for (int r = 0; r < matrix.rows; ++r)
    for (int c = 0; c < count; ++c) block.at(r, c) = matrix.at(r, first + c);
  return block;
}

HeadProjections head_projections(const Problem& problem, const Projections& all, int head) {
  if (head < 0 || head >= problem.num_heads) throw std::out_of_range("lesson: head index outside the problem");
  const int kv_head = problem.kv_head_of(head);
  HeadProjections out{column_block(all.q, head * problem.d_k, problem.d_k),
                      column_block(all.k, kv_head * problem.d_k, problem.d_k),
                      column_block(all.v, kv_head * problem.d_v, problem.d_v),
                      {},
                      {}};
  if (!all.q_unrotated.empty()) {
    out.q_unrotated = column_block(all.q_unrotated, head * problem.d_k, problem.d_k);
    out.k_unrotated = column_block(all.k_unrotated, kv_head * problem.d_k, problem.d_k);
  }
  return out;
}

Matrix concatenate_columns(const std::vector<const Matrix*>& blocks) {
  if (blocks.empty()) return {};
  int cols = 0;
  for (const Matrix* block : blocks) {
    if (block->rows != blocks.front()->rows)
      throw std::invalid_argument("lesson: concatenating blocks of different heights");
    cols += block->cols;
  }
  Matrix out(blocks.front()->rows, cols);
  int first = 0;
  for (const Matrix* block : blocks) {
    for (int r = 0; r < block->rows; ++r)
      for (int c = 0; c < block->cols; ++c) out.at(r, first + c) = block->at(r, c);
    first += block->cols;
  }
  return out;
}

}  // namespace attnviz::lesson
