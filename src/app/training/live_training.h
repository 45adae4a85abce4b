// live_training.h: the demo's live training, as the app sees it: play and pause,
// how many steps a frame runs, what the chart shows, which weights the
// lesson's views use, and the JSON of train.state() and train.snapshot(heads).
// (LiveTraining, not Training: the engine's Trainer trains; this is the
// app's live session around it.)
//
// Does: own the engine's Trainer (engine/train/trainer.h: one run per head count,
// 1, 2 and 4, on the same batches from the same seed) and drive it:
// - verbs that validate, then change, and return a Status (a refused value
//   keeps the previous one, and its message is what state().error shows):
//   reset(seed, r, lr, tie), step(n) (synchronous), set_lr, play / pause,
//   the speed cap (steps per frame), the weights choice "built" |
//   "trained" | "text", and the query/key tie the next reset trains (set_tie_qk);
// - tick(), once per drawn frame while running: runs the trainer's units (one
//   run's training step, one chunk of one run's held-out evaluation) as many
//   as fit in FramePacer's 12 ms budget (train_pace.h), so a step may span
//   frames and a frame may end mid-step (step(n) and the chart count whole
//   steps only; engine/train/trainer.h "Units"), measures steps/s, and
//   publishes to the chart every frame or, under reduced motion, at most 4
//   times a second; when every run has diverged it stops, and state().error
//   names the step and the rate of each (reset recovers);
// - sync_scene(): with "trained" chosen, hands the Scene the trained weights
//   of the run with the Scene's head count, the tied run when the Scene ties
//   query and key; a head count with no run (or a tie with no tied runs) gets
//   the built weights AND a note saying so (weights_shown() = "built").
//   With "text" chosen the Scene keeps its built weights, and the text
//   model (the text task's run with the Scene's head count: its vocabulary,
//   embeddings and layers) becomes text_weights(), which the views run a
//   typed sentence through (text_sentence); weights_shown() = "text". No
//   text task, no run with that head count, or (remote) none arrived yet:
//   text_weights() is nullptr, weights_shown() "built", and the note says
//   why. Here it follows the chart (a copy of the run's parameters when
//   the chart took a new step); remote, the "weights" command asks the
//   program, which answers the text task with a text-weights message.
// The tie (one meaning everywhere: W_K = W_Q): with it, a reset trains a tied
// run beside each untied one (engine/train/trainer.h "Tied query and key").
// set_tie_qk only records it for the next reset (and the lazy first build),
// so runs in progress are never thrown away by a toggle; reset(..., tie)
// sets it and resets at once. tie_qk() is the recorded choice,
// trainer().tie_qk() what the runs were reset with.
// Lazy: the Trainer (its held-out set and the runs' step-0 evaluation) is
// built the first time anything needs it: a verb other than pause and
// set_weights("built"), trainer(), state_json(), snapshot_json(), or
// sync_scene() with "trained" chosen. Until then seed(), relations() and
// lr() give the defaults and the views that never ask cost nothing. The
// built Trainer is the same as an eagerly built one (tests compare the JSON).
// Where it trains: here (the default: the Trainer above, in RunsHere
// (runs_here.h), paced by tick()), or in another program (the training
// program, in a Worker or on the page's main thread) once the platform calls
// use_remote(send). Made with TrainsElsewhere (the page's) it never trains
// here: it holds no RunsHere, so no trainer is linked into its program, and
// it is remote from the start (uses before use_remote are sent when the
// sender comes). Then nothing trains here: each verb still
// validates here with the Trainer's own checks and messages, and, accepted,
// is handed to `send` as a TrainCommand; the program's state and weights
// come back through take_wire() (train_wire.h) into a mirror, and every read
// below (runs(), step_count(), running(), state_json(), sync_scene()) reads
// that mirror, so the views do not know where the runs train. The first use
// (as "Lazy" below) sends "start" and a reset with the current settings;
// until the program's first state arrives ready() is false and runs() is
// empty. hold(true) (page hidden or out of view) asks the program to train
// nothing; restarted(notice) empties the mirror and resets the runs afresh
// (a dead Worker's runs are gone), playing again if they were;
// unavailable(notice) says the program could not start, and the next use
// asks for it again; set_where(where) records where it runs ("worker", or
// "main thread: why").
// The text task: reset_text(layers, seed, lr) trains the language
// model on real English (engine/train/text_trainer.h: runs of 1, 2, 4 and 8
// heads) instead of the roles task, until a reset() goes back. Its runs are
// read through the same runs() (TrainRun: the held-out loss in nats per word,
// no weightOn, floor 0), so the chart draws either. Here it needs the corpus
// first: set_corpus(bytes) reads brown.bin (engine/train/text_corpus.h) and
// corpus_failed(why) records a fetch that failed; without a corpus
// reset_text is refused with that failure's message and the task stays as it
// was. Remote, the program fetches the corpus itself ("text" command).
// Shares (engine/train/trainer.h "Shares"): where the runs train in several
// programs at once, each program's LiveTraining holds a share of the roles
// runs (set_share, from the next reset on; the text task trains in part 0
// alone), and the page takes each program's states with its part
// (take_wire(..., part, parts)) into one mirror (train_wire.h merge_parts),
// so every read below sees every run, as from one program.
// Knockout (knockout(heads, layer, head), the text task only): the run with
// `heads` heads measured with and without one head (engine/train/
// text_trainer.h "Knockout"), layer and head counted from 1 as perHead
// counts them; the last one stays in knockout() until the runs are reset
// (a refused knockout keeps it). Remote, it is validated here against the
// mirror, measured by the program, and comes back with its state.
// Does not: train itself (engine/train/trainer.h does), read a clock of its own
// (the clock is given, so tests are deterministic), draw anything (src/ui
// reads it), or know about the browser (src/platform calls tick()).
//
// JSON (live_training_json.cpp), every number finite:
//   state():   {task: "roles" | "text", layers (text: 1 | 2, roles: null),
//               corpus: {name, trainWords, heldOutWords, vocab, bytes,
//               fetchMs} once loaded (else null), seed, r (the roles task's), lr, tieQK, step, stepsPerSecond, stepsPerFrame,
//               maxStepsPerFrame, running, error, weights: {choice, shown,
//               note}, labelChanges: [{heads, layer, head, step, from, to,
//               score}] (the text heads' label changes the page has seen,
//               oldest first, layer and head 1-based: head_log.h), runs: [{heads, tieQK, loss, floor, steps, diverged,
//               message, history: [[step, loss], ...], perHead: [{weightOn:
//               [R] in slot order: subject, complement, previous token,
//               coreference}]}]}: runs untied 1, 2, 4, then (tieQK) tied
//               1, 2, 4. Top-level tieQK is what the runs were reset with.
//               The text task's runs (1, 2, 4, 8 heads) have perHead: one
//               {layer, head, scores: {kind: score}, label, labelScore,
//               baselines: {kind: baseline}} per head of every layer, layer
//               by layer (1-based; engine/train/head_scores.h measures them;
//               all four null for a head not yet measured), and floor 0.
//               knockout: null, or the last head knocked out of a text run
//               {heads, layer, head (1-based), step, lossBefore, lossAfter,
//               change (lossAfter - lossBefore), lost: {label, labelScore}
//               (the head's own measurement: what the model loses),
//               changed: [{layer, head, label, labelAfter, labelScore,
//               labelScoreAfter}] (the heads whose scores moved without it)}.
//               splits: null for the roles task; for the text task the
//               cases of splits() best first: [{step, sentence, query, a,
//               b (0-based positions, a < b <= query), words: [...] (the
//               sentence as the vocabulary spells it: joined by spaces it
//               reads back to ids), ids, one: {weightA, weightB, cosA, cosB,
//               cosMidpoint}, four: {headA, headB (1-based), weightA,
//               weightB, cosA, cosB}}].
//   snapshot(heads, tied): {heads, tieQK, step, seed, r, X, target, mask,
//               W_Q, W_K, W_V, W_O, lossScale, loss, grads: {W_Q, W_K, W_V,
//               W_O}}; a tied run's W_K equals its W_Q and its grads have
//               no W_K (grads.W_Q is the shared matrix's gradient); each array
//               {shape, data} row-major: X [B, L, D], target [B, L, T], mask
//               [B, L], W_* [D, D] with head h in columns h*D/heads.. (rows of
//               W_O). No W_R: the prediction is Y itself (T = D).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/training/head_log.h"
#include "app/training/runs_here.h"
#include "app/training/train_pace.h"
#include "app/wire/train_wire.h"
#include "engine/lesson/scene.h"
#include "engine/core/status.h"
#include "engine/train/text_trainer.h"
#include "engine/train/trainer.h"

