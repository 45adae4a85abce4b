// softmax_backward_rows__generic_u8.cpp: portable C++ softmax backward the
// compiler vectorises (native builds' fast path).
//
// Does: the two passes of softmax_backward_rows__scalar,
//   r_i = sum_k dP(i,k) P(i,k)               (8 partial sums, then added)
//   dS(i,j) = alpha P(i,j) (dP(i,j) - r_i)
// The 8 partial sums let -O3 keep the dot product in one 8-lane (AVX)
// register; the order of adds differs from the twin, so tests use a tolerance.
// Does not: use intrinsics, or allocate.
#include "../kernels.h"

namespace headroom::kernels {

void softmax_backward_rows__generic_u8(int rows, int n, const float* p, int ldp, const float* dp,
                                       int lddp, float alpha, float* ds, int ldds) {
  for (int i = 0; i < rows; ++i) {
    const float* pi = p + static_cast<long>(i) * ldp;
    const float* dpi = dp + static_cast<long>(i) * lddp;
    float* dsi = ds + static_cast<long>(i) * ldds;
    // pass 1: r = dP . P
    float part[8] = {};
    int j = 0;
    for (; j + 8 <= n; j += 8)
      for (int u = 0; u < 8; ++u) part[u] += dpi[j + u] * pi[j + u];
    float r = 0.f;
    for (int u = 0; u < 8; ++u) r += part[u];
    for (; j < n; ++j) r += dpi[j] * pi[j];
    // pass 2: dS = alpha P (dP - r)
    for (j = 0; j < n; ++j) dsi[j] = alpha * pi[j] * (dpi[j] - r);
  }
}

}  // namespace headroom::kernels
