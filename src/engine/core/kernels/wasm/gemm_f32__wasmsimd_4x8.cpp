// gemm_f32__wasmsimd_4x8.cpp: WebAssembly SIMD128 GEMM micro-kernel, 4 x 8 tile.
//
// Does: C[r][0..8) = sum_p A[r][p] B[p][0..8) for r < 4 (rows >= mr alias row
// mr-1). Per step p: two 4-lane loads of B's row p, one load32_splat of A[r][p]
// per row, then 8 f32x4 multiplies and 8 adds into 8 accumulators that live in
// registers for the whole K loop: 11 of V8's 15 allocatable xmm registers, so
// nothing spills. 64 flops per 6 loads.
// Does not: use FMA (SIMD128 has none: mul then add, so results differ from
// the scalar twin gemm_f32__scalar_1x4 by rounding only), handle a column tail
// (the driver does), or read outside the 4 x K strip of A and K x 8 panel of B.
#include <wasm_simd128.h>

#include "../kernels.h"

namespace headroom::kernels {

void gemm_f32__wasmsimd_4x8(int mr, int K, const float* a, int lda, const float* b, int ldb,
                            float* c, int ldc) {
  const float* ar[4];
  float* cr[4];
  tile_rows(mr, a, lda, c, ldc, ar, cr);

  v128_t c00 = wasm_f32x4_splat(0.f), c01 = c00, c10 = c00, c11 = c00;
  v128_t c20 = c00, c21 = c00, c30 = c00, c31 = c00;
  for (int p = 0; p < K; ++p) {
    const v128_t b0 = wasm_v128_load(b);
    const v128_t b1 = wasm_v128_load(b + 4);
    b += ldb;
    const v128_t va0 = wasm_v128_load32_splat(ar[0] + p);
    const v128_t va1 = wasm_v128_load32_splat(ar[1] + p);
    const v128_t va2 = wasm_v128_load32_splat(ar[2] + p);
    const v128_t va3 = wasm_v128_load32_splat(ar[3] + p);
    c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(va0, b0));
    c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(va0, b1));
    c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(va1, b0));
    c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(va1, b1));
    c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(va2, b0));
    c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(va2, b1));
    c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(va3, b0));
    c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(va3, b1));
  }
  // Highest row first: an aliased row then ends up with its own (equal) values.
  wasm_v128_store(cr[3], c30); wasm_v128_store(cr[3] + 4, c31);
  wasm_v128_store(cr[2], c20); wasm_v128_store(cr[2] + 4, c21);
  wasm_v128_store(cr[1], c10); wasm_v128_store(cr[1] + 4, c11);
  wasm_v128_store(cr[0], c00); wasm_v128_store(cr[0] + 4, c01);
}

}  // namespace headroom::kernels
