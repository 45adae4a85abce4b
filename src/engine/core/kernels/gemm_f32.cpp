// gemm_f32.cpp: the GEMM driver every gemm_f32 variant runs under.
//
// Does: C (M x N) = op(A) (M x K) op(B) (K x N), row-major with leading
// dimensions, op = identity (gemm_f32), A^T (gemm_f32_tn) or B^T
// (gemm_f32_nt), by tiling C into MR x NR register tiles computed by a
// variant's micro-kernel:
//   for each column slab [j0, j0 + NC)       (K x NC of op(B) stays in L2)
//     pack the slab: panel q = columns j0 + q NR .. + NR, K rows of NR floats
//     for each row strip [i, i + MR)         (MR x K of op(A) stays in L1)
//       (tn: copy the strip's MR columns of A into MR rows of K floats)
//       for each panel q                      micro-kernel on K x NR contiguous
// Packing matters: reading B's rows in place with a power-of-two row stride
// (D = 512, L = 1024) puts every row of a panel in the same few L1 sets, and
// a 512 x 512 x 512 product ran 5x slower. Packing costs K N copies against
// 2 M N K flops, so B is read in place when there are fewer than 4 row strips
// (and never for nt: B^T's columns are B's rows, so it is always packed).
// The transposed forms cost one copy of the operand (M K or N K floats)
// against 2 M N K flops and reuse every micro-kernel unchanged, so each
// variant is tested in all three forms.
// The last N % NR columns run the same micro-kernel on a zero-padded panel.
// Does not: pack A in the plain form (MR rows of A are only MR streams), use
// threads, or allocate (the caller passes gemm_workspace_floats(v, K) floats,
// gemm_tn_workspace_floats(v, K) for the tn form).
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

// A full panel (n = NR) with NR known at compile time: the row copy becomes
// one or two vector moves instead of a scalar loop of unknown length.
template <int NR>
void pack_full_panel(int K, const float* B, int ldb, int j, float* panel) {
  for (int p = 0; p < K; ++p) {
    float* dst = panel + static_cast<long>(p) * NR;
    const float* src = B + static_cast<long>(p) * ldb + j;
    for (int t = 0; t < NR; ++t) dst[t] = src[t];
  }
}

// Copies columns [j, j + n) of B's K rows into one NR-wide panel (K x NR,
// contiguous), zero-filling columns n..NR-1.
void pack_panel(int K, int n, int NR, const float* B, int ldb, int j, float* panel) {
  if (n == NR && NR == 8) return pack_full_panel<8>(K, B, ldb, j, panel);
  if (n == NR && NR == 16) return pack_full_panel<16>(K, B, ldb, j, panel);
  // A plain loop, not memcpy: under Emscripten a variable-size memcpy is a
  // call into libc per row of B (K calls per panel).
  for (int p = 0; p < K; ++p) {
    float* dst = panel + static_cast<long>(p) * NR;
    const float* src = B + static_cast<long>(p) * ldb + j;
    for (int t = 0; t < n; ++t) dst[t] = src[t];
    for (int t = n; t < NR; ++t) dst[t] = 0.f;
  }
}

// The same panel of B^T, B stored N x K: panel column t is row j + t of B.
void pack_panel_t(int K, int n, int NR, const float* B, int ldb, int j, float* panel) {
  for (int t = 0; t < n; ++t) {
    const float* src = B + static_cast<long>(j + t) * ldb;
    for (int p = 0; p < K; ++p) panel[static_cast<long>(p) * NR + t] = src[p];
  }
  for (int t = n; t < NR; ++t)
    for (int p = 0; p < K; ++p) panel[static_cast<long>(p) * NR + t] = 0.f;
}

// Rows i..i+mr-1 of A^T (A stored K x M) as mr rows of K floats.
void pack_strip_t(int mr, int K, const float* A, int lda, int i, float* strip) {
  for (int p = 0; p < K; ++p) {
    const float* src = A + static_cast<long>(p) * lda + i;
    for (int r = 0; r < mr; ++r) strip[static_cast<long>(r) * K + p] = src[r];
  }
}

