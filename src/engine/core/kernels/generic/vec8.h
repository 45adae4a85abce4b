// vec8.h: the portable 8-float vector the generic kernels are written in.
//
// Does: name GCC/clang's vector extension type for 8 floats (one AVX
// register, two SSE/NEON registers: the compiler splits it as the target
// needs) and unaligned load/store through memcpy, which compiles to one
// vmovups on AVX.
// Does not: use intrinsics or test the ISA; it is for kernels/generic/ only.
#pragma once
#include <cstring>

namespace headroom::kernels::generic {

typedef float v8 __attribute__((vector_size(32)));

inline v8 load8(const float* p) {
  v8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

inline void store8(float* p, v8 v) { std::memcpy(p, &v, sizeof v); }

}  // namespace headroom::kernels::generic
