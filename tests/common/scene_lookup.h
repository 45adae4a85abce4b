// scene_lookup.h: two lookups the engine and app suites share, written once
// so every suite file can be compiled into one unity source with the others.
//
// Does: index_of finds a token by its text; cos_to gives cos(o_h[query],
// v_h[token]) from the scene's trace, in double.
// Does not: check anything itself, or cache (each call reads the trace).
#pragma once
#include <Eigen/Core>
#include <string>

#include "engine/lesson/scene.h"

namespace headroom::testing {

// The first token whose text is `word`, or -1.
inline int index_of(const Scene& s, const char* word) {
  for (size_t i = 0; i < s.tokens().size(); ++i)
    if (s.tokens()[i].text == word) return static_cast<int>(i);
  return -1;
}

// cos(o_h[query], v_h[token]) from the trace, in double.
inline double cos_to(Scene& s, int h, int token) {
  const HeadTrace& ht = s.trace().heads[static_cast<size_t>(h)];
  const Eigen::VectorXd o = ht.out.row(s.query()).transpose().cast<double>();
  const Eigen::VectorXd v = ht.v.row(token).transpose().cast<double>();
  return o.dot(v) / (o.norm() * v.norm());
}

}  // namespace headroom::testing
