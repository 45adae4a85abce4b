// train_pace.h: how much training a frame does, and how often it shows.
//
// Does: FramePacer runs units of training work (a unit is a piece of a step:
// one run's training step, or one chunk of one run's held-out evaluation;
// engine/train/trainer.h "Units") inside one frame until the next unit would push
// the frame's training work past a budget (12 ms by default, so a 60 Hz frame
// keeps room to draw). It measures what each kind of unit costs, so steps per
// frame adapt to the machine, its load and the model without a setting.
// RateMeter turns steps and times into steps per second. ChartGate says when
// the chart may take new numbers (every frame, or at most 4 times a second
// under reduced motion).
// Does not: read a clock itself: every time is given in milliseconds by the
// caller (a steady clock in the app, a fake one in tests, so the tests are
// deterministic); train anything (the units are the caller's); split a unit
// (one unit costing more than the budget still runs, alone in its frame).
#pragma once

namespace headroom::app {

class FramePacer {
 public:
  static constexpr double kBudgetMs = 12.0;
  static constexpr int kMaxStepsPerFrame = 256;
  static constexpr int kKinds = 2;            // kinds of unit measured apart (train, evaluate)
  static constexpr double kSmoothing = 0.25;  // weight of a unit's newest cost in its kind's estimate

  // `work` gives  int next()  the kind (0 .. kKinds - 1) of the unit run()
  // would do, or -1 when nothing is left; and  bool run()  that runs it and
  // says whether it completed a step. run() is called at least once (if
  // next() allows) and stops:
  // - before a unit whose predicted cost would take the frame's work past the
  //   budget: elapsed + estimate(kind) > budget, the estimate a running mean
  //   of that kind's measured costs over past frames (a kind never measured
  //   is predicted at this frame's mean unit cost so far);
  // - when `cap` steps (clamped to 1..kMaxStepsPerFrame) are complete;
  // - when next() is -1.
  // now() is a clock in ms, read once before and once after every unit.
  // Returns the steps completed (0 when the frame only did part of a step).
  template <class Work, class NowFn>
  int run(Work& work, NowFn&& now, int cap = kMaxStepsPerFrame) {
    if (cap < 1) cap = 1;
    if (cap > kMaxStepsPerFrame) cap = kMaxStepsPerFrame;
    const double t0 = now();
    double t = t0;
    int steps = 0, units = 0;
    for (;;) {
      const int kind = work.next();
      if (kind < 0 || kind >= kKinds) break;
      const double elapsed = t - t0;
      if (units > 0) {
        const double predicted = estimate_[kind] >= 0 ? estimate_[kind] : elapsed / units;
        if (elapsed + predicted > budget_ms_) break;
      }
      const bool completed = work.run();
      const double t1 = now();
      const double cost = t1 - t;
      t = t1;
      estimate_[kind] = estimate_[kind] < 0 ? cost : estimate_[kind] + kSmoothing * (cost - estimate_[kind]);
      ++units;
      if (completed && ++steps >= cap) break;
    }
    last_steps_ = steps;
    last_units_ = units;
    last_ms_ = t - t0;
    return steps;
  }

  void set_budget_ms(double ms) { budget_ms_ = ms > 0 ? ms : kBudgetMs; }
  double budget_ms() const { return budget_ms_; }
  int last_steps() const { return last_steps_; }  // steps the last frame completed
  int last_units() const { return last_units_; }  // units it ran
  double last_ms() const { return last_ms_; }     // and the time they took
  // The running estimate of a unit of `kind` in ms (-1 before one was measured).
  double estimate_ms(int kind) const { return kind >= 0 && kind < kKinds ? estimate_[kind] : -1; }

 private:
  double budget_ms_ = kBudgetMs;
  double estimate_[kKinds] = {-1, -1};
  int last_steps_ = 0, last_units_ = 0;
  double last_ms_ = 0;
};

// Steps per second over windows of about a second of wall time.
class RateMeter {
 public:
  static constexpr double kWindowMs = 1000.0;
  // `steps` were run by time `now_ms`. The first call only starts the window
  // (its steps were run before any time we know of); the rate updates once a
  // window has passed since the window began.
  void add(int steps, double now_ms) {
    if (start_ < 0) {
      start_ = now_ms;
      return;
    }
    steps_ += steps;
    const double dt = now_ms - start_;
    if (dt >= kWindowMs) {
      rate_ = steps_ * 1000.0 / dt;
      start_ = now_ms;
      steps_ = 0;
    }
  }
  // Back to 0 (paused, reset): the next add starts a new window.
  void clear() {
    start_ = -1;
    steps_ = 0;
    rate_ = 0;
  }
  double per_second() const { return rate_; }

 private:
  double start_ = -1;
  long long steps_ = 0;
  double rate_ = 0;
};

// When the chart may show new numbers.
class ChartGate {
 public:
  static constexpr double kReducedMotionMs = 250.0;  // at most 4 updates a second
  // Whether to publish at `now_ms`; records the publication when it says yes.
  bool due(double now_ms, bool reduced_motion) {
    if (reduced_motion && last_ >= 0 && now_ms - last_ < kReducedMotionMs) return false;
    last_ = now_ms;
    return true;
  }
  void clear() { last_ = -1; }  // the next call publishes

 private:
  double last_ = -1;
};

}  // namespace headroom::app
