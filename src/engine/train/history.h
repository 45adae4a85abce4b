// history.h: the held-out evaluation schedule and the history's thinning,
// shared by the roles trainer (trainer.h) and the text trainer
// (text_trainer.h).
//
// Does: next_eval_step: after an evaluation at `step`, the next one is at
// min(step + gap, max(step + 1, floor(step * 5 / 4))): steps 1..8 all, then
// about every 25% more (log-spaced, as the charts' log axes want), then every
// `gap`. thin_points: keeps the first point, every second one after it and
// the last (513 -> 258); the trainers apply it past their cap and double gap.
// StepCursor / settle_cursor: where a step in progress is (both trainers'
// "Units"): training run `run`, or evaluating run `run` at held-out chunk
// `chunk`, or done; settle moves a cursor past diverged runs and finished
// phases to the unit it names.
// Does not: know what a point or a run holds (a run needs `diverged`).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace headroom {

inline int64_t next_eval_step(int64_t step, int64_t gap) {
  return std::min(step + gap, std::max(step + 1, step * 5 / 4));
}

template <class Point>
void thin_points(std::vector<Point>& history) {
  size_t kept = 0;
  for (size_t j = 0; j < history.size(); ++j)
    if (j == 0 || j % 2 == 1 || j + 1 == history.size()) history[kept++] = std::move(history[j]);
  history.resize(kept);
}

enum class StepPhase { kTrain, kEval, kDone };
struct StepCursor {
  StepPhase phase = StepPhase::kTrain;
  size_t run = 0;
  int chunk = 0;
};

template <class Runs>
StepCursor settle_cursor(StepCursor c, const Runs& runs, bool eval_step) {
  for (;;) {
    if (c.phase == StepPhase::kDone) return c;
    if (c.chunk == 0)
      while (c.run < runs.size() && runs[c.run].diverged) ++c.run;
    if (c.run < runs.size()) return c;
    c.phase = c.phase == StepPhase::kTrain && eval_step ? StepPhase::kEval : StepPhase::kDone;
    c.run = 0;
    c.chunk = 0;
  }
}

}  // namespace headroom