namespace headroom::app {

// The weights the views may show (hash `weights`): the lesson's built ones,
// the training run's with the shown head count, or the text model's (the
// text task's run with the shown head count, on a sentence typed for it).
constexpr std::array<const char*, 3> kWeightChoices = {"built", "trained", "text"};
// The training tasks (`task`, train.reset's task): the made-up roles task
// (the default) and the language model on real English (engine/train/text_trainer.h).
constexpr std::array<const char*, 2> kTrainTasks = {"roles", "text"};
// The text model's layer counts (`layers`, train.reset's layers).
constexpr std::array<int, 2> kTextLayers = {1, 2};

// A verb handed to the program that trains elsewhere: "start", "reset"
// (seed, r, lr, tie 0/1), "text" (layers, seed, lr), "step" (n), "lr" (rate), "play", "pause", "hold"
// (1/0), "weights" (heads, tied; heads 0: none wanted), "download" (heads).
struct TrainCommand {
  const char* verb = "";
  double a = 0, b = 0, c = 0, d = 0;
};

// Made with this, a LiveTraining trains nowhere itself (see "Where it
// trains"): the page's, whose runs train in the training program.
struct TrainsElsewhere {};

class LiveTraining {
 public:
  using Clock = std::function<double()>;  // milliseconds, never going back
  static double steady_ms();              // std::chrono::steady_clock in ms

