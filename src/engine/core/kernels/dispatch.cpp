// dispatch.cpp: Backend -> kernel set, and the build's default backend.
// See dispatch.h. The ISA folder CMake compiled (kernels/wasm/ or
// kernels/generic/) supplies isa_kernels(); nothing here tests the ISA.
#include "dispatch.h"

namespace headroom::kernels {

KernelSet kernel_set(Backend b) {
  if (b != Backend::Simd)
    return {&gemm_scalar(), &gemm_scalar(), &softmax_scalar(), &softmax_backward_scalar()};
  const IsaKernels& k = isa_kernels();
  const GemmVariant* narrow = &k.gemm.front();
  for (const GemmVariant& g : k.gemm)
    if (g.nr < narrow->nr) narrow = &g;
  return {&k.gemm.front(), narrow, &k.softmax.front(), &k.softmax_backward.front()};
}

const char* simd_isa_name() { return isa_kernels().isa; }

}  // namespace headroom::kernels

namespace headroom {

Backend default_backend() {
  return kernels::isa_kernels().prefer_kernels ? Backend::Simd : Backend::Eigen;
}

const char* backend_name(Backend b) {
  switch (b) {
    case Backend::Eigen: return "Eigen";
    case Backend::Scalar: return "scalar";
    case Backend::Simd: return kernels::isa_kernels().display;
  }
  return "?";
}

}  // namespace headroom
