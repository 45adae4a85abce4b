// gemm_f32__generic_6x8.cpp: portable GEMM micro-kernel, 6 x 8 tile, for
// narrow products (N < 16: head sizes dh = 8, scores of short sequences).
//
// Does: C[r][0..8) = sum_p A[r][p] B[p][0..8) for r < 6 (rows >= mr alias row
// mr-1), one 8-float vector per row, in the compiler's portable vector type
// (see gemm_f32__generic_6x16.cpp). The 6 x 16 tile would spend half its
// work on the zero-padded column tail when N = 8.
// Does not: use intrinsics or ISA #ifs, handle a column tail (the driver does).
#include "../kernels.h"
#include "vec8.h"

namespace headroom::kernels {

using generic::v8;
using generic::load8;
using generic::store8;

void gemm_f32__generic_6x8(int mr, int K, const float* a, int lda, const float* b, int ldb,
                           float* c, int ldc) {
  const float* ar[6];
  float* cr[6];
  tile_rows(mr, a, lda, c, ldc, ar, cr);
  v8 c0 = {}, c1 = {}, c2 = {}, c3 = {}, c4 = {}, c5 = {};
  for (int p = 0; p < K; ++p) {
    const v8 b0 = load8(b);
    b += ldb;
    c0 += ar[0][p] * b0;
    c1 += ar[1][p] * b0;
    c2 += ar[2][p] * b0;
    c3 += ar[3][p] * b0;
    c4 += ar[4][p] * b0;
    c5 += ar[5][p] * b0;
  }
  store8(cr[5], c5);  // highest row first: aliased rows end equal
  store8(cr[4], c4);
  store8(cr[3], c3);
  store8(cr[2], c2);
  store8(cr[1], c1);
  store8(cr[0], c0);
}

}  // namespace headroom::kernels
