// backward_tests.cpp: the batched forward and backward (attention_batch.h) and the
// optimisers (adam.h) against independent references.
//
// The gradient reference is a naive double-precision forward of the batch and
// of a loss, written here from the formula (loops, no Eigen products), and
// differentiated by central finite differences in double: every weight (and
// every input) is nudged by +-kFdStep and the loss difference divided by
// 2 kFdStep. The loss is the mean squared error against a fixed random target,
// loss = sum (Y - T)^2 / (B L D), so dY = 2 (Y - T) / (B L D).
// Adam is checked against hand-derived values: its first step moves each
// weight by lr g / (|g| + eps) ~ lr sign(g), and its second step against the
// update rule evaluated in double.
// Tolerances are named; a failing CHECK prints the worst difference.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "engine/core/adam.h"
#include "engine/core/attention_batch.h"
#include "reference.h"

using namespace headroom;

namespace {

// Float gradients (every backend) against double finite differences,
// relative to the largest gradient magnitude.
constexpr double kGradRelTol = 2e-4;
// Central-difference step in double: truncation ~1e-10, rounding ~1e-12.
constexpr double kFdStep = 1e-5;
// Two backends' float gradients (different summation orders, FMA or not).
constexpr double kBackendRelTol = 2e-5;

struct WeightsD {
  int D = 0, H = 0;
  std::vector<MatD> wq, wk, wv;  // H matrices D x dh
  MatD wo;                       // D x D
};

WeightsD to_double(const AttentionWeights& w) {
  WeightsD d;
  d.D = w.d_model;
  d.H = w.heads;
  for (int h = 0; h < w.heads; ++h) {
    d.wq.push_back(w.wq[h].cast<double>());
    d.wk.push_back(w.wk[h].cast<double>());
    d.wv.push_back(w.wv[h].cast<double>());
  }
  d.wo = w.wo.cast<double>();
  return d;
}

// The loss of the batch, loop by loop, in double.
double naive_loss(const MatD& x, int B, const WeightsD& w, const MatD& target) {
  const int L = static_cast<int>(x.rows()) / B, D = w.D, H = w.H, dh = D / H;
  double loss = 0;
  for (int b = 0; b < B; ++b) {
    MatD concat = MatD::Zero(L, D);
    for (int h = 0; h < H; ++h) {
      MatD q = MatD::Zero(L, dh), k = MatD::Zero(L, dh), v = MatD::Zero(L, dh);
      for (int i = 0; i < L; ++i)
        for (int c = 0; c < dh; ++c)
          for (int d = 0; d < D; ++d) {
            q(i, c) += x(b * L + i, d) * w.wq[h](d, c);
            k(i, c) += x(b * L + i, d) * w.wk[h](d, c);
            v(i, c) += x(b * L + i, d) * w.wv[h](d, c);
          }
      for (int i = 0; i < L; ++i) {
        std::vector<double> s(L, 0.0);
        double m = -1e300, sum = 0;
        for (int j = 0; j < L; ++j) {
          for (int c = 0; c < dh; ++c) s[j] += q(i, c) * k(j, c);
          s[j] /= std::sqrt(double(dh));
          m = std::max(m, s[j]);
        }
        for (int j = 0; j < L; ++j) sum += std::exp(s[j] - m);
        for (int j = 0; j < L; ++j)
          for (int c = 0; c < dh; ++c) concat(i, h * dh + c) += std::exp(s[j] - m) / sum * v(j, c);
      }
    }
    for (int i = 0; i < L; ++i)
      for (int c = 0; c < D; ++c) {
        double y = 0;
        for (int d = 0; d < D; ++d) y += concat(i, d) * w.wo(d, c);
        const double e = y - target(b * L + i, c);
        loss += e * e;
      }
  }
  return loss / (double(B) * L * D);
}

// d naive_loss / d m(i, j) for every entry of m, by central differences.
template <class F>
MatD finite_diff(MatD& m, F&& loss) {
  MatD g(m.rows(), m.cols());
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j) {
      const double keep = m(i, j);
      m(i, j) = keep + kFdStep;
      const double up = loss();
      m(i, j) = keep - kFdStep;
      const double down = loss();
      m(i, j) = keep;
      g(i, j) = (up - down) / (2 * kFdStep);
    }
  return g;
}

// dY of the mean squared error, from the engine's float Y.
Mat mse_dy(const Mat& y, const Mat& target) {
  return (y - target) * (2.f / static_cast<float>(y.size()));
}

