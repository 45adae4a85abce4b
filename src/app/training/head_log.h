// head_log.h: the text model's heads over time, as the page has seen them:
// each head's behaviour scores at every held-out point that reached the page,
// and the moments a head's label changed.
//
// Does: observe(runs) after every state the runs publish (the Worker's
// mirror, or the runs trained here): a run whose latest held-out point is
// newer than the last one logged gets a point (every head's score of every
// kind, and its label); a label that differs from the head's label at the
// previous point is a LabelChange (newest last, the last kMaxLabelChanges
// kept). A run whose step went back, or a different set of runs, starts its
// log afresh (a reset). Each run keeps at most kMaxLogPoints points: past
// that, the points thin as the loss history does (history.h thin_points:
// the first, every second, the last), so they span the whole run.
// Does not: measure anything (every number is the engine's, head_scores.h,
// copied), or see a point that never reached the page: a step(n) of many
// held-out points publishes only the last, so its labels' changes are
// dated at the first point the page saw them (`step`), not before.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/train/trainer.h"

namespace headroom::app {

constexpr int kMaxLogPoints = 64;
constexpr int kMaxLabelChanges = 24;

// One held-out point of one run: scores[slot * kHeadKindCount + kind] (NaN
// where the kind had no query), labels[slot] (a kind, or -1 for "mixed").
struct HeadLogPoint {
  int64_t step = 0;
  std::vector<float> scores;
  std::vector<int> labels;
};

struct HeadLogRun {
  int heads = 0, layers = 0;  // slots: layers * heads, layer by layer
  std::vector<HeadLogPoint> points;
};

struct LabelChange {
  int heads = 0, layer = 0, head = 0;  // the run, and the head (0-based)
  int64_t step = 0;
  int from = -1, to = -1;  // kinds; -1 "mixed"
  float score = 0.f;       // the new label's score
};

class HeadScoreLog {
 public:
  // The runs as published (text task); anything else (roles runs, no runs)
  // empties the log.
  void observe(const std::vector<TrainRun>& runs, bool text, int layers);
  void clear();
  const std::vector<HeadLogRun>& runs() const { return runs_; }
  const std::vector<LabelChange>& changes() const { return changes_; }

 private:
  std::vector<HeadLogRun> runs_;
  std::vector<LabelChange> changes_;
};

// The kind a label names (head_scores.h kHeadKinds), -1 for "mixed" or "".
int head_kind_index(const std::string& label);

}  // namespace headroom::app
