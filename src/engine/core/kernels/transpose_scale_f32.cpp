// transpose_scale_f32.cpp: Out = alpha * In^T, the packing step for scores.
//
// Does: turns K_h (L x dh) into alpha K_h^T (dh x L) so Q_h K_h^T / sqrt(dh)
// becomes a plain GEMM whose B rows are contiguous. O(L dh) per head against
// O(L^2 dh) for the product it feeds, so one portable loop serves every ISA.
// Does not: allocate (the caller owns Out).
#include "kernels.h"

namespace headroom::kernels {

void transpose_scale_f32(int rows, int cols, const float* in, int ldi, float alpha, float* out,
                         int ldo) {
  // Blocks of 8 rows: reads stay within a few cache lines of In, writes walk
  // 8 consecutive floats of each Out row.
  for (int i0 = 0; i0 < rows; i0 += 8) {
    const int i1 = i0 + 8 < rows ? i0 + 8 : rows;
    for (int c = 0; c < cols; ++c)
      for (int i = i0; i < i1; ++i)
        out[static_cast<long>(c) * ldo + i] = alpha * in[static_cast<long>(i) * ldi + c];
  }
}

}  // namespace headroom::kernels
