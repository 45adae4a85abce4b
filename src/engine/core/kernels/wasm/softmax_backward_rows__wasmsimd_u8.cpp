// softmax_backward_rows__wasmsimd_u8.cpp: WebAssembly SIMD128 softmax
// backward, 8 elements (2 vectors) per loop step.
//
// Does, per row i (n columns), as two passes:
//   pass 1  r_i = sum_k dP(i,k) P(i,k)         (2 vector accumulators)
//   pass 2  dS(i,j) = alpha P(i,j) (dP(i,j) - r_i)
// The last n % 4 elements of a row run as scalars. dS may be dP (pass 1
// reads the whole row before pass 2 writes it).
// Does not: use FMA (none in SIMD128), or allocate.
#include <wasm_simd128.h>

#include "../kernels.h"

namespace headroom::kernels {

void softmax_backward_rows__wasmsimd_u8(int rows, int n, const float* p, int ldp, const float* dp,
                                        int lddp, float alpha, float* ds, int ldds) {
  const int n8 = n / 8 * 8, n4 = n / 4 * 4;
  for (int i = 0; i < rows; ++i) {
    const float* pi = p + static_cast<long>(i) * ldp;
    const float* dpi = dp + static_cast<long>(i) * lddp;
    float* dsi = ds + static_cast<long>(i) * ldds;

    // pass 1: r = dP . P
    v128_t acc0 = wasm_f32x4_splat(0.f), acc1 = acc0;
    int j = 0;
    for (; j < n8; j += 8) {
      acc0 = wasm_f32x4_add(acc0, wasm_f32x4_mul(wasm_v128_load(dpi + j), wasm_v128_load(pi + j)));
      acc1 = wasm_f32x4_add(acc1,
                            wasm_f32x4_mul(wasm_v128_load(dpi + j + 4), wasm_v128_load(pi + j + 4)));
    }
    for (; j < n4; j += 4)
      acc0 = wasm_f32x4_add(acc0, wasm_f32x4_mul(wasm_v128_load(dpi + j), wasm_v128_load(pi + j)));
    acc0 = wasm_f32x4_add(acc0, acc1);
    float r = wasm_f32x4_extract_lane(acc0, 0) + wasm_f32x4_extract_lane(acc0, 1) +
              wasm_f32x4_extract_lane(acc0, 2) + wasm_f32x4_extract_lane(acc0, 3);
    for (; j < n; ++j) r += dpi[j] * pi[j];

    // pass 2: dS = alpha P (dP - r)
    const v128_t vr = wasm_f32x4_splat(r), valpha = wasm_f32x4_splat(alpha);
    for (j = 0; j < n4; j += 4) {
      const v128_t vp = wasm_f32x4_mul(valpha, wasm_v128_load(pi + j));
      wasm_v128_store(dsi + j, wasm_f32x4_mul(vp, wasm_f32x4_sub(wasm_v128_load(dpi + j), vr)));
    }
    for (; j < n; ++j) dsi[j] = alpha * pi[j] * (dpi[j] - r);
  }
}

}  // namespace headroom::kernels
