// attention_tests.cpp: the forward pass against a naive double-precision
// reference, plus properties (rows sum to one, no NaN at extreme scores,
// permutation equivariance) and refusal of impossible head counts.
#include <doctest/doctest.h>

#include <numeric>

#include "reference.h"

using namespace headroom;

TEST_CASE("forward equals the naive double-precision formula") {
  struct Shape { int L, D, H; };
  const Shape shapes[] = {{1, 8, 1}, {1, 16, 4}, {5, 8, 8}, {7, 12, 3}, {11, 64, 2},
                          {16, 32, 32}, {13, 128, 8}, {33, 48, 6}};
  for (const Shape& s : shapes)
    for (bool causal : {false, true}) {
      CAPTURE(s.L); CAPTURE(s.D); CAPTURE(s.H); CAPTURE(causal);
      const Mat x = ref::random_mat(s.L, s.D, 7 + s.L * 31 + s.D);
      const AttentionWeights w = ref::random_weights(s.D, s.H, 100 + s.H);
      Trace t;
      ForwardOptions opt;
      opt.causal = causal;
      REQUIRE(forward(x, w, t, opt).is_ok());
      const ref::NaiveTrace n = ref::naive_forward(x, w, causal);
      REQUIRE(t.heads.size() == static_cast<size_t>(s.H));
      for (int h = 0; h < s.H; ++h) {
        CAPTURE(h);
        const double dw = ref::rel_diff(t.heads[h].weights, n.weights[h]);
        const double dout = ref::rel_diff(t.heads[h].out, n.head_out[h]);
        CHECK(dw <= ref::kForwardRelTol);
        CHECK(dout <= ref::kForwardRelTol);
      }
      const double dc = ref::rel_diff(t.concat, n.concat);
      const double dy = ref::rel_diff(t.out, n.out);
      CHECK(dc <= ref::kForwardRelTol);
      CHECK(dy <= ref::kForwardRelTol);
    }
}

TEST_CASE("one head is plain single-head attention softmax(QK^T/sqrt(D))V W_O") {
  const int L = 9, D = 24;
  const Mat x = ref::random_mat(L, D, 3);
  const AttentionWeights w = ref::random_weights(D, 1, 42);
  Trace t;
  REQUIRE(forward(x, w, t).is_ok());
  // plain attention written with whole-matrix Eigen expressions, in double
  const MatD xd = x.cast<double>();
  const MatD q = xd * w.wq[0].cast<double>(), k = xd * w.wk[0].cast<double>(),
             v = xd * w.wv[0].cast<double>();
  MatD s = q * k.transpose() / std::sqrt(double(D));
  for (int i = 0; i < L; ++i) {
    s.row(i).array() = (s.row(i).array() - s.row(i).maxCoeff()).exp();
    s.row(i) /= s.row(i).sum();
  }
  const MatD y = s * v * w.wo.cast<double>();
  const double diff = ref::rel_diff(t.out, y);
  CHECK(diff <= ref::kForwardRelTol);
  CHECK(ref::rel_diff(t.concat, t.heads[0].out) == 0.0);  // concat of one head is that head
}

TEST_CASE("every weight row sums to one, causal rows put nothing on the future") {
  const int L = 20, D = 32, H = 4;
  const Mat x = ref::random_mat(L, D, 11, 3.f);
  const AttentionWeights w = ref::random_weights(D, H, 5, 1.f);
  for (bool causal : {false, true}) {
    Trace t;
    ForwardOptions opt;
    opt.causal = causal;
    REQUIRE(forward(x, w, t, opt).is_ok());
    for (const HeadTrace& ht : t.heads)
      for (int i = 0; i < L; ++i) {
        CHECK(ht.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-5));
        CHECK(ht.weights.row(i).minCoeff() >= 0.f);
        if (causal)
          for (int j = i + 1; j < L; ++j) CHECK(ht.weights(i, j) == 0.f);
      }
  }
}

TEST_CASE("scores of +-1e4 give finite weights and outputs") {
  const int L = 6, D = 8;
  AttentionWeights w = ref::random_weights(D, 2, 9);
  Mat x = ref::random_mat(L, D, 1);
  // Q and K = X with big gains: scores reach well beyond +-1e4 / sqrt(dh)
  for (Mat& m : w.wq) m *= 300.f;
  for (Mat& m : w.wk) m *= 300.f;
  Trace t;
  REQUIRE(forward(x, w, t).is_ok());
  float max_abs_score = 0.f;
  for (const HeadTrace& ht : t.heads) {
    max_abs_score = std::max(max_abs_score, ht.scores.cwiseAbs().maxCoeff());
    CHECK(ht.weights.allFinite());
    CHECK(ht.out.allFinite());
    for (int i = 0; i < L; ++i) CHECK(ht.weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-5));
  }
  CHECK(max_abs_score >= 1e4f);  // the test really reached the extreme
  CHECK(t.out.allFinite());
}

