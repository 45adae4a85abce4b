// live_training.cpp: the demo's live training (see live_training.h).
//
// Index of this file
//   [SECTION] verbs
//   [SECTION] the frame tick
//   [SECTION] the weights the scene shows
//   [SECTION] training elsewhere (the mirror)
#include "app/live_training.h"

#include <chrono>
#include <utility>

#include "engine/common/words.h"

namespace headroom::app {

double LiveTraining::steady_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

LiveTraining::LiveTraining(Clock now) : now_(std::move(now)) { publish(); }

const Trainer& LiveTraining::trainer() const {
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
Status LiveTraining::refuse(Status s) {
  refusal_ = s.error;
  return s;
}

Status LiveTraining::reset(int64_t seed, int r, float lr, std::optional<bool> tie) {
  const bool tied = tie.value_or(tie_);
  if (remote_) {
    if (Status s = check_train_settings(seed, r, lr); !s) return refuse(std::move(s));
    tie_ = tied;
    refusal_.clear();
    mirror_.seed = seed;
    mirror_.relations = r;
    mirror_.lr = lr;
    const bool first = !remote_started_;
    ensure_remote_started();  // sends these settings the first time
    if (!first) send_reset();
    return Status::ok();
  }
  if (Status s = t().reset(seed, r, lr, tied); !s) return refuse(std::move(s));
  tie_ = tied;
  refusal_.clear();
  meter_.clear();
  gate_.clear();
  publish();
  return Status::ok();
}

Status LiveTraining::step(int n) {
  if (remote_) {
    if (Status s = check_train_steps(n); !s) return refuse(std::move(s));
    refusal_.clear();
    ensure_remote_started();
    send({"step", static_cast<double>(n)});
    return Status::ok();
  }
  if (Status s = t().step(n); !s) return refuse(std::move(s));
  refusal_.clear();
  if (all_diverged()) running_ = false;
  publish();
  return Status::ok();
}

Status LiveTraining::set_lr(float lr) {
  if (remote_) {
    if (Status s = check_lr(lr); !s) return refuse(std::move(s));
    refusal_.clear();
    mirror_.lr = lr;
    ensure_remote_started();
    send({"lr", static_cast<double>(lr)});
    return Status::ok();
  }
  if (Status s = t().set_lr(lr); !s) return refuse(std::move(s));
  refusal_.clear();
  return Status::ok();
}

Status LiveTraining::play() {
  if (all_diverged())
    return refuse(Status::fail("every run has diverged: reset (a smaller learning rate helps) to train again"));
  refusal_.clear();
  if (remote_) {
    ensure_remote_started();
    send({"play"});
    return Status::ok();
  }
  if (!running_) meter_.clear();
  running_ = true;
  last_tick_ms_ = -1;
  return Status::ok();
}

void LiveTraining::pause() {
  refusal_.clear();
  if (remote_ && remote_started_) send({"pause"});
  running_ = false;
  meter_.clear();
}

Status LiveTraining::set_max_steps_per_frame(int n) {
  if (n < 1 || n > FramePacer::kMaxStepsPerFrame)
    return refuse(Status::fail("steps per frame must be a whole number from 1 to " +
                               std::to_string(FramePacer::kMaxStepsPerFrame) + ", got " + std::to_string(n)));
  refusal_.clear();
  max_steps_per_frame_ = n;
  return Status::ok();
}

Status LiveTraining::set_weights(std::string_view choice) {
  if (Status s = check_choice("weights", kWeightChoices, choice); !s) return refuse(std::move(s));
  refusal_.clear();
  choice_ = std::string(choice);
  return Status::ok();
}

std::string LiveTraining::error() const {
  if (!refusal_.empty()) return refusal_;
  if (remote_) return mirror_.error;
  std::string out;
  if (!started()) return out;
  for (const TrainRun& run : trainer_->runs())
    if (run.diverged) {
      if (!out.empty()) out += "; ";
      out += run.message;
    }
  return out;
}

bool LiveTraining::all_diverged() const {
  if (!ready()) return false;
  for (const TrainRun& run : runs())
    if (!run.diverged) return false;
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] the frame tick
//-----------------------------------------------------------------------------
void LiveTraining::publish() {
  chart_step_ = remote_ ? mirror_.step : started() ? trainer_->step_count() : 0;
  ++chart_updates_;
}

bool LiveTraining::tick(bool reduced_motion) {
  reduced_motion_ = reduced_motion;
  if (remote_) {  // the program trains; a frame only shows what it sent
    if (!fresh_) return false;
    if (!gate_.due(now_(), reduced_motion)) return true;  // under reduced motion: later
    fresh_ = false;
    publish();
    return false;
  }
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
void LiveTraining::show_built(Scene& scene, std::string note) {
  if (scene.weights_overridden()) (void)scene.set_weights_override(nullptr);  // nullptr is always accepted
  shown_ = kWeightChoices[0];
  note_ = std::move(note);
  synced_update_ = -1;
}

void LiveTraining::show_trained(Scene& scene, const AttentionWeights& w, long long serial, int heads, bool tied) {
  if (scene.weights_overridden() && synced_update_ == serial && synced_heads_ == heads && synced_tied_ == tied)
    return;
  if (Status s = scene.set_weights_override(&w); !s)
    return show_built(scene, "the trained weights do not fit the scene (" + s.error + "): the views show the built weights");
  shown_ = kWeightChoices[1];
  note_.clear();
  synced_update_ = serial;
  synced_heads_ = heads;
  synced_tied_ = tied;
}

void LiveTraining::sync_scene(Scene& scene) {
  const int heads = scene.heads();
  auto show_built = [&](std::string note) { this->show_built(scene, std::move(note)); };
  if (choice_ == kWeightChoices[0]) {
    if (remote_ && wanted_heads_ != 0) {  // no weights wanted any more
      wanted_heads_ = 0;
      send({"weights", 0, 0});
    }
    return show_built("");
  }
  const bool tied = scene.tie_qk();
  if (remote_ && !ready()) {
    ensure_remote_started();
    return show_built("the training program is starting: the views show the built weights until it answers");
  }
  if (tied && !runs_tie_qk())
    return show_built("the training runs have no tied query and key: reset training with the tie on to train "
                      "tied runs; the views show the built weights, tied");
  if (remote_ && run(heads, tied) != nullptr) return sync_remote_scene(scene, tied, heads);
  const AttentionWeights* w = remote_ ? nullptr : trainer().weights(heads, tied);
  if (w == nullptr) {
    std::vector<std::string> counts;
    for (int h : kTrainHeads) counts.push_back(std::to_string(h));
    const std::string runs = join_words(counts, " and ");
    return show_built("no training run has " + std::to_string(heads) + (heads == 1 ? " head" : " heads") +
                      " (the runs have " + runs + "): the views show the built weights");
  }
  // The scene follows the chart: new weights only when the chart took them.
  show_trained(scene, *w, chart_updates_, heads, tied);
}

//-----------------------------------------------------------------------------
// [SECTION] training elsewhere (the mirror)
//-----------------------------------------------------------------------------
bool LiveTraining::use_remote(Sender send) {
  if (trainer_ != nullptr || !send) return false;
  remote_ = true;
  send_ = std::move(send);
  mirror_.seed = kDefaultSeed;
  mirror_.relations = kDefaultRelations;
  mirror_.lr = kDefaultLr;
  where_ = "worker";
  return true;
}

void LiveTraining::send_reset() const {
  send({"reset", static_cast<double>(mirror_.seed), static_cast<double>(mirror_.relations),
        static_cast<double>(mirror_.lr), tie_ ? 1.0 : 0.0});
}

void LiveTraining::ensure_remote_started() const {
  if (!remote_ || remote_started_) return;
  remote_started_ = true;
  send({"start"});
  send_reset();
  if (held_) send({"hold", 1.0});
}

const std::vector<TrainRun>& LiveTraining::runs() const {
  if (!remote_) return trainer().runs();
  ensure_remote_started();
  return mirror_.runs;
}

const TrainRun* LiveTraining::run(int heads, bool tied) const {
  if (!remote_) return trainer().run(heads, tied);
  for (const TrainRun& r : runs())
    if (r.heads == heads && r.tie_qk == tied) return &r;
  return nullptr;
}

int64_t LiveTraining::step_count() const {
  if (!remote_) return trainer().step_count();
  ensure_remote_started();
  return mirror_.step;
}

bool LiveTraining::runs_tie_qk() const { return remote_ ? mirror_.tie_qk : trainer().tie_qk(); }

Status LiveTraining::take_wire(const uint8_t* data, size_t n) {
  if (!remote_) return Status::fail("training runs here: no program sends to it");
  WireKind kind{};
  if (Status s = decode_kind(data, n, kind); !s) return s;
  if (kind == WireKind::kWeights) {
    TrainedWeights w;
    if (Status s = decode_weights(data, n, w); !s) return s;
    weights_ = std::move(w);
    ++weights_serial_;
    return Status::ok();
  }
  TrainMirror m;
  if (Status s = decode_state(data, n, m); !s) return s;
  mirror_ = std::move(m);
  has_mirror_ = true;
  fresh_ = true;
  if (gate_.due(now_(), reduced_motion_)) {
    fresh_ = false;
    publish();
  }
  return Status::ok();
}

void LiveTraining::hold(bool held) {
  held_ = held;
  if (remote_ && remote_started_) send({"hold", held ? 1.0 : 0.0});
}

void LiveTraining::restarted(std::string notice) {
  if (!remote_) return;
  const bool was_running = mirror_.running;
  notice_ = std::move(notice);
  has_mirror_ = false;
  fresh_ = false;
  mirror_.runs.clear();
  mirror_.running = false;
  mirror_.steps_per_second = 0;
  mirror_.step = 0;
  mirror_.error.clear();
  weights_ = TrainedWeights{};
  wanted_heads_ = 0;  // sync_scene asks the new program for them
  publish();
  remote_started_ = true;
  send_reset();
  if (held_) send({"hold", 1.0});
  if (was_running) send({"play"});
}

void LiveTraining::fall_back(std::string why) {
  if (!remote_) return;
  const TrainMirror settings = mirror_;
  remote_ = false;
  send_ = nullptr;
  has_mirror_ = fresh_ = false;
  mirror_ = TrainMirror{};
  weights_ = TrainedWeights{};
  wanted_heads_ = 0;
  where_ = "main thread: " + why;
  trainer_ = std::make_unique<Trainer>();
  (void)trainer_->reset(settings.seed, settings.relations, settings.lr, tie_);  // checked when they were set
  running_ = false;
  meter_.clear();
  gate_.clear();
  synced_update_ = -1;
  publish();
}

bool LiveTraining::ask_download(int heads) {
  if (!remote_ || run(heads) == nullptr) return false;
  send({"download", static_cast<double>(heads)});
  return true;
}

void LiveTraining::sync_remote_scene(Scene& scene, bool tied, int heads) {
  if (wanted_heads_ != heads || wanted_tied_ != tied) {
    wanted_heads_ = heads;
    wanted_tied_ = tied;
    send({"weights", static_cast<double>(heads), tied ? 1.0 : 0.0});
  }
  if (weights_.heads != heads || weights_.tie_qk != tied)
    return show_built(scene, "the trained weights are on their way from the training program: the views show the "
                             "built weights until they come");
  show_trained(scene, weights_.w, weights_serial_, heads, tied);  // as they come (at most 4 a second while playing)
}

}  // namespace headroom::app
