// train_pace_tests.cpp: steps per frame adapt to what a step costs, the rate
// is steps over wall time, and reduced motion caps chart updates at 4 a
// second. Every clock here is fake, so the numbers are exact.
#include <doctest/doctest.h>

#include <initializer_list>

#include "app/train_pace.h"

using namespace headroom::app;

namespace {
// A clock that advances only when a step "runs".
struct FakeClock {
  double t = 0;
  double operator()() const { return t; }
};
}  // namespace

TEST_CASE("the pacer fits whole steps into the 12 ms budget, whatever a step costs") {
  // Expected counts by hand: with cost c the loop stops after n steps once
  // n c + c > 12, i.e. n = floor(12 / c) (and at least one step).
  const struct { double cost; int steps; } cases[] = {
      {2.0, 6}, {5.0, 2}, {3.0, 4}, {11.9, 1}, {20.0, 1}, {0.5, 24}};
  for (const auto& c : cases) {
    CAPTURE(c.cost);
    FakeClock clock;
    FramePacer pacer;
    int calls = 0;
    const int n = pacer.run([&] { clock.t += c.cost; ++calls; return true; }, clock);
    CHECK(n == c.steps);
    CHECK(calls == n);
    CHECK(pacer.last_steps() == n);
    CHECK(pacer.last_ms() == doctest::Approx(n * c.cost));
    if (c.cost <= FramePacer::kBudgetMs) CHECK(pacer.last_ms() <= FramePacer::kBudgetMs);
  }
}

TEST_CASE("the pacer adapts when steps get slower mid-frame, and honours the cap and the step's stop") {
  FakeClock clock;
  FramePacer pacer;
  // Steps cost 1 ms, then 4 ms from the third on: after 3 steps 6 ms (+2 = 8
  // fits), after 4 steps 10 ms (+2.5 > 12): four steps.
  int k = 0;
  CHECK(pacer.run([&] { clock.t += (k++ < 2 ? 1.0 : 4.0); return true; }, clock) == 4);
  // Cheap steps stop at the cap; a cap below 1 still makes progress.
  CHECK(pacer.run([&] { clock.t += 0.001; return true; }, clock, 7) == 7);
  CHECK(pacer.run([&] { clock.t += 0.001; return true; }, clock, 0) == 1);
  CHECK(pacer.run([&] { return true; }, clock) == FramePacer::kMaxStepsPerFrame);
  // A step that says "nothing more" (every run stopped) ends the frame.
  int calls = 0;
  CHECK(pacer.run([&] { clock.t += 0.1; return ++calls < 3; }, clock) == 3);
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
