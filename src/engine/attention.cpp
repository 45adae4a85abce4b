// attention.cpp: the forward pass, written as numbered passes.
// See attention.h for the maths and shapes. The hot loops are Eigen
// expressions here; kernels/ holds the scalar and SIMD128 variants.
#include "attention.h"

#include <cmath>
#include <limits>
#include <string>

namespace headroom {

Status check_heads(int d_model, int heads) {
  if (d_model <= 0) return Status::fail("d_model must be positive, got " + std::to_string(d_model));
  if (heads <= 0)
    return Status::fail("the number of heads must be at least 1, got " + std::to_string(heads));
  if (heads > d_model)
    return Status::fail(std::to_string(heads) + " heads cannot share " + std::to_string(d_model) +
                        " channels: each head needs at least one");
  if (d_model % heads != 0)
    return Status::fail(std::to_string(heads) + " heads do not divide d_model = " +
                        std::to_string(d_model) + " into equal head sizes");
  return Status::ok();
}

Status check_weights(const AttentionWeights& w) {
  if (Status s = check_heads(w.d_model, w.heads); !s) return s;
  const int D = w.d_model, dh = w.d_head();
  const size_t H = static_cast<size_t>(w.heads);
  if (w.wq.size() != H || w.wk.size() != H || w.wv.size() != H)
    return Status::fail("expected " + std::to_string(H) + " W_Q, W_K and W_V matrices");
  for (size_t h = 0; h < H; ++h)
    for (const Mat* m : {&w.wq[h], &w.wk[h], &w.wv[h]})
      if (m->rows() != D || m->cols() != dh)
        return Status::fail("head " + std::to_string(h) + ": a projection is " +
                            std::to_string(m->rows()) + " x " + std::to_string(m->cols()) +
                            ", expected " + std::to_string(D) + " x " + std::to_string(dh));
  if (w.wo.rows() != D || w.wo.cols() != D)
    return Status::fail("W_O must be " + std::to_string(D) + " x " + std::to_string(D));
  return Status::ok();
}

Status forward(const Mat& x, const AttentionWeights& w, Trace& trace, const ForwardOptions& opt) {
  if (Status s = check_weights(w); !s) return s;
  if (x.cols() != w.d_model)
    return Status::fail("X has " + std::to_string(x.cols()) + " columns, d_model is " +
                        std::to_string(w.d_model));
  if (x.rows() < 1) return Status::fail("X has no rows: the sequence is empty");

  const Eigen::Index L = x.rows(), D = w.d_model, dh = w.d_head();
  const int H = w.heads;
  const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
  const float neg_inf = -std::numeric_limits<float>::infinity();

  trace.heads.resize(static_cast<size_t>(H));
  trace.concat.resize(L, D);
  trace.out.resize(L, D);

  for (int h = 0; h < H; ++h) {
    HeadTrace& t = trace.heads[static_cast<size_t>(h)];
    // pass 1: projections Q_h, K_h, V_h = X W_*^h                    (L x dh)
    t.q.noalias() = x * w.wq[h];
    t.k.noalias() = x * w.wk[h];
    t.v.noalias() = x * w.wv[h];
    // pass 2: scaled scores S = Q K^T / sqrt(dh), causal entries -inf (L x L)
    t.scores.noalias() = (t.q * t.k.transpose()) * scale;
    if (opt.causal)
      for (Eigen::Index i = 0; i < L; ++i)
        for (Eigen::Index j = i + 1; j < L; ++j) t.scores(i, j) = neg_inf;
    // pass 3: row softmax, shifted by the row max so exp never overflows
    t.weights.resize(L, L);
    for (Eigen::Index i = 0; i < L; ++i) {
      const float m = t.scores.row(i).maxCoeff();
      float sum = 0.f;
      for (Eigen::Index j = 0; j < L; ++j) {
        const float e = std::exp(t.scores(i, j) - m);
        t.weights(i, j) = e;
        sum += e;
      }
      t.weights.row(i) *= 1.0f / sum;
    }
    // pass 4: head output O_h = P V_h                                 (L x dh)
    t.out.noalias() = t.weights * t.v;
    // pass 5: concatenation, head h in its own dh columns
    trace.concat.middleCols(h * dh, dh) = t.out;
  }
  // pass 6: output projection Y = concat W_O                           (L x D)
  trace.out.noalias() = trace.concat * w.wo;
  return Status::ok();
}

}  // namespace headroom
