// matmul.h: plain matrix products on a backend, for layers that are not
// attention (the text model's unembedding and its gradients).
//
// Does: C = A B, C = A^T B and C = A B^T (row-major float, tensor.h), with
// Eigen expressions (Backend::Eigen) or the kernel GEMMs (Backend::Scalar,
// Backend::Simd: kernels/gemm_f32.cpp's driver and the build's tiles, the
// same ones attention runs), sizing C; a MatmulWork keeps the packing
// workspace between calls so nothing is allocated once shapes repeat.
// Does not: accumulate into C (it is overwritten), add biases, or accept
// mismatched shapes (a Status says which, C unchanged).
//
// Shape letters: M x K times K x N gives M x N.
#pragma once
#include <vector>

#include "kernels/backend.h"
#include "status.h"
#include "tensor.h"

namespace headroom {

struct MatmulWork {
  std::vector<float> scratch;  // GEMM packing workspace (kernel backends)
};

// C (M x N) = A (M x K) B (K x N)
Status matmul(const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work);
// C (M x N) = A^T B, A stored K x M, B K x N
Status matmul_tn(const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work);
// C (M x N) = A B^T, A M x K, B stored N x K
Status matmul_nt(const Mat& a, const Mat& b, Mat& c, Backend backend, MatmulWork& work);

}  // namespace headroom
