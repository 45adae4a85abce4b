// trainer_tests.cpp: the side-by-side training runs (trainer.h).
//
// Checks: reset / set_lr / step refuse out-of-range values and keep the state;
// every run starts from the same matrices, uniform in +-1/sqrt(D); floors are
// 1 - min(H, R) / R; the held-out set is fixed by the seed; training reaches
// the floors DESIGN.md derives within a stated step budget, and the trained
// two-head weights read the lesson sentence the way the lesson says; the same
// seed gives the same curves bit for bit however step(n) is chunked; an absurd
// learning rate is caught with a message and nothing non-finite gets out; a
// step the held-out check undoes was never counted (a run's steps never go
// back, unit by unit) and leaves the last good step's weights; a
// snapshot's loss and gradients match a naive double-precision reference
// (central differences for the gradients); a held-out point's loss matches
// the same reference on the examples it was measured on (the fixed subset
// before kFullEvalFrom, the whole set after) and the evaluation schedule
// keeps its shape.
//
// Index:
//   [SECTION] settings, refusals and the starting point
//   [SECTION] the naive reference; reaching the floors (a step budget, not a clock)
//   [SECTION] determinism: the same seed, the same curves
//   [SECTION] failures: divergence and undone steps
//   [SECTION] references: loss and gradients against naive double precision
//   [SECTION] tied query and key
//   [SECTION] history
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

#include "engine/lesson/scene.h"
#include "engine/train/history.h"
#include "engine/train/trainer.h"

using namespace headroom;

