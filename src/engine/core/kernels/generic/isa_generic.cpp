// isa_generic.cpp: the portable variants native builds run for Backend::Simd.
//
// Does: list every kernel of kernels/generic/, fastest first (dispatch.cpp
// runs entry [0] of each family, and the narrowest GEMM tile when a product
// has fewer columns than [0]'s tile). These are plain C++ tiles the compiler
// vectorises for whatever -march the build uses, so a native build's
// Backend::Simd means "the register-tiled kernels", not SIMD128. The native
// default backend stays Eigen (it has real SSE/AVX packet math).
// Does not: choose between backends (dispatch.cpp does).
#include "../kernels.h"

namespace headroom::kernels {

void gemm_f32__generic_6x16(int, int, const float*, int, const float*, int, float*, int);
void gemm_f32__generic_6x8(int, int, const float*, int, const float*, int, float*, int);
void softmax_rows__generic_u8(int, int, float*, int, float*, int, bool);
void softmax_backward_rows__generic_u8(int, int, const float*, int, const float*, int, float,
                                       float*, int);

const IsaKernels& isa_kernels() {
  static const IsaKernels k{"generic",
                            "tiled C++",
                            {HK_GEMM_ROW(generic, 6, 16), HK_GEMM_ROW(generic, 6, 8)},
                            {HK_KERNEL_ROW(softmax_rows__generic_u8)},
                            false,
                            {HK_KERNEL_ROW(softmax_backward_rows__generic_u8)}};
  return k;
}

}  // namespace headroom::kernels
