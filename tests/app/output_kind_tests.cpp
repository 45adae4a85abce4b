// output_kind_tests.cpp: the value space's output label names what the
// engine measured (app/lang/output_kind.h). Each expectation is checked against
// the Trace itself: the query's weight row and cosines computed here in
// double, not the readout the classifier reads; and perturbations (focus,
// a zeroed W_Q, a hand-made readout) move the words with the numbers, never
// with the head count.
#include <doctest/doctest.h>

#include <string>

#include "app/lang/output_kind.h"
#include "../common/scene_lookup.h"

using namespace headroom;
using headroom::testing::cos_to;
using app::OutputKind;

namespace {


double weight(Scene& s, int h, int token) { return s.trace().heads[static_cast<size_t>(h)].weights(s.query(), token); }

double max_weight(Scene& s, int h) { return s.trace().heads[static_cast<size_t>(h)].weights.row(s.query()).maxCoeff(); }

app::OutputMeasure measure(Scene& s, int h) { return app::measure_output(s, s.readout()[static_cast<size_t>(h)]); }

}  // namespace

TEST_CASE("one head split between its two targets is a midpoint, and reads neither") {
  Scene s;
  const int a = s.target(s.query(), Relation::Subject), b = s.target(s.query(), Relation::Complement);
  // The trace: the weight is split, and the output points at neither target.
  REQUIRE(weight(s, 0, a) > 0.3);
  REQUIRE(weight(s, 0, b) > 0.3);
  REQUIRE(cos_to(s, 0, a) < app::kReadsCos);
  REQUIRE(cos_to(s, 0, b) < app::kReadsCos);
  const app::OutputMeasure m = measure(s, 0);
  CHECK(m.kind == OutputKind::Midpoint);
  CHECK(m.words == "midpoint");
}

TEST_CASE("all on one target reads it; spread thin is mush (one head, focus moves the words)") {
  Scene s;
  const int a = s.target(s.query(), Relation::Subject);
  REQUIRE(s.set_focus(0.f).is_ok());
  REQUIRE(cos_to(s, 0, a) >= app::kReadsCos);
  app::OutputMeasure m = measure(s, 0);
  CHECK(m.kind == OutputKind::Reads);
  CHECK(m.token == a);
  CHECK(m.words == "reads " + s.tokens()[static_cast<size_t>(a)].text);

  REQUIRE(s.set_focus(1.f).is_ok());
  REQUIRE(max_weight(s, 0) < app::kMushMaxWeight);
  m = measure(s, 0);
  CHECK(m.kind == OutputKind::Mush);
  CHECK(m.words == "mush");
}

TEST_CASE("two heads: each reads the target its cosine is closest to") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  for (int h = 0; h < 2; ++h) {
    const app::OutputMeasure m = measure(s, h);
    CAPTURE(h);
    CHECK(m.kind == OutputKind::Reads);
    // The token the trace's output is closest to, found by a naive loop.
    int best = 0;
    for (int j = 1; j < static_cast<int>(s.tokens().size()); ++j)
      if (cos_to(s, h, j) > cos_to(s, h, best)) best = j;
    CHECK(cos_to(s, h, best) >= app::kReadsCos);
    CHECK(m.token == best);
    CHECK(m.words == "reads " + s.tokens()[static_cast<size_t>(best)].text);
  }
}

TEST_CASE("not from the head count: two heads with a zeroed W_Q are mush") {
  Scene s;
  REQUIRE(s.set_heads(2).is_ok());
  AttentionWeights w = s.weights();
  for (Mat& q : w.wq) q.setZero();
  REQUIRE(s.set_weights_override(&w).is_ok());
  for (int h = 0; h < 2; ++h) {
    CAPTURE(h);
    // Every score alike: the row is uniform, 1/L each.
    CHECK(max_weight(s, h) == doctest::Approx(1.0 / static_cast<double>(s.tokens().size())).epsilon(1e-4));
    CHECK(measure(s, h).kind == OutputKind::Mush);
  }
}

TEST_CASE("the rule on hand-made readouts: a non-target read, a lopsided split, a wide mix") {
  Scene s;  // for the token names only
  const int wrote = 3;
  REQUIRE(s.tokens()[wrote].text == "wrote");
  HeadReadout r;
  r.targets = {1, 7};
  r.target_weight = {0.45f, 0.40f};
  r.max_weight = 0.45f;
  r.nearest = wrote;
  r.nearest_cos = 0.95f;  // the output points at "wrote", whatever the weights
  app::OutputMeasure m = app::measure_output(s, r);
  CHECK(m.kind == OutputKind::Reads);
  CHECK(m.words == "reads wrote");

  r.nearest_cos = 0.5f;  // the same weights, pointing nowhere in particular: a midpoint
  CHECK(app::measure_output(s, r).kind == OutputKind::Midpoint);
  r.target_weight = {0.62f, 0.28f};  // 0.28 < a third of 0.90: lopsided
  r.max_weight = 0.62f;
  m = app::measure_output(s, r);
  CHECK(m.kind == OutputKind::Mix);
  CHECK(m.words == "a mix");
  r.target_weight = {0.31f, 0.2f};  // together 0.51 < 0.6: most of the weight is elsewhere
  r.max_weight = 0.31f;
  CHECK(app::measure_output(s, r).kind == OutputKind::Mix);
  r.max_weight = 0.29f;
  CHECK(app::measure_output(s, r).kind == OutputKind::Mush);
}