  explicit LiveTraining(Clock now = steady_ms);  // trains here until use_remote
  explicit LiveTraining(TrainsElsewhere, Clock now = steady_ms);

  // [verbs] Each validates, then changes, and returns why it refused.
  // Ranges: engine/train/trainer.h. `tie` also becomes the recorded tie;
  // without it the recorded tie is used.
  Status reset(int64_t seed, int r, float lr, std::optional<bool> tie = std::nullopt);
  // The tie the next reset trains (see "The tie" above); always accepted.
  void set_tie_qk(bool tie) { tie_ = tie; }
  Status step(int n);                           // 1 .. kMaxStepsPerCall, every run
                                                // (a step tick left half done counts as one)
  Status set_lr(float lr);
  Status play();                                // refused when every run has diverged
  void pause();
  Status set_max_steps_per_frame(int n);        // 1 .. FramePacer::kMaxStepsPerFrame
  Status set_weights(std::string_view choice);  // "built" | "trained" | "text"
  // [text] (see "The text task" above)
  Status reset_text(int layers, int64_t seed, float lr);
  Status set_corpus(const uint8_t* data, size_t n, double fetch_ms);
  // A corpus already read (tests' small corpora); `bytes` its size on the wire.
  void set_corpus(std::shared_ptr<const TextCorpus> corpus, int64_t bytes, double fetch_ms);
  void corpus_failed(std::string why);
  // See "Knockout" above.
  Status knockout(int heads, int layer, int head);
  const TextKnockout* last_knockout() const;
  bool has_corpus() const { return here_ && here_->has_corpus(); }
  bool text_task() const { return remote_ ? mirror_.text : here_->text_on(); }
  int layers() const { return remote_ ? mirror_.layers : text_task() ? here_->text_config().layers : 0; }
  const CorpusInfo& corpus_info() const { return remote_ ? mirror_.corpus : here_->corpus_info(); }
  // The program's state post (train_wire.h) of whichever task trains here.
  std::string wire_state(double steps_per_second, bool running) const;
  // The text-weights post (train_wire.h) of the text run with `heads` heads
  // trained here; "" when the text task does not train here or has no such run.
  std::string wire_text_weights(int heads) const;
  // Whether a step can still train (some run has not diverged), here.
  bool can_step() const;
  // Records a refusal made outside these verbs (the JS side's type checks).
  void reject(const Status& why) { refusal_ = why; }
  // The last verb's refusal here (ok when accepted), with its code: the UI
  // makes its sentence in the language shown (app::tr_status).
  const Status& refusal() const { return refusal_; }

  // Once per frame. While running: trains within the frame budget and, if the
  // chart is due, publishes. Returns whether it wants another frame (running).
  bool tick(bool reduced_motion);

  // Makes the Scene show the chosen weights (see above); cheap when nothing
  // changed. Call after any verb here, after Scene::set_heads, and after tick.
  void sync_scene(Scene& scene);