TEST_CASE("permuting input rows permutes output rows (no mask)") {
  const int L = 10, D = 16, H = 4;
  const Mat x = ref::random_mat(L, D, 21);
  const AttentionWeights w = ref::random_weights(D, H, 8);
  std::vector<int> perm(L);
  std::iota(perm.begin(), perm.end(), 0);
  std::reverse(perm.begin(), perm.end());
  std::swap(perm[2], perm[7]);
  Mat xp(L, D);
  for (int i = 0; i < L; ++i) xp.row(i) = x.row(perm[i]);
  Trace a, b;
  REQUIRE(forward(x, w, a).is_ok());
  REQUIRE(forward(xp, w, b).is_ok());
  Mat ap(L, D);
  for (int i = 0; i < L; ++i) ap.row(i) = a.out.row(perm[i]);
  const double d = ref::rel_diff(b.out, ap);
  CHECK(d <= ref::kForwardRelTol);
  CHECK(ref::rel_diff(b.out, a.out) > 1e-3);  // and it is not trivially the same
}

TEST_CASE("impossible head counts are refused and leave the trace untouched") {
  const int L = 4, D = 12;
  const Mat x = ref::random_mat(L, D, 2);
  Trace t;
  REQUIRE(forward(x, ref::random_weights(D, 3, 1), t).is_ok());
  const Mat before = t.out;
  for (int H : {0, -1, 5, 13, 24}) {
    CAPTURE(H);
    CHECK_FALSE(check_heads(D, H).is_ok());
    AttentionWeights bad = ref::random_weights(D, 3, 1);
    bad.heads = H;
    const Status s = forward(x, bad, t);
    CHECK_FALSE(s.is_ok());
    CHECK_FALSE(s.error.empty());
    CHECK(t.out == before);
    CHECK(t.heads.size() == 3u);
  }
  CHECK(check_heads(D, 12).is_ok());  // H = D: one channel per head is fine
  CHECK(check_heads(D, 1).is_ok());
  AttentionWeights w = ref::random_weights(D, 3, 1);
  w.wq[1] = Mat::Zero(D, 5);
  CHECK_FALSE(forward(x, w, t).is_ok());
  CHECK_FALSE(forward(ref::random_mat(L, D + 1, 3), ref::random_weights(D, 3, 1), t).is_ok());
  CHECK(t.out == before);
}

// output_parts against a double loop over the naive concatenation: part h is
// sum over head h's columns c of concat[row][c] * W_O[c][:]; the parts add up
// to the engine's output row; a knocked-out head's part is zero.
TEST_CASE("output_parts: each head's share of y, naive loop, summing to y") {
  const int L = 5, D = 16;
  const Mat x = ref::random_mat(L, D, 77);
  for (int H : {1, 2, 4}) {
    CAPTURE(H);
    const int dh = D / H;
    const AttentionWeights w = ref::random_weights(D, H, 300 + H);
    for (uint32_t knockout : {0u, 1u}) {
      CAPTURE(knockout);
      ForwardOptions opt;
      opt.knockout = H > 1 ? knockout : 0u;
      Trace t;
      REQUIRE(forward(x, w, t, opt));
      const ref::NaiveTrace n = ref::naive_forward(x, w);
      for (int row : {0, L - 1}) {
        Mat parts;
        output_parts(t, w, row, parts);
        REQUIRE(parts.rows() == H);
        REQUIRE(parts.cols() == D);
        MatD want = MatD::Zero(H, D);
        for (int h = 0; h < H; ++h) {
          if (opt.knockout & (1u << h)) continue;
          for (int c = h * dh; c < (h + 1) * dh; ++c)
            for (int j = 0; j < D; ++j) want(h, j) += n.concat(row, c) * static_cast<double>(w.wo(c, j));
        }
        CHECK(ref::rel_diff(parts, want) <= ref::kForwardRelTol);
        const Mat sum = parts.colwise().sum();
        CHECK(ref::rel_diff(sum, t.out.row(row)) <= ref::kForwardRelTol);
        if (opt.knockout & 1u) CHECK(parts.row(0).cwiseAbs().maxCoeff() == 0.f);
      }
    }
  }
}
