// text_sentence_tests.cpp: one sentence through the text model
// (text_model.h text_sentence_forward), the trace the views read.
// Does: check it against the windowed forward the trainer runs
// (text_layers_forward on one window: the sentence's ids padded to L, whose
// first n rows must agree, causal attention ignoring the padding) on every
// backend, against a naive double computation of the first layer's
// weights written here from the formula, the causal zeros, rows summing to
// one, the residual stream X_{l+1} = X_l + out, and its refusals (no ids,
// more than L, an id outside the vocabulary) leaving the trace unchanged.
// Does not: test the windowed forward itself (text_model_tests.cpp does).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "engine/core/refusals.h"
#include "engine/train/text_model.h"

using namespace headroom;

namespace {

// A float forward against another float forward of the same maths
// (different products, summation order).
constexpr double kForwardTol = 1e-5;
// Float weights against the double reference.
constexpr double kReferenceTol = 1e-5;
// A softmax row's sum in float.
constexpr double kRowSumTol = 1e-5;

constexpr Backend kBackends[] = {Backend::Eigen, Backend::Scalar, Backend::Simd};
constexpr uint64_t kPurpose = 77;  // any: the initial matrices of a seed

TextShape small_shape(int layers, int heads) {
  TextShape s;
  s.vocab = 11;
  s.d_model = 16;
  s.tokens = 8;
  s.heads = heads;
  s.layers = layers;
  return s;
}

// The first layer's attention weights of head h in double, from the formula:
// x = E_tok[ids] + E_pos, q = x W_Q, k = x W_K, causal softmax(q k^T / sqrt(dh)).
std::vector<std::vector<double>> naive_first_weights(const TextParams& p, const std::vector<int>& ids, int h) {
  const int n = static_cast<int>(ids.size()), D = p.shape.d_model;
  const Mat& wq = p.layers[0].wq[static_cast<size_t>(h)];
  const Mat& wk = p.layers[0].wk[static_cast<size_t>(h)];
  const int dh = static_cast<int>(wq.cols());
  std::vector<std::vector<double>> x(n, std::vector<double>(D)), q(n, std::vector<double>(dh, 0.0)),
      k(n, std::vector<double>(dh, 0.0));
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < D; ++d) x[i][d] = double(p.tok(ids[i], d)) + double(p.pos(i, d));
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < dh; ++c)
      for (int d = 0; d < D; ++d) {
        q[i][c] += x[i][d] * wq(d, c);
        k[i][c] += x[i][d] * wk(d, c);
      }
  std::vector<std::vector<double>> w(n, std::vector<double>(n, 0.0));
  for (int i = 0; i < n; ++i) {
    double mx = -1e300, z = 0;
    std::vector<double> s(i + 1, 0.0);
    for (int j = 0; j <= i; ++j) {
      for (int c = 0; c < dh; ++c) s[j] += q[i][c] * k[j][c];
      s[j] /= std::sqrt(double(dh));
      mx = std::max(mx, s[j]);
    }
    for (int j = 0; j <= i; ++j) z += std::exp(s[j] - mx);
    for (int j = 0; j <= i; ++j) w[i][j] = std::exp(s[j] - mx) / z;
  }
  return w;
}

}  // namespace

