// lesson_controls_tests.cpp: head knockout and the tied query/key, checked
// against references computed here (a naive double-precision forward with
// the knocked-out block zeroed by hand, a least-squares read-back written out
// with the normal equations, the transpose of the score matrix).
#include <doctest/doctest.h>

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "engine/lesson/scene.h"
#include "reference.h"
#include "../common/scene_lookup.h"

using namespace headroom;
using headroom::testing::index_of;

namespace {


// The reference for "carried": the same definition as readout.h, written with
// the normal equations in double precision. W_O^T c^T = y^T is solved with an
// LU of W_O^T (the built W_O is invertible), each head's slice is written as
// a mix of the two targets' values through (A^T A)^-1 A^T c_h.
std::vector<double> carried_reference(const Trace& t, const AttentionWeights& w, int q, int a, int b) {
  const int dh = w.d_head();
  const Eigen::MatrixXd wo = w.wo.cast<double>();
  const Eigen::VectorXd y = t.out.row(q).transpose().cast<double>();
  const Eigen::VectorXd c = wo.transpose().fullPivLu().solve(y);
  std::vector<double> best(2, 0.0);
  for (int h = 0; h < w.heads; ++h) {
    const HeadTrace& ht = t.heads[static_cast<size_t>(h)];
    Eigen::MatrixXd A(dh, 2);
    A.col(0) = ht.v.row(a).transpose().cast<double>();
    A.col(1) = ht.v.row(b).transpose().cast<double>();
    // Each product evaluated into its own 2x2 / 2x1 matrix: written as one
    // lazy expression, Eigen's nested product templates cost 8 s of compile.
    const Eigen::Matrix2d gram = A.transpose() * A;
    const Eigen::Vector2d rhs = A.transpose() * c.segment(h * dh, dh);
    const Eigen::Vector2d mix = gram.inverse() * rhs;
    for (int k = 0; k < 2; ++k) best[static_cast<size_t>(k)] = std::max(best[static_cast<size_t>(k)], std::clamp(mix[k], 0.0, 1.0));
  }
  return best;
}

// Head h's scaled scores Q K^T / sqrt(dh), loop by loop in double.
MatD naive_scores(const Mat& x, const AttentionWeights& w, int h) {
  const int L = static_cast<int>(x.rows()), D = w.d_model, dh = w.d_head();
  MatD q = MatD::Zero(L, dh), k = MatD::Zero(L, dh), s = MatD::Zero(L, L);
  for (int i = 0; i < L; ++i)
    for (int c = 0; c < dh; ++c)
      for (int d = 0; d < D; ++d) {
        q(i, c) += double(x(i, d)) * w.wq[static_cast<size_t>(h)](d, c);
        k(i, c) += double(x(i, d)) * w.wk[static_cast<size_t>(h)](d, c);
      }
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      for (int c = 0; c < dh; ++c) s(i, j) += q(i, c) * k(j, c);
      s(i, j) /= std::sqrt(double(dh));
    }
  return s;
}

int head_reading(Scene& s, int token) {
  for (int h = 0; h < s.heads(); ++h)
    if (s.trace().heads[static_cast<size_t>(h)].weights(s.query(), token) >= 0.9f) return h;
  return -1;
}

}  // namespace

