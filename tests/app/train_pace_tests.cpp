// train_pace_tests.cpp: units per frame adapt to what each kind of unit
// costs, steps are counted whole, the rate
// is steps over wall time, and reduced motion caps chart updates at 4 a
// second. Every clock here is fake, so the numbers are exact.
#include <doctest/doctest.h>

#include <cstddef>
#include <initializer_list>
#include <vector>

#include "app/training/train_pace.h"

using namespace headroom::app;

namespace {
// A clock that advances only when a unit "runs".
struct FakeClock {
  double t = 0;
  double operator()() const { return t; }
};

// Work for the pacer: a repeating pattern of unit kinds, each with a cost
// (ms, added to the clock when it runs); a step is complete after every
// `per_step` units; `left` units remain (-1: no end).
struct FakeWork {
  FakeClock& clock;
  std::vector<int> kinds;      // the pattern, repeated
  std::vector<double> costs;   // cost per kind
  int per_step = 1;
  int left = -1;
  int done = 0;
  int next() const { return left == 0 ? -1 : kinds[static_cast<size_t>(done) % kinds.size()]; }
  bool run() {
    clock.t += costs[static_cast<size_t>(next())];
    ++done;
    if (left > 0) --left;
    return done % per_step == 0;
  }
};
}  // namespace

TEST_CASE("the pacer fits whole units into the 12 ms budget, whatever a unit costs") {
  // Expected counts by hand: with cost c the loop stops after n units once
  // n c + c > 12, i.e. n = floor(12 / c) (and at least one unit).
  const struct { double cost; int units; } cases[] = {
      {2.0, 6}, {5.0, 2}, {3.0, 4}, {11.9, 1}, {20.0, 1}, {0.5, 24}};
  for (const auto& c : cases) {
    CAPTURE(c.cost);
    FakeClock clock;
    FramePacer pacer;
    FakeWork w{clock, {0}, {c.cost}};
    const int n = pacer.run(w, clock);
    CHECK(n == c.units);  // one unit per step here
    CHECK(w.done == n);
    CHECK(pacer.last_steps() == n);
    CHECK(pacer.last_units() == n);
    CHECK(pacer.last_ms() == doctest::Approx(n * c.cost));
    CHECK(pacer.estimate_ms(0) == doctest::Approx(c.cost));
    if (c.cost <= FramePacer::kBudgetMs) CHECK(pacer.last_ms() <= FramePacer::kBudgetMs);
  }
}

TEST_CASE("the pacer counts whole steps, predicts each kind of unit by its own cost, and a frame may end mid-step") {
  FakeClock clock;
  FramePacer pacer;
  // A step of three 2 ms training units, then four 1 ms evaluation chunks
  // (10 ms a step). Frame 1: the kind 1 estimate is unknown at first (this
  // frame's mean stands in): units 2,2,2 (6), 1,1,1,1 (10); the next training
  // unit, 2 ms, would make 12: not past the budget, it runs (12); then 2 more
  // would pass: 8 units, 1 step complete.
  FakeWork w{clock, {0, 0, 0, 1, 1, 1, 1}, {2.0, 1.0}, 7};
  CHECK(pacer.run(w, clock) == 1);
  CHECK(pacer.last_units() == 8);
  CHECK(pacer.last_ms() == doctest::Approx(12.0));
  CHECK(pacer.estimate_ms(0) == doctest::Approx(2.0));
  CHECK(pacer.estimate_ms(1) == doctest::Approx(1.0));
  // Frame 2 starts mid-step (2 training units left, then 4 chunks): 2+2+1+1+1+1
  // = 8 (step 2 done), 2 + 2 = 12: 8 units, 1 step; the pacer stopped before
  // the unit that would pass 12 ms, whatever its kind.
  CHECK(pacer.run(w, clock) == 1);
  CHECK(pacer.last_units() == 8);
  CHECK(pacer.last_ms() <= FramePacer::kBudgetMs);
  // Evaluation chunks that got slow (5 ms) are predicted at their own cost
  // once measured: the estimate moves by kSmoothing of the difference.
  FakeWork slow{clock, {1}, {0.0, 5.0}};
  // Predicted at 1 ms: runs 5 (estimate 2), 5 (estimate 2.75: 10 + 2.75 > 12).
  pacer.run(slow, clock);
  CHECK(pacer.last_units() == 2);
  CHECK(pacer.estimate_ms(1) == doctest::Approx(2.75));
  CHECK(pacer.estimate_ms(1) > 1.0);
  CHECK(pacer.estimate_ms(1) < 5.0);
  CHECK(pacer.last_ms() <= FramePacer::kBudgetMs + 5.0);
  for (int f = 0; f < 40; ++f) pacer.run(slow, clock);
  CHECK(pacer.estimate_ms(1) == doctest::Approx(5.0).epsilon(0.01));
  CHECK(pacer.run(slow, clock) == 2);  // 5 + 5 (+5 would pass 12)
}

