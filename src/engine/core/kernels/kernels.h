// kernels.h: the hot loops of the attention forward and backward, as plain
// functions on row-major float buffers, and the registry that lists every variant.
//
// Does: declare the kernel families the forward and backward passes run,
//   gemm_f32      C (M x N) = A (M x K) B (K x N)             (all row-major)
//                 and its transposed forms A^T B, A B^T (same micro-kernels)
//   softmax_rows  W = softmax(S) row by row, shifted by the row max; with
//                 causal, row i keeps only columns j <= i (S(i,j>i) := -inf,
//                 W(i,j>i) := 0)
//   softmax_backward_rows  dS = alpha P * (dP - rowsum(dP * P)), row by row
// one variant per ISA and tile (name = op + ISA + tile/unroll, XNNPACK style),
// a GEMM driver shared by every GEMM variant, and the registry tests loop over.
// Does not: pick a variant for the forward pass (dispatch.h does that),
// include wasm_simd128.h (only files under kernels/wasm/ do), or allocate.
//
// Shape letters as in tensor.h (L, D, H, dh). The
// forward pass calls gemm_f32 with (M, N, K) = (L, dh, D) for each projection,
// (L, L, dh) for Q_h K_h^T, (L, dh, L) for P V_h and (L, D, D) for W_O.
// The backward (attention_batch.cpp) adds A^T B (dW = X^T dQ, dV = P^T dO) and
// A B^T (dP = dO V^T, dX = dQ W^T) products and the softmax backward.
#pragma once
#include <cstddef>
#include <limits>
#include <vector>

