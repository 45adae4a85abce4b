// readout.cpp: weights, cosines, nearest token, entropy. See readout.h.
#include "readout.h"

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

}  // namespace headroom
