// gemm_f32__scalar_1x4.cpp: the scalar reference GEMM micro-kernel.
//
// Does: one row, four columns: C[0][j] = sum_p A[0][p] B[p][j], j < 4, with
// plain float multiply then add in p order, the twin every other gemm_f32
// variant is tested against. Rows 1..mr-1 are computed one after another.
// Does not: vectorise on purpose, or use fused multiply-add (SIMD128 has none).
#include "kernels.h"

namespace headroom::kernels {

void gemm_f32__scalar_1x4(int mr, int K, const float* a, int lda, const float* b, int ldb,
                          float* c, int ldc) {
  for (int r = 0; r < mr; ++r) {
    const float* ar = a + static_cast<long>(r) * lda;
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
    for (int p = 0; p < K; ++p) {
      const float x = ar[p];
      const float* bp = b + static_cast<long>(p) * ldb;
      for (int j = 0; j < 4; ++j) acc[j] += x * bp[j];
    }
    for (int j = 0; j < 4; ++j) c[static_cast<long>(r) * ldc + j] = acc[j];
  }
}

}  // namespace headroom::kernels