TEST_CASE("text_sentence_forward: each layer's first n rows equal the windowed forward of the padded window") {
  for (int layers : {1, 2})
    for (int heads : {1, 2, 4})
      for (int n : {1, 3, 8}) {
        const TextShape s = small_shape(layers, heads);
        const TextParams p = initial_text_params(s, 5 + layers, kPurpose);
        std::vector<int> ids;
        for (int i = 0; i < n; ++i) ids.push_back((3 * i + 2) % s.vocab);
        TextSentenceTrace t;
        REQUIRE(text_sentence_forward(p, ids, t).is_ok());
        REQUIRE(t.ids == ids);
        REQUIRE(t.x.size() == static_cast<size_t>(layers) + 1);
        REQUIRE(t.layers.size() == static_cast<size_t>(layers));
        std::vector<int> window = ids;
        window.resize(static_cast<size_t>(s.tokens), 7);  // padding the causal mask hides from rows < n
        for (Backend b : kBackends) {
          TextWork w;
          REQUIRE(text_layers_forward(p, window, 1, b, w).is_ok());
          for (int l = 0; l < layers; ++l) {
            CAPTURE(layers);
            CAPTURE(heads);
            CAPTURE(n);
            CAPTURE(l);
            const Trace& tr = t.layers[static_cast<size_t>(l)];
            REQUIRE(tr.heads.size() == static_cast<size_t>(heads));
            for (int h = 0; h < heads; ++h) {
              const Mat& mine = tr.heads[static_cast<size_t>(h)].weights;
              REQUIRE(mine.rows() == n);
              REQUIRE(mine.cols() == n);
              const Mat theirs = w.traces[static_cast<size_t>(l)].weights(0, h).topLeftCorner(n, n);
              const double diff = (mine - theirs).cwiseAbs().maxCoeff();
              CAPTURE(diff);
              CHECK(diff < kForwardTol);
            }
            const double xdiff = (t.x[static_cast<size_t>(l) + 1] - w.x[static_cast<size_t>(l) + 1].topRows(n))
                                     .cwiseAbs()
                                     .maxCoeff();
            CAPTURE(xdiff);
            CHECK(xdiff < kForwardTol * 10);  // a residual stream of O(1) entries after W_O
          }
        }
      }
}

TEST_CASE("text_sentence_forward: the first layer's weights equal the double formula; causal; rows sum to one") {
  const TextShape s = small_shape(2, 2);
  const TextParams p = initial_text_params(s, 9, kPurpose);
  const std::vector<int> ids = {4, 0, 1, 10, 4, 4};
  TextSentenceTrace t;
  REQUIRE(text_sentence_forward(p, ids, t).is_ok());
  const int n = static_cast<int>(ids.size());
  for (int h = 0; h < s.heads; ++h) {
    const auto ref = naive_first_weights(p, ids, h);
    double worst = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        worst = std::max(worst, std::abs(double(t.layers[0].heads[static_cast<size_t>(h)].weights(i, j)) - ref[i][j]));
    CAPTURE(worst);
    CHECK(worst < kReferenceTol);
  }
  for (const Trace& tr : t.layers) {
    for (const HeadTrace& ht : tr.heads)
      for (int i = 0; i < n; ++i) {
        CHECK(std::abs(ht.weights.row(i).sum() - 1.0f) < kRowSumTol);
        for (int j = i + 1; j < n; ++j) CHECK(ht.weights(i, j) == 0.0f);
      }
  }
  // The residual stream: X_{l+1} = X_l + the layer's output.
  for (size_t l = 0; l < t.layers.size(); ++l) CHECK(t.x[l + 1] == Mat(t.x[l] + t.layers[l].out));
}

TEST_CASE("text_sentence_forward: refuses no ids, more than L, an id outside the vocabulary; the trace is kept") {
  const TextShape s = small_shape(1, 2);
  const TextParams p = initial_text_params(s, 3, kPurpose);
  TextSentenceTrace t;
  REQUIRE(text_sentence_forward(p, {1, 2}, t).is_ok());
  const Mat before = t.x[0];
  Status st = text_sentence_forward(p, {}, t);
  CHECK(std::string(st.code()) == "sentence_empty");
  st = text_sentence_forward(p, std::vector<int>(static_cast<size_t>(s.tokens) + 1, 2), t);
  CHECK(std::string(st.code()) == "sentence_tokens");
  st = text_sentence_forward(p, {1, s.vocab}, t);
  CHECK(std::string(st.code()) == "id_outside_table");
  st = text_sentence_forward(p, {-1}, t);
  CHECK(std::string(st.code()) == "id_outside_table");
  CHECK(t.ids == std::vector<int>{1, 2});
  CHECK(t.x[0] == before);
  // n = L exactly is a sentence.
  CHECK(text_sentence_forward(p, std::vector<int>(static_cast<size_t>(s.tokens), 2), t).is_ok());
}
