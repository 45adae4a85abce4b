// readout.h: how much of its targets one head's output carries (the "readout").
//
// Does: measure one head's trace for a query: the attention weight on each
// target, the cosine between the head's output o = (P V_h)[query] and each
// target's value vector V_h[t] and their mean (the midpoint), the token whose
// value is nearest o in cosine, the row's largest weight and its entropy.
// Pure functions of a HeadTrace, like value_map.h. And what the final output
// Y (after W_O) still carries of each of a query's targets (carried()).
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

// What the final output Y[query] (after W_O, so after any head knockout)
// still carries of each target, 0 to 1, in the order of `targets`:
//   1. map Y[query] back to the heads' slices: c = Y[query] W_O^+ (least
//      squares; W_O is invertible for the built weights, so exactly concat);
//   2. in each head's slice c_h, write c_h as a mix sum_t a_t V_h[t] of the
//      targets' value vectors (least squares over the targets jointly);
//   3. carried[t] = the largest a_t over the heads, clamped to [0, 1].
// So 1 = some head's slice holds target t's whole value; 0.5 = half of it
// (a one-head split); 0 = no head's slice holds any of it (a knocked-out
// head's slice is zero). Targets whose values are zero in every head carry 0.
std::vector<float> carried(const Trace& trace, const AttentionWeights& w, int query, const std::vector<int>& targets);

}  // namespace headroom