TEST_CASE("knockout: the forward pass zeroes the knocked-out block before W_O, nothing else") {
  const Mat x = ref::random_mat(7, 32, 11);
  const AttentionWeights w = ref::random_weights(32, 4, 12);
  Trace plain, knocked;
  REQUIRE(forward(x, w, plain).is_ok());
  ForwardOptions opt;
  opt.knockout = 0b0100;  // head 2
  REQUIRE(forward(x, w, knocked, opt).is_ok());
  // reference: the naive forward's concat with head 2's columns zeroed, times W_O
  const ref::NaiveTrace n = ref::naive_forward(x, w);
  MatD concat = n.concat;
  concat.middleCols(2 * 8, 8).setZero();
  const MatD y = concat * w.wo.cast<double>();
  CHECK(ref::rel_diff(knocked.out, y) <= 1e-4);
  CHECK(ref::rel_diff(knocked.out, plain.out) >= 0.05);  // the knockout moved Y
  // every head still computed its own output
  for (int h = 0; h < 4; ++h)
    CHECK(ref::rel_diff(knocked.heads[static_cast<size_t>(h)].out, plain.heads[static_cast<size_t>(h)].out) == 0.0);
  // the kernels agree with Eigen
  for (Backend be : {Backend::Scalar, default_backend()}) {
    Trace k;
    opt.backend = be;
    REQUIRE(forward(x, w, k, opt).is_ok());
    CHECK(ref::rel_diff(k.out, knocked.out) <= 1e-4);
  }
  opt.knockout = 1u << 4;  // a fifth head the weights do not have
  const Status s = forward(x, w, knocked, opt);
  CHECK_FALSE(s.is_ok());
  CHECK(s.error.find("knockout") != std::string::npos);
}

TEST_CASE("knockout of the head reading \"it\" removes most of what is carried of it, little of researcher") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  const int said = index_of(s, "said"), researcher = index_of(s, "researcher"), it = index_of(s, "it");
  REQUIRE(s.query() == said);
  REQUIRE(s.lesson_targets() == std::vector<int>{researcher, it});
  const int reads_it = head_reading(s, it), reads_researcher = head_reading(s, researcher);
  REQUIRE(reads_it >= 0);
  REQUIRE(reads_researcher >= 0);

  const std::vector<float> all = s.carried();
  const std::vector<double> all_ref = carried_reference(s.trace(), s.weights(), said, researcher, it);
  CHECK(all[0] == doctest::Approx(all_ref[0]).epsilon(1e-3));
  CHECK(all[1] == doctest::Approx(all_ref[1]).epsilon(1e-3));
  CHECK(all[0] >= 0.9f);  // two heads: both targets carried nearly whole
  CHECK(all[1] >= 0.9f);

  REQUIRE(s.set_knockout({reads_it}).is_ok());
  const std::vector<float> out = s.carried();
  const std::vector<double> out_ref = carried_reference(s.trace(), s.weights(), said, researcher, it);
  CHECK(out[0] == doctest::Approx(out_ref[0]).epsilon(1e-3));
  CHECK(out[1] == doctest::Approx(out_ref[1]).epsilon(1e-3));
  CHECK(all[1] - out[1] >= 0.8f);  // most of "it" is gone
  CHECK(all[0] - out[0] <= 0.1f);  // little of researcher is
  // the knocked-out block of the concatenation is zero, the other is not
  const int dh = s.d_head();
  CHECK(s.trace().concat.row(said).segment(reads_it * dh, dh).norm() == 0.f);
  CHECK(s.trace().concat.row(said).segment(reads_researcher * dh, dh).norm() > 0.1f);

  SUBCASE("one head split: about half of each; knocking it out leaves nothing") {
    REQUIRE(s.set_heads(1).is_ok());
    CHECK(s.knockout().empty());  // a new head count clears it
    const std::vector<float> split = s.carried();
    CHECK(split[0] == doctest::Approx(0.5).epsilon(0.25));
    CHECK(split[1] == doctest::Approx(0.5).epsilon(0.25));
    REQUIRE(s.set_knockout({0}).is_ok());
    CHECK(s.carried() == std::vector<float>{0.f, 0.f});
  }
  SUBCASE("refusals keep the previous knockout") {
    CHECK_FALSE(s.set_knockout({2}).is_ok());
    CHECK_FALSE(s.set_knockout({-1}).is_ok());
    CHECK_FALSE(s.set_knockout({0, 0}).is_ok());
    CHECK(s.knockout() == std::vector<int>{reads_it});
    REQUIRE(s.set_knockout({1, 0}).is_ok());
    CHECK(s.knockout() == std::vector<int>{0, 1});  // kept ascending
    CHECK(s.carried() == std::vector<float>{0.f, 0.f});
  }
}

