// bench_train.cpp: time one training step per backend over the issue's
// (B, L, D, H) list, on DESIGN.md's "Training benchmark model".
//
// Does: for each (B, L, D, H) and each variant of this platform
//   wasm:   train-wasm-scalar (Backend::Scalar), train-wasm-simd128 (Backend::Simd)
//   native: train-native (Backend::Simd: kernels/generic/),
//           train-native-eigen (Backend::Eigen)
// builds the model: X and target (B*L) x D fixed random in [-1, 1), weights
// uniform(-1/sqrt(D), 1/sqrt(D)); one step is
//   forward_batch, loss = mean over all B*L*D of (Y - target)^2 and
//   dY = 2 (Y - target) / (B*L*D), backward_batch (dW_Q, dW_K, dW_V, dW_O;
//   no dX), Adam(lr 1e-3, 0.9, 0.999, 1e-8)
// runs a warm-up (>= 2 steps and 100 ms), then repeated samples (each >= 20
// ms of steps, fewer samples when a step takes seconds), and prints one JSON
// line with the median time per step and GFLOP/s, FLOPs = 3 x the forward's
// 8 B L D^2 + 4 B L^2 D (the convention other libraries' figures use):
//   {"B":32,"L":12,"D":128,"H":1,"variant":"train-wasm-simd128","ms":4.1,"gflops":38.5}
// The loss of the last step goes to stderr, so a broken step shows.
// Does not: print the table (tests/bench/table_train.mjs reads these lines),
// pin threads, or check gradients (the test suites do).
//
// Usage: bench_train --platform wasm|native [--min-samples N] [--only B,L,D,H]
//                    [--variant NAME] [--steps N]
// --steps N times exactly N steps after two warm-up steps (one sample), so an
// outside timer (`/usr/bin/time`: CPU seconds) can divide by a known count
// when the machine is too loaded for wall-clock medians.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.h"
#include "engine/core/adam.h"
#include "engine/core/attention_batch.h"

using namespace headroom;

namespace {

struct Config { int B, L, D, H; };
const Config kConfigs[] = {{32, 12, 128, 1}, {32, 12, 128, 2}, {32, 12, 128, 8},
                           {16, 32, 128, 2}, {8, 128, 256, 8}, {4, 512, 512, 8}};

struct Variant { const char* name; Backend backend; };
const Variant kWasm[] = {{"train-wasm-scalar", Backend::Scalar},
                         {"train-wasm-simd128", Backend::Simd}};
const Variant kNative[] = {{"train-native", Backend::Simd},
                           {"train-native-eigen", Backend::Eigen}};

struct Model {
  Mat x, target, dy;
  AttentionWeights w;
  BatchTrace trace;
  AttentionGrads grads;
  Adam adam{AdamConfig{1e-3f, 0.9f, 0.999f, 1e-8f}};
  float loss = 0.f;
};

Model make_model(const Config& c) {
  Model m;
  m.x = bench::uniform_mat(c.B * c.L, c.D, 1, 1.f);
  m.target = bench::uniform_mat(c.B * c.L, c.D, 2, 1.f);
  m.dy.resize(c.B * c.L, c.D);
  const float bound = 1.f / std::sqrt(static_cast<float>(c.D));
  const int dh = c.D / c.H;
  m.w.d_model = c.D;
  m.w.heads = c.H;
  for (int h = 0; h < c.H; ++h) {
    m.w.wq.push_back(bench::uniform_mat(c.D, dh, 10 + 3 * h, bound));
    m.w.wk.push_back(bench::uniform_mat(c.D, dh, 11 + 3 * h, bound));
    m.w.wv.push_back(bench::uniform_mat(c.D, dh, 12 + 3 * h, bound));
  }
  m.w.wo = bench::uniform_mat(c.D, c.D, 9, bound);
  return m;
}

// forward + loss + backward + Adam
void train_step(Model& m, int batch, Backend b) {
  if (Status s = forward_batch(m.x, batch, m.w, m.trace, b); !s) {
    std::fprintf(stderr, "bench_train: %s\n", s.error.c_str());
    std::exit(1);
  }
  const float* y = m.trace.out.data();
  const float* t = m.target.data();
  float* dy = m.dy.data();
  const Eigen::Index n = m.dy.size();
  const float k = 2.f / static_cast<float>(n);
  double loss = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const float e = y[i] - t[i];
    loss += double(e) * e;
    dy[i] = k * e;
  }
  m.loss = static_cast<float>(loss / double(n));
  if (Status s = backward_batch(m.x, batch, m.w, m.trace, m.dy, m.grads, b); !s) {
    std::fprintf(stderr, "bench_train: %s\n", s.error.c_str());
    std::exit(1);
  }
  m.adam.step(m.w, m.grads);
}

// Median seconds per training step; fresh model per variant.
double time_steps(const Config& c, Backend b, int min_samples, int fixed_steps, float& last_loss) {
  Model m = make_model(c);
  if (fixed_steps > 0) {
    train_step(m, c.B, b);
    train_step(m, c.B, b);
    const double t0 = bench::now_s();
    for (int i = 0; i < fixed_steps; ++i) train_step(m, c.B, b);
    last_loss = m.loss;
    return (bench::now_s() - t0) / fixed_steps;
  }
  const double s = bench::median_seconds([&] { train_step(m, c.B, b); }, min_samples, 0.1);
  last_loss = m.loss;
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  std::string platform;
  int min_samples = 11;
  int only[4] = {0, 0, 0, 0};
  std::string only_variant;
  int fixed_steps = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--platform") && i + 1 < argc) platform = argv[++i];
    else if (!std::strcmp(argv[i], "--min-samples") && i + 1 < argc) min_samples = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      std::sscanf(argv[++i], "%d,%d,%d,%d", &only[0], &only[1], &only[2], &only[3]);
    else if (!std::strcmp(argv[i], "--variant") && i + 1 < argc) only_variant = argv[++i];
    else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) fixed_steps = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr,
                   "usage: %s --platform wasm|native [--min-samples N] [--only B,L,D,H] "
                   "[--variant NAME] [--steps N]\n", argv[0]);
      return 2;
    }
  }
  const Variant* begin;
  const Variant* end;
  if (platform == "wasm") begin = std::begin(kWasm), end = std::end(kWasm);
  else if (platform == "native") begin = std::begin(kNative), end = std::end(kNative);
  else { std::fprintf(stderr, "bench_train: --platform must be wasm or native\n"); return 2; }
  if (min_samples < 3) min_samples = 3;

  for (const Config& c : kConfigs) {
    if (only[0] && (c.B != only[0] || c.L != only[1] || c.D != only[2] || c.H != only[3])) continue;
    const double flops = 3.0 * (8.0 * c.B * c.L * c.D * c.D + 4.0 * c.B * c.L * c.L * c.D);
    for (const Variant* v = begin; v != end; ++v) {
      if (!only_variant.empty() && only_variant != v->name) continue;
      float loss = 0.f;
      const double s = time_steps(c, v->backend, min_samples, fixed_steps, loss);
      std::printf("{\"B\":%d,\"L\":%d,\"D\":%d,\"H\":%d,\"variant\":\"%s\",\"ms\":%.4g,\"gflops\":%.3g}\n",
                  c.B, c.L, c.D, c.H, v->name, s * 1e3, flops / s * 1e-9);
      std::fflush(stdout);
      std::fprintf(stderr, "  (%s: loss after the timed steps %.6g)\n", v->name, loss);
    }
  }
  return 0;
}
