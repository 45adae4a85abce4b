// value_map_tests.cpp: the value-space picture is faithful: the output's
// point is the weighted average of the points it mixes, the axes are
// orthonormal, and for values that span a plane the picture keeps distances.
#include <doctest/doctest.h>

#include "engine/scene.h"
#include "engine/value_map.h"
#include "reference.h"

using namespace headroom;

TEST_CASE("the output's point is the weighted average of the value points") {
  Scene s;
  for (int H : {1, 2, 8}) {
    REQUIRE(s.set_heads(H).is_ok());
    const Trace& t = s.trace();
    for (int h = 0; h < H; ++h) {
      const HeadTrace& ht = t.heads[static_cast<size_t>(h)];
      const ValueMap m = value_map(ht, s.query());
      Eigen::RowVector2d avg = Eigen::RowVector2d::Zero();
      for (int j = 0; j < ht.v.rows(); ++j)
        avg += double(ht.weights(s.query(), j)) * m.points.row(j).cast<double>();
      CHECK((avg - m.output.cast<double>()).norm() <= 1e-4 * (1 + avg.norm()));
      const Mat gram = m.axes.transpose() * m.axes;
      CHECK((gram - Mat::Identity(2, 2)).cwiseAbs().maxCoeff() <= 1e-4f);
      CHECK(m.explained > 0.f);
      CHECK(m.explained <= 1.0001f);
    }
  }
  // one head: the output's point is the midpoint of researcher's and it's
  REQUIRE(s.set_heads(1).is_ok());
  const ValueMap m = value_map(s.trace().heads[0], s.query());
  const Eigen::RowVector2f mid = 0.5f * (m.points.row(1) + m.points.row(7));
  CHECK((mid - m.output).norm() <= 0.05f * (m.points.row(1) - m.points.row(7)).norm());
}

TEST_CASE("values spanning a plane are drawn without distortion") {
  // 6 points in a random 2-D plane inside 10 dimensions
  const Mat basis = ref::random_mat(2, 10, 4);
  const Mat coef = ref::random_mat(6, 2, 5, 3.f);
  HeadTrace ht;
  ht.v = coef * basis;
  ht.out = ht.v;  // any row works as the "output"
  const ValueMap m = value_map(ht, 2);
  CHECK(m.explained == doctest::Approx(1.0).epsilon(1e-4));
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      const double d_full = (ht.v.row(i) - ht.v.row(j)).norm();
      const double d_map = (m.points.row(i) - m.points.row(j)).norm();
      CHECK(d_map == doctest::Approx(d_full).epsilon(1e-3));
    }
}
