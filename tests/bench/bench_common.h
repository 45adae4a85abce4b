// bench_common.h: what both benchmarks share: seeded uniform matrices and
// the median-of-samples timer.
// Does not: print anything, or know what it times.
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "../engine/reference.h"
#include "engine/core/tensor.h"

namespace bench {

// Uniform in [-scale, scale), xorshift64 from a seed: the engine tests' own
// generator (tests/engine/reference.h), so both see the same matrices.
inline headroom::Mat uniform_mat(int rows, int cols, uint64_t seed, float scale) {
  return ref::random_mat(rows, cols, seed, scale);
}

inline double now_s() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

// Median seconds per call of run(): a warm-up of at least two calls and
// warmup_s seconds (JIT tiers, caches, buffer sizing), then min_samples
// samples (fewer, >= 3, when one call takes seconds), each >= 20 ms of calls.
template <class F>
double median_seconds(F&& run, int min_samples, double warmup_s) {
  int runs = 0;
  const double w0 = now_s();
  do { run(); ++runs; } while (runs < 2 || now_s() - w0 < warmup_s);
  const double one = (now_s() - w0) / runs;
  const int reps = std::max(1, static_cast<int>(0.02 / one));
  const int samples = one > 1.0 ? 3 : one > 0.2 ? std::max(3, min_samples / 2) : min_samples;
  std::vector<double> per;
  for (int s = 0; s < samples; ++s) {
    const double t0 = now_s();
    for (int r = 0; r < reps; ++r) run();
    per.push_back((now_s() - t0) / reps);
  }
  std::nth_element(per.begin(), per.begin() + per.size() / 2, per.end());
  return per[per.size() / 2];
}

}  // namespace bench
