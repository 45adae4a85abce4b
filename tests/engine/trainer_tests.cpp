// trainer_tests.cpp: the side-by-side training runs (trainer.h).
//
// Checks: reset / set_lr / step refuse out-of-range values and keep the state;
// every run starts from the same matrices, uniform in +-1/sqrt(D); floors are
// 1 - min(H, R) / R; the held-out set is fixed by the seed.
#include <doctest/doctest.h>

#include <cmath>

#include "engine/trainer.h"

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
