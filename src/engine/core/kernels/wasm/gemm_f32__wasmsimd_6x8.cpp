// gemm_f32__wasmsimd_6x8.cpp: WebAssembly SIMD128 GEMM micro-kernel, 6 x 8 tile.
//
// Does: C[r][0..8) = sum_p A[r][p] B[p][0..8) for r < 6 (rows >= mr alias row
// mr-1). Same scheme as gemm_f32__wasmsimd_4x8 with 12 accumulators: 96 flops
// per 8 loads, at the edge of V8's 15 allocatable xmm registers.
// Does not: use FMA (none in SIMD128), handle a column tail (the driver does).
#include <wasm_simd128.h>

#include "../kernels.h"

namespace headroom::kernels {

void gemm_f32__wasmsimd_6x8(int mr, int K, const float* a, int lda, const float* b, int ldb,
                            float* c, int ldc) {
  const float* ar[6];
  float* cr[6];
  tile_rows(mr, a, lda, c, ldc, ar, cr);

  v128_t c00 = wasm_f32x4_splat(0.f), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
  v128_t c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
  for (int p = 0; p < K; ++p) {
    const v128_t b0 = wasm_v128_load(b);
    const v128_t b1 = wasm_v128_load(b + 4);
    b += ldb;
    v128_t va = wasm_v128_load32_splat(ar[0] + p);
    c00 = wasm_f32x4_add(c00, wasm_f32x4_mul(va, b0));
    c01 = wasm_f32x4_add(c01, wasm_f32x4_mul(va, b1));
    va = wasm_v128_load32_splat(ar[1] + p);
    c10 = wasm_f32x4_add(c10, wasm_f32x4_mul(va, b0));
    c11 = wasm_f32x4_add(c11, wasm_f32x4_mul(va, b1));
    va = wasm_v128_load32_splat(ar[2] + p);
    c20 = wasm_f32x4_add(c20, wasm_f32x4_mul(va, b0));
    c21 = wasm_f32x4_add(c21, wasm_f32x4_mul(va, b1));
    va = wasm_v128_load32_splat(ar[3] + p);
    c30 = wasm_f32x4_add(c30, wasm_f32x4_mul(va, b0));
    c31 = wasm_f32x4_add(c31, wasm_f32x4_mul(va, b1));
    va = wasm_v128_load32_splat(ar[4] + p);
    c40 = wasm_f32x4_add(c40, wasm_f32x4_mul(va, b0));
    c41 = wasm_f32x4_add(c41, wasm_f32x4_mul(va, b1));
    va = wasm_v128_load32_splat(ar[5] + p);
    c50 = wasm_f32x4_add(c50, wasm_f32x4_mul(va, b0));
    c51 = wasm_f32x4_add(c51, wasm_f32x4_mul(va, b1));
  }
  wasm_v128_store(cr[5], c50); wasm_v128_store(cr[5] + 4, c51);
  wasm_v128_store(cr[4], c40); wasm_v128_store(cr[4] + 4, c41);
  wasm_v128_store(cr[3], c30); wasm_v128_store(cr[3] + 4, c31);
  wasm_v128_store(cr[2], c20); wasm_v128_store(cr[2] + 4, c21);
  wasm_v128_store(cr[1], c10); wasm_v128_store(cr[1] + 4, c11);
  wasm_v128_store(cr[0], c00); wasm_v128_store(cr[0] + 4, c01);
}

}  // namespace headroom::kernels
