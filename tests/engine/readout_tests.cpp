// readout_tests.cpp: the readout measures (readout.h) on hand-made traces
// whose cosines, entropies and nearest tokens are derived by hand, plus a
// perturbation: sharpening the row lowers the entropy.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/lesson/readout.h"

using namespace headroom;

namespace {

// A head with value rows `v` (L x dh) and weight row `w` for query 0;
// out = w V, as attention computes it.
HeadTrace head(const Mat& v, const Vec& w) {
  HeadTrace h;
  const int L = static_cast<int>(v.rows());
  h.v = v;
  h.weights = Mat::Zero(L, L);
  h.weights.row(0) = w;
  h.out = h.weights * v;
  return h;
}

}  // namespace

TEST_CASE("readout: a 50/50 split reads the midpoint, by hand") {
  // v0 = (1, 0), v1 = (0, 1), v2 = (1, 1), v3 = (-1, 0); weights 0.5, 0.5, 0, 0
  Mat v(4, 2);
  v << 1, 0, 0, 1, 1, 1, -1, 0;
  Vec w(4);
  w << 0.5f, 0.5f, 0.f, 0.f;
  const HeadReadout r = head_readout(head(v, w), 0, {Relation::Subject, Relation::Complement}, {0, 1});
  // o = (0.5, 0.5): cos with v0 and v1 = 1/sqrt(2); with the midpoint (and v2) = 1
  REQUIRE(r.targets == std::vector<int>{0, 1});
  CHECK(r.relations == std::vector<Relation>{Relation::Subject, Relation::Complement});
  CHECK(r.target_weight[0] == doctest::Approx(0.5));
  CHECK(r.target_weight[1] == doctest::Approx(0.5));
  CHECK(r.target_cos[0] == doctest::Approx(1.0 / std::sqrt(2.0)));
  CHECK(r.target_cos[1] == doctest::Approx(1.0 / std::sqrt(2.0)));
  CHECK(r.midpoint_cos == doctest::Approx(1.0));
  CHECK(r.nearest == 2);  // the token whose value lies on the midpoint's line
  CHECK(r.nearest_cos == doctest::Approx(1.0));
  CHECK(r.max_weight == doctest::Approx(0.5));
  CHECK(r.entropy == doctest::Approx(std::log(2.0)));
}

TEST_CASE("readout: entropy runs from ln L (flat) to 0 (one-hot)") {
  Mat v(4, 2);
  v << 1, 0, 0, 1, 1, 1, -1, 0.5f;
  Vec flat = Vec::Constant(4, 0.25f), sharp(4), one(4);
  sharp << 0.7f, 0.1f, 0.1f, 0.1f;
  one << 0.f, 0.f, 0.f, 1.f;
  const float e_flat = head_readout(head(v, flat), 0, {Relation::Self}, {0}).entropy;
  const float e_sharp = head_readout(head(v, sharp), 0, {Relation::Self}, {0}).entropy;
  const HeadReadout r_one = head_readout(head(v, one), 0, {Relation::Self}, {3});
  CHECK(e_flat == doctest::Approx(std::log(4.0)));
  CHECK(e_sharp < e_flat);
  CHECK(e_sharp == doctest::Approx(-(0.7 * std::log(0.7) + 3 * 0.1 * std::log(0.1))));
  CHECK(r_one.entropy == doctest::Approx(0.0));
  CHECK(r_one.nearest == 3);
  CHECK(r_one.target_cos[0] == doctest::Approx(1.0));
  CHECK(r_one.midpoint_cos == doctest::Approx(1.0));  // one target: its own midpoint
}

TEST_CASE("cosine: angle of two rows, 0 for a zero vector") {
  Vec a(3), b(3), z = Vec::Zero(3);
  a << 1, 2, 2;
  b << 2, 0, 0;
  CHECK(cosine(a, b) == doctest::Approx(2.0 / (3.0 * 2.0) * 1.0));
  CHECK(cosine(a, -a) == doctest::Approx(-1.0));
  CHECK(cosine(a, z) == 0.f);
  CHECK(cosine(z, z) == 0.f);
}
