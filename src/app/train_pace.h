// train_pace.h: how much training a frame does, and how often it shows.
//
// Does: FramePacer runs training steps inside one frame until the frame's
// training work would pass a budget (12 ms by default, so a 60 Hz frame keeps
// room to draw): steps per frame adapt to the machine and the model without a
// setting. RateMeter turns steps and times into steps per second. ChartGate
// says when the chart may take new numbers (every frame, or at most 4 times a
// second under reduced motion).
// Does not: read a clock itself: every time is given in milliseconds by the
// caller (a steady clock in the app, a fake one in tests, so the tests are
// deterministic); train anything (the step function is the caller's).
#pragma once

namespace headroom::app {

class FramePacer {
 public:
  static constexpr double kBudgetMs = 12.0;
  static constexpr int kMaxStepsPerFrame = 256;

  // Calls step() at least once and at most `cap` times (clamped to
  // 1..kMaxStepsPerFrame). After n steps taking `elapsed` ms it stops when
  // elapsed + elapsed / n (one more step at the mean cost so far) would pass
  // the budget, or when step() returns false (nothing left to train).
  // now() is a clock in ms. Returns the steps run.
  template <class StepFn, class NowFn>
  int run(StepFn&& step, NowFn&& now, int cap = kMaxStepsPerFrame) {
    if (cap < 1) cap = 1;
    if (cap > kMaxStepsPerFrame) cap = kMaxStepsPerFrame;
    const double t0 = now();
    int n = 0;
    double elapsed = 0;
    while (n < cap) {
      const bool more = step();
      ++n;
      elapsed = now() - t0;
      if (!more || elapsed + elapsed / n > budget_ms_) break;
    }
    last_steps_ = n;
    last_ms_ = elapsed;
    return n;
  }

  void set_budget_ms(double ms) { budget_ms_ = ms > 0 ? ms : kBudgetMs; }
  double budget_ms() const { return budget_ms_; }
  int last_steps() const { return last_steps_; }  // steps the last frame ran
  double last_ms() const { return last_ms_; }     // and the time they took

 private:
  double budget_ms_ = kBudgetMs;
  int last_steps_ = 0;
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