namespace headroom::kernels {

//-----------------------------------------------------------------------------
// gemm_f32: a register-tile micro-kernel plus one driver
//-----------------------------------------------------------------------------
// Micro-kernel: C[r][0..NR) = sum_p A[r][p] B[p][0..NR) for r < mr <= MR,
// p < K. Rows r >= mr alias row mr-1 (loads and stores both), so a kernel can
// always run MR rows; columns are always exactly NR (the driver handles the
// column tail). Overwrites C, never accumulates into it.
using GemmUkernel = void (*)(int mr, int K, const float* a, int lda, const float* b, int ldb,
                             float* c, int ldc);

// A micro-kernel's row pointers: rows r < mr of the MR x K strip of A and of
// the MR rows of C; rows r >= mr alias row mr - 1 (XNNPACK's trick: the
// kernel always runs MR rows, and the aliased rows recompute equal values).
template <int MR>
inline void tile_rows(int mr, const float* a, int lda, float* c, int ldc, const float* (&ar)[MR],
                      float* (&cr)[MR]) {
  ar[0] = a;
  cr[0] = c;
  for (int r = 1; r < MR; ++r) {
    ar[r] = r < mr ? ar[r - 1] + lda : ar[r - 1];
    cr[r] = r < mr ? cr[r - 1] + ldc : cr[r - 1];
  }
}

struct GemmVariant {
  const char* name;  // e.g. "gemm_f32__wasmsimd_4x8"
  int mr, nr;        // register tile: MR rows x NR columns
  GemmUkernel ukernel;
};

// C = A B with any M, N >= 1, K >= 0 (K = 0 writes zeros). Packs K x NC
// slabs of B into `work` (contiguous NR-wide panels that stay in L2), walks
// rows MR at a time (the MR x K strip of A stays in L1), and runs the N % NR
// last columns through a zero-padded panel. Variants have MR x NR <= 128.
// `work` holds
// gemm_workspace_floats(v, K) floats (<= max(64 Ki, K NR)); C must not overlap
// A, B or work.
void gemm_f32(const GemmVariant& v, int M, int N, int K, const float* A, int lda,
              const float* B, int ldb, float* C, int ldc, float* work);
size_t gemm_workspace_floats(const GemmVariant& v, int K);

// The transposed forms, same driver and micro-kernels (the operand is copied
// into the packed layout the micro-kernel reads):
//   gemm_f32_tn  C (M x N) = A^T B,  A stored K x M (lda >= M), B K x N
//   gemm_f32_nt  C (M x N) = A B^T,  A M x K, B stored N x K (ldb >= K)
// gemm_f32_tn needs gemm_tn_workspace_floats(v, K) floats of `work` (one
// packed MR x K strip of A^T more); gemm_f32_nt needs gemm_workspace_floats.
void gemm_f32_tn(const GemmVariant& v, int M, int N, int K, const float* A, int lda,
                 const float* B, int ldb, float* C, int ldc, float* work);
void gemm_f32_nt(const GemmVariant& v, int M, int N, int K, const float* A, int lda,
                 const float* B, int ldb, float* C, int ldc, float* work);
size_t gemm_tn_workspace_floats(const GemmVariant& v, int K);

//-----------------------------------------------------------------------------
// softmax_rows: stable row softmax
//-----------------------------------------------------------------------------
// rows x n scores S (row stride lds) -> weights W (row stride ldw). S and W
// must not overlap: the Trace shows both. With causal, S's masked entries are
// overwritten with -inf so the Trace's scores say what the softmax saw.
using SoftmaxRowsFn = void (*)(int rows, int n, float* s, int lds, float* w, int ldw, bool causal);

// Shared by every variant: row i's causal mask. Sets S(i, j) = -inf and
// W(i, j) = 0 for j > i when causal, returns how many leading columns take
// part in the softmax (i + 1, or all n).
inline int softmax_mask_row(int i, int n, bool causal, float* si, float* wi) {
  const int valid = causal && i + 1 < n ? i + 1 : n;
  for (int j = valid; j < n; ++j) si[j] = -std::numeric_limits<float>::infinity(), wi[j] = 0.f;
  return valid;
}

struct SoftmaxVariant {
  const char* name;  // e.g. "softmax_rows__wasmsimd_u16"
  SoftmaxRowsFn fn;
};

//-----------------------------------------------------------------------------
// softmax_backward_rows: the gradient through a row softmax
//-----------------------------------------------------------------------------
// With P = softmax(S) per row and dP = dLoss/dP, dLoss/dS is
//   dS(i,j) = alpha P(i,j) (dP(i,j) - r_i),   r_i = sum_k dP(i,k) P(i,k)
// (alpha folds a scale applied before the softmax: the backward passes
// alpha = 1/sqrt(dh), so dS is the gradient with respect to Q K^T itself).
// rows x n, row strides ldp, lddp, ldds. ds may be dp (same stride: each
// row's r_i is summed before the row is written); no other overlap.
using SoftmaxBackwardFn = void (*)(int rows, int n, const float* p, int ldp, const float* dp,
                                   int lddp, float alpha, float* ds, int ldds);

struct SoftmaxBackwardVariant {
  const char* name;  // e.g. "softmax_backward_rows__wasmsimd_u8"
  SoftmaxBackwardFn fn;
};

//-----------------------------------------------------------------------------
// transpose_scale: the packing step for Q K^T (not hot: L x dh per head)
//-----------------------------------------------------------------------------
// Out (cols x rows, row stride ldo) = alpha * In^T, In rows x cols (stride ldi).
void transpose_scale_f32(int rows, int cols, const float* in, int ldi, float alpha, float* out,
                         int ldo);

//-----------------------------------------------------------------------------
// registry
//-----------------------------------------------------------------------------
// Every variant compiled into this build, scalar references first. The scalar
// twins are the references the tests compare every other variant with.
const std::vector<GemmVariant>& gemm_variants();
const std::vector<SoftmaxVariant>& softmax_variants();
const std::vector<SoftmaxBackwardVariant>& softmax_backward_variants();
const GemmVariant& gemm_scalar();        // gemm_f32__scalar_1x4
const SoftmaxVariant& softmax_scalar();  // softmax_rows__scalar
const SoftmaxBackwardVariant& softmax_backward_scalar();  // softmax_backward_rows__scalar

// Provided by the ISA folder CMake compiles (kernels/wasm/ or kernels/generic/).
// A registry row with its name spelled once: the name is the function's own
// identifier, and a GEMM row's tile is pasted into that identifier, so a
// name cannot disagree with its tile or function (kernel_tests checks each
// name against its ISA).
#define HK_KERNEL_STR_(x) #x
#define HK_KERNEL_STR(x) HK_KERNEL_STR_(x)
#define HK_GEMM_FN(isa, mr, nr) gemm_f32__##isa##_##mr##x##nr
#define HK_GEMM_ROW(isa, mr, nr) \
  ::headroom::kernels::GemmVariant { HK_KERNEL_STR(HK_GEMM_FN(isa, mr, nr)), mr, nr, HK_GEMM_FN(isa, mr, nr) }
#define HK_KERNEL_ROW(fn) {#fn, fn}

struct IsaKernels {
  const char* isa;                     // "wasmsimd" or "generic"
  const char* display;                 // for the UI: "SIMD128", "tiled C++"
  std::vector<GemmVariant> gemm;       // fastest first: dispatch uses [0]
  std::vector<SoftmaxVariant> softmax; // fastest first
  bool prefer_kernels;                 // true: the build's default backend is Simd
  std::vector<SoftmaxBackwardVariant> softmax_backward;  // fastest first
};
const IsaKernels& isa_kernels();

//-----------------------------------------------------------------------------
// every kernel function, by name (registered in registry.cpp and the ISA file)
//-----------------------------------------------------------------------------
void gemm_f32__scalar_1x4(int mr, int K, const float* a, int lda, const float* b, int ldb,
                          float* c, int ldc);
void softmax_rows__scalar(int rows, int n, float* s, int lds, float* w, int ldw, bool causal);
void softmax_backward_rows__scalar(int rows, int n, const float* p, int ldp, const float* dp,
                                   int lddp, float alpha, float* ds, int ldds);

}  // namespace headroom::kernels
