// adam.cpp: Adam and SGD over every matrix of AttentionWeights.
// See adam.h for the update rules.
#include "adam.h"

#include <cmath>
#include <string>
#include "engine/core/refusals.h"

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

// One matrix's Adam update (adam.h's rule), shared by Adam and AdamList.
void adam_update(const AdamConfig& c, float step_size, float inv_bc2, Mat& wm, const Mat& gm, Mat& mm,
                 Mat& vm) {
  const float b1 = c.beta1, b2 = c.beta2, eps = c.eps;
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
}

// lr / (1 - beta1^t) and 1 / (1 - beta2^t), in double then rounded once
void bias_corrections(const AdamConfig& c, int t, float& step_size, float& inv_bc2) {
  step_size = static_cast<float>(c.lr / (1.0 - std::pow(double(c.beta1), t)));
  inv_bc2 = static_cast<float>(1.0 / (1.0 - std::pow(double(c.beta2), t)));
}

// The rate check Adam and AdamList share: finite and > 0, else kept.
Status set_rate(AdamConfig& c, float lr) {
  if (!std::isfinite(lr) || !(lr > 0.f))
    return Status::fail(refusals::adam_lr, StatusArg::number(std::to_string(lr)));
  c.lr = lr;
  return Status::ok();
}

}  // namespace

Status check_grads(const AttentionWeights& w, const AttentionGrads& g) {
  const size_t H = w.wq.size();
  if (g.wq.size() != H || g.wk.size() != H || g.wv.size() != H)
    return Status::fail(refusals::gradient_heads, g.wq.size(), H);
  Status s;
  for_each_matrix(w, g, [&](const Mat& a, const Mat& b, size_t i) {
    if (s && (a.rows() != b.rows() || a.cols() != b.cols()))
      s = Status::fail(refusals::gradient_shape, i, b.rows(), b.cols(), a.rows(), a.cols());
  });
  return s;
}

Adam::Adam(AdamConfig config) : config_(config) {}

Status Adam::set_lr(float lr) {
  return set_rate(config_, lr);
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
  float step_size = 0, inv_bc2 = 0;
  bias_corrections(config_, t_, step_size, inv_bc2);
  auto update = [&](Mat& wm, const Mat& gm, Mat& mm, Mat& vm) {
    adam_update(config_, step_size, inv_bc2, wm, gm, mm, vm);
  };
  for (size_t h = 0; h < w.wq.size(); ++h) {
    update(w.wq[h], g.wq[h], m_.wq[h], v_.wq[h]);
    update(w.wk[h], g.wk[h], m_.wk[h], v_.wk[h]);
    update(w.wv[h], g.wv[h], m_.wv[h], v_.wv[h]);
  }
  update(w.wo, g.wo, m_.wo, v_.wo);
}

AdamList::AdamList(AdamConfig config) : config_(config) {}

Status AdamList::set_lr(float lr) {
  return set_rate(config_, lr);
}

void AdamList::reset() {
  t_ = 0;
  for (Mat& m : m_) m.setZero();
  for (Mat& v : v_) v.setZero();
}

void AdamList::step(const std::vector<Mat*>& w, const std::vector<const Mat*>& g) {
  bool same = m_.size() == g.size() && w.size() == g.size();
  for (size_t i = 0; same && i < g.size(); ++i)
    same = m_[i].rows() == g[i]->rows() && m_[i].cols() == g[i]->cols();
  if (!same) {  // first step, or new shapes: fresh moments
    m_.resize(g.size());
    v_.resize(g.size());
    for (size_t i = 0; i < g.size(); ++i) {
      m_[i].setZero(g[i]->rows(), g[i]->cols());
      v_[i].setZero(g[i]->rows(), g[i]->cols());
    }
    t_ = 0;
  }
  ++t_;
  float step_size = 0, inv_bc2 = 0;
  bias_corrections(config_, t_, step_size, inv_bc2);
  for (size_t i = 0; i < w.size() && i < g.size(); ++i) adam_update(config_, step_size, inv_bc2, *w[i], *g[i], m_[i], v_[i]);
}

void sgd_step(AttentionWeights& w, const AttentionGrads& g, float lr) {
  for_each_matrix(w, g, [lr](Mat& wm, const Mat& gm, size_t) {
    float* wp = wm.data();
    const float* gp = gm.data();
    for (Eigen::Index i = 0; i < wm.size(); ++i) wp[i] -= lr * gp[i];
  });
}

}  // namespace headroom