namespace {

Mat join_columns(const std::vector<Mat>& blocks) {
  Mat m(blocks[0].rows(), 0);
  for (const Mat& b : blocks) {
    Mat next(m.rows(), m.cols() + b.cols());
    next << m, b;
    m = next;
  }
  return m;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] settings, refusals and the starting point
//-----------------------------------------------------------------------------
TEST_CASE("trainer: reset, set_lr and step refuse bad values and keep the state") {
  Trainer t;
  REQUIRE(t.reset(7, 4, 1e-3f).is_ok());
  const float loss0 = t.runs()[0].loss();
  struct Bad {
    int64_t seed;
    int r;
    float lr;
  };
  for (const Bad& b : {Bad{-1, 2, 1e-3f}, Bad{kMaxSeed + 1, 2, 1e-3f}, Bad{1, 3, 1e-3f}, Bad{1, 0, 1e-3f},
                       Bad{1, 2, 0.f}, Bad{1, 2, -1e-3f}, Bad{1, 2, 11.f}, Bad{1, 2, NAN}, Bad{1, 2, INFINITY}}) {
    const Status s = t.reset(b.seed, b.r, b.lr);
    CHECK_FALSE(s.is_ok());
    CHECK_FALSE(s.error.empty());
    CHECK(t.seed() == 7);
    CHECK(t.relations() == 4);
    CHECK(t.lr() == 1e-3f);
    CHECK(t.runs()[0].loss() == loss0);
  }
  for (float lr : {0.f, 2e-7f, 10.5f, NAN, -INFINITY}) {
    CHECK_FALSE(t.set_lr(lr).is_ok());
    CHECK(t.lr() == 1e-3f);
  }
  CHECK(t.set_lr(5e-3f).is_ok());
  CHECK(t.lr() == 5e-3f);
  for (int n : {0, -1, kMaxStepsPerCall + 1}) {
    const Status s = t.step(n);
    CHECK_FALSE(s.is_ok());
    CHECK(s.error.find(std::to_string(n)) != std::string::npos);
    CHECK(t.step_count() == 0);
  }
  CHECK(t.reset(kMaxSeed, 2, kMaxLr).is_ok());
  CHECK(t.reset(0, 2, kMinLr).is_ok());
  // The range as messages say it names the same two bounds.
  const std::string range = kLrRangeText;
  REQUIRE(range.find(" to ") != std::string::npos);
  CHECK(std::strtof(range.substr(0, range.find(" to ")).c_str(), nullptr) == kMinLr);
  CHECK(std::strtof(range.substr(range.find(" to ") + 4).c_str(), nullptr) == kMaxLr);
  const Status low = t.set_lr(kMinLr / 2);
  CHECK_FALSE(low.is_ok());
  CHECK(low.error.find(range) != std::string::npos);
  TrainSnapshot snap;
  CHECK_FALSE(t.snapshot(3, snap).is_ok());
  CHECK(t.run(3) == nullptr);
  CHECK(t.weights(8) == nullptr);
}

TEST_CASE("trainer: runs, floors and the shared initial weights") {
  Trainer t;
  for (int r : {2, 4}) {
    REQUIRE(t.reset(11, r, 1e-3f).is_ok());
    REQUIRE(t.runs().size() == kTrainHeads.size());
    for (const TrainRun& run : t.runs()) {
      CHECK(run.floor == doctest::Approx(1.0 - std::min(run.heads, r) / double(r)));
      REQUIRE(run.history.size() == 1u);
      CHECK(run.history[0].step == 0);
      CHECK(run.history[0].weight_on.size() == static_cast<size_t>(run.heads * r));
      // random weights attend nearly uniformly over L tokens, and predict
      // small outputs: the loss starts near 1
      CHECK(run.loss() > 0.95f);
      CHECK(run.loss() < 1.5f);
      for (float w : run.history[0].weight_on) CHECK(std::fabs(w - 1.f / kTrainTokens) < 0.05f);
      CHECK_FALSE(run.diverged);
    }
  }
  const AttentionWeights* w1 = t.weights(1);
  const AttentionWeights* w4 = t.weights(4);
  REQUIRE(w1);
  REQUIRE(w4);
  CHECK(join_columns(w4->wq) == w1->wq[0]);
  CHECK(join_columns(w4->wv) == w1->wv[0]);
  CHECK(w4->wo == w1->wo);
  const float bound = 1.f / std::sqrt(128.f);
  CHECK(w1->wk[0].cwiseAbs().maxCoeff() <= bound);
  CHECK(w1->wk[0].cwiseAbs().maxCoeff() > 0.95f * bound);
  CHECK(std::fabs(w1->wk[0].mean()) < 0.01f * bound * 10);
  // a new seed draws new weights and a new held-out set
  const Mat wq_before = w1->wq[0];
  const float loss_before = t.runs()[0].loss();
  REQUIRE(t.reset(12, 4, 1e-3f).is_ok());
  CHECK(t.weights(1)->wq[0] != wq_before);
  CHECK(t.runs()[0].loss() != loss_before);
  // the same seed gives them back exactly
  REQUIRE(t.reset(11, 4, 1e-3f).is_ok());
  CHECK(t.weights(1)->wq[0] == wq_before);
  CHECK(t.runs()[0].loss() == loss_before);
}

//-----------------------------------------------------------------------------
// [SECTION] the naive reference; reaching the floors (a step budget, not a clock)
//-----------------------------------------------------------------------------
namespace {

// The naive reference: the snapshot's formula in double, one example at a time.
double naive_loss(const TrainSnapshot& s, const MatD& wq, const MatD& wk, const MatD& wv, const MatD& wo) {
  const int B = s.batch, L = s.tokens, D = s.d_model, H = s.heads, dh = D / H;
  double sum = 0;
  int masked = 0;
  for (int b = 0; b < B; ++b) {
    const MatD x = s.x.middleRows(b * L, L).cast<double>();
    MatD concat(L, D);
    for (int h = 0; h < H; ++h) {
      const MatD q = x * wq.middleCols(h * dh, dh), k = x * wk.middleCols(h * dh, dh),
                 v = x * wv.middleCols(h * dh, dh);
      MatD p = q * k.transpose() / std::sqrt(double(dh));
      for (int i = 0; i < L; ++i) {
        const double m = p.row(i).maxCoeff();
        p.row(i) = (p.row(i).array() - m).exp();
        p.row(i) /= p.row(i).sum();
      }
      concat.middleCols(h * dh, dh) = p * v;
    }
    const MatD y = concat * wo;
    for (int i = 0; i < L; ++i) {
      if (s.mask[static_cast<size_t>(b * L + i)] == 0.f) continue;
      ++masked;
      sum += (y.row(i) - s.target.row(b * L + i).cast<double>()).squaredNorm();
    }
  }
  return sum / (masked * double(s.outputs) * s.loss_scale);
}

bool finite_state(const Trainer& t) {
  for (const TrainRun& run : t.runs()) {
    for (const EvalPoint& p : run.history) {
      if (!std::isfinite(p.loss)) return false;
      for (float w : p.weight_on)
        if (!std::isfinite(w)) return false;
    }
    const AttentionWeights* w = t.weights(run.heads);
    for (int h = 0; h < run.heads; ++h)
      if (!w->wq[h].allFinite() || !w->wk[h].allFinite() || !w->wv[h].allFinite()) return false;
    if (!w->wo.allFinite()) return false;
  }
  return true;
}

int token_index(const Scene& s, const char* word) {
  for (size_t i = 0; i < s.tokens().size(); ++i)
    if (s.tokens()[i].text == word) return static_cast<int>(i);
  return -1;
}

}  // namespace

// Step budgets (kDefaultLr = 1e-2, B = 32 examples x 10 queries, seed 1):
// R = 2, 200 steps; R = 4, 300 steps. Measured natively over seeds 1..5:
// R = 2 ends at 0.514..0.519 / 0.0007 / 0.0010 for 1 / 2 / 4 heads, R = 4 at
// 0.766..0.778 / 0.521..0.528 / 0.0007..0.0091 (floors 0.5 / 0 / 0 and
// 0.75 / 0.5 / 0).
TEST_CASE("trainer: R = 2 reaches the floors, and the trained heads read the lesson" * doctest::test_suite("convergence")) {
  Trainer t;
  REQUIRE(t.reset(1, 2, kDefaultLr).is_ok());
  REQUIRE(t.step(200).is_ok());
  CHECK(t.step_count() == 200);
  const TrainRun& one = *t.run(1);
  const TrainRun& two = *t.run(2);
  const TrainRun& four = *t.run(4);
  INFO("held-out losses 1 / 2 / 4 heads: " << one.loss() << " " << two.loss() << " " << four.loss());
  CHECK(one.loss() >= 0.4f);
  CHECK(one.loss() <= 0.6f);
  CHECK(two.loss() < 0.05f);
  CHECK(four.loss() < 0.05f);
  for (const TrainRun* run : {&one, &two, &four}) CHECK_FALSE(run->diverged);
  // each of the two heads holds one relationship
  const float a0 = two.weight_on(0, 0, 2), a1 = two.weight_on(0, 1, 2);
  const float b0 = two.weight_on(1, 0, 2), b1 = two.weight_on(1, 1, 2);
  CHECK(std::max(a0, a1) > 0.8f);
  CHECK(std::max(b0, b1) > 0.8f);
  CHECK((a0 > a1) != (b0 > b1));

  // The lesson sentence built by Scene is an example of the task: the trained
  // two-head weights send one head to "researcher" and the other to "it".
  Scene scene;
  REQUIRE(scene.set_heads(2).is_ok());
  const int q = scene.query(), subj = token_index(scene, "researcher"), comp = token_index(scene, "it");
  REQUIRE(q == token_index(scene, "said"));
  Trace trace;
  REQUIRE(forward(scene.x(), *t.weights(2), trace).is_ok());
  const float h0_subj = trace.heads[0].weights(q, subj), h0_comp = trace.heads[0].weights(q, comp);
  const float h1_subj = trace.heads[1].weights(q, subj), h1_comp = trace.heads[1].weights(q, comp);
  INFO("head 0: " << h0_subj << " on researcher, " << h0_comp << " on it; head 1: " << h1_subj << ", " << h1_comp);
  const bool head0_subject = h0_subj > h0_comp;
  CHECK(std::max(h0_subj, h0_comp) > 0.6f);
  CHECK(std::max(h1_subj, h1_comp) > 0.6f);
  CHECK(head0_subject != (h1_subj > h1_comp));
}

// R = 4 (subject, complement, previous token, coreference by agreement),
// 400 steps, seed 1, measured natively: 0.763 / 0.514 / 0.0011 (seeds 2, 3:
// 0.762 / 0.513 / 0.0007 and 0.763 / 0.513 / 0.0006); every 4-head run ends
// with each head on a different slot at >= 0.95 (coreference 0.95..0.96).
TEST_CASE("trainer: R = 4 reaches the floors 0.75 / 0.5 / 0, one head per kind" * doctest::test_suite("convergence")) {
  Trainer t;
  REQUIRE(t.reset(1, 4, kDefaultLr).is_ok());
  REQUIRE(t.step(400).is_ok());
  const float l1 = t.run(1)->loss(), l2 = t.run(2)->loss(), l4 = t.run(4)->loss();
  INFO("held-out losses 1 / 2 / 4 heads: " << l1 << " " << l2 << " " << l4);
  CHECK(l1 >= 0.7f);
  CHECK(l1 <= 0.85f);
  CHECK(l2 >= 0.45f);
  CHECK(l2 <= 0.6f);
  CHECK(l4 < 0.05f);
  // four heads, four kinds: each head's best slot is a different one
  const TrainRun& four = *t.run(4);
  std::set<int> slots;
  for (int h = 0; h < 4; ++h) {
    int best = 0;
    for (int r = 1; r < 4; ++r)
      if (four.weight_on(h, r, 4) > four.weight_on(h, best, 4)) best = r;
    CAPTURE(h);
    CHECK(four.weight_on(h, best, 4) > 0.8f);
    slots.insert(best);
  }
  CHECK(slots.size() == 4u);
}

//-----------------------------------------------------------------------------
// [SECTION] determinism: the same seed, the same curves
//-----------------------------------------------------------------------------
TEST_CASE("trainer: same seed, same curves bit for bit, however steps are chunked") {
  Trainer a, b;
  REQUIRE(a.reset(5, 2, 3e-3f).is_ok());
  REQUIRE(b.reset(5, 2, 3e-3f).is_ok());
  REQUIRE(a.step(7).is_ok());
  REQUIRE(a.set_lr(1e-2f).is_ok());
  REQUIRE(a.step(13).is_ok());
  for (int i = 0; i < 7; ++i) REQUIRE(b.step(1).is_ok());
  REQUIRE(b.set_lr(1e-2f).is_ok());
  REQUIRE(b.step(13).is_ok());
  REQUIRE(a.step_count() == 20);
  for (int heads : kTrainHeads) {
    const TrainRun& ra = *a.run(heads);
    const TrainRun& rb = *b.run(heads);
    REQUIRE(ra.history.size() == rb.history.size());
    for (size_t j = 0; j < ra.history.size(); ++j) {
      CHECK(ra.history[j].step == rb.history[j].step);
      CHECK(ra.history[j].loss == rb.history[j].loss);
      CHECK(ra.history[j].weight_on == rb.history[j].weight_on);
    }
    CHECK(a.weights(heads)->wo == b.weights(heads)->wo);
  }
  // the evaluation schedule: every step to 8, then log-spaced, gaps <= kEvalGap
  const std::vector<EvalPoint>& h = a.run(1)->history;
  for (int j = 0; j <= 8; ++j) CHECK(h[static_cast<size_t>(j)].step == j);
  for (size_t j = 1; j < h.size(); ++j) {
    CHECK(h[j].step > h[j - 1].step);
    CHECK(h[j].step - h[j - 1].step <= std::max<int64_t>(1, h[j - 1].step / 4));
  }
  CHECK(h.back().step >= 15);
  // training moved the loss (the curve is not flat)
  CHECK(a.run(2)->loss() < h.front().loss);
  // a different seed gives a different curve
  Trainer c;
  REQUIRE(c.reset(6, 2, 3e-3f).is_ok());
  REQUIRE(c.step(20).is_ok());
  CHECK(c.run(2)->loss() != a.run(2)->loss());
}

TEST_CASE("trainer: units (one run's step, one held-out chunk) give the same curves bit for bit" * doctest::test_suite("convergence")) {
  // Reference: whole steps. Unit runs: every unit alone, and step(n) calls
  // interleaved with units, a rate change arriving mid-step (it applies from
  // the next step, like a set_lr between whole steps).
  Trainer whole, units, mixed;
  for (Trainer* t : {&whole, &units, &mixed}) REQUIRE(t->reset(5, 2, 3e-3f).is_ok());
  REQUIRE(whole.step(7).is_ok());
  REQUIRE(whole.set_lr(1e-2f).is_ok());
  REQUIRE(whole.step(14).is_ok());
  // units, one at a time: counts what a step is made of
  int trains = 0, evals = 0, steps = 0;
  while (units.step_count() < 21) {
    const TrainUnit kind = units.next_unit();
    REQUIRE(kind != TrainUnit::kNone);
    (kind == TrainUnit::kTrain ? trains : evals) += 1;
    const int64_t before = units.step_count();
    const bool done = units.run_unit();
    CHECK(units.step_count() == before + (done ? 1 : 0));
    CHECK(units.mid_step() == !done);
    steps += done ? 1 : 0;
    if (done && units.step_count() == 7) REQUIRE(units.set_lr(1e-2f).is_ok());
  }
  CHECK(steps == 21);
  CHECK(trains == 21 * 3);
  // evaluated steps 1..8, 10, 12, 15, 18: 12 steps x 3 runs x the subset's
  // chunks (every point before kFullEvalFrom is on the held-out subset)
  CHECK(evals == 12 * 3 * (kHeldOutSubset / kTrainBatch));
  // mixed: 3 units, then step(2) (finishes step 1, then step 2), then the
  // rate set once step 7 has begun: it applies from step 8, as in `whole`
  for (int i = 0; i < 3; ++i) CHECK_FALSE(mixed.run_unit());
  REQUIRE(mixed.step(2).is_ok());
  CHECK(mixed.step_count() == 2);
  CHECK_FALSE(mixed.mid_step());
  REQUIRE(mixed.step(4).is_ok());
  CHECK_FALSE(mixed.run_unit());  // step 7 has begun with 3e-3
  REQUIRE(mixed.set_lr(1e-2f).is_ok());
  CHECK(mixed.lr() == 1e-2f);
  while (!mixed.run_unit()) {
  }
  CHECK(mixed.step_count() == 7);
  for (int i = 0; i < 3; ++i) mixed.run_unit();  // each run's training unit
  // a snapshot mid-step: runs already trained are one step ahead
  TrainSnapshot snap;
  REQUIRE(mixed.snapshot(1, snap).is_ok());
  CHECK(snap.step == 8);
  REQUIRE(mixed.snapshot(4, snap).is_ok());
  CHECK(snap.step == 8);
  // ... but a run counts step 8 (an evaluation step) only once its held-out
  // check has passed: none has yet (no run's evaluation has run); then run
  // 1's (one chunk: step 8 is before kFullEvalFrom) counts it for run 1 alone
  for (const TrainRun& run : mixed.runs()) CHECK(run.steps == 7);
  REQUIRE(kHeldOutSubset == kTrainBatch);
  CHECK_FALSE(mixed.run_unit());
  CHECK(mixed.runs()[0].steps == 8);
  CHECK(mixed.runs()[1].steps == 7);
  CHECK(mixed.runs()[2].steps == 7);
  // the mid-step snapshot is the one whole steps give at step 8
  Trainer at8;
  REQUIRE(at8.reset(5, 2, 3e-3f).is_ok());
  REQUIRE(at8.step(7).is_ok());
  REQUIRE(at8.set_lr(1e-2f).is_ok());
  REQUIRE(at8.step(1).is_ok());
  TrainSnapshot ref8;
  REQUIRE(at8.snapshot(4, ref8).is_ok());
  CHECK(ref8.step == 8);
  CHECK(snap.loss == ref8.loss);
  CHECK(snap.x == ref8.x);
  CHECK(snap.wo == ref8.wo);
  REQUIRE(mixed.step(14).is_ok());
  for (Trainer* t : {&units, &mixed}) {
    REQUIRE(t->step_count() == 21);
    for (int heads : kTrainHeads) {
      CAPTURE(heads);
      const TrainRun& ra = *whole.run(heads);
      const TrainRun& rb = *t->run(heads);
      REQUIRE(ra.history.size() == rb.history.size());
      for (size_t j = 0; j < ra.history.size(); ++j) {
        CHECK(ra.history[j].step == rb.history[j].step);
        CHECK(ra.history[j].loss == rb.history[j].loss);
        CHECK(ra.history[j].weight_on == rb.history[j].weight_on);
      }
      CHECK(rb.steps == 21);
      CHECK(whole.weights(heads)->wo == t->weights(heads)->wo);
      CHECK(whole.weights(heads)->wq[0] == t->weights(heads)->wq[0]);
    }
  }
  // the perturbation that must show: the rate changed one step later moves the curve
  Trainer late;
  REQUIRE(late.reset(5, 2, 3e-3f).is_ok());
  REQUIRE(late.step(8).is_ok());
  REQUIRE(late.set_lr(1e-2f).is_ok());
  REQUIRE(late.step(13).is_ok());
  CHECK(late.run(2)->loss() != whole.run(2)->loss());
}

//-----------------------------------------------------------------------------
// [SECTION] failures: divergence and undone steps
//-----------------------------------------------------------------------------
TEST_CASE("trainer: an absurd learning rate is caught, nothing non-finite gets out, reset recovers" * doctest::test_suite("convergence")) {
  Trainer t;
  REQUIRE(t.reset(3, 2, kMaxLr).is_ok());
  REQUIRE(t.step(60).is_ok());
  int stopped = 0;
  for (const TrainRun& run : t.runs()) {
    if (!run.diverged) continue;
    ++stopped;
    INFO(run.stopped.error);
    CHECK(run.stopped.error.find("step " + std::to_string(run.steps + 1)) != std::string::npos);
    CHECK(run.stopped.error.find("lr 10") != std::string::npos);
    CHECK(run.steps < 60);
    TrainSnapshot snap;
    const Status s = t.snapshot(run.heads, snap);  // refused or finite
    if (s.is_ok()) CHECK((std::isfinite(snap.loss) && snap.gq.allFinite() && snap.wq.allFinite()));
  }
  CHECK(stopped == static_cast<int>(kTrainHeads.size()));
  CHECK(finite_state(t));

  // Between two evaluations (after step 97 the next is 121) the training
  // batch's own loss catches a rate raised mid-run, at the step it explodes.
  REQUIRE(t.reset(3, 2, kDefaultLr).is_ok());
  REQUIRE(t.step(100).is_ok());
  REQUIRE(t.set_lr(kMaxLr).is_ok());
  REQUIRE(t.step(15).is_ok());
  for (const TrainRun& run : t.runs()) {
    INFO(run.stopped.error);
    REQUIRE(run.diverged);
    CHECK(run.steps > 100);
    CHECK(run.steps < 115);
    CHECK(run.stopped.error.find("training loss") != std::string::npos);
    CHECK(run.stopped.error.find("step " + std::to_string(run.steps + 1) + " with lr 10") != std::string::npos);
    CHECK(run.history.back().step <= 100);
  }
  CHECK(finite_state(t));
  REQUIRE(t.reset(3, 2, kDefaultLr).is_ok());
  REQUIRE(t.step(5).is_ok());
  for (const TrainRun& run : t.runs()) {
    CHECK_FALSE(run.diverged);
    CHECK(run.stopped.is_ok());
    CHECK(run.steps == 5);
  }
  CHECK(finite_state(t));
}

TEST_CASE("trainer: a step the held-out check undoes was never counted: steps never go back") {
  // Found by fuzz_training: on an evaluation step a run's training
  // unit passed its checks and counted the step, then its held-out check (a
  // later unit, maybe a later frame) failed and took it back: the state read
  // steps = s, then s - 1. Measured (seeds 1..6, R = 2, units one at a time):
  // a rate of 0.06 .. 10 from reset passes step 1 or 2's training-batch checks
  // and blows up the held-out loss. Here: 5 good steps at 1e-2, then lr 1 from
  // step 6 (an evaluation step: 1..8 all are), which every run trains and its
  // held-out check then refuses.
  Trainer t, ref;
  REQUIRE(t.reset(2, 2, kDefaultLr).is_ok());
  REQUIRE(ref.reset(2, 2, kDefaultLr).is_ok());
  REQUIRE(ref.step(5).is_ok());  // the last good step, in whole steps
  std::vector<int64_t> seen(t.runs().size(), 0);
  int trained_in_6 = 0;
  while (t.step_count() < 10) {
    if (t.step_count() == 5 && !t.mid_step() && t.lr() != 1.f) REQUIRE(t.set_lr(1.f).is_ok());
    const bool train_unit = t.next_unit() == TrainUnit::kTrain;
    const int64_t step = t.step_count();
    t.run_unit();
    for (size_t i = 0; i < seen.size(); ++i) {
      const TrainRun& run = t.runs()[i];
      CAPTURE(run.heads);
      CAPTURE(step);
      CHECK(run.steps >= seen[i]);
      seen[i] = run.steps;
    }
    if (train_unit && step == 5) ++trained_in_6;
  }
  CHECK(trained_in_6 == static_cast<int>(kTrainHeads.size()));  // every run's training unit of step 6 ran
  for (int heads : kTrainHeads) {
    CAPTURE(heads);
    const TrainRun& run = *t.run(heads);
    INFO(run.stopped.error);
    REQUIRE(run.diverged);
    CHECK(run.stopped.error.find("stopped at step 6 with lr 1: the held-out loss") != std::string::npos);
    CHECK(run.stopped.error.find("the weights are those of step 5") != std::string::npos);
    CHECK(run.steps == 5);
    CHECK(run.history.back().step == 5);
    const AttentionWeights& w = *t.weights(heads);
    const AttentionWeights& good = *ref.weights(heads);
    CHECK(w.wo == good.wo);
    for (size_t h = 0; h < w.wq.size(); ++h) {
      CHECK(w.wq[h] == good.wq[h]);
      CHECK(w.wk[h] == good.wk[h]);
      CHECK(w.wv[h] == good.wv[h]);
    }
  }
  CHECK(finite_state(t));
}

//-----------------------------------------------------------------------------
// [SECTION] references: loss and gradients against naive double precision
//-----------------------------------------------------------------------------
TEST_CASE("trainer: a snapshot's loss and gradients match a naive reference") {
  Trainer t;
  REQUIRE(t.reset(9, 2, kDefaultLr).is_ok());
  REQUIRE(t.step(5).is_ok());
  TrainSnapshot s;
  REQUIRE(t.snapshot(2, s).is_ok());
  CHECK(s.heads == 2);
  CHECK(s.step == 5);
  CHECK(s.x.rows() == kTrainBatch * kTrainTokens);
  CHECK(s.wq.cols() == 128);
  CHECK(s.target.cols() == s.d_model);  // no readout W_R: the prediction is Y itself
  CHECK(s.loss_scale == doctest::Approx(2.0 / 128));
  CHECK(s.wq.middleCols(64, 64) == t.weights(2)->wq[1]);
  const MatD wq = s.wq.cast<double>(), wk = s.wk.cast<double>(), wv = s.wv.cast<double>(), wo = s.wo.cast<double>();
  CHECK(s.loss == doctest::Approx(naive_loss(s, wq, wk, wv, wo)).epsilon(1e-4));
  // central differences in double on the largest gradient entry of each matrix
  const Mat* grads[4] = {&s.gq, &s.gk, &s.gv, &s.go};
  for (int m = 0; m < 4; ++m) {
    Eigen::Index i = 0, j = 0;
    grads[m]->cwiseAbs().maxCoeff(&i, &j);
    MatD w[4] = {wq, wk, wv, wo};
    const double eps = 1e-4;
    w[m](i, j) += eps;
    const double up = naive_loss(s, w[0], w[1], w[2], w[3]);
    w[m](i, j) -= 2 * eps;
    const double down = naive_loss(s, w[0], w[1], w[2], w[3]);
    const double fd = (up - down) / (2 * eps);
    INFO("matrix " << m << " entry (" << i << ", " << j << "): fd " << fd << ", snapshot " << (*grads[m])(i, j));
    CHECK((*grads[m])(i, j) == doctest::Approx(fd).epsilon(1e-3));
  }
  // the snapshot's batch is the one the next step trains on: one SGD-free
  // check is that stepping moves the weights along -sign(grad) (Adam's first
  // moves are about lr sign(g) for the biggest entries)
  Eigen::Index i = 0, j = 0;
  s.go.cwiseAbs().maxCoeff(&i, &j);
  const float before = t.weights(2)->wo(i, j);
  REQUIRE(t.step(1).is_ok());
  CHECK((t.weights(2)->wo(i, j) - before) * s.go(i, j) < 0.f);
}

//-----------------------------------------------------------------------------
// [SECTION] tied query and key
//-----------------------------------------------------------------------------
TEST_CASE("trainer: tied runs sit beside the untied ones, keep W_K = W_Q, and are deterministic per seed" * doctest::test_suite("convergence")) {
  Trainer plain, tied, again;
  REQUIRE(plain.reset(8, 4, kDefaultLr).is_ok());
  REQUIRE(tied.reset(8, 4, kDefaultLr, true).is_ok());
  REQUIRE(again.reset(8, 4, kDefaultLr, true).is_ok());
  CHECK_FALSE(plain.tie_qk());
  CHECK(tied.tie_qk());
  // untied 1, 2, 4 first, then tied 1, 2, 4
  REQUIRE(tied.runs().size() == 2 * kTrainHeads.size());
  for (size_t i = 0; i < tied.runs().size(); ++i) {
    CHECK(tied.runs()[i].heads == kTrainHeads[i % kTrainHeads.size()]);
    CHECK(tied.runs()[i].tie_qk == (i >= kTrainHeads.size()));
  }
  CHECK(plain.run(2, true) == nullptr);
  TrainSnapshot snap;
  CHECK_FALSE(plain.snapshot(2, true, snap).is_ok());
  // the tied run starts from the untied run's W_Q, W_V, W_O
  CHECK(tied.weights(2, true)->wq[1] == tied.weights(2)->wq[1]);
  CHECK(tied.weights(2, true)->wv[0] == tied.weights(2)->wv[0]);
  CHECK(tied.weights(2, true)->wk[1] == tied.weights(2)->wq[1]);
  CHECK(tied.weights(2)->wk[1] != tied.weights(2)->wq[1]);
  REQUIRE(plain.step(12).is_ok());
  REQUIRE(tied.step(12).is_ok());
  for (int i = 0; i < 3; ++i) REQUIRE(again.step(4).is_ok());
  for (int heads : kTrainHeads) {
    CAPTURE(heads);
    // untied runs are the same whether tied ones train beside them (same batches)
    CHECK(plain.run(heads)->history.back().loss == tied.run(heads)->history.back().loss);
    CHECK(plain.weights(heads)->wo == tied.weights(heads)->wo);
    // tied: one matrix per head, bit for bit, and the runs are deterministic
    const AttentionWeights& w = *tied.weights(heads, true);
    for (int h = 0; h < heads; ++h) CHECK(w.wk[h] == w.wq[h]);
    CHECK(w.wq[0] != plain.weights(heads)->wq[0]);  // it trained, and differently
    const TrainRun& a = *tied.run(heads, true);
    const TrainRun& b = *again.run(heads, true);
    REQUIRE(a.history.size() == b.history.size());
    for (size_t j = 0; j < a.history.size(); ++j) {
      CHECK(a.history[j].loss == b.history[j].loss);
      CHECK(a.history[j].weight_on == b.history[j].weight_on);
    }
    CHECK(again.weights(heads, true)->wq[0] == w.wq[0]);
  }
}

TEST_CASE("trainer: a tied run's snapshot gradient matches central differences of the shared matrix, H = 1, 2, 4") {
  Trainer t;
  REQUIRE(t.reset(9, 4, kDefaultLr, true).is_ok());
  REQUIRE(t.step(6).is_ok());
  for (int heads : kTrainHeads) {
    CAPTURE(heads);
    TrainSnapshot s;
    REQUIRE(t.snapshot(heads, true, s).is_ok());
    CHECK(s.tie_qk);
    CHECK(s.wk == s.wq);
    CHECK(s.gk.size() == 0);
    const MatD wv = s.wv.cast<double>(), wo = s.wo.cast<double>();
    MatD w = s.wq.cast<double>();
    CHECK(s.loss == doctest::Approx(naive_loss(s, w, w, wv, wo)).epsilon(1e-4));
    // the largest entry of each head's block and two more per head
    for (int h = 0; h < heads; ++h) {
      const int dh = 128 / heads;
      Eigen::Index i = 0, j = 0;
      s.gq.middleCols(h * dh, dh).cwiseAbs().maxCoeff(&i, &j);
      const std::pair<Eigen::Index, Eigen::Index> entries[] = {{i, h * dh + j}, {96, h * dh + 3}, {50, h * dh + dh - 1}};
      for (const auto& entry : entries) {
        // (not a structured binding: INFO's lambda cannot capture one in C++17)
        const Eigen::Index r = entry.first, c = entry.second;
        const double eps = 1e-4, keep = w(r, c);
        w(r, c) = keep + eps;
        const double up = naive_loss(s, w, w, wv, wo);
        w(r, c) = keep - eps;
        const double down = naive_loss(s, w, w, wv, wo);
        w(r, c) = keep;
        const double fd = (up - down) / (2 * eps);
        INFO("entry (" << r << ", " << c << "): fd " << fd << ", snapshot " << s.gq(r, c));
        CHECK(s.gq(r, c) == doctest::Approx(fd).epsilon(2e-3).scale(1e-4));
      }
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] history
//-----------------------------------------------------------------------------
TEST_CASE("trainer: the history is thinned to every second point, first and last kept") {
  std::vector<EvalPoint> h(kMaxHistory + 1);
  for (size_t j = 0; j < h.size(); ++j) h[j].step = static_cast<int64_t>(j * 10);
  thin_history(h);
  REQUIRE(h.size() == static_cast<size_t>(kMaxHistory / 2 + 2));
  CHECK(h.front().step == 0);
  CHECK(h[1].step == 10);
  CHECK(h[2].step == 30);
  CHECK(h.back().step == static_cast<int64_t>(kMaxHistory * 10));
  for (size_t j = 1; j < h.size(); ++j) CHECK(h[j].step > h[j - 1].step);
}

namespace {
// The held-out stream's purpose under the seed (trainer.cpp's kHeldOutPurpose).
constexpr uint64_t kHeldOutStream = 2;

// The naive loss of `run`'s weights (double, one example at a time) over the
// held-out examples 0 .. count - 1, generated here from the seed's stream.
double naive_held_out_loss(const Trainer& t, int heads, int count) {
  TaskConfig cfg;
  cfg.relations = t.relations();
  cfg.tokens = kTrainTokens;
  cfg.queries = kTrainQueries;
  TaskBatch set;
  REQUIRE(generate_task_batch(cfg, task_streams(static_cast<uint64_t>(t.seed()), kHeldOutStream), 0, count, set).is_ok());
  const AttentionWeights* w = t.weights(heads);
  REQUIRE(w != nullptr);
  TrainSnapshot s;
  s.heads = heads;
  s.batch = count;
  s.tokens = kTrainTokens;
  s.d_model = kTaskDModel;
  s.outputs = kTaskOutputDims;
  s.x = set.x;
  s.target = set.target;
  s.mask = set.mask;
  s.loss_scale = task_loss_scale(cfg);
  return naive_loss(s, join_columns(w->wq).cast<double>(), join_columns(w->wk).cast<double>(),
                    join_columns(w->wv).cast<double>(), w->wo.cast<double>());
}
}  // namespace

TEST_CASE("trainer: early points are measured on the held-out set's first examples, later ones on all of it") {
  static_assert(kHeldOutSubset < kHeldOutExamples, "the early points use a proper subset");
  for (int64_t s : {int64_t{0}, int64_t{1}, kFullEvalFrom - 1}) CHECK(held_out_examples_at(s) == kHeldOutSubset);
  for (int64_t s : {kFullEvalFrom, kFullEvalFrom + 1, int64_t{100000}}) CHECK(held_out_examples_at(s) == kHeldOutExamples);

  Trainer t;
  REQUIRE(t.reset(9, 2, kDefaultLr).is_ok());
  // Each point against the naive reference on the examples it says it used,
  // and not on the others: step 0 and the last point before kFullEvalFrom on
  // the subset, the first point from kFullEvalFrom on on the whole set.
  auto check_latest = [&](int expected_examples) {
    for (int heads : kTrainHeads) {
      const EvalPoint& p = t.run(heads)->latest();
      CHECK(p.step == t.step_count());
      CHECK(held_out_examples_at(p.step) == expected_examples);
      const double used = naive_held_out_loss(t, heads, expected_examples);
      const double other = naive_held_out_loss(t, heads, kHeldOutSubset + kHeldOutExamples - expected_examples);
      INFO("H = " << heads << ", step " << p.step << ": point " << p.loss << ", naive on its " << expected_examples
                  << " examples " << used << ", on the other count " << other);
      CHECK(p.loss == doctest::Approx(used).epsilon(1e-4));
      CHECK(std::fabs(used - other) > 1e-3 * used);  // the two counts are told apart
    }
  };
  check_latest(kHeldOutSubset);
  // the last evaluation step before kFullEvalFrom, and the first from it on
  int64_t last_early = 0, first_full = 0;
  for (int64_t s = 1; first_full == 0; s = next_eval_step(s, kEvalGap)) (s < kFullEvalFrom ? last_early : first_full) = s;
  REQUIRE(t.step(static_cast<int>(last_early)).is_ok());
  check_latest(kHeldOutSubset);
  REQUIRE(t.step(static_cast<int>(first_full - last_early)).is_ok());
  check_latest(kHeldOutExamples);
  // the history's points: the schedule's steps, none skipped, none added
  std::vector<int64_t> expected = {0};
  for (int64_t s = 1; s <= first_full; s = next_eval_step(s, kEvalGap)) expected.push_back(s);
  std::vector<int64_t> got;
  for (const EvalPoint& p : t.run(2)->history) got.push_back(p.step);
  CHECK(got == expected);
}

TEST_CASE("trainer: the evaluation schedule: every step to 8, then gaps of at most a quarter, capped by the gap") {
  std::vector<int64_t> steps;
  for (int64_t s = 1; s <= 5000; s = next_eval_step(s, kEvalGap)) steps.push_back(s);
  for (int64_t s = 1; s <= 8; ++s) CHECK(steps[static_cast<size_t>(s - 1)] == s);
  for (size_t j = 1; j < steps.size(); ++j) {
    const int64_t a = steps[j - 1], b = steps[j];
    CHECK(b > a);
    CHECK(b - a <= kEvalGap);
    CHECK(b <= std::max(a + 1, a * 5 / 4));
  }
  // the early points the subset serves: 19 of the first 80 steps evaluate
  CHECK(std::count_if(steps.begin(), steps.end(), [](int64_t s) { return s <= 80; }) == 19);
}

//-----------------------------------------------------------------------------
// [SECTION] shares: the runs trained in several programs
//-----------------------------------------------------------------------------
TEST_CASE("trainer: a run trained in a share follows the whole trainer's curve bit for bit") {
  CHECK_FALSE(Trainer().set_share({0, 0}).is_ok());
  CHECK_FALSE(Trainer().set_share({3, 3}).is_ok());
  CHECK_FALSE(Trainer().set_share({0, kMaxRunShares + 1}).is_ok());
  CHECK_FALSE(Trainer().set_share({-1, 2}).is_ok());
  for (bool tie : {false, true}) {
    Trainer whole;
    REQUIRE(whole.reset(13, 2, 3e-3f, tie).is_ok());
    REQUIRE(whole.step(12).is_ok());
    for (int parts = 1; parts <= kMaxRunShares; ++parts) {
      size_t held = 0;
      for (int part = 0; part < parts; ++part) {
        CAPTURE(tie);
        CAPTURE(part);
        CAPTURE(parts);
        Trainer t;
        REQUIRE(t.set_share({part, parts}).is_ok());
        REQUIRE(t.reset(13, 2, 3e-3f, tie).is_ok());
        REQUIRE(t.step(12).is_ok());
        CHECK(t.step_count() == whole.step_count());
        for (size_t i = 0; i < whole.runs().size(); ++i) {
          const TrainRun& ref = whole.runs()[i];
          const TrainRun* r = t.run(ref.heads, ref.tie_qk);
          CHECK((r != nullptr) == (static_cast<int>(i) % parts == part));  // run i is part i % parts's
          if (!r) continue;
          ++held;
          REQUIRE(r->history.size() == ref.history.size());
          for (size_t j = 0; j < ref.history.size(); ++j) {
            CHECK(r->history[j].step == ref.history[j].step);
            CHECK(r->history[j].loss == ref.history[j].loss);
            CHECK(r->history[j].weight_on == ref.history[j].weight_on);
          }
          CHECK(t.weights(ref.heads, ref.tie_qk)->wo == whole.weights(ref.heads, ref.tie_qk)->wo);
        }
      }
      CHECK(held == whole.runs().size());  // every run in exactly one part
    }
  }
}
