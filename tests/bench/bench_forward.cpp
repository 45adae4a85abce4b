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
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "engine/attention.h"

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

Mat random_mat(int rows, int cols, uint64_t seed) {
  Mat m(rows, cols);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      m(i, j) = static_cast<float>(s >> 40) / static_cast<float>(1 << 24) - 0.5f;
    }
  return m;
}

double now_s() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Median seconds per forward.
double time_forward(const Mat& x, const AttentionWeights& w, Backend b, int min_samples) {
  Trace t;
  ForwardOptions opt;
  opt.backend = b;
  // warm-up: at least two runs and 50 ms (JIT tiers, caches, Trace sizing)
  int runs = 0;
  const double w0 = now_s();
  do { forward(x, w, t, opt); ++runs; } while (runs < 2 || now_s() - w0 < 0.05);
  const double one = (now_s() - w0) / runs;
  const int reps = std::max(1, static_cast<int>(0.02 / one));
  // samples: min_samples, fewer (>= 3) when one forward takes seconds
  const int samples = one > 1.0 ? 3 : one > 0.2 ? std::max(3, min_samples / 2) : min_samples;
  std::vector<double> per;
  for (int s = 0; s < samples; ++s) {
    const double t0 = now_s();
    for (int r = 0; r < reps; ++r) forward(x, w, t, opt);
    per.push_back((now_s() - t0) / reps);
  }
  std::nth_element(per.begin(), per.begin() + per.size() / 2, per.end());
  return per[per.size() / 2];
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
    const Mat x = random_mat(c.L, c.D, 1);
    AttentionWeights w;
    w.d_model = c.D;
    w.heads = c.H;
    const int dh = c.D / c.H;
    for (int h = 0; h < c.H; ++h) {
      w.wq.push_back(random_mat(c.D, dh, 10 + 3 * h));
      w.wk.push_back(random_mat(c.D, dh, 11 + 3 * h));
      w.wv.push_back(random_mat(c.D, dh, 12 + 3 * h));
    }
    w.wo = random_mat(c.D, c.D, 9);
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