float mse(const Mat& y, const Mat& target) {
  return (y - target).squaredNorm() / static_cast<float>(y.size());
}

AttentionGrads fill_grads(int D, int H, uint64_t seed) {
  const AttentionWeights r = ref::random_weights(D, H, seed, 1.f);
  return AttentionGrads{r.wq, r.wk, r.wv, r.wo};
}

struct Shape { int B, L, D, H; };

}  // namespace

TEST_CASE("backward_batch equals central finite differences in double, every backend") {
  const Shape shapes[] = {{1, 1, 4, 1}, {1, 3, 8, 1}, {2, 4, 8, 2}, {3, 1, 8, 4},
                          {2, 5, 12, 4}, {1, 7, 6, 2}, {4, 3, 8, 1}};
  for (const Shape& s : shapes) {
    const int BL = s.B * s.L;
    const Mat x = ref::random_mat(BL, s.D, 100 + s.D + s.L);
    const Mat target = ref::random_mat(BL, s.D, 200 + s.B);
    const AttentionWeights w = ref::random_weights(s.D, s.H, 300 + s.H, 0.8f);
    // the reference: finite differences of the double loss
    WeightsD wd = to_double(w);
    MatD xd = x.cast<double>();
    const MatD td = target.cast<double>();
    auto loss = [&] { return naive_loss(xd, s.B, wd, td); };
    std::vector<MatD> fq, fk, fv;
    for (int h = 0; h < s.H; ++h) {
      fq.push_back(finite_diff(wd.wq[h], loss));
      fk.push_back(finite_diff(wd.wk[h], loss));
      fv.push_back(finite_diff(wd.wv[h], loss));
    }
    const MatD fo = finite_diff(wd.wo, loss);
    const MatD fx = finite_diff(xd, loss);

    for (Backend b : {Backend::Eigen, Backend::Scalar, Backend::Simd}) {
      CAPTURE(backend_name(b)); CAPTURE(s.B); CAPTURE(s.L); CAPTURE(s.D); CAPTURE(s.H);
      BatchTrace t;
      AttentionGrads g;
      Mat dx;
      REQUIRE(forward_batch(x, s.B, w, t, b).is_ok());
      // the forward itself: the loss matches the double one
      CHECK(mse(t.out, target) == doctest::Approx(naive_loss(xd, s.B, wd, td)).epsilon(1e-5));
      REQUIRE(backward_batch(x, s.B, w, t, mse_dy(t.out, target), g, b, &dx).is_ok());
      double worst = 0;
      for (int h = 0; h < s.H; ++h) {
        worst = std::max(worst, ref::rel_diff(g.wq[h], fq[h]));
        worst = std::max(worst, ref::rel_diff(g.wk[h], fk[h]));
        worst = std::max(worst, ref::rel_diff(g.wv[h], fv[h]));
      }
      const double worst_wo = ref::rel_diff(g.wo, fo);
      const double worst_x = ref::rel_diff(dx, fx);
      CHECK(worst <= kGradRelTol);
      CHECK(worst_wo <= kGradRelTol);
      CHECK(worst_x <= kGradRelTol);
    }
  }
}

TEST_CASE("tied query and key: dW_Q + dW_K equals central finite differences of the shared matrix") {
  // W_K IS W_Q: the reference nudges one shared double matrix that serves as
  // both projections; the engine's gradient is tie_query_key_grads of the
  // untied one. H = 1, 2, 4.
  const Shape shapes[] = {{2, 4, 8, 1}, {2, 5, 8, 2}, {1, 6, 8, 4}, {3, 3, 12, 4}};
  for (const Shape& s : shapes) {
    CAPTURE(s.H); CAPTURE(s.L); CAPTURE(s.D);
    const int BL = s.B * s.L;
    const Mat x = ref::random_mat(BL, s.D, 400 + s.D + s.L);
    const Mat target = ref::random_mat(BL, s.D, 500 + s.B);
    AttentionWeights w = ref::random_weights(s.D, s.H, 600 + s.H, 0.8f);
    w.wk = w.wq;
    WeightsD wd = to_double(w);
    const MatD xd = x.cast<double>(), td = target.cast<double>();
    std::vector<MatD> fq;
    for (int h = 0; h < s.H; ++h) {
      auto loss = [&] {
        wd.wk[h] = wd.wq[h];  // one matrix: the nudge reaches both projections
        return naive_loss(xd, s.B, wd, td);
      };
      fq.push_back(finite_diff(wd.wq[h], loss));
      wd.wk[h] = wd.wq[h];
    }
    BatchTrace t;
    AttentionGrads g;
    REQUIRE(forward_batch(x, s.B, w, t, Backend::Eigen).is_ok());
    REQUIRE(backward_batch(x, s.B, w, t, mse_dy(t.out, target), g, Backend::Eigen).is_ok());
    const AttentionGrads untied = g;
    tie_query_key_grads(g);
    double worst = 0, worst_untied = 0;
    for (int h = 0; h < s.H; ++h) {
      worst = std::max(worst, ref::rel_diff(g.wq[h], fq[h]));
      worst_untied = std::max(worst_untied, ref::rel_diff(untied.wq[h], fq[h]));
      CHECK(g.wk[h] == g.wq[h]);
    }
    CHECK(worst <= kGradRelTol);
    // the perturbation that must show: dW_Q alone is not the tied gradient
    CHECK(worst_untied > 100 * kGradRelTol);
  }
}

