// tensor.h: the matrix types every engine file shares.
//
// Shape letters, defined here once and used in every comment of the engine:
//   B  = sequences (examples) in a batch,   L = tokens in a sequence,
//   D  = d_model (channels),                H = heads,
//   dh = d_head = D / H,
//   T  = output columns of a training target, R = related tokens per query,
//   k  = content dimensions of a token (the rest of D is roles and position).
// Matrices are row-major float: row i of X (L x D) is token i, so a row is
// contiguous memory, which is what the SIMD kernels stream over.
#pragma once
#include <Eigen/Core>

namespace headroom {

using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vec = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;  // one row
using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace headroom
