// softmax_rows__wasmsimd_u16.cpp: WebAssembly SIMD128 stable row softmax,
// 16 elements (4 vectors) per loop step.
//
// Does, per row i (n columns; with causal only the first i + 1, the rest set
// to S = -inf, W = 0), as three passes over the row:
//   pass 1  m = max_j S(i,j)                         (4 pmax accumulators)
//   pass 2  W(i,j) = e_j = exp(S(i,j) - m), sum += e_j  (vectorised exp)
//   pass 3  W(i,j) *= 1 / sum
// exp(x), x <= 0, is XNNPACK's rr2-p5 scheme: n = round(x log2 e) through the
// magic-bias trick, t = x - n ln2 in two steps (hi + lo, Cody-Waite), exp(t) by
// a degree-5 polynomial, times s = 2^n built in the exponent bits; x below
// ln(FLT_MIN) ~ -87.3 gives 0 (so -inf gives 0). Relative error ~2 ulp.
// A row's last n % 4 elements go through a 4-lane buffer padded with -inf.
// Does not: use FMA (none in SIMD128), call std::exp, or allocate.
#include <wasm_simd128.h>

#include <limits>

#include "../kernels.h"

namespace headroom::kernels {

namespace {

// exp(x) for x <= 0, 4 lanes.
inline v128_t exp_nonpositive(v128_t vx) {
  const v128_t vlog2e = wasm_f32x4_splat(0x1.715476p+0f);
  const v128_t vmagic_bias = wasm_f32x4_splat(0x1.8000FEp23f);
  const v128_t vminus_ln2_hi = wasm_f32x4_splat(-0x1.62E400p-1f);
  const v128_t vminus_ln2_lo = wasm_f32x4_splat(-0x1.7F7D1Cp-20f);
  const v128_t vc5 = wasm_f32x4_splat(0x1.0F9F9Cp-7f);
  const v128_t vc4 = wasm_f32x4_splat(0x1.573A1Ap-5f);
  const v128_t vc3 = wasm_f32x4_splat(0x1.555A80p-3f);
  const v128_t vc2 = wasm_f32x4_splat(0x1.FFFDC6p-2f);
  const v128_t vc1 = wasm_f32x4_splat(0x1.FFFFF6p-1f);
  const v128_t vdenorm_cutoff = wasm_f32x4_splat(-0x1.5D589Ep6f);

  // n = round(x / ln2) sits in the low mantissa bits of vn; s = 2^n.
  v128_t vn = wasm_f32x4_add(wasm_f32x4_mul(vx, vlog2e), vmagic_bias);
  const v128_t vs = wasm_i32x4_shl(vn, 23);
  vn = wasm_f32x4_sub(vn, vmagic_bias);
  // t = x - n ln2, |t| <= ln2 / 2
  v128_t vt = wasm_f32x4_add(wasm_f32x4_mul(vn, vminus_ln2_hi), vx);
  vt = wasm_f32x4_add(wasm_f32x4_mul(vn, vminus_ln2_lo), vt);
  // exp(t) = 1 + t (c1 + t (c2 + t (c3 + t (c4 + t c5)))), then times s
  v128_t vp = wasm_f32x4_add(wasm_f32x4_mul(vc5, vt), vc4);
  vp = wasm_f32x4_add(wasm_f32x4_mul(vp, vt), vc3);
  vp = wasm_f32x4_add(wasm_f32x4_mul(vp, vt), vc2);
  vp = wasm_f32x4_add(wasm_f32x4_mul(vp, vt), vc1);
  vt = wasm_f32x4_mul(vt, vs);
  v128_t vf = wasm_f32x4_add(wasm_f32x4_mul(vt, vp), vs);
  // below ln(FLT_MIN) (and -inf): 0
  return wasm_v128_andnot(vf, wasm_f32x4_lt(vx, vdenorm_cutoff));
}

}  // namespace

void softmax_rows__wasmsimd_u16(int rows, int n, float* s, int lds, float* w, int ldw,
                                bool causal) {
  const float neg_inf = -std::numeric_limits<float>::infinity();
  for (int i = 0; i < rows; ++i) {
    float* si = s + static_cast<long>(i) * lds;
    float* wi = w + static_cast<long>(i) * ldw;
    const int valid = softmax_mask_row(i, n, causal, si, wi);
    const int n16 = valid / 16 * 16, n4 = valid / 4 * 4;

    // pass 1: row max
    v128_t vm0 = wasm_f32x4_splat(neg_inf), vm1 = vm0, vm2 = vm0, vm3 = vm0;
    int j = 0;
    for (; j < n16; j += 16) {
      vm0 = wasm_f32x4_pmax(vm0, wasm_v128_load(si + j));
      vm1 = wasm_f32x4_pmax(vm1, wasm_v128_load(si + j + 4));
      vm2 = wasm_f32x4_pmax(vm2, wasm_v128_load(si + j + 8));
      vm3 = wasm_f32x4_pmax(vm3, wasm_v128_load(si + j + 12));
    }
    for (; j < n4; j += 4) vm0 = wasm_f32x4_pmax(vm0, wasm_v128_load(si + j));
    vm0 = wasm_f32x4_pmax(wasm_f32x4_pmax(vm0, vm1), wasm_f32x4_pmax(vm2, vm3));
    float m = wasm_f32x4_extract_lane(vm0, 0);
    m = wasm_f32x4_extract_lane(vm0, 1) > m ? wasm_f32x4_extract_lane(vm0, 1) : m;
    m = wasm_f32x4_extract_lane(vm0, 2) > m ? wasm_f32x4_extract_lane(vm0, 2) : m;
    m = wasm_f32x4_extract_lane(vm0, 3) > m ? wasm_f32x4_extract_lane(vm0, 3) : m;
    for (; j < valid; ++j) m = si[j] > m ? si[j] : m;

    // pass 2: e = exp(s - m), stored, summed
    const v128_t vmax = wasm_f32x4_splat(m);
    v128_t vs0 = wasm_f32x4_splat(0.f), vs1 = vs0, vs2 = vs0, vs3 = vs0;
    for (j = 0; j < n16; j += 16) {
      const v128_t e0 = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(si + j), vmax));
      const v128_t e1 = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(si + j + 4), vmax));
      const v128_t e2 = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(si + j + 8), vmax));
      const v128_t e3 = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(si + j + 12), vmax));
      wasm_v128_store(wi + j, e0);
      wasm_v128_store(wi + j + 4, e1);
      wasm_v128_store(wi + j + 8, e2);
      wasm_v128_store(wi + j + 12, e3);
      vs0 = wasm_f32x4_add(vs0, e0);
      vs1 = wasm_f32x4_add(vs1, e1);
      vs2 = wasm_f32x4_add(vs2, e2);
      vs3 = wasm_f32x4_add(vs3, e3);
    }
    for (; j < n4; j += 4) {
      const v128_t e = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(si + j), vmax));
      wasm_v128_store(wi + j, e);
      vs0 = wasm_f32x4_add(vs0, e);
    }
    if (j < valid) {  // 1..3 left: pad with -inf, whose exp is 0
      float buf[4] = {neg_inf, neg_inf, neg_inf, neg_inf};
      for (int t = j; t < valid; ++t) buf[t - j] = si[t];
      const v128_t e = exp_nonpositive(wasm_f32x4_sub(wasm_v128_load(buf), vmax));
      wasm_v128_store(buf, e);
      for (int t = j; t < valid; ++t) wi[t] = buf[t - j];
      vs0 = wasm_f32x4_add(vs0, e);
    }
    vs0 = wasm_f32x4_add(wasm_f32x4_add(vs0, vs1), wasm_f32x4_add(vs2, vs3));
    const float sum = wasm_f32x4_extract_lane(vs0, 0) + wasm_f32x4_extract_lane(vs0, 1) +
                      wasm_f32x4_extract_lane(vs0, 2) + wasm_f32x4_extract_lane(vs0, 3);

    // pass 3: normalise
    const v128_t vinv = wasm_f32x4_splat(1.f / sum);
    for (j = 0; j < n4; j += 4) wasm_v128_store(wi + j, wasm_f32x4_mul(wasm_v128_load(wi + j), vinv));
    for (; j < valid; ++j) wi[j] *= 1.f / sum;
  }
}

}  // namespace headroom::kernels
