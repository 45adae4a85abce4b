// adam.cpp: Adam and SGD over every matrix of AttentionWeights.
// See adam.h for the update rules.
#include "adam.h"

#include <cmath>
#include <string>

namespace headroom {

namespace {

// Calls f(weights, grad, index) for each of the 3H + 1 matrices.
template <class W, class G, class F>
void for_each_matrix(W& w, G& g, F&& f) {
  for (size_t h = 0; h < w.wq.size(); ++h) {
    f(w.wq[h], g.wq[h], 3 * h);
    f(w.wk[h], g.wk[h], 3 * h + 1);
    f(w.wv[h], g.wv[h], 3 * h + 2);
  }
  f(w.wo, g.wo, 3 * w.wq.size());
}

bool same_shapes(const AttentionGrads& a, const AttentionGrads& b) {
  if (a.wq.size() != b.wq.size() || a.wk.size() != b.wk.size() || a.wv.size() != b.wv.size())
    return false;
  bool same = true;
  for_each_matrix(a, b, [&](const Mat& x, const Mat& y, size_t) {
    same = same && x.rows() == y.rows() && x.cols() == y.cols();
  });
  return same;
}

void zero_like(const AttentionGrads& g, AttentionGrads& z) {
  z.wq.resize(g.wq.size());
  z.wk.resize(g.wk.size());
  z.wv.resize(g.wv.size());
  for_each_matrix(z, g, [](Mat& m, const Mat& shape, size_t) {
    m.setZero(shape.rows(), shape.cols());
  });
}

}  // namespace

Status check_grads(const AttentionWeights& w, const AttentionGrads& g) {
  const size_t H = w.wq.size();
  if (g.wq.size() != H || g.wk.size() != H || g.wv.size() != H)
    return Status::fail("the gradients have " + std::to_string(g.wq.size()) + " heads, the weights " +
                        std::to_string(H));
  Status s;
  for_each_matrix(w, g, [&](const Mat& a, const Mat& b, size_t i) {
    if (s && (a.rows() != b.rows() || a.cols() != b.cols()))
      s = Status::fail("gradient matrix " + std::to_string(i) + " is " + std::to_string(b.rows()) +
                       " x " + std::to_string(b.cols()) + ", its weight " +
                       std::to_string(a.rows()) + " x " + std::to_string(a.cols()));
  });
  return s;
}

Adam::Adam(AdamConfig config) : config_(config) {}

Status Adam::set_lr(float lr) {
  if (!std::isfinite(lr) || !(lr > 0.f))
    return Status::fail("the learning rate must be a finite number > 0, got " + std::to_string(lr));
  config_.lr = lr;
  return Status::ok();
}

void Adam::reset() {
  t_ = 0;
  for_each_matrix(m_, v_, [](Mat& m, Mat& v, size_t) {
    m.setZero();
    v.setZero();
  });
}

void Adam::step(AttentionWeights& w, const AttentionGrads& g) {
  if (!same_shapes(m_, g)) {  // first step, or new shapes: fresh moments
    zero_like(g, m_);
    zero_like(g, v_);
    t_ = 0;
  }
  ++t_;
  const float b1 = config_.beta1, b2 = config_.beta2, eps = config_.eps;
  // lr / (1 - beta1^t) and 1 / (1 - beta2^t), in double then rounded once
  const float step_size = static_cast<float>(config_.lr / (1.0 - std::pow(double(b1), t_)));
  const float inv_bc2 = static_cast<float>(1.0 / (1.0 - std::pow(double(b2), t_)));
  auto update = [&](Mat& wm, const Mat& gm, Mat& mm, Mat& vm) {
    float* wp = wm.data();
    const float* gp = gm.data();
    float* mp = mm.data();
    float* vp = vm.data();
    const Eigen::Index n = wm.size();
    for (Eigen::Index i = 0; i < n; ++i) {
      const float gi = gp[i];
      mp[i] = b1 * mp[i] + (1.f - b1) * gi;
      vp[i] = b2 * vp[i] + (1.f - b2) * gi * gi;
      wp[i] -= step_size * mp[i] / (std::sqrt(vp[i] * inv_bc2) + eps);
    }
  };
  for (size_t h = 0; h < w.wq.size(); ++h) {
    update(w.wq[h], g.wq[h], m_.wq[h], v_.wq[h]);
    update(w.wk[h], g.wk[h], m_.wk[h], v_.wk[h]);
    update(w.wv[h], g.wv[h], m_.wv[h], v_.wv[h]);
  }
  update(w.wo, g.wo, m_.wo, v_.wo);
}

void sgd_step(AttentionWeights& w, const AttentionGrads& g, float lr) {
  for_each_matrix(w, g, [lr](Mat& wm, const Mat& gm, size_t) {
    float* wp = wm.data();
    const float* gp = gm.data();
    for (Eigen::Index i = 0; i < wm.size(); ++i) wp[i] -= lr * gp[i];
  });
}

}  // namespace headroom