  // [where] (see "Where it trains" above)
  using Sender = std::function<void(const TrainCommand&)>;
  // Refused (false) once the Trainer here has been built. Made with
  // TrainsElsewhere, remote() from the start, and the commands of any use
  // before this wait here until `send` comes.
  bool use_remote(Sender send);
  bool remote() const { return remote_; }
  // A state or weights message from the program; a refused one changes nothing.
  // From part `part` of `parts` programs that train shares of the runs
  // (see "Shares"); a bad part is refused.
  Status take_wire(const uint8_t* data, size_t n, int part = 0, int parts = 1);
  // The share of the roles runs trained here (see "Shares"): validated, then
  // the runs here start afresh holding it, with the current settings.
  Status set_share(RunShare share);
  void hold(bool held);
  void restarted(Status notice);
  // The program could not be started: notice() says so (`notice`, worded
  // by the UI), and the next action on training (step, play, lr, reset;
  // not a view drawn) asks for it again ("start" and the settings).
  void unavailable(Status notice);
  void set_where(std::string where) { where_ = std::move(where); }
  const std::string& where() const { return where_; }
  // What happened to the training program that a reader should know (ok
  // if nothing), as a code the UI words (tr_status).
  const Status& notice() const { return notice_; }
  // Runs to show: always here; remote, once the program's first state came.
  bool ready() const { return !remote_ || has_mirror_; }
  // Here: saves the snapshot as today (the platform); remote: asks the program.
  bool ask_download(int heads);

  // [reads] of the runs, wherever they train (the views read these).
  const std::vector<TrainRun>& runs() const;
  const TrainRun* run(int heads, bool tied = false) const;
  int64_t step_count() const;
  bool runs_tie_qk() const;  // what the runs were reset with

  // [reads]
  // The Trainer, built on first use (see "Lazy" above): its held-out set and
  // step-0 evaluation cost tens of ms that a reader who never opens training
  // should not pay at start-up.
  // Here only (not remote()).
  const Trainer& trainer() const;
  bool started() const { return remote_ ? remote_started_ : here_->built(); }
  // The runs' settings, without building the Trainer (the defaults until then).
  // relations(): the roles task's R, also while the text task trains (the
  // one a reset() back to roles uses).
  int64_t seed() const {
    return remote_ ? mirror_.seed : text_task() ? here_->text_config().seed : started() ? here_->trainer().seed() : kDefaultSeed;
  }
  int relations() const {
    return text_task() ? roles_r_ : remote_ ? mirror_.relations : started() ? here_->trainer().relations() : kDefaultRelations;
  }
  float lr() const {
    return remote_ ? mirror_.lr : text_task() ? here_->text_lr() : started() ? here_->trainer().lr() : kDefaultLr;
  }
  bool tie_qk() const { return tie_; }  // the recorded tie (the runs': trainer().tie_qk())
  bool running() const { return remote_ ? mirror_.running : running_; }
  double steps_per_second() const { return remote_ ? mirror_.steps_per_second : meter_.per_second(); }
  int steps_last_frame() const { return pacer_.last_steps(); }  // whole steps completed
  int units_last_frame() const { return pacer_.last_units(); }
  const FramePacer& pacer() const { return pacer_; }
  int max_steps_per_frame() const { return max_steps_per_frame_; }
  // The last refused verb's refusal; else why the diverged runs stopped
  // (none when there is nothing to say): codes the UI words (tr_status).
  std::vector<Status> errors() const;
  // The same in English, joined with "; " (train.state().error), and the
  // first one's code ("" when there is none).
  std::string error() const;
  std::string error_code() const;
  const std::string& weights_choice() const { return choice_; }
  // "built", "trained" or "text": what sync_scene last showed, and the note
  // that says why it is not what was chosen ("" when it is).
  const std::string& weights_shown() const { return shown_; }
  const Status& weights_note() const { return note_; }  // ok when none
  // The text model shown (see sync_scene above), or nullptr: then
  // weights_note() says why (when "text" is chosen).
  const TextWeights* text_weights() const;
  // `sentence` as the corpus' words (engine/train/text_words.h), cut to the
  // model's L tokens, run through text_weights() (text_sentence_forward):
  // words[i] as typed, unknown[i] when it fell to <unk>. Refused (every
  // output unchanged) when no text model is shown, or the sentence has no
  // word.
  Status text_sentence(std::string_view sentence, std::vector<std::string>& words, std::vector<bool>& unknown,
                       TextSentenceTrace& out) const;
  // The chart shows each run's history points with step <= chart_step():
  // every step, or under reduced motion the steps published at most 4 times
  // a second. chart_updates() counts publications (tests).
  int64_t chart_step() const { return chart_step_; }
  // The text model's heads at every published held-out point, and their
  // label changes (head_log.h); empty for the roles task.
  const HeadScoreLog& head_log() const { return head_log_; }
  // The text task's splits at its last held-out point (engine/train/
  // text_splits.h: queries where the 1-head run splits its weight between
  // two tokens that two heads of the 4-head run take one each), best
  // first; empty for the roles task. Here: the TextTrainer's, as the runs
  // are refreshed; remote: the program's last state's.
  const std::vector<TextSplit>& splits() const { return remote_ ? mirror_.splits : here_->splits(); }
  // The step of the trained weights the Scene shows: the chart's here; the
  // step of the weights that came, when the runs train elsewhere.
  // With the text model shown, its run's step.
  int64_t weights_step() const {
    if (const TextWeights* tw = text_weights()) return tw->step;
    return remote_ ? weights_.step : chart_step_;
  }
  long long chart_updates() const { return chart_updates_; }

