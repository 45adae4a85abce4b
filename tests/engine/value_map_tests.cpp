// value_map_tests.cpp: the value-space picture is faithful: the output's
// point is the weighted average of the points it mixes, the axes are
// orthonormal, the anchors' plane keeps lengths and angles exactly, and the
// one-head output is drawn at the midpoint of its two targets; with
// parallel anchors the second axis is the values' largest remaining
// variance, as Eigen's eigensolver finds it (the reference).
#include <doctest/doctest.h>

#include <Eigen/Eigenvalues>
#include <tuple>

#include "engine/lesson/scene.h"
#include "engine/lesson/value_map.h"
#include "reference.h"

using namespace headroom;

namespace {
double angle_cos(const Eigen::RowVector2d& a, const Eigen::RowVector2d& b) {
  return a.dot(b) / (a.norm() * b.norm());
}
}  // namespace

TEST_CASE("the output's point is the weighted average of the value points") {
  Scene s;
  for (int H : {1, 2, 8}) {
    CAPTURE(H);
    REQUIRE(s.set_heads(H).is_ok());
    const Trace& t = s.trace();
    const std::vector<ValueMap>& maps = s.value_maps();
    REQUIRE(maps.size() == static_cast<size_t>(H));
    for (int h = 0; h < H; ++h) {
      const HeadTrace& ht = t.heads[static_cast<size_t>(h)];
      const ValueMap& m = maps[static_cast<size_t>(h)];
      Eigen::RowVector2d avg = Eigen::RowVector2d::Zero();
      for (int j = 0; j < ht.v.rows(); ++j)
        avg += double(ht.weights(s.query(), j)) * m.points.row(j).cast<double>();
      CHECK((avg - m.output.cast<double>()).norm() <= 1e-4 * (1 + avg.norm()));
      const Mat gram = m.axes.transpose() * m.axes;
      CHECK((gram - Mat::Identity(2, 2)).cwiseAbs().maxCoeff() <= 1e-4f);
      // the anchors lie in their own plane
      CHECK(m.in_plane[m.anchor_a] == doctest::Approx(1.0).epsilon(1e-4));
      CHECK(m.in_plane[m.anchor_b] == doctest::Approx(1.0).epsilon(1e-4));
    }
  }
}

TEST_CASE("one head: the drawn angles are the cosines, the output sits at the midpoint") {
  Scene s;
  const int a = s.target(s.query(), Relation::Subject), b = s.target(s.query(), Relation::Complement);
  const HeadTrace& ht = s.trace().heads[0];
  const ValueMap& m = s.value_maps()[0];
  CHECK(m.anchor_a == a);
  CHECK(m.anchor_b == b);
  const Eigen::RowVector2d pa = m.points.row(a).cast<double>(), pb = m.points.row(b).cast<double>(),
                           po = m.output.cast<double>();
  // lengths and the angle between the targets are exact
  CHECK(pa.norm() == doctest::Approx(ht.v.row(a).norm()).epsilon(1e-4));
  CHECK(pb.norm() == doctest::Approx(ht.v.row(b).norm()).epsilon(1e-4));
  const double cos_ab = ht.v.row(a).cast<double>().dot(ht.v.row(b).cast<double>()) /
                        (ht.v.row(a).norm() * ht.v.row(b).norm());
  CHECK(angle_cos(pa, pb) == doctest::Approx(cos_ab).epsilon(1e-4));
  // the output is (almost entirely) in the plane, at the midpoint
  CHECK(m.output_in_plane >= 0.99f);
  CHECK((po - 0.5 * (pa + pb)).norm() <= 0.02 * (pa - pb).norm());
  // and the angle it makes with each target is the readout's cosine
  const HeadReadout r = s.readout()[0];
  CHECK(angle_cos(po, pa) == doctest::Approx(r.target_cos[0]).epsilon(0.01));
  CHECK(angle_cos(po, pb) == doctest::Approx(r.target_cos[1]).epsilon(0.01));
}

TEST_CASE("two heads: the same plane, each output on its own target") {
  Scene s;
  const ValueMap one = s.value_maps()[0];
  REQUIRE(s.set_heads(2).is_ok());
  const std::vector<ValueMap>& maps = s.value_maps();
  const int a = one.anchor_a, b = one.anchor_b;
  for (const ValueMap& m : maps) {
    // W_V copies the content block at H = 1 and 2: the frame does not move
    CHECK((m.points - one.points).cwiseAbs().maxCoeff() <= 1e-4f);
  }
  const double scale = (one.points.row(a) - one.points.row(b)).norm();
  CHECK((maps[0].output - maps[0].points.row(a)).norm() <= 0.05 * scale);
  CHECK((maps[1].output - maps[1].points.row(b)).norm() <= 0.05 * scale);
}

TEST_CASE("parallel or repeated anchors still give an orthonormal frame") {
  HeadTrace ht;
  ht.v = ref::random_mat(5, 6, 4);
  ht.v.row(3) = 2.f * ht.v.row(1);  // parallel to anchor a
  ht.out = ht.v;
  for (auto [a, b] : {std::pair{1, 3}, std::pair{2, 2}}) {
    const ValueMap m = value_map(ht, 0, a, b);
    const Mat gram = m.axes.transpose() * m.axes;
    CHECK((gram - Mat::Identity(2, 2)).cwiseAbs().maxCoeff() <= 1e-4f);
    CHECK(m.points.allFinite());
    CHECK(m.in_plane[a] == doctest::Approx(1.0).epsilon(1e-4));
  }
}

TEST_CASE("parallel anchors: the second axis is the largest remaining variance (Eigen's eigensolver as reference)") {
  // L < dh (the L x L Gram matrix is solved) and L > dh (the dh x dh one).
  for (const auto& shape : {std::tuple{5, 6, 11}, std::tuple{9, 4, 12}, std::tuple{12, 32, 13}}) {
    // Plain names, not a structured binding: clang 14's C++17 cannot capture
    // one in the lambda CAPTURE makes.
    const int L = std::get<0>(shape), dh = std::get<1>(shape), seed = std::get<2>(shape);
    CAPTURE(L);
    CAPTURE(dh);
    HeadTrace ht;
    ht.v = ref::random_mat(L, dh, seed);
    ht.v.row(3) = -0.5f * ht.v.row(1);  // parallel to anchor a
    ht.out = ht.v;
    const ValueMap m = value_map(ht, 0, 1, 3);
    // The reference: the top eigenvector of the covariance of the values
    // with their part along axis 1 removed, in double precision.
    const MatD v = ht.v.cast<double>();
    const Eigen::VectorXd u = m.axes.col(0).cast<double>();
    const MatD r = v - (v * u) * u.transpose();
    Eigen::SelfAdjointEigenSolver<MatD> eig(r.transpose() * r);
    const Eigen::VectorXd top = eig.eigenvectors().col(dh - 1);
    const Eigen::VectorXd w = m.axes.col(1).cast<double>();
    CHECK(std::abs(w.dot(top)) == doctest::Approx(1.0).epsilon(1e-5));
    CHECK(std::abs(w.dot(u)) <= 1e-5);
    // Its variance is the largest eigenvalue, not the second (a wrong vector would miss it).
    CHECK((r * w).squaredNorm() == doctest::Approx(eig.eigenvalues()[dh - 1]).epsilon(1e-5));
    CHECK(eig.eigenvalues()[dh - 1] > 1.01 * eig.eigenvalues()[dh - 2]);
    // The sign is fixed: the largest component is positive.
    Eigen::Index big = 0;
    w.cwiseAbs().maxCoeff(&big);
    CHECK(w[big] > 0);
  }
}