TEST_CASE("gradients are not trivially small: the finite differences see them") {
  // Guards the test above against a loss whose gradients vanish: every
  // matrix's gradient has entries well above the tolerance floor.
  const Shape s{2, 4, 8, 2};
  const Mat x = ref::random_mat(s.B * s.L, s.D, 1);
  const Mat target = ref::random_mat(s.B * s.L, s.D, 2);
  const AttentionWeights w = ref::random_weights(s.D, s.H, 3, 0.8f);
  BatchTrace t;
  AttentionGrads g;
  REQUIRE(forward_batch(x, s.B, w, t, Backend::Scalar).is_ok());
  REQUIRE(backward_batch(x, s.B, w, t, mse_dy(t.out, target), g, Backend::Scalar).is_ok());
  for (int h = 0; h < s.H; ++h) {
    CHECK(g.wq[h].cwiseAbs().maxCoeff() > 1e-3f);
    CHECK(g.wk[h].cwiseAbs().maxCoeff() > 1e-3f);
    CHECK(g.wv[h].cwiseAbs().maxCoeff() > 1e-3f);
  }
  CHECK(g.wo.cwiseAbs().maxCoeff() > 1e-3f);
}

TEST_CASE("the batched forward equals the one-sequence forward, sequence by sequence") {
  const Shape s{3, 5, 16, 4};
  const Mat x = ref::random_mat(s.B * s.L, s.D, 9);
  const AttentionWeights w = ref::random_weights(s.D, s.H, 10);
  for (Backend b : {Backend::Eigen, Backend::Scalar, Backend::Simd}) {
    CAPTURE(backend_name(b));
    BatchTrace t;
    REQUIRE(forward_batch(x, s.B, w, t, b).is_ok());
    for (int seq = 0; seq < s.B; ++seq) {
      const Mat xs = x.middleRows(seq * s.L, s.L);
      const ref::NaiveTrace n = ref::naive_forward(xs, w);
      const Mat ys = t.out.middleRows(seq * s.L, s.L);
      CHECK(ref::rel_diff(ys, n.out) <= ref::kForwardRelTol);
      for (int h = 0; h < s.H; ++h) {
        const Mat p = t.weights(seq, h);
        CHECK(ref::rel_diff(p, n.weights[h]) <= ref::kForwardRelTol);
      }
    }
  }
}

TEST_CASE("the SIMD backend's gradients equal the scalar twin's") {
  const Shape shapes[] = {{32, 12, 64, 1}, {8, 12, 64, 2}, {4, 13, 48, 8}, {2, 33, 40, 5},
                          {3, 1, 16, 2}};
  for (const Shape& s : shapes) {
    CAPTURE(s.B); CAPTURE(s.L); CAPTURE(s.D); CAPTURE(s.H);
    const Mat x = ref::random_mat(s.B * s.L, s.D, 21);
    const Mat target = ref::random_mat(s.B * s.L, s.D, 22);
    const AttentionWeights w = ref::random_weights(s.D, s.H, 23, 0.3f);
    BatchTrace ts, tv;
    AttentionGrads gs, gv;
    Mat dxs, dxv;
    REQUIRE(forward_batch(x, s.B, w, ts, Backend::Scalar).is_ok());
    REQUIRE(forward_batch(x, s.B, w, tv, Backend::Simd).is_ok());
    REQUIRE(backward_batch(x, s.B, w, ts, mse_dy(ts.out, target), gs, Backend::Scalar, &dxs).is_ok());
    REQUIRE(backward_batch(x, s.B, w, tv, mse_dy(tv.out, target), gv, Backend::Simd, &dxv).is_ok());
    double worst = ref::rel_diff(gv.wo, gs.wo);
    for (int h = 0; h < s.H; ++h) {
      worst = std::max(worst, ref::rel_diff(gv.wq[h], gs.wq[h]));
      worst = std::max(worst, ref::rel_diff(gv.wk[h], gs.wk[h]));
      worst = std::max(worst, ref::rel_diff(gv.wv[h], gs.wv[h]));
    }
    worst = std::max(worst, ref::rel_diff(dxv, dxs));
    CHECK(worst <= kBackendRelTol);
  }
}

