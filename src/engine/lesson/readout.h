// readout.h: how much of its targets one head's output carries (the "readout").
//
// Does: measure one head's trace for a query: the attention weight on each
// target, the cosine between the head's output o = (P V_h)[query] and each
// target's value vector V_h[t] and their mean (the midpoint), the token whose
// value is nearest o in cosine, the row's largest weight and its entropy.
// Pure functions of a HeadTrace, like value_map.h.
// Does not: choose the targets (parser.h and Scene do), cache (Scene does),
// or compute attention (it reads a HeadTrace).
#pragma once
#include <vector>

#include "engine/core/attention.h"
#include "relation.h"

namespace headroom {

struct HeadReadout {
  std::vector<Relation> relations;  // relationships this head holds
  std::vector<int> targets;         // their targets for the query (same order)
  std::vector<float> target_weight; // attention weight on each target
  std::vector<float> target_cos;    // cos(head output, V_h[target])
  int nearest = -1;                 // token whose V_h is closest in cosine
  float nearest_cos = 0.f;
  float midpoint_cos = 0.f;         // cos(output, mean of targets' V_h); with 2+ targets
  float max_weight = 0.f;
  float entropy = 0.f;              // nats, of the query's weight row
};

// cos(a, b) = a.b / (|a| |b|); 0 when either is the zero vector.
float cosine(const Vec& a, const Vec& b);

// The readout of `head` for row `query`, whose relationships `relations`
// point at `targets` (same length, at least one; every index < L).
HeadReadout head_readout(const HeadTrace& head, int query, const std::vector<Relation>& relations,
                         const std::vector<int>& targets);

}  // namespace headroom
