// gemm_f32__generic_6x16.cpp: portable GEMM micro-kernel, 6 x 16 tile, written
// with GCC/clang vector extensions (native builds' fast path).
//
// Does: C[r][0..16) = sum_p A[r][p] B[p][0..16) for r < 6 (rows >= mr alias
// row mr-1). Each row's 16 columns are two 8-float vectors, so the tile is 12
// accumulators + 2 B vectors + 1 broadcast: with AVX2 that is the classic
// Haswell/Zen register tile (15 of 16 ymm); on SSE the compiler splits each
// vector in two. CMake compiles this folder with -ffp-contract=fast so
// acc + a * b becomes one FMA where the target has it.
// Does not: use intrinsics or ISA #ifs (the vector type is the compiler's
// portable extension), handle a column tail (the driver does).
// Why not plain loops over a float acc[6][16]: GCC kept that array on the
// stack (a load and store per FMA), and forcing full unrolling made it worse.
#include "../kernels.h"
#include "vec8.h"

namespace headroom::kernels {

using generic::v8;
using generic::load8;
using generic::store8;

void gemm_f32__generic_6x16(int mr, int K, const float* a, int lda, const float* b, int ldb,
                            float* c, int ldc) {
  const float* ar[6];
  float* cr[6];
  tile_rows(mr, a, lda, c, ldc, ar, cr);

  v8 c00 = {}, c01 = {}, c10 = {}, c11 = {}, c20 = {}, c21 = {};
  v8 c30 = {}, c31 = {}, c40 = {}, c41 = {}, c50 = {}, c51 = {};
  for (int p = 0; p < K; ++p) {
    const v8 b0 = load8(b), b1 = load8(b + 8);
    b += ldb;
    c00 += ar[0][p] * b0; c01 += ar[0][p] * b1;
    c10 += ar[1][p] * b0; c11 += ar[1][p] * b1;
    c20 += ar[2][p] * b0; c21 += ar[2][p] * b1;
    c30 += ar[3][p] * b0; c31 += ar[3][p] * b1;
    c40 += ar[4][p] * b0; c41 += ar[4][p] * b1;
    c50 += ar[5][p] * b0; c51 += ar[5][p] * b1;
  }
  store8(cr[5], c50); store8(cr[5] + 8, c51);  // highest row first: aliased rows end equal
  store8(cr[4], c40); store8(cr[4] + 8, c41);
  store8(cr[3], c30); store8(cr[3] + 8, c31);
  store8(cr[2], c20); store8(cr[2] + 8, c21);
  store8(cr[1], c10); store8(cr[1] + 8, c11);
  store8(cr[0], c00); store8(cr[0] + 8, c01);
}

}  // namespace headroom::kernels
