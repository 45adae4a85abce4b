// softmax_backward_rows__scalar.cpp: the scalar reference softmax backward.
//
// Does: for each row i of P (n columns), with dP = dLoss/dP:
//   r_i = sum_k dP(i,k) P(i,k)                (k in order, plain float adds)
//   dS(i,j) = alpha P(i,j) (dP(i,j) - r_i)
// which is dLoss/dS for P = softmax(alpha-scaled input): the Jacobian of a
// row softmax is diag(P) - P P^T. dS may be dP itself (r_i is summed first).
// Does not: vectorise on purpose (the twin every other variant is tested
// against), know about causal masks (masked P entries are 0, so their dS is 0).
#include "kernels.h"

namespace headroom::kernels {

void softmax_backward_rows__scalar(int rows, int n, const float* p, int ldp, const float* dp,
                                   int lddp, float alpha, float* ds, int ldds) {
  for (int i = 0; i < rows; ++i) {
    const float* pi = p + static_cast<long>(i) * ldp;
    const float* dpi = dp + static_cast<long>(i) * lddp;
    float* dsi = ds + static_cast<long>(i) * ldds;
    float r = 0.f;
    for (int j = 0; j < n; ++j) r += dpi[j] * pi[j];
    for (int j = 0; j < n; ++j) dsi[j] = alpha * pi[j] * (dpi[j] - r);
  }
}

}  // namespace headroom::kernels
