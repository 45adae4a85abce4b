// gemm_f32__generic_6x16.cpp: portable C++ GEMM micro-kernel, 6 x 16 tile,
// written for the compiler to vectorise (native builds' fast path).
//
// Does: C[r][0..16) = sum_p A[r][p] B[p][0..16) for r < 6 (rows >= mr alias
// row mr-1). The 6 x 16 accumulator array is fixed-size, so at -O3 it lives in
// registers: with AVX2 that is 12 ymm accumulators + 2 for B + 1 broadcast,
// the classic Haswell/Zen tile; CMake compiles this folder with
// -ffp-contract=fast so a*b + c becomes one FMA where the target has it.
// Does not: use intrinsics or #ifs (portable: any compiler, any ISA), handle a
// column tail (the driver does).
#include "../kernels.h"

namespace headroom::kernels {

void gemm_f32__generic_6x16(int mr, int K, const float* a, int lda, const float* b, int ldb,
                            float* c, int ldc) {
  constexpr int MR = 6, NR = 16;
  const float* ar[MR];
  float* cr[MR];
  ar[0] = a;
  cr[0] = c;
  for (int r = 1; r < MR; ++r) {
    ar[r] = r < mr ? ar[r - 1] + lda : ar[r - 1];
    cr[r] = r < mr ? cr[r - 1] + ldc : cr[r - 1];
  }
  float acc[MR][NR] = {};
  for (int p = 0; p < K; ++p) {
    const float* bp = b + static_cast<long>(p) * ldb;
    for (int r = 0; r < MR; ++r) {
      const float x = ar[r][p];
      for (int j = 0; j < NR; ++j) acc[r][j] += x * bp[j];
    }
  }
  for (int r = MR - 1; r >= 0; --r)  // highest first: aliased rows end equal
    for (int j = 0; j < NR; ++j) cr[r][j] = acc[r][j];
}

}  // namespace headroom::kernels
