// training.cpp: the demo's live training (see training.h).
//
// Index of this file
//   [SECTION] verbs
//   [SECTION] the frame tick
//   [SECTION] the weights the scene shows
#include "app/training.h"

#include <chrono>
#include <utility>

#include "engine/common/words.h"

namespace headroom::app {

double Training::steady_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

Training::Training(Clock now) : now_(std::move(now)) { publish(); }

const Trainer& Training::trainer() const {
  if (!trainer_) {
    trainer_ = std::make_unique<Trainer>();
    // The defaults with the recorded tie (the defaults are in range: it cannot fail).
    if (tie_) (void)trainer_->reset(kDefaultSeed, kDefaultRelations, kDefaultLr, true);
  }
  return *trainer_;
}

//-----------------------------------------------------------------------------
// [SECTION] verbs
//-----------------------------------------------------------------------------
Status Training::refuse(Status s) {
  refusal_ = s.error;
  return s;
}

Status Training::reset(int64_t seed, int r, float lr, std::optional<bool> tie) {
  const bool tied = tie.value_or(tie_);
  if (Status s = t().reset(seed, r, lr, tied); !s) return refuse(std::move(s));
  tie_ = tied;
  refusal_.clear();
  meter_.clear();
  gate_.clear();
  publish();
  return Status::ok();
}

Status Training::step(int n) {
  if (Status s = t().step(n); !s) return refuse(std::move(s));
  refusal_.clear();
  if (all_diverged()) running_ = false;
  publish();
  return Status::ok();
}

Status Training::set_lr(float lr) {
  if (Status s = t().set_lr(lr); !s) return refuse(std::move(s));
  refusal_.clear();
  return Status::ok();
}

Status Training::play() {
  if (all_diverged())
    return refuse(Status::fail("every run has diverged: reset (a smaller learning rate helps) to train again"));
  refusal_.clear();
  if (!running_) meter_.clear();
  running_ = true;
  last_tick_ms_ = -1;
  return Status::ok();
}

void Training::pause() {
  refusal_.clear();
  running_ = false;
  meter_.clear();
}

Status Training::set_max_steps_per_frame(int n) {
  if (n < 1 || n > FramePacer::kMaxStepsPerFrame)
    return refuse(Status::fail("steps per frame must be a whole number from 1 to " +
                               std::to_string(FramePacer::kMaxStepsPerFrame) + ", got " + std::to_string(n)));
  refusal_.clear();
  max_steps_per_frame_ = n;
  return Status::ok();
}

Status Training::set_weights(std::string_view choice) {
  if (Status s = check_choice("weights", kWeightChoices, choice); !s) return refuse(std::move(s));
  refusal_.clear();
  choice_ = std::string(choice);
  return Status::ok();
}

std::string Training::error() const {
  if (!refusal_.empty()) return refusal_;
  std::string out;
  if (!started()) return out;
  for (const TrainRun& run : trainer_->runs())
    if (run.diverged) {
      if (!out.empty()) out += "; ";
      out += run.message;
    }
  return out;
}

bool Training::all_diverged() const {
  for (const TrainRun& run : trainer().runs())
    if (!run.diverged) return false;
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] the frame tick
//-----------------------------------------------------------------------------
void Training::publish() {
  chart_step_ = started() ? trainer_->step_count() : 0;
  ++chart_updates_;
}

bool Training::tick(bool reduced_motion) {
  if (!running_) return false;
  const double t0 = now_();
  // A long gap means no frames were drawn (hidden, off-screen): the rate
  // starts a new window rather than averaging over the gap.
  if (last_tick_ms_ >= 0 && t0 - last_tick_ms_ > 500.0) meter_.clear();
  last_tick_ms_ = t0;
  // The pacer's units are the trainer's: kind 0 one run's training step,
  // kind 1 one held-out chunk of one run's evaluation.
  struct Units {
    Trainer& t;
    int next() const {
      switch (t.next_unit()) {
        case TrainUnit::kTrain: return 0;
        case TrainUnit::kEval: return 1;
        default: return -1;  // every run has diverged
      }
    }
    bool run() { return t.run_unit(); }
  } units{t()};
  const int n = pacer_.run(units, now_, max_steps_per_frame_);
  const double t1 = now_();
  meter_.add(n, t1);
  if (all_diverged()) {  // stopped: show where it stopped, want no more frames
    running_ = false;
    meter_.clear();
    publish();
    return false;
  }
  if (gate_.due(t1, reduced_motion)) publish();
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] the weights the scene shows
//-----------------------------------------------------------------------------
void Training::sync_scene(Scene& scene) {
  const int heads = scene.heads();
  auto show_built = [&](std::string note) {
    if (scene.weights_overridden()) (void)scene.set_weights_override(nullptr);  // nullptr is always accepted
    shown_ = kWeightChoices[0];
    note_ = std::move(note);
    synced_update_ = -1;
  };
  if (choice_ == kWeightChoices[0]) return show_built("");
  const bool tied = scene.tie_qk();
  if (tied && !trainer().tie_qk())
    return show_built("the training runs have no tied query and key: reset training with the tie on to train "
                      "tied runs; the views show the built weights, tied");
  const AttentionWeights* w = trainer().weights(heads, tied);
  if (w == nullptr) {
    std::vector<std::string> counts;
    for (int h : kTrainHeads) counts.push_back(std::to_string(h));
    const std::string runs = join_words(counts, " and ");
    return show_built("no training run has " + std::to_string(heads) + (heads == 1 ? " head" : " heads") +
                      " (the runs have " + runs + "): the views show the built weights");
  }
  // The scene follows the chart: new weights only when the chart took them.
  if (scene.weights_overridden() && synced_update_ == chart_updates_ && synced_heads_ == heads &&
      synced_tied_ == tied)
    return;
  if (Status s = scene.set_weights_override(w); !s)
    return show_built("the trained weights do not fit the scene (" + s.error + "): the views show the built weights");
  shown_ = kWeightChoices[1];
  note_.clear();
  synced_update_ = chart_updates_;
  synced_heads_ = heads;
  synced_tied_ = tied;
}

}  // namespace headroom::app
