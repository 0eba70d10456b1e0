#pragma once
// Flat row-major float buffers seen as Eigen matrices (shared by the layers and their tests).

#include <Eigen/Core>

namespace attnviz::train {

using RowMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixView = Eigen::Map<RowMatrix>;
using ConstMatrixView = Eigen::Map<const RowMatrix>;
// A block of columns of a wider row-major buffer (one head's columns of q, k, v or the output).
using StridedView = Eigen::Map<RowMatrix, 0, Eigen::OuterStride<>>;
using ConstStridedView = Eigen::Map<const RowMatrix, 0, Eigen::OuterStride<>>;
using VectorView = Eigen::Map<Eigen::RowVectorXf>;
using ConstVectorView = Eigen::Map<const Eigen::RowVectorXf>;

}  // namespace attnviz::train
