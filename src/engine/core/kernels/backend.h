// backend.h: the names of the forward pass's implementations.
//
// Does: declare Backend and the two functions kernels/dispatch.cpp defines
// for it: the build's default backend and its display name.
// Does not: pick kernels (dispatch.h does) or include anything above
// kernels/ (attention.h includes this file, never the other way round).
#pragma once

namespace headroom {

// Which implementation runs the hot loops (see dispatch.h):
//   Eigen   Eigen expressions (the readable reference path),
//   Scalar  the scalar reference kernels (kernels/*__scalar*),
//   Simd    the build's fast kernels: WebAssembly SIMD128 under Emscripten,
//           the portable register-tiled C++ kernels natively.
enum class Backend { Eigen, Scalar, Simd };

// The backend this build runs unless told otherwise: Simd on the web (wasm
// Eigen has no SIMD128 packet math), Eigen natively. Defined in dispatch.cpp.
Backend default_backend();
// "Eigen", "scalar", "SIMD128" or "tiled C++".
const char* backend_name(Backend b);

}  // namespace headroom
