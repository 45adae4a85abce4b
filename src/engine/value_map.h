// value_map.h: a fixed 2-D picture of one head's value space.
//
// Does: project the head's value vectors V_h (L x dh) and its output for the
// query onto their top two principal axes (PCA: centre on the mean of the
// rows, eigenvectors of the dh x dh covariance). The projection is affine, so
// the output's point is exactly the weight-averaged point of the values it
// mixes: the midpoint on screen is the midpoint in value space.
// Does not: change with the query or the weights (only with V_h), draw
// anything, or compute attention (it reads a HeadTrace).
#pragma once
#include "attention.h"

namespace headroom {

struct ValueMap {
  Mat points;          // L x 2: each token's value vector on the two axes
  Vec output;          // 1 x 2: the head's output for the query
  Mat axes;            // dh x 2: the principal axes (unit columns)
  Vec mean;            // 1 x dh: the centre
  float explained = 0; // fraction of the values' variance the two axes keep
};

ValueMap value_map(const HeadTrace& head, int query);

}  // namespace headroom
