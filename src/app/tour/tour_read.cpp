// tour_read.cpp: what a tour step reads off the live Scene (see tour_read.h).
#include "app/tour/tour_read.h"

#include <algorithm>
#include <cmath>

#include "engine/lesson/readout.h"

namespace headroom::app::tour_read {

Phrase fmt(float v, int digits) { return Phrase::number(static_cast<double>(v), digits); }

const std::string& word(const Scene& s, int token) {
  static const std::string none = "-";
  if (token < 0 || token >= static_cast<int>(s.tokens().size())) return none;
  return s.tokens()[static_cast<size_t>(token)].text;
}

int match_query(const Scene& s, Relation r) {
  const int q = s.query();
  if (r != Relation::Antecedent) return q;
  const int comp = s.target(q, Relation::Complement);
  if (comp >= 0 && s.fits(comp, Relation::Antecedent)) return comp;
  for (int i = 0; i < static_cast<int>(s.tokens().size()); ++i)
    if (s.fits(i, Relation::Antecedent)) return i;
  return q;
}

float dist(float x0, float y0, float x1, float y1) { return std::hypot(x0 - x1, y0 - y1); }

float clamp01(float v) { return std::min(1.f, std::max(0.f, v)); }

Plane plane(const Scene& s, int h) {
  const ValueMap& m = s.value_maps()[static_cast<size_t>(h)];
  return {m.points(m.anchor_a, 0), m.points(m.anchor_a, 1), m.points(m.anchor_b, 0), m.points(m.anchor_b, 1),
          m.output[0], m.output[1]};
}

float cos_to(const Scene& s, int h, int token) {
  const HeadTrace& ht = s.trace().heads[static_cast<size_t>(h)];
  return cosine(ht.out.row(s.query()), ht.v.row(token));
}

float weight_on(const Scene& s, int h, int query, int token) {
  return s.trace().heads[static_cast<size_t>(h)].weights(query, token);
}

}  // namespace headroom::app::tour_read
