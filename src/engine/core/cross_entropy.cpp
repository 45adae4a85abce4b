// cross_entropy.cpp: softmax cross-entropy and its gradient. See cross_entropy.h.
//
// Passes, as the comment there:
//   pass 1  P = softmax_rows(Z) into the output buffer (kernel or Eigen)
//   pass 2  per scored row: loss += -log P(i, t_i) (double), then the row
//           becomes (P - onehot) / n in place; unscored rows become 0
#include "cross_entropy.h"

#include <cmath>
#include <string>

#include "kernels/dispatch.h"
#include "engine/core/refusals.h"

namespace headroom {

namespace {

// -log softmax(z)[t] in double, for a row whose float P(t) underflowed.
double nll_exact(const float* z, int V, int t) {
  double m = z[0];
  for (int j = 1; j < V; ++j) m = z[j] > m ? z[j] : m;
  double sum = 0;
  for (int j = 0; j < V; ++j) sum += std::exp(double(z[j]) - m);
  return m + std::log(sum) - double(z[t]);
}

}  // namespace

Status softmax_cross_entropy(const Mat& logits, const std::vector<int>& targets, Backend backend,
                             CrossEntropy& out, Mat* dz, Mat* probs) {
  const int N = static_cast<int>(logits.rows()), V = static_cast<int>(logits.cols());
  if (static_cast<int>(targets.size()) != N)
    return Status::fail(refusals::target_count, targets.size(), N);
  int scored = 0;
  for (int i = 0; i < N; ++i) {
    if (targets[i] < -1 || targets[i] >= V)
      return Status::fail(refusals::target_outside_vocab, targets[i], i, V);
    scored += targets[i] >= 0 ? 1 : 0;
  }
  if (scored == 0) return Status::fail(refusals::no_target);
  Mat local;
  Mat& p = dz ? *dz : (probs ? *probs : local);
  p.resize(N, V);

  // pass 1: P = softmax(Z), row by row
  if (backend == Backend::Eigen) {
    for (int i = 0; i < N; ++i) {
      const float m = logits.row(i).maxCoeff();
      p.row(i) = (logits.row(i).array() - m).exp().matrix();
      p.row(i) *= 1.0f / p.row(i).sum();
    }
  } else {
    // Not causal, so the kernel reads S and never writes it: the cast is safe.
    kernels::kernel_set(backend).softmax->fn(N, V, const_cast<float*>(logits.data()), V, p.data(), V, false);
  }

  // pass 2: the loss, and P - onehot scaled by 1/n in place
  const float inv_n = 1.0f / static_cast<float>(scored);
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    const int t = targets[i];
    float* row = p.data() + static_cast<long>(i) * V;
    if (t < 0) {
      if (dz) p.row(i).setZero();
      continue;
    }
    const float pt = row[t];
    sum += pt >= 1e-30f ? -std::log(double(pt)) : nll_exact(logits.data() + static_cast<long>(i) * V, V, t);
    if (!dz) continue;
    row[t] -= 1.0f;
    for (int j = 0; j < V; ++j) row[j] *= inv_n;
  }
  out.sum = sum;
  out.scored = scored;
  out.loss = sum / scored;
  return Status::ok();
}

}  // namespace headroom