TEST_CASE("forward_batch and backward_batch refuse bad input and keep their state") {
  const Mat x = ref::random_mat(6, 8, 1);
  const AttentionWeights w = ref::random_weights(8, 2, 2);
  BatchTrace t;
  REQUIRE(forward_batch(x, 2, w, t, Backend::Scalar).is_ok());
  const Mat out = t.out;
  CHECK_FALSE(forward_batch(x, 4, w, t, Backend::Scalar).is_ok());  // 6 rows, 4 sequences
  CHECK_FALSE(forward_batch(x, 0, w, t, Backend::Scalar).is_ok());
  CHECK_FALSE(forward_batch(ref::random_mat(6, 7, 1), 2, w, t, Backend::Scalar).is_ok());
  CHECK(t.batch == 2);
  CHECK(t.out == out);
  AttentionGrads g;
  const Status s = backward_batch(x, 2, w, t, Mat::Zero(5, 8), g, Backend::Scalar);
  CHECK_FALSE(s.is_ok());
  CHECK(s.error.find("dY") != std::string::npos);
  CHECK(g.wo.size() == 0);  // nothing written
  CHECK_FALSE(backward_batch(x, 3, w, t, Mat::Zero(6, 8), g, Backend::Scalar).is_ok());
}

TEST_CASE("one SGD step is weights - lr * grad") {
  AttentionWeights w = ref::random_weights(8, 2, 5);
  const AttentionWeights before = w;
  const AttentionGrads g = fill_grads(8, 2, 6);
  const float lr = 0.05f;
  sgd_step(w, g, lr);
  double worst = 0;
  for (int h = 0; h < 2; ++h) {
    worst = std::max(worst, ref::rel_diff(w.wq[h], Mat(before.wq[h] - lr * g.wq[h])));
    worst = std::max(worst, ref::rel_diff(w.wk[h], Mat(before.wk[h] - lr * g.wk[h])));
    worst = std::max(worst, ref::rel_diff(w.wv[h], Mat(before.wv[h] - lr * g.wv[h])));
  }
  worst = std::max(worst, ref::rel_diff(w.wo, Mat(before.wo - lr * g.wo)));
  CHECK(worst <= 1e-7);
  CHECK((w.wo - before.wo).cwiseAbs().maxCoeff() > 1e-3f);  // it did move
}

