// dispatch.h: the one place that decides which kernels a Backend runs.
//
// Does: map Backend::Scalar to the scalar reference kernels and Backend::Simd
// to the ISA folder's fastest kernels (WebAssembly SIMD128 under Emscripten,
// the portable register-tiled C++ kernels natively), and name the build's
// default backend: Simd on the web (Eigen has no SIMD128 packet math there),
// Eigen natively (it has SSE/AVX packet math).
// default_backend() and backend_name() (declared in backend.h) live in
// dispatch.cpp too.
// Does not: run anything; Backend::Eigen has no kernel set (attention.cpp
// runs Eigen expressions for it).
#pragma once
#include "backend.h"
#include "kernels.h"

namespace headroom::kernels {

struct KernelSet {
  const GemmVariant* gemm;         // the fastest tile
  const GemmVariant* gemm_narrow;  // the narrowest tile: for N < gemm->nr
  const SoftmaxVariant* softmax;
  const SoftmaxBackwardVariant* softmax_backward;
  // The tile for a product with N columns.
  const GemmVariant& gemm_for(int N) const { return N < gemm->nr ? *gemm_narrow : *gemm; }
};

// Kernels for Backend::Scalar or Backend::Simd (Eigen: the scalar set; unused).
KernelSet kernel_set(Backend b);
// "scalar", "wasmsimd" or "generic": what Backend::Simd runs in this build.
const char* simd_isa_name();

}  // namespace headroom::kernels