enum class Form { NN, TN, NT };

void drive(Form form, const GemmVariant& v, int M, int N, int K, const float* A, int lda,
           const float* B, int ldb, float* C, int ldc, float* work) {
  const int MR = v.mr, NR = v.nr;
  const int n_full = N / NR * NR;  // columns the micro-kernel covers in place
  const int nc = slab_cols(v, K);
  const bool pack = form == Form::NT || M >= 4 * MR;
  // tn: the packed strip of A^T sits after the largest slab
  float* strip = work + gemm_workspace_floats(v, K);
  // Row strip i of op(A): its first row and row stride.
  auto a_strip = [&](int i, int mr, int& ld) -> const float* {
    if (form != Form::TN) {
      ld = lda;
      return A + static_cast<long>(i) * lda;
    }
    pack_strip_t(mr, K, A, lda, i, strip);
    ld = K > 0 ? K : 1;
    return strip;
  };
  for (int j0 = 0; j0 < n_full; j0 += nc) {
    const int j1 = j0 + nc < n_full ? j0 + nc : n_full;
    if (pack)
      for (int j = j0; j < j1; j += NR) {
        float* panel = work + static_cast<long>(j - j0) * K;
        if (form == Form::NT) pack_panel_t(K, NR, NR, B, ldb, j, panel);
        else pack_panel(K, NR, NR, B, ldb, j, panel);
      }
    for (int i = 0; i < M; i += MR) {
      const int mr = M - i < MR ? M - i : MR;
      int ld_a;
      const float* a = a_strip(i, mr, ld_a);
      float* c = C + static_cast<long>(i) * ldc;
      for (int j = j0; j < j1; j += NR) {
        if (pack)
          v.ukernel(mr, K, a, ld_a, work + static_cast<long>(j - j0) * K, NR, c + j, ldc);
        else
          v.ukernel(mr, K, a, ld_a, B + j, ldb, c + j, ldc);
      }
    }
  }
  // Column tail (N % NR columns): a zero-padded panel, the micro-kernel into a
  // small C tile, the valid columns copied out.
  const int n_tail = N - n_full;
  if (n_tail > 0) {
    if (form == Form::NT) pack_panel_t(K, n_tail, NR, B, ldb, n_full, work);
    else pack_panel(K, n_tail, NR, B, ldb, n_full, work);
    float tile[kMaxTile];
    for (int i = 0; i < M; i += MR) {
      const int mr = M - i < MR ? M - i : MR;
      int ld_a;
      const float* a = a_strip(i, mr, ld_a);
      v.ukernel(mr, K, a, ld_a, work, NR, tile, NR);
      for (int r = 0; r < mr; ++r)
        std::memcpy(C + static_cast<long>(i + r) * ldc + n_full, tile + r * NR,
                    sizeof(float) * static_cast<size_t>(n_tail));
    }
  }
}
}  // namespace

size_t gemm_workspace_floats(const GemmVariant& v, int K) {
  return static_cast<size_t>(slab_cols(v, K)) * static_cast<size_t>(K > 0 ? K : 1);
}

size_t gemm_tn_workspace_floats(const GemmVariant& v, int K) {
  return gemm_workspace_floats(v, K) + static_cast<size_t>(v.mr) * static_cast<size_t>(K > 0 ? K : 1);
}

void gemm_f32(const GemmVariant& v, int M, int N, int K, const float* A, int lda, const float* B,
              int ldb, float* C, int ldc, float* work) {
  drive(Form::NN, v, M, N, K, A, lda, B, ldb, C, ldc, work);
}

void gemm_f32_tn(const GemmVariant& v, int M, int N, int K, const float* A, int lda,
                 const float* B, int ldb, float* C, int ldc, float* work) {
  drive(Form::TN, v, M, N, K, A, lda, B, ldb, C, ldc, work);
}

void gemm_f32_nt(const GemmVariant& v, int M, int N, int K, const float* A, int lda,
                 const float* B, int ldb, float* C, int ldc, float* work) {
  drive(Form::NT, v, M, N, K, A, lda, B, ldb, C, ldc, work);
}

}  // namespace headroom::kernels