TEST_CASE("Adam: first step ~ lr sign(g), second step as the rule in double") {
  const int D = 8, H = 2;
  AttentionWeights w = ref::random_weights(D, H, 7);
  const AttentionWeights w0 = w;
  const AttentionGrads g1 = fill_grads(D, H, 8), g2 = fill_grads(D, H, 9);
  AdamConfig cfg;
  cfg.lr = 0.01f;
  Adam adam(cfg);
  CHECK(adam.steps() == 0);
  adam.step(w, g1);
  CHECK(adam.steps() == 1);
  // step 1: m^ = g, v^ = g^2, so dw = -lr g / (|g| + eps)
  double worst1 = 0;
  for (int i = 0; i < w.wo.size(); ++i) {
    const double g = g1.wo.data()[i];
    const double moved = double(w.wo.data()[i]) - w0.wo.data()[i];
    const double sign = g > 0 ? 1.0 : -1.0;
    worst1 = std::max(worst1, std::abs(moved + cfg.lr * sign));
  }
  CHECK(worst1 <= cfg.lr * 1e-3);
  // step 2, by hand in double from w1
  const AttentionWeights w1 = w;
  adam.step(w, g2);
  CHECK(adam.steps() == 2);
  const double b1 = cfg.beta1, b2 = cfg.beta2, lr = cfg.lr, eps = cfg.eps;
  auto expect = [&](const Mat& wm1, const Mat& ga, const Mat& gb, const Mat& got) {
    double worst = 0;
    for (int i = 0; i < wm1.size(); ++i) {
      const double a = ga.data()[i], b = gb.data()[i];
      const double m = b1 * (1 - b1) * a + (1 - b1) * b;
      const double v = b2 * (1 - b2) * a * a + (1 - b2) * b * b;
      const double mh = m / (1 - b1 * b1), vh = v / (1 - b2 * b2);
      const double want = wm1.data()[i] - lr * mh / (std::sqrt(vh) + eps);
      worst = std::max(worst, std::abs(double(got.data()[i]) - want));
    }
    return worst;
  };
  double worst2 = expect(w1.wo, g1.wo, g2.wo, w.wo);
  for (int h = 0; h < H; ++h) {
    worst2 = std::max(worst2, expect(w1.wq[h], g1.wq[h], g2.wq[h], w.wq[h]));
    worst2 = std::max(worst2, expect(w1.wk[h], g1.wk[h], g2.wk[h], w.wk[h]));
    worst2 = std::max(worst2, expect(w1.wv[h], g1.wv[h], g2.wv[h], w.wv[h]));
  }
  CHECK(worst2 <= 1e-6);  // weights ~0.5, float rounding of a ~0.01 step
  // reset: the next step is a first step again
  adam.reset();
  CHECK(adam.steps() == 0);
  const AttentionWeights w2 = w;
  adam.step(w, g1);
  double worst3 = 0;
  for (int i = 0; i < w.wo.size(); ++i) {
    const double sign = g1.wo.data()[i] > 0 ? 1.0 : -1.0;
    worst3 = std::max(worst3, std::abs(double(w.wo.data()[i]) - w2.wo.data()[i] + cfg.lr * sign));
  }
  CHECK(worst3 <= cfg.lr * 1e-3);
}

TEST_CASE("Adam::set_lr refuses non-finite and non-positive rates, keeps the old one") {
  Adam adam;
  CHECK(adam.lr() == doctest::Approx(1e-3));
  CHECK(adam.set_lr(0.02f).is_ok());
  CHECK(adam.lr() == 0.02f);
  for (float bad : {0.f, -1e-3f, NAN, INFINITY, -INFINITY}) {
    CAPTURE(bad);
    const Status s = adam.set_lr(bad);
    CHECK_FALSE(s.is_ok());
    CHECK(s.error.find("learning rate") != std::string::npos);
    CHECK(adam.lr() == 0.02f);
  }
}

TEST_CASE("check_grads names a shape mismatch") {
  const AttentionWeights w = ref::random_weights(8, 2, 1);
  AttentionGrads g = fill_grads(8, 2, 2);
  CHECK(check_grads(w, g).is_ok());
  g.wk[1].resize(8, 3);
  CHECK_FALSE(check_grads(w, g).is_ok());
  CHECK_FALSE(check_grads(w, fill_grads(8, 4, 2)).is_ok());
}

TEST_CASE("training: the loss falls, and the same seed gives the same losses bit for bit") {
  const Shape s{4, 6, 16, 2};
  const Mat x = ref::random_mat(s.B * s.L, s.D, 31);
  const Mat target = ref::random_mat(s.B * s.L, s.D, 32, 0.5f);
  for (Backend b : {Backend::Eigen, Backend::Scalar, Backend::Simd}) {
    CAPTURE(backend_name(b));
    auto run = [&] {
      AttentionWeights w = ref::random_weights(s.D, s.H, 33, 0.25f);
      Adam adam(AdamConfig{0.01f});
      BatchTrace t;
      AttentionGrads g;
      Mat dy;
      std::vector<float> losses;
      for (int step = 0; step < 8; ++step) {
        REQUIRE(forward_batch(x, s.B, w, t, b).is_ok());
        losses.push_back(mse(t.out, target));
        dy = mse_dy(t.out, target);
        REQUIRE(backward_batch(x, s.B, w, t, dy, g, b).is_ok());
        adam.step(w, g);
      }
      return losses;
    };
    const std::vector<float> a = run(), c = run();
    CHECK(a == c);
    CHECK(a.back() < 0.9f * a.front());  // 8 Adam steps at lr 0.01 do descend
  }
}
