// head_log.cpp: see head_log.h.
#include "app/training/head_log.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/train/history.h"

namespace headroom::app {

int head_kind_index(const std::string& label) {
  for (int k = 0; k < kHeadKindCount; ++k)
    if (label == kHeadKinds[static_cast<size_t>(k)]) return k;
  return -1;
}

namespace {

// A run's point from its measured heads; false when a head is not measured yet.
bool point_of(const TrainRun& run, HeadLogPoint& p) {
  p.step = run.history.back().step;
  p.scores.assign(run.per_head.size() * kHeadKindCount, std::numeric_limits<float>::quiet_NaN());
  p.labels.assign(run.per_head.size(), -1);
  for (size_t s = 0; s < run.per_head.size(); ++s) {
    const HeadSlot& slot = run.per_head[s];
    if (slot.label.empty()) return false;
    for (const auto& [kind, score] : slot.scores) {
      const int k = head_kind_index(kind);
      if (k >= 0) p.scores[s * kHeadKindCount + static_cast<size_t>(k)] = score;
    }
    p.labels[s] = head_kind_index(slot.label);
  }
  return true;
}

bool same_runs(const std::vector<HeadLogRun>& logged, const std::vector<TrainRun>& runs, int layers) {
  if (logged.size() != runs.size()) return false;
  for (size_t i = 0; i < runs.size(); ++i)
    if (logged[i].heads != runs[i].heads || logged[i].layers != layers) return false;
  return true;
}

}  // namespace

void HeadScoreLog::clear() {
  runs_.clear();
  changes_.clear();
}

void HeadScoreLog::observe(const std::vector<TrainRun>& runs, bool text, int layers) {
  if (!text || runs.empty()) {
    clear();
    return;
  }
  if (!same_runs(runs_, runs, layers)) {
    clear();
    for (const TrainRun& run : runs) runs_.push_back(HeadLogRun{run.heads, layers, {}});
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    const TrainRun& run = runs[i];
    HeadLogRun& log = runs_[i];
    if (run.history.empty() || run.per_head.size() != static_cast<size_t>(run.heads * layers)) continue;
    const int64_t step = run.history.back().step;
    if (!log.points.empty() && step < log.points.back().step) {  // reset: this run starts again
      log.points.clear();
      changes_.erase(std::remove_if(changes_.begin(), changes_.end(),
                                    [&](const LabelChange& c) { return c.heads == run.heads; }),
                     changes_.end());
    }
    if (!log.points.empty() && step == log.points.back().step) continue;
    HeadLogPoint p;
    if (!point_of(run, p)) continue;
    if (!log.points.empty()) {
      const HeadLogPoint& before = log.points.back();
      for (size_t s = 0; s < p.labels.size(); ++s) {
        if (p.labels[s] == before.labels[s]) continue;
        const HeadSlot& slot = run.per_head[s];
        changes_.push_back(LabelChange{run.heads, slot.layer, slot.head, step, before.labels[s], p.labels[s],
                                       slot.label_score});
      }
    }
    log.points.push_back(std::move(p));
    if (static_cast<int>(log.points.size()) > kMaxLogPoints) thin_points(log.points);
  }
  if (static_cast<int>(changes_.size()) > kMaxLabelChanges)
    changes_.erase(changes_.begin(), changes_.end() - kMaxLabelChanges);
}

}  // namespace headroom::app