  // [JSON] (live_training_json.cpp)
  std::string state_json() const;
  // The snapshot of the run with `heads` heads (the tied one when `tied`),
  // or why not (no such run).
  Status snapshot_json(int heads, bool tied, std::string& out) const;
  Status snapshot_json(int heads, std::string& out) const { return snapshot_json(heads, false, out); }

 private:
  Status refuse(Status s);  // records a refusal, returns it
  // The runs here, the Trainer built (see "Lazy"); only when not remote_.
  RunsHere& here() const;
  void publish();
  bool all_diverged() const;
  void send(const TrainCommand& c) const { if (send_) send_(c); }
  // Sends "start" and the settings once. Reads (runs(), a view drawn) start
  // the program the first time; after unavailable() only an action does
  // (step, play, lr, reset), or every frame drawn would fetch again.
  enum class Use { kRead, kAction };
  void ensure_remote_started(Use use = Use::kRead) const;
  void send_reset() const;
  // Remote: the runs' settings into the mirror (layers 0: the roles task,
  // else the text task's layers, r 0), sent as a reset ("start" first, once).
  void send_settings(int layers, int64_t seed, int r, float lr);
  void sync_remote_scene(Scene& scene, bool tied, int heads);
  void sync_text(Scene& scene);  // "text" chosen
  void show_built(Scene& scene, Status note);
  // The trained weights `w` to the Scene, unless it has them from the same
  // publication (or arrival) `serial`.
  void show_trained(Scene& scene, const AttentionWeights& w, long long serial, int heads, bool tied);

  Clock now_;
  // The runs trained here (runs_here.h); null when made with TrainsElsewhere,
  // which is remote_ from the start, so every local path has them.
  std::unique_ptr<RunsHere> here_;
  FramePacer pacer_;
  RateMeter meter_;
  ChartGate gate_;
  bool running_ = false;
  int max_steps_per_frame_ = FramePacer::kMaxStepsPerFrame;
  Status refusal_;  // the last verb's refusal, ok when it was accepted
  double last_tick_ms_ = -1;
  int64_t chart_step_ = 0;
  HeadScoreLog head_log_;
  long long chart_updates_ = 0;
  // What the Scene was last given: the weights of publication number
  // synced_update_ for synced_heads_ heads.
  std::string choice_ = kWeightChoices[0], shown_ = kWeightChoices[0];
  Status note_;
  long long synced_update_ = -1;
  int synced_heads_ = 0;
  bool synced_tied_ = false;
  bool tie_ = false;  // the recorded tie (set_tie_qk)
  bool reduced_motion_ = false;  // as the last tick was told
  bool held_ = false;            // hold(): the page cannot be seen
  // Remote (see "Where it trains").
  bool remote_ = false;
  Sender send_;
  mutable bool remote_started_ = false;
  mutable bool unavailable_ = false;  // unavailable() said so; no action since
  bool has_mirror_ = false, fresh_ = false;
  TrainMirror mirror_;
  std::vector<std::optional<TrainMirror>> part_mirrors_;  // per part, its last state (see "Shares")
  TrainedWeights weights_;       // the last weights that came (heads 0: none)
  long long weights_serial_ = 0;
  std::shared_ptr<const TextWeights> text_came_;  // the last text weights that came
  // The text model shown (text_weights() while shown_ is "text"); here, a
  // copy of the run's parameters at chart publication text_synced_update_.
  std::shared_ptr<const TextWeights> text_shown_;
  long long text_synced_update_ = -1;
  int wanted_heads_ = 0;         // the weights asked for (0: none)
  bool wanted_tied_ = false;
  std::string where_ = "main thread: no Worker was asked for";
  Status notice_;
  int roles_r_ = kDefaultRelations;  // the roles task's R, kept across the text task
};

}  // namespace headroom::app