TEST_CASE("the pacer honours the steps cap, always makes progress, and stops when nothing is left") {
  FakeClock clock;
  FramePacer pacer;
  FakeWork cheap{clock, {0}, {0.001}};
  CHECK(pacer.run(cheap, clock, 7) == 7);
  CHECK(pacer.run(cheap, clock, 0) == 1);  // a cap below 1 still makes progress
  FakeWork zero{clock, {0}, {0.0}};
  CHECK(pacer.run(zero, clock) == FramePacer::kMaxStepsPerFrame);
  // The cap counts steps, not units: 3 units a step, cap 2 -> 6 units.
  FakeWork three{clock, {0}, {0.001}, 3};
  CHECK(pacer.run(three, clock, 2) == 2);
  CHECK(pacer.last_units() == 6);
  // A unit dearer than the whole budget still runs, alone.
  FakeWork dear{clock, {0, 1}, {30.0, 30.0}, 2};
  CHECK(pacer.run(dear, clock) == 0);
  CHECK(pacer.last_units() == 1);
  // Work that runs out (every run stopped) ends the frame.
  FramePacer fresh;
  FakeWork ending{clock, {0}, {0.1}, 1, 3};
  CHECK(fresh.run(ending, clock) == 3);
  CHECK(fresh.run(ending, clock) == 0);
  CHECK(fresh.last_units() == 0);
}

TEST_CASE("steps per second: steps over wall time, per window of a second") {
  RateMeter m;
  double t = 0;
  CHECK(m.per_second() == 0);
  // 6 steps per 20 ms frame = 300 steps/s once a second has passed.
  for (int f = 0; f <= 50; ++f, t += 20) m.add(6, t);
  CHECK(m.per_second() == doctest::Approx(300.0).epsilon(0.03));
  // Slower frames lower it.
  for (int f = 0; f < 60; ++f) m.add(2, t += 20);
  CHECK(m.per_second() == doctest::Approx(100.0).epsilon(0.03));
  m.clear();
  CHECK(m.per_second() == 0);
}

TEST_CASE("the chart updates every frame, or at most 4 times a second under reduced motion") {
  for (bool reduced : {false, true}) {
    CAPTURE(reduced);
    ChartGate g;
    int shown = 0;
    // Two seconds of 60 Hz frames.
    for (int f = 0; f < 120; ++f) shown += g.due(f * 1000.0 / 60.0, reduced) ? 1 : 0;
    if (reduced) {
      CHECK(shown <= 8);
      CHECK(shown >= 7);  // and it does update (about every 250 ms)
    } else {
      CHECK(shown == 120);
    }
  }
  ChartGate g;
  CHECK(g.due(0, true));
  CHECK_FALSE(g.due(100, true));
  g.clear();
  CHECK(g.due(101, true));  // a reset shows at once
}
