// softmax_rows__generic_u8.cpp: portable C++ stable row softmax with a
// polynomial exp the compiler vectorises (native builds' fast path).
//
// Does: the three passes of softmax_rows__scalar (row max; e = exp(s - m)
// stored and summed; times 1/sum), but exp(x), x <= 0, is the branch-free
// rr2-p5 scheme of softmax_rows__wasmsimd_u16 written on plain floats, so
// -O3 turns the loop into 8-lane (AVX2) code; the sum uses 8 partial sums.
// Does not: call std::exp, use intrinsics, or allocate.
#include <cstdint>
#include <cstring>

#include "../kernels.h"

namespace headroom::kernels {

namespace {

inline float exp_nonpositive(float x) {
  const float magic_bias = 0x1.8000FEp23f;
  float n = x * 0x1.715476p+0f + magic_bias;  // round(x / ln2) in the low bits
  uint32_t bits;
  std::memcpy(&bits, &n, 4);
  bits <<= 23;
  float s;  // 2^n
  std::memcpy(&s, &bits, 4);
  n -= magic_bias;
  float t = n * -0x1.62E400p-1f + x;
  t = n * -0x1.7F7D1Cp-20f + t;
  float p = 0x1.0F9F9Cp-7f * t + 0x1.573A1Ap-5f;
  p = p * t + 0x1.555A80p-3f;
  p = p * t + 0x1.FFFDC6p-2f;
  p = p * t + 0x1.FFFFF6p-1f;
  t *= s;
  const float f = t * p + s;
  return x < -0x1.5D589Ep6f ? 0.f : f;
}

}  // namespace

void softmax_rows__generic_u8(int rows, int n, float* s, int lds, float* w, int ldw,
                              bool causal) {
  for (int i = 0; i < rows; ++i) {
    float* si = s + static_cast<long>(i) * lds;
    float* wi = w + static_cast<long>(i) * ldw;
    const int valid = softmax_mask_row(i, n, causal, si, wi);
    float m = si[0];
    for (int j = 1; j < valid; ++j) m = si[j] > m ? si[j] : m;
    float part[8] = {};
    int j = 0;
    for (; j + 8 <= valid; j += 8)
      for (int u = 0; u < 8; ++u) part[u] += (wi[j + u] = exp_nonpositive(si[j + u] - m));
    float sum = 0.f;
    for (int u = 0; u < 8; ++u) sum += part[u];
    for (; j < valid; ++j) sum += (wi[j] = exp_nonpositive(si[j] - m));
    const float inv = 1.f / sum;
    for (j = 0; j < valid; ++j) wi[j] *= inv;
  }
}

}  // namespace headroom::kernels