TEST_CASE("a target named twice is one token: carried reads it whole, not split between two equal columns") {
  Scene s;
  const int said = index_of(s, "said"), it = index_of(s, "it");
  REQUIRE(said >= 0);
  REQUIRE(it >= 0);
  for (int H : {1, 2}) {
    CAPTURE(H);
    REQUIRE(s.set_heads(H).is_ok());
    const Trace& t = s.trace();
    const AttentionWeights& w = s.weights();
    // reference: one column per head, mix = (v . c_h) / (v . v), in double
    const Eigen::VectorXd c = w.wo.cast<double>().transpose().fullPivLu().solve(t.out.row(said).transpose().cast<double>());
    double best = 0.0;
    const int dh = w.d_head();
    for (int h = 0; h < H; ++h) {
      const Eigen::VectorXd v = t.heads[static_cast<size_t>(h)].v.row(it).transpose().cast<double>();
      best = std::max(best, std::clamp(v.dot(c.segment(h * dh, dh)) / v.squaredNorm(), 0.0, 1.0));
    }
    const std::vector<float> twice = carried(t, w, said, {it, it});
    REQUIRE(twice.size() == 2);
    CHECK(twice[0] == twice[1]);
    CHECK(twice[0] == doctest::Approx(best).epsilon(1e-4));
    CHECK(carried(t, w, said, {it, it, it}) == std::vector<float>(3, twice[0]));
  }
}

TEST_CASE("tied query and key: W_K = W_Q, scores symmetric; a perturbation of W_Q moves them") {
  Scene s;
  for (int H : kHeadCounts) {
    CAPTURE(H);
    REQUIRE(s.set_heads(H).is_ok());
    REQUIRE(s.set_tie_qk(true).is_ok());
    const AttentionWeights& w = s.weights();
    for (int h = 0; h < H; ++h) CHECK(w.wk[static_cast<size_t>(h)] == w.wq[static_cast<size_t>(h)]);
    const Trace& t = s.trace();
    for (int h = 0; h < H; ++h) {
      const Mat& sc = t.heads[static_cast<size_t>(h)].scores;
      const float scale = std::max(1.f, sc.cwiseAbs().maxCoeff());
      CHECK((sc - sc.transpose()).cwiseAbs().maxCoeff() <= 1e-5f * scale);
      // and they are the naive double-precision scores
      CHECK(ref::rel_diff(sc, naive_scores(s.x(), w, h)) <= 1e-4);
    }
  }
  // untied, the lesson's scores are far from symmetric (said -> researcher
  // is high, researcher -> said is not)
  REQUIRE(s.set_heads(2).is_ok());
  REQUIRE(s.set_tie_qk(false).is_ok());
  const int said = index_of(s, "said"), researcher = index_of(s, "researcher");
  const int h = head_reading(s, researcher);
  REQUIRE(h >= 0);
  const Mat untied = s.trace().heads[static_cast<size_t>(h)].scores;
  CHECK(untied(said, researcher) - untied(researcher, said) >= 1.f);

  // a perturbation of the tied matrix moves the scores (and keeps them symmetric)
  REQUIRE(s.set_tie_qk(true).is_ok());
  AttentionWeights w = s.weights();
  const Mat before = s.trace().heads[0].scores;
  w.wq[0] += ref::random_mat(w.d_model, w.d_head(), 77, 0.05f);
  w.wk[0] = w.wq[0];
  Trace t;
  REQUIRE(forward(s.x(), w, t).is_ok());
  CHECK(ref::rel_diff(t.heads[0].scores, before) >= 1e-3);
  CHECK((t.heads[0].scores - t.heads[0].scores.transpose()).cwiseAbs().maxCoeff() <=
        1e-5f * std::max(1.f, t.heads[0].scores.cwiseAbs().maxCoeff()));
}
