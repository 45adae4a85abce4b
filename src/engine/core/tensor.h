// tensor.h: the matrix types every engine file shares.
//
// Shape letters, used in every comment of the engine:
//   L = tokens in the sequence, D = d_model (channels), H = heads,
//   dh = d_head = D / H.
// Matrices are row-major float: row i of X (L x D) is token i, so a row is
// contiguous memory, which is what the SIMD kernels stream over.
#pragma once
#include <Eigen/Core>

namespace headroom {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;  // one row
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace headroom
