// reference.h: helpers shared by the engine tests: a naive double-precision
// multi-head attention written from the formula, seeded random matrices, and
// comparisons that report the worst difference.
// Does not: call any engine code; it is the independent reference.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "engine/core/attention.h"

namespace ref {

using headroom::Mat;
using headroom::MatD;

// Named tolerances (relative to the largest magnitude of the reference).
constexpr double kForwardRelTol = 1e-5;
// One GEMM, K <= 700 terms of magnitude <= 1, float accumulation in any order
// with or without FMA, against double or against the scalar twin.
constexpr double kGemmRelTol = 1e-5;
// Softmax weights (all in [0, 1]): the rr2-p5 exp is within ~2 ulp of std::exp.
constexpr double kSoftmaxAbsTol = 2e-6;

inline Mat random_mat(int rows, int cols, uint64_t seed, float scale = 1.f) {
  Mat m(rows, cols);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      m(i, j) = scale * (static_cast<float>(s >> 40) / static_cast<float>(1 << 24) * 2.f - 1.f);
    }
  return m;
}

inline headroom::AttentionWeights random_weights(int D, int H, uint64_t seed, float scale = 0.5f) {
  headroom::AttentionWeights w;
  w.d_model = D;
  w.heads = H;
  const int dh = D / H;
  for (int h = 0; h < H; ++h) {
    w.wq.push_back(random_mat(D, dh, seed + 10 * h + 1, scale));
    w.wk.push_back(random_mat(D, dh, seed + 10 * h + 2, scale));
    w.wv.push_back(random_mat(D, dh, seed + 10 * h + 3, scale));
  }
  w.wo = random_mat(D, D, seed + 999, scale);
  return w;
}

struct NaiveTrace {
  std::vector<MatD> weights;  // per head, L x L
  std::vector<MatD> head_out; // per head, L x dh
  MatD concat, out;
};

// The formula, loop by loop, in double: no Eigen products, no shortcuts.
inline NaiveTrace naive_forward(const Mat& x, const headroom::AttentionWeights& w, bool causal = false) {
  const int L = static_cast<int>(x.rows()), D = w.d_model, H = w.heads, dh = D / H;
  NaiveTrace t;
  t.concat = MatD::Zero(L, D);
  for (int h = 0; h < H; ++h) {
    MatD q = MatD::Zero(L, dh), k = MatD::Zero(L, dh), v = MatD::Zero(L, dh);
    for (int i = 0; i < L; ++i)
      for (int c = 0; c < dh; ++c)
        for (int d = 0; d < D; ++d) {
          q(i, c) += double(x(i, d)) * w.wq[h](d, c);
          k(i, c) += double(x(i, d)) * w.wk[h](d, c);
          v(i, c) += double(x(i, d)) * w.wv[h](d, c);
        }
    MatD p = MatD::Zero(L, L);
    for (int i = 0; i < L; ++i) {
      const int last = causal ? i : L - 1;
      std::vector<double> s(L, 0.0);
      double m = -1e300;
      for (int j = 0; j <= last; ++j) {
        for (int c = 0; c < dh; ++c) s[j] += q(i, c) * k(j, c);
        s[j] /= std::sqrt(double(dh));
        m = std::max(m, s[j]);
      }
      double sum = 0;
      for (int j = 0; j <= last; ++j) sum += std::exp(s[j] - m);
      for (int j = 0; j <= last; ++j) p(i, j) = std::exp(s[j] - m) / sum;
    }
    MatD o = MatD::Zero(L, dh);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j)
        for (int c = 0; c < dh; ++c) o(i, c) += p(i, j) * v(j, c);
    for (int i = 0; i < L; ++i)
      for (int c = 0; c < dh; ++c) t.concat(i, h * dh + c) = o(i, c);
    t.weights.push_back(p);
    t.head_out.push_back(o);
  }
  t.out = MatD::Zero(L, D);
  for (int i = 0; i < L; ++i)
    for (int c = 0; c < D; ++c)
      for (int d = 0; d < D; ++d) t.out(i, c) += t.concat(i, d) * w.wo(d, c);
  return t;
}

// C = A B in double, the yardstick for the scalar GEMM twins.
inline MatD naive_gemm(const Mat& a, const Mat& b) {
  MatD c = MatD::Zero(a.rows(), b.cols());
  for (int i = 0; i < a.rows(); ++i)
    for (int j = 0; j < b.cols(); ++j)
      for (int p = 0; p < a.cols(); ++p) c(i, j) += double(a(i, p)) * b(p, j);
  return c;
}

// XNNPACK's leftover sizes for a tile: 1, one tile, below, above, multiples.
inline std::vector<int> leftovers(int tile) {
  std::vector<int> v{1, tile, 2 * tile, 3 * tile + 1};
  if (tile > 1) v.push_back(tile - 1);
  v.push_back(tile + 1);
  return v;
}

// max |a - b| / max(max |b|, tiny): one number a failing check can print.
template <class A, class B>
double rel_diff(const A& a, const B& b) {
  double worst = 0, scale = 1e-30;
  for (int i = 0; i < b.rows(); ++i)
    for (int j = 0; j < b.cols(); ++j) {
      worst = std::max(worst, std::abs(double(a(i, j)) - double(b(i, j))));
      scale = std::max(scale, std::abs(double(b(i, j))));
    }
  return worst / scale;
}

// A kernel's M x N result read back from a row-major buffer with row stride
// ldc; `padding_untouched` is whether the ldc - N floats after each row (the
// caller fills the buffer with NaN first) are still NaN.
inline Mat read_strided(const std::vector<float>& c, int M, int N, int ldc, bool* padding_untouched) {
  Mat out(M, N);
  bool untouched = true;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) out(i, j) = c[size_t(i) * ldc + j];
    for (int j = N; j < ldc; ++j) untouched = untouched && std::isnan(c[size_t(i) * ldc + j]);
  }
  *padding_untouched = untouched;
  return out;
}

}  // namespace ref
