// live_training.cpp: the demo's live training (see live_training.h).
//
// Index of this file
//   [SECTION] verbs
//   [SECTION] the frame tick
//   [SECTION] the weights the scene shows
//   [SECTION] the text model shown
//   [SECTION] training elsewhere (the mirror)
//   [SECTION] the text task
#include "app/training/live_training.h"
#include "app/lang/lang.h"  // check_choice

#include <chrono>
#include <cmath>
#include <utility>

#include "engine/common/words.h"
#include "engine/train/text_words.h"
#include "app/lang/refusals.h"

namespace headroom::app {

double LiveTraining::steady_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

LiveTraining::LiveTraining(Clock now) : now_(std::move(now)), here_(make_runs_here()) { publish(); }

LiveTraining::LiveTraining(TrainsElsewhere, Clock now) : now_(std::move(now)), remote_(true) {
  mirror_.seed = kDefaultSeed;
  mirror_.relations = kDefaultRelations;
  mirror_.lr = kDefaultLr;
  where_ = "starting";
  publish();
}

RunsHere& LiveTraining::here() const {
  here_->build(tie_);  // the defaults with the recorded tie (and share)
  return *here_;
}

const Trainer& LiveTraining::trainer() const { return here().trainer(); }

//-----------------------------------------------------------------------------
// [SECTION] verbs
//-----------------------------------------------------------------------------
Status LiveTraining::refuse(Status s) {
  refusal_ = s;
  return s;
}

Status LiveTraining::reset(int64_t seed, int r, float lr, std::optional<bool> tie) {
  const bool tied = tie.value_or(tie_);
  if (remote_) {
    if (Status s = check_train_settings(seed, r, lr); !s) return refuse(std::move(s));
    tie_ = tied;
    roles_r_ = r;
    send_settings(0, seed, r, lr);
    return Status::ok();
  }
  if (Status s = here_->reset(seed, r, lr, tied); !s) return refuse(std::move(s));
  tie_ = tied;
  roles_r_ = r;
  refusal_ = Status::ok();
  meter_.clear();
  gate_.clear();
  publish();
  return Status::ok();
}

Status LiveTraining::step(int n) {
  if (remote_) {
    if (Status s = check_train_steps(n); !s) return refuse(std::move(s));
    refusal_ = Status::ok();
    ensure_remote_started(Use::kAction);
    send({"step", static_cast<double>(n)});
    return Status::ok();
  }
  if (Status s = here().step(n); !s) return refuse(std::move(s));
  refusal_ = Status::ok();
  if (all_diverged()) running_ = false;
  publish();
  return Status::ok();
}

Status LiveTraining::set_lr(float lr) {
  if (remote_) {
    if (Status s = check_lr(lr); !s) return refuse(std::move(s));
    refusal_ = Status::ok();
    mirror_.lr = lr;
    ensure_remote_started(Use::kAction);
    send({"lr", static_cast<double>(lr)});
    return Status::ok();
  }
  if (Status s = here().set_lr(lr); !s) return refuse(std::move(s));
  refusal_ = Status::ok();
  return Status::ok();
}

Status LiveTraining::play() {
  if (all_diverged())
    return refuse(Status::fail(refusals::all_diverged));
  refusal_ = Status::ok();
  if (remote_) {
    ensure_remote_started(Use::kAction);
    send({"play"});
    return Status::ok();
  }
  if (!running_) meter_.clear();
  running_ = true;
  last_tick_ms_ = -1;
  return Status::ok();
}

void LiveTraining::pause() {
  refusal_ = Status::ok();
  if (remote_ && remote_started_) send({"pause"});
  running_ = false;
  meter_.clear();
}

Status LiveTraining::set_max_steps_per_frame(int n) {
  if (n < 1 || n > FramePacer::kMaxStepsPerFrame)
    return refuse(Status::fail(refusals::steps_per_frame, FramePacer::kMaxStepsPerFrame, n));
  refusal_ = Status::ok();
  max_steps_per_frame_ = n;
  return Status::ok();
}

Status LiveTraining::set_weights(std::string_view choice) {
  if (Status s = check_choice("weights", kWeightChoices, choice); !s) return refuse(std::move(s));
  refusal_ = Status::ok();
  choice_ = std::string(choice);
  return Status::ok();
}

std::vector<Status> LiveTraining::errors() const {
  if (!refusal_.is_ok()) return {refusal_};
  if (remote_) return mirror_.errors;
  std::vector<Status> out;
  if (!started() && !text_task()) return out;
  for (const TrainRun& run : runs())
    if (run.diverged) out.push_back(run.stopped);
  return out;
}

std::string LiveTraining::error() const {
  std::string out;
  for (const Status& s : errors()) out += (out.empty() ? "" : "; ") + s.error;
  return out;
}

std::string LiveTraining::error_code() const {
  const std::vector<Status> all = errors();
  return all.empty() ? "" : all.front().code();
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
  chart_step_ = remote_ ? mirror_.step : here_->step_count();
  ++chart_updates_;
  // (runs() only for the text task: for the roles task it would build the
  // Trainer, which stays lazy.)
  if (text_task()) head_log_.observe(runs(), true, layers());
  else head_log_.clear();
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
  const int n = here().train(pacer_, now_, max_steps_per_frame_);
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
void LiveTraining::show_built(Scene& scene, Status note) {
  if (scene.weights_overridden()) (void)scene.set_weights_override(nullptr);  // nullptr is always accepted
  shown_ = kWeightChoices[0];
  note_ = std::move(note);
  synced_update_ = -1;
  text_shown_.reset();
}

void LiveTraining::show_trained(Scene& scene, const AttentionWeights& w, long long serial, int heads, bool tied) {
  if (scene.weights_overridden() && synced_update_ == serial && synced_heads_ == heads && synced_tied_ == tied)
    return;
  if (Status s = scene.set_weights_override(&w); !s)
    return show_built(scene, Status::fail(refusals::note_misfit, StatusArg::refusal(s)));
  shown_ = kWeightChoices[1];
  note_ = Status::ok();
  synced_update_ = serial;
  synced_heads_ = heads;
  synced_tied_ = tied;
}

namespace {
// The note for a head count with no run: the runs' head counts listed.
Status no_run_note(int heads, const std::vector<int>& counts) {
  std::vector<std::string> words;
  for (int h : counts) words.push_back(std::to_string(h));
  return Status::fail(heads == 1 ? refusals::note_no_run_one : refusals::note_no_run, heads,
                      StatusArg::list(std::move(words), " and "));
}
}  // namespace

void LiveTraining::sync_scene(Scene& scene) {
  const int heads = scene.heads();
  auto show_built = [&](Status note) { this->show_built(scene, std::move(note)); };
  if (choice_ == kWeightChoices[2]) return sync_text(scene);
  if (choice_ == kWeightChoices[0]) {
    if (remote_ && wanted_heads_ != 0) {  // no weights wanted any more
      wanted_heads_ = 0;
      send({"weights", 0, 0});
    }
    return show_built(Status::ok());
  }
  if (text_task())
    return show_built(Status::fail(refusals::note_text_model));
  const bool tied = scene.tie_qk();
  if (remote_ && !ready()) {
    ensure_remote_started();
    return show_built(Status::fail(refusals::note_starting));
  }
  if (tied && !runs_tie_qk())
    return show_built(Status::fail(refusals::note_no_tied_runs));
  if (remote_ && run(heads, tied) != nullptr) return sync_remote_scene(scene, tied, heads);
  const AttentionWeights* w = remote_ ? nullptr : here().trainer().weights(heads, tied);
  if (w == nullptr) {
    std::vector<int> counts(kTrainHeads.begin(), kTrainHeads.end());
    return show_built(no_run_note(heads, counts));
  }
  // The scene follows the chart: new weights only when the chart took them.
  show_trained(scene, *w, chart_updates_, heads, tied);
}

//-----------------------------------------------------------------------------
// [SECTION] the text model shown
//-----------------------------------------------------------------------------
void LiveTraining::sync_text(Scene& scene) {
  const int heads = scene.heads();
  if (remote_ && !ready()) {
    ensure_remote_started();
    return show_built(scene, Status::fail(refusals::note_starting));
  }
  if (!text_task()) {
    if (remote_ && wanted_heads_ != 0) {  // the roles run's weights are not wanted
      wanted_heads_ = 0;
      send({"weights", 0, 0});
    }
    return show_built(scene, Status::fail(refusals::note_not_text_task));
  }
  if (run(heads) == nullptr) {
    std::vector<int> counts;
    for (const TrainRun& r : runs()) counts.push_back(r.heads);
    return show_built(scene, no_run_note(heads, counts));
  }
  if (remote_) {
    if (wanted_heads_ != heads || wanted_tied_) {
      wanted_heads_ = heads;
      wanted_tied_ = false;
      send({"weights", static_cast<double>(heads), 0.0});
    }
    if (!text_came_ || text_came_->heads != heads || text_came_->layers != layers())
      return show_built(scene, Status::fail(refusals::note_on_the_way));
    text_shown_ = text_came_;  // as they come (at most 4 a second while playing)
  } else if (!text_shown_ || text_shown_->heads != heads || text_synced_update_ != chart_updates_) {
    // The text model follows the chart: a new copy only when the chart took a new step.
    std::shared_ptr<const TextWeights> tw = here_->text_weights(heads);
    if (!tw) return show_built(scene, no_run_note(heads, {}));
    text_shown_ = std::move(tw);
    text_synced_update_ = chart_updates_;
  }
  if (scene.weights_overridden()) (void)scene.set_weights_override(nullptr);  // the Scene keeps its built weights
  synced_update_ = -1;
  shown_ = kWeightChoices[2];
  note_ = Status::ok();
}

const TextWeights* LiveTraining::text_weights() const {
  return shown_ == kWeightChoices[2] ? text_shown_.get() : nullptr;
}

Status LiveTraining::text_sentence(std::string_view sentence, std::vector<std::string>& words,
                                   std::vector<bool>& unknown, TextSentenceTrace& out) const {
  const TextWeights* tw = text_weights();
  if (tw == nullptr)
    return note_.is_ok() ? Status::fail(refusals::text_not_shown)
                         : Status::fail(refusals::text_not_shown_note, StatusArg::refusal(note_));
  std::vector<std::string> w;
  std::vector<bool> u;
  std::vector<int> ids = corpus_ids(tw->vocab, sentence, w, u);
  const size_t L = static_cast<size_t>(tw->params.pos.rows());
  if (ids.size() > L) {  // the model's context: its first L tokens
    ids.resize(L);
    w.resize(L);
    u.resize(L);
  }
  TextSentenceTrace t;
  if (Status s = text_sentence_forward(tw->params, ids, t); !s) return s;
  words = std::move(w);
  unknown = std::move(u);
  out = std::move(t);
  return Status::ok();
}

std::string LiveTraining::wire_text_weights(int heads) const { return remote_ ? std::string() : here_->wire_text_weights(heads); }

//-----------------------------------------------------------------------------
// [SECTION] training elsewhere (the mirror)
//-----------------------------------------------------------------------------
bool LiveTraining::use_remote(Sender send) {
  if ((here_ && here_->built()) || !send) return false;
  const bool waiting = remote_ && remote_started_;  // uses before the sender came
  if (!remote_) {
    mirror_.seed = kDefaultSeed;
    mirror_.relations = kDefaultRelations;
    mirror_.lr = kDefaultLr;
  }
  remote_ = true;
  send_ = std::move(send);
  where_ = "worker";
  if (waiting) {  // what they would have sent
    remote_started_ = false;
    ensure_remote_started();
  }
  return true;
}

void LiveTraining::send_settings(int layers, int64_t seed, int r, float lr) {
  refusal_ = Status::ok();
  mirror_.text = layers > 0;
  mirror_.layers = layers;
  mirror_.knockout.reset();
  mirror_.splits.clear();
  text_came_.reset();  // the new runs' model is on its way
  mirror_.seed = seed;
  mirror_.relations = r;
  mirror_.lr = lr;
  // The new runs start at step 0: until the program's first state arrives,
  // the old runs' count is not theirs (the tour asked for "250 minus the
  // count" steps right after taking a learner back from the text model,
  // got the text run's count, and waited for step 250 forever).
  mirror_.step = 0;
  const bool first = !remote_started_;
  ensure_remote_started(Use::kAction);  // sends these settings the first time
  if (!first) send_reset();
}

void LiveTraining::send_reset() const {
  if (mirror_.text)
    return send({"text", static_cast<double>(mirror_.layers), static_cast<double>(mirror_.seed),
                 static_cast<double>(mirror_.lr)});
  send({"reset", static_cast<double>(mirror_.seed), static_cast<double>(mirror_.relations),
        static_cast<double>(mirror_.lr), tie_ ? 1.0 : 0.0});
}

void LiveTraining::ensure_remote_started(Use use) const {
  if (!remote_ || remote_started_) return;
  if (unavailable_ && use == Use::kRead) return;  // a view drawn is not a use: no fetch per frame
  unavailable_ = false;
  remote_started_ = true;
  send({"start"});
  send_reset();
  if (held_) send({"hold", 1.0});
}

const std::vector<TrainRun>& LiveTraining::runs() const {
  if (!remote_) return here_->text_on() ? here_->runs() : here().runs();
  ensure_remote_started();
  return mirror_.runs;
}

const TrainRun* LiveTraining::run(int heads, bool tied) const {
  if (!remote_ && !here_->text_on()) return here().trainer().run(heads, tied);
  for (const TrainRun& r : runs())
    if (r.heads == heads && r.tie_qk == tied) return &r;
  return nullptr;
}

int64_t LiveTraining::step_count() const {
  if (!remote_) return here_->text_on() ? here_->step_count() : here().step_count();
  ensure_remote_started();
  return mirror_.step;
}

bool LiveTraining::runs_tie_qk() const { return remote_ ? mirror_.tie_qk : !here_->text_on() && here().trainer().tie_qk(); }

Status LiveTraining::set_share(RunShare share) {
  if (Status s = check_run_share(share); !s) return refuse(std::move(s));
  if (remote_) return Status::ok();  // the programs hold the shares: nothing trains here
  here_->set_share(share);
  if (!here_->built()) return Status::ok();  // the lazy build takes it
  const Trainer& t = here_->trainer();
  return reset(t.seed(), t.relations(), t.lr(), t.tie_qk());
}

Status LiveTraining::take_wire(const uint8_t* data, size_t n, int part, int parts) {
  if (!remote_) return Status::fail(refusals::runs_here);
  if (Status s = check_run_share({part, parts}); !s) return s;
  WireKind kind{};
  if (Status s = decode_kind(data, n, kind); !s) return s;
  if (kind == WireKind::kTextWeights) {
    auto w = std::make_shared<TextWeights>();
    if (Status s = decode_text_weights(data, n, *w); !s) return s;
    text_came_ = std::move(w);
    return Status::ok();
  }
  if (kind == WireKind::kWeights) {
    TrainedWeights w;
    if (Status s = decode_weights(data, n, w); !s) return s;
    weights_ = std::move(w);
    ++weights_serial_;
    return Status::ok();
  }
  TrainMirror m;
  if (Status s = decode_state(data, n, m); !s) return s;
  if (part_mirrors_.size() != static_cast<size_t>(parts)) part_mirrors_.assign(static_cast<size_t>(parts), std::nullopt);
  part_mirrors_[static_cast<size_t>(part)] = std::move(m);
  std::vector<TrainMirror> came;
  for (const std::optional<TrainMirror>& p : part_mirrors_)
    if (p) came.push_back(*p);
  mirror_ = parts == 1 ? std::move(came.front()) : merge_parts(came);
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

void LiveTraining::restarted(Status notice) {
  if (!remote_) return;
  const bool was_running = mirror_.running;
  notice_ = std::move(notice);
  has_mirror_ = false;
  part_mirrors_.clear();
  fresh_ = false;
  mirror_.runs.clear();
  mirror_.running = false;
  mirror_.steps_per_second = 0;
  mirror_.step = 0;
  mirror_.errors.clear();
  mirror_.knockout.reset();
  mirror_.splits.clear();
  weights_ = TrainedWeights{};
  text_came_.reset();
  wanted_heads_ = 0;  // sync_scene asks the new program for them
  publish();
  remote_started_ = true;
  send_reset();
  if (held_) send({"hold", 1.0});
  if (was_running) send({"play"});
}

void LiveTraining::unavailable(Status notice) {
  if (!remote_) return;
  notice_ = std::move(notice);
  remote_started_ = false;  // the next use asks for the program again
  unavailable_ = true;      // (an action, not a read: see ensure_remote_started)
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
    return show_built(scene, Status::fail(refusals::note_on_the_way));
  show_trained(scene, weights_.w, weights_serial_, heads, tied);  // as they come (at most 4 a second while playing)
}

}  // namespace headroom::app

//-----------------------------------------------------------------------------
// [SECTION] the text task
//-----------------------------------------------------------------------------
namespace headroom::app {

namespace {
Status check_text_settings(int layers, int64_t seed, float lr) {
  if (layers != kTextLayers[0] && layers != kTextLayers[1])
    return Status::fail(refusals::text_layers_choice, layers);
  if (seed < 0 || seed > kMaxSeed)
    return Status::fail(refusals::text_seed, kMaxSeed);
  return check_lr(lr);
}
}  // namespace

Status LiveTraining::reset_text(int layers, int64_t seed, float lr) {
  if (Status s = check_text_settings(layers, seed, lr); !s) return refuse(std::move(s));
  if (remote_) {
    send_settings(layers, seed, 0, lr);
    return Status::ok();
  }
  if (Status s = here_->reset_text(layers, seed, lr); !s) return refuse(std::move(s));
  refusal_ = Status::ok();
  meter_.clear();
  gate_.clear();
  publish();
  return Status::ok();
}

Status LiveTraining::set_corpus(const uint8_t* data, size_t n, double fetch_ms) {
  if (!here_) return refuse(Status::fail(refusals::corpus_in_program));
  if (Status s = here_->set_corpus(data, n, fetch_ms); !s) return refuse(std::move(s));
  return Status::ok();
}

void LiveTraining::set_corpus(std::shared_ptr<const TextCorpus> c, int64_t bytes, double fetch_ms) {
  if (here_) here_->set_corpus(std::move(c), bytes, fetch_ms);
}

void LiveTraining::corpus_failed(std::string why) {
  if (here_) here_->corpus_failed(std::move(why));
}

Status LiveTraining::knockout(int heads, int layer, int head) {
  if (!text_task()) return refuse(Status::fail(refusals::knockout_text_only));
  const TrainRun* r = run(heads);
  if (!r) return refuse(Status::fail(refusals::no_text_run, heads));
  if (layer < 1 || layer > layers()) return refuse(Status::fail(refusals::text_knockout_layer, layer, layers()));
  if (head < 1 || head > heads) return refuse(Status::fail(refusals::text_knockout_head, head, heads));
  if (remote_) {
    refusal_ = Status::ok();
    send({"knockout", static_cast<double>(heads), static_cast<double>(layer), static_cast<double>(head)});
    return Status::ok();
  }
  if (Status s = here_->knockout(heads, layer - 1, head - 1); !s) return refuse(std::move(s));
  refusal_ = Status::ok();
  return Status::ok();
}

const TextKnockout* LiveTraining::last_knockout() const {
  if (!remote_) return here_->last_knockout();
  return mirror_.knockout ? &*mirror_.knockout : nullptr;
}

bool LiveTraining::can_step() const { return !remote_ && (here_->text_on() ? here_->can_step() : here().can_step()); }

std::string LiveTraining::wire_state(double steps_per_second, bool running) const {
  if (remote_) return {};
  if (!here_->text_on()) here_->build(tie_);
  return here_->wire_state(steps_per_second, running, errors());
}

}  // namespace headroom::app
