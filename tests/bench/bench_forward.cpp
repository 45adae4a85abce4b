// bench_forward.cpp: time forward() per backend over the (L, D, H) list.
//
// Does: for each (L, D, H) and each variant of this platform
//   wasm:   wasm-scalar (Backend::Scalar), wasm-eigen (Backend::Eigen),
//           wasm-simd128 (Backend::Simd: kernels/wasm/)
//   native: native (Backend::Simd: kernels/generic/), native-eigen (Eigen)
// runs a warm-up, then repeated samples (each long enough to time, >= 20 ms
// where one forward is shorter), and prints one JSON line with the median
// time per forward and GFLOP/s, FLOPs = 2 L D^2 4 + 4 L^2 D (the four
// projections plus Q K^T and P V; softmax not counted):
//   {"L":512,"D":512,"H":8,"variant":"wasm-simd128","ms":12.3,"gflops":21.8}
// Does not: print the table (tests/bench/table.mjs reads these lines), pin
// threads, or check results (the test suites do).
//
// Usage: bench_forward --platform wasm|native [--min-samples N] [--only L,D,H]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "engine/core/attention.h"

using namespace headroom;

namespace {

struct Config { int L, D, H; };
const Config kConfigs[] = {{12, 64, 1},   {12, 64, 2},   {12, 64, 8},
                           {128, 256, 8}, {512, 512, 8}, {1024, 768, 12}};

struct Variant { const char* name; Backend backend; };
const Variant kWasm[] = {{"wasm-scalar", Backend::Scalar},
                         {"wasm-eigen", Backend::Eigen},
                         {"wasm-simd128", Backend::Simd}};
const Variant kNative[] = {{"native", Backend::Simd}, {"native-eigen", Backend::Eigen}};

// Median seconds per forward.
double time_forward(const Mat& x, const AttentionWeights& w, Backend b, int min_samples) {
  Trace t;
  ForwardOptions opt;
  opt.backend = b;
  return bench::median_seconds([&] { forward(x, w, t, opt); }, min_samples, 0.05);
}

}  // namespace

int main(int argc, char** argv) {
  std::string platform;
  int min_samples = 11;
  int only[3] = {0, 0, 0};
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--platform") && i + 1 < argc) platform = argv[++i];
    else if (!std::strcmp(argv[i], "--min-samples") && i + 1 < argc) min_samples = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      std::sscanf(argv[++i], "%d,%d,%d", &only[0], &only[1], &only[2]);
    else { std::fprintf(stderr, "usage: %s --platform wasm|native [--min-samples N] [--only L,D,H]\n", argv[0]); return 2; }
  }
  const Variant* begin;
  const Variant* end;
  if (platform == "wasm") begin = std::begin(kWasm), end = std::end(kWasm);
  else if (platform == "native") begin = std::begin(kNative), end = std::end(kNative);
  else { std::fprintf(stderr, "bench_forward: --platform must be wasm or native\n"); return 2; }
  if (min_samples < 3) min_samples = 3;

  for (const Config& c : kConfigs) {
    if (only[0] && (c.L != only[0] || c.D != only[1] || c.H != only[2])) continue;
    const Mat x = bench::uniform_mat(c.L, c.D, 1, 0.5f);
    AttentionWeights w;
    w.d_model = c.D;
    w.heads = c.H;
    const int dh = c.D / c.H;
    for (int h = 0; h < c.H; ++h) {
      w.wq.push_back(bench::uniform_mat(c.D, dh, 10 + 3 * h, 0.5f));
      w.wk.push_back(bench::uniform_mat(c.D, dh, 11 + 3 * h, 0.5f));
      w.wv.push_back(bench::uniform_mat(c.D, dh, 12 + 3 * h, 0.5f));
    }
    w.wo = bench::uniform_mat(c.D, c.D, 9, 0.5f);
    const double flops = 2.0 * c.L * c.D * c.D * 4 + 4.0 * c.L * c.L * c.D;
    for (const Variant* v = begin; v != end; ++v) {
      const double s = time_forward(x, w, v->backend, min_samples);
      std::printf("{\"L\":%d,\"D\":%d,\"H\":%d,\"variant\":\"%s\",\"ms\":%.4g,\"gflops\":%.3g}\n",
                  c.L, c.D, c.H, v->name, s * 1e3, flops / s * 1e-9);
      std::fflush(stdout);
    }
  }
  return 0;
}
