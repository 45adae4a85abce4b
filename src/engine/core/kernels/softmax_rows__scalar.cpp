// softmax_rows__scalar.cpp: the scalar reference row softmax.
//
// Does: for each row i of S (n columns; with causal only the first i + 1):
//   m = max_j S(i,j),  e_j = exp(S(i,j) - m),  W(i,j) = e_j / sum_j e_j
// Subtracting the row max keeps every exponent <= 0, so exp never overflows
// and the largest term is exactly 1: the sum is >= 1, never 0. Masked
// entries become S = -inf and W = 0. Uses std::exp.
// Does not: vectorise (softmax_rows__wasmsimd_u16 does), or allocate.
#include <cmath>

#include "kernels.h"

namespace headroom::kernels {

void softmax_rows__scalar(int rows, int n, float* s, int lds, float* w, int ldw, bool causal) {
  for (int i = 0; i < rows; ++i) {
    float* si = s + static_cast<long>(i) * lds;
    float* wi = w + static_cast<long>(i) * ldw;
    const int valid = softmax_mask_row(i, n, causal, si, wi);
    float m = si[0];
    for (int j = 1; j < valid; ++j) m = si[j] > m ? si[j] : m;
    float sum = 0.f;
    for (int j = 0; j < valid; ++j) sum += (wi[j] = std::exp(si[j] - m));
    const float inv = 1.f / sum;
    for (int j = 0; j < valid; ++j) wi[j] *= inv;
  }
}

}  // namespace headroom::kernels
