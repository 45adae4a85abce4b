// readout.cpp: weights, cosines, nearest token, entropy. See readout.h.
#include "readout.h"

#include <Eigen/QR>
#include <algorithm>
#include <cmath>

namespace headroom {

float cosine(const Vec& a, const Vec& b) {
  const float na = a.norm(), nb = b.norm();
  return na > 0.f && nb > 0.f ? a.dot(b) / (na * nb) : 0.f;
}

HeadReadout head_readout(const HeadTrace& ht, int q, const std::vector<Relation>& relations,
                         const std::vector<int>& targets) {
  HeadReadout r;
  const int L = static_cast<int>(ht.weights.rows());
  const Vec o = ht.out.row(q);
  r.relations = relations;
  Vec mid = Vec::Zero(ht.v.cols());
  for (int t : targets) {
    r.targets.push_back(t);
    r.target_weight.push_back(ht.weights(q, t));
    r.target_cos.push_back(cosine(o, ht.v.row(t)));
    mid += ht.v.row(t);
  }
  r.midpoint_cos = cosine(o, mid / static_cast<float>(r.targets.size()));
  r.nearest_cos = -2.f;
  for (int j = 0; j < L; ++j) {
    const float c = cosine(o, ht.v.row(j));
    if (c > r.nearest_cos) { r.nearest_cos = c; r.nearest = j; }
  }
  r.max_weight = ht.weights.row(q).maxCoeff();
  float ent = 0.f;
  for (int j = 0; j < L; ++j) {
    const float p = ht.weights(q, j);
    if (p > 0.f) ent -= p * std::log(p);
  }
  r.entropy = ent;
  return r;
}

std::vector<float> carried(const Trace& trace, const AttentionWeights& w, int query,
                           const std::vector<int>& targets) {
  std::vector<float> out(targets.size(), 0.f);
  if (targets.empty() || trace.heads.empty()) return out;
  const int dh = w.d_head();
  // 1. back through W_O: solve c W_O = y, i.e. W_O^T c^T = y^T (least squares)
  const Eigen::VectorXd y = trace.out.row(query).transpose().cast<double>();
  const MatD wo_t = w.wo.transpose().cast<double>();
  const Eigen::VectorXd c = wo_t.completeOrthogonalDecomposition().solve(y);
  // A token named twice (both lesson targets the same word) is one column:
  // two equal columns would split its weight between them, 0.5 + 0.5.
  std::vector<int> tokens;
  for (const int t : targets)
    if (std::find(tokens.begin(), tokens.end(), t) == tokens.end()) tokens.push_back(t);
  const Eigen::Index T = static_cast<Eigen::Index>(tokens.size());
  std::vector<float> held(tokens.size(), 0.f);
  for (int h = 0; h < w.heads; ++h) {
    const HeadTrace& ht = trace.heads[static_cast<size_t>(h)];
    // 2. c_h ~ sum_t a_t V_h[t]: columns of A are the targets' values
    MatD a(dh, T);
    for (Eigen::Index t = 0; t < T; ++t) a.col(t) = ht.v.row(tokens[static_cast<size_t>(t)]).transpose().cast<double>();
    if (a.norm() == 0.0) continue;
    const Eigen::VectorXd mix = a.completeOrthogonalDecomposition().solve(c.segment(h * dh, dh));
    // 3. the most any head holds of each target
    for (Eigen::Index t = 0; t < T; ++t) {
      const float v = static_cast<float>(std::clamp(mix[t], 0.0, 1.0));
      held[static_cast<size_t>(t)] = std::max(held[static_cast<size_t>(t)], v);
    }
  }
  for (size_t i = 0; i < targets.size(); ++i)
    out[i] = held[static_cast<size_t>(std::find(tokens.begin(), tokens.end(), targets[i]) - tokens.begin())];
  return out;
}

}  // namespace headroom
