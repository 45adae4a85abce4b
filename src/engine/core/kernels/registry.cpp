// registry.cpp: every kernel variant compiled into this build, in one list
// per family: the scalar references first, then the ISA folder's variants.
// Tests loop over these lists; dispatch.cpp picks from them.
// Does not: choose a variant for the forward pass.
#include "kernels.h"

namespace headroom::kernels {

const GemmVariant& gemm_scalar() {
  static const GemmVariant v = HK_GEMM_ROW(scalar, 1, 4);
  return v;
}

const SoftmaxVariant& softmax_scalar() {
  static const SoftmaxVariant v = HK_KERNEL_ROW(softmax_rows__scalar);
  return v;
}

const SoftmaxBackwardVariant& softmax_backward_scalar() {
  static const SoftmaxBackwardVariant v = HK_KERNEL_ROW(softmax_backward_rows__scalar);
  return v;
}

const std::vector<GemmVariant>& gemm_variants() {
  static const std::vector<GemmVariant> all = [] {
    std::vector<GemmVariant> v{gemm_scalar()};
    for (const GemmVariant& g : isa_kernels().gemm) v.push_back(g);
    return v;
  }();
  return all;
}

const std::vector<SoftmaxVariant>& softmax_variants() {
  static const std::vector<SoftmaxVariant> all = [] {
    std::vector<SoftmaxVariant> v{softmax_scalar()};
    for (const SoftmaxVariant& s : isa_kernels().softmax) v.push_back(s);
    return v;
  }();
  return all;
}

const std::vector<SoftmaxBackwardVariant>& softmax_backward_variants() {
  static const std::vector<SoftmaxBackwardVariant> all = [] {
    std::vector<SoftmaxBackwardVariant> v{softmax_backward_scalar()};
    for (const SoftmaxBackwardVariant& s : isa_kernels().softmax_backward) v.push_back(s);
    return v;
  }();
  return all;
}

}  // namespace headroom::kernels
