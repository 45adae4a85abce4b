// value_map.h: a 2-D picture of one head's value space that keeps the
// lesson's geometry exact.
//
// Does: project the head's value vectors V_h (L x dh) and its output for the
// query onto the plane through the origin spanned by two anchor value vectors
// (the query's two lesson targets): axis 1 = V_h[a] / |V_h[a]|, axis 2 = the
// part of V_h[b] orthogonal to it. Inside that plane lengths and angles are
// exact, so the two targets, their midpoint and the one-head output are drawn
// at their true distances, and the angle seen from the origin is the angle
// whose cosine the readout prints. The map is linear, so the output's point is
// exactly the weight-averaged point of the values it mixes. Other tokens are
// shown by their orthogonal projection; `in_plane` says how much of each
// vector the plane keeps. If the anchors coincide or are parallel, the second
// axis is the principal direction of the remaining values.
// Does not: change with the weights (only with V_h and the anchors), draw,
// or compute attention (it reads a HeadTrace).
#pragma once
#include "engine/core/attention.h"

namespace headroom {

struct ValueMap {
  Mat points;               // L x 2: each token's value vector in the plane
  Vec output;               // 1 x 2: the head's output for the query
  Mat axes;                 // dh x 2: orthonormal axes
  Vec in_plane;             // 1 x L: |projection| / |v_j| per token (1 = exact)
  float output_in_plane = 0;// |projection of the output| / |output|
  float explained = 0;      // sum |proj v_j|^2 / sum |v_j|^2 over all tokens
  int anchor_a = -1, anchor_b = -1;
};

ValueMap value_map(const HeadTrace& head, int query, int anchor_a, int anchor_b);

}  // namespace headroom
