// gemm_f32.cpp: the GEMM driver every gemm_f32 variant runs under.
//
// Does: C (M x N) = A (M x K) B (K x N), row-major with leading dimensions,
// by tiling C into MR x NR register tiles computed by a variant's micro-kernel:
//   for each column slab [j0, j0 + NC)       (K x NC of B stays in L2)
//     pack the slab: panel q = columns j0 + q NR .. + NR, K rows of NR floats
//     for each row strip [i, i + MR)         (MR x K of A stays in L1)
//       for each panel q                      micro-kernel on K x NR contiguous
// Packing matters: reading B's rows in place with a power-of-two row stride
// (D = 512, L = 1024) puts every row of a panel in the same few L1 sets, and
// a 512 x 512 x 512 product ran 5x slower. Packing costs K N copies against
// 2 M N K flops, so B is read in place when there are fewer than 4 row strips.
// The last N % NR columns run the same micro-kernel on a zero-padded panel.
// Does not: pack A (MR rows of A are only MR streams), use threads, or
// allocate (the caller passes gemm_workspace_floats(v, K) floats).
#include <cstring>

#include "kernels.h"

namespace headroom::kernels {

namespace {
// Floats of B kept hot per column slab: 256 KB, half of a typical 512 KB L2.
constexpr int kSlabFloats = 64 * 1024;
// Largest register tile any variant uses (the column tail's C buffer).
constexpr int kMaxTile = 8 * 16;

// Columns per slab: a multiple of NR, at least NR.
int slab_cols(const GemmVariant& v, int K) {
  const int nc = kSlabFloats / (K > 0 ? K : 1) / v.nr * v.nr;
  return nc > v.nr ? nc : v.nr;
}

// Copies columns [j, j + n) of B's K rows into one NR-wide panel (K x NR,
// contiguous), zero-filling columns n..NR-1.
void pack_panel(int K, int n, int NR, const float* B, int ldb, int j, float* panel) {
  // A plain loop, not memcpy: under Emscripten a variable-size memcpy is a
  // call into libc per row of B (K calls per panel).
  for (int p = 0; p < K; ++p) {
    float* dst = panel + static_cast<long>(p) * NR;
    const float* src = B + static_cast<long>(p) * ldb + j;
    for (int t = 0; t < n; ++t) dst[t] = src[t];
    for (int t = n; t < NR; ++t) dst[t] = 0.f;
  }
}
}  // namespace

size_t gemm_workspace_floats(const GemmVariant& v, int K) {
  return static_cast<size_t>(slab_cols(v, K)) * static_cast<size_t>(K > 0 ? K : 1);
}

void gemm_f32(const GemmVariant& v, int M, int N, int K, const float* A, int lda, const float* B,
              int ldb, float* C, int ldc, float* work) {
  const int MR = v.mr, NR = v.nr;
  const int n_full = N / NR * NR;  // columns the micro-kernel covers in place
  const int nc = slab_cols(v, K);
  const bool pack = M >= 4 * MR;
  for (int j0 = 0; j0 < n_full; j0 += nc) {
    const int j1 = j0 + nc < n_full ? j0 + nc : n_full;
    if (pack)
      for (int j = j0; j < j1; j += NR) pack_panel(K, NR, NR, B, ldb, j, work + static_cast<long>(j - j0) * K);
    for (int i = 0; i < M; i += MR) {
      const int mr = M - i < MR ? M - i : MR;
      const float* a = A + static_cast<long>(i) * lda;
      float* c = C + static_cast<long>(i) * ldc;
      for (int j = j0; j < j1; j += NR) {
        if (pack)
          v.ukernel(mr, K, a, lda, work + static_cast<long>(j - j0) * K, NR, c + j, ldc);
        else
          v.ukernel(mr, K, a, lda, B + j, ldb, c + j, ldc);
      }
    }
  }
  // Column tail (N % NR columns): a zero-padded panel, the micro-kernel into a
  // small C tile, the valid columns copied out.
  const int n_tail = N - n_full;
  if (n_tail > 0) {
    pack_panel(K, n_tail, NR, B, ldb, n_full, work);
    float tile[kMaxTile];
    for (int i = 0; i < M; i += MR) {
      const int mr = M - i < MR ? M - i : MR;
      v.ukernel(mr, K, A + static_cast<long>(i) * lda, lda, work, NR, tile, NR);
      for (int r = 0; r < mr; ++r)
        std::memcpy(C + static_cast<long>(i + r) * ldc + n_full, tile + r * NR,
                    sizeof(float) * static_cast<size_t>(n_tail));
    }
  }
}

}  // namespace headroom::kernels
