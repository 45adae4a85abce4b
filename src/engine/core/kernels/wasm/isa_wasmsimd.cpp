// isa_wasmsimd.cpp: the WebAssembly SIMD128 variants this folder provides.
//
// Does: list every kernel of kernels/wasm/, fastest first (dispatch.cpp runs
// entry [0] of each family), and state that this build runs the kernels by
// default (Backend::Simd): wasm Eigen has no SIMD128 packet math.
// 4x8 first: on x86-64 V8 allocates 15 xmm registers and the 6x8 tile's 12
// accumulators + 2 B + 1 broadcast spill (measured ~30% slower here); 6x8 is
// kept for hosts with 32 vector registers (arm64) and as a second tested tile.
// Does not: choose between backends (dispatch.cpp does).
#include "../kernels.h"

namespace headroom::kernels {

void gemm_f32__wasmsimd_4x8(int, int, const float*, int, const float*, int, float*, int);
void gemm_f32__wasmsimd_6x8(int, int, const float*, int, const float*, int, float*, int);
void softmax_rows__wasmsimd_u16(int, int, float*, int, float*, int, bool);
void softmax_backward_rows__wasmsimd_u8(int, int, const float*, int, const float*, int, float,
                                        float*, int);

const IsaKernels& isa_kernels() {
  static const IsaKernels k{
      "wasmsimd",
      "SIMD128",
      {HK_GEMM_ROW(wasmsimd, 4, 8), HK_GEMM_ROW(wasmsimd, 6, 8)},
      {HK_KERNEL_ROW(softmax_rows__wasmsimd_u16)},
      true,
      {HK_KERNEL_ROW(softmax_backward_rows__wasmsimd_u8)}};
  return k;
}

}  // namespace headroom::kernels
