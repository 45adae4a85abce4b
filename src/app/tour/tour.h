// tour.h: the guided lesson: predict, then see.
//
// Does: hold the tour's nine steps (average, options, two-heads,
// coordinates, more-heads, query-key, training, real-text, recap: their
// words, question and the kind of answer each takes), which step is open and the range a
// host confined it to (hash tour=N or tour=N-M), each step's prediction, and
// on reveal the numbers the engine measures at that moment from the demo's
// live Scene (and copies of it with one setting changed) and the live
// training (step real-text: the text model's 4-head run, its heads' labels
// as engine/train/head_scores.h measured them on held-out English). Scores a prediction against what was measured (0..1). Entering a
// step puts the demo in the state the step asks about (step two-heads asks
// with one head); revealing puts it in the state the reveal shows (two
// heads). Logs what the learner did (entered, predicted, revealed) as
// numbered events, the postMessage bridge forwards them to a host page.
// Does not: compute attention (every number comes from Scene and LiveTraining),
// draw (src/ui/view_tour.cpp), or animate (the UI eases between the numbers
// it is given; anim_generation tells it when to start again).
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/lang/lang.h"
#include "app/training/live_training.h"
#include "engine/core/status.h"
#include "engine/lesson/scene.h"

namespace headroom::app {

// What the tour asks of the demo it runs in (app/state/demo.h's Demo is
// one): the live Scene and training it measures, and the verbs that put the
// demo in a step's state, each recording a refusal as the demo's verbs do.
class TourHost {
 public:
  virtual Scene& tour_scene() = 0;
  virtual LiveTraining& tour_training() = 0;
  virtual bool set_heads(int heads) = 0;
  virtual bool set_focus(float focus) = 0;
  virtual bool set_knockout(const std::vector<int>& heads) = 0;
  virtual bool set_tie_qk(bool tie) = 0;
  virtual bool train_reset(int64_t seed, int r, float lr, std::optional<bool> tie) = 0;
  virtual bool train_step(int n) = 0;
  // The text task (LiveTraining::reset_text) and play: step real-text
  // trains by playing, here within the frame budget or in the Worker, never
  // in one blocking call.
  virtual bool train_reset_text(int layers, int64_t seed, float lr) = 0;
  virtual bool train_play() = 0;

 protected:
  ~TourHost() = default;
};

enum class AnswerKind { Point, Points, Choice, Number, Match, Labels, None };

// One answer of a choice step: its id (tour.predict({choice: id})), its
// words (the main screen's own), and what choosing it claims, as the
// sentence the reveal shows when the measurement says otherwise.
struct TourChoice {
  const char* id;
  const char* label;
  const char* means = "";
};

// The fixed words and answer of one step.
struct TourStepInfo {
  const char* id;
  const char* title;
  const char* text;      // the claim, in a few sentences
  const char* question;  // what the learner predicts
  AnswerKind kind;
  std::vector<TourChoice> choices;  // Choice steps (and Point's alternative for `average`)
};

constexpr int kTourSteps = 9;
// Step more-heads: the query its i-th relationship (subject, complement,
// previous token, antecedent) is asked from: the lesson's query, but
// coreference from the complement's pronoun (it -> paper).
int tour_match_query(const Scene& scene, int i);
// The head that holds relationship i of that step (its first relationship
// in Scene::head_relations), or i when no head holds it first.
int tour_match_head(const Scene& scene, int i);
const std::array<TourStepInfo, kTourSteps>& tour_steps();
// Step `training` trains the runs to at least this many steps before measuring.
constexpr int kTourTrainSteps = 250;
// Step real-text judges the labels of the text model's run with this many
// heads (one label per head of its first layer) at its first held-out point
// at or after this step: about a minute of training in a Worker here, long
// enough for the first tag heads to form (tests/bench/text_play.mjs).
constexpr int kTourTextHeads = 4;
constexpr int kTourTextSteps = 150;

// A learner's prediction (which fields mean something depends on `kind`).
struct Prediction {
  AnswerKind kind = AnswerKind::None;
  std::vector<float> xy;    // Point: x, y; Points: x0, y0, x1, y1 (valueSpace coordinates)
  std::string choice;       // Choice (and `average`'s alternative to a point)
  float number = 0;         // Number
  std::vector<int> match;   // Match: a token index per relationship
  std::vector<std::string> labels;  // Labels: a label per head (a head kind or "mixed")
};

// A step's record.
struct TourRecord {
  bool predicted = false;
  Prediction prediction;
  bool revealed = false;
  std::string measured;         // JSON object of the engine's numbers
  // The reveal in words, line by line (panel and screen reader), and how the
  // prediction compares (empty when nothing was predicted): Phrases, read
  // (str()) in the language shown when they are read, not when measured.
  std::vector<Phrase> result;
  Phrase feedback;
  float score = -1;             // 0..1, or < 0: not scored
  // Step training revealed before its run reached kTourTrainSteps: the
  // numbers are the run's so far; no score, mark or reason yet.
  bool pending = false;
  // The mark of a predicted step after its reveal: one entry per part of
  // the answer (one for a choice, a point or a number; one per relationship
  // for a match), empty when nothing was predicted; and the reason, one or
  // two plain sentences saying why the answer is right, or what it would
  // have meant and why the measurement says otherwise.
  std::vector<bool> correct;
  Phrase reason;
  // The recap's columns in words: the learner's answer ("between them,
  // close to neither") and what was measured ("between them, close to
  // neither: weight 0.50 on researcher, 0.50 on it").
  Phrase answer_text, measured_text;
  // Numbers the panel draws (valueSpace coordinates of the live Scene).
  std::vector<float> from;      // where an animation starts: x, y per moving point
  std::vector<float> to;        // where it ends (options: one point per choice, in the choices' order)
  // Step query-key's picture: the score matrix (L x L, scaled scores) of
  // `head` before and after the tie, as measured.
  int head = 0;
  Mat scores_before, scores_after;
};

class Tour {
 public:
  bool open() const { return step_ > 0; }
  int step() const { return step_; }  // 1-based; 0 when closed
  int first() const { return first_; }
  int last() const { return last_; }
  const TourRecord& record(int step) const { return records_[static_cast<size_t>(step - 1)]; }
  // Bumped by every reveal and replay: the UI restarts its animation.
  int anim_generation() const { return anim_; }

  // Opens step n (1-based, within the range) and puts the demo in the state
  // the step asks about; a step revealed before is revealed again (measured
  // anew, without a second "revealed" event).
  Status go(TourHost& demo, int n);
  // Confines the tour to steps first..last and opens `step` (hash tour=N-M).
  Status open_range(TourHost& demo, int first, int last, int step);
  void close();
  // The open step's prediction; refused when the step takes another kind,
  // the value is out of range, or the step was already revealed.
  Status predict(TourHost& demo, const Prediction& p);
  // Measures the open step with the engine and puts the demo in the state
  // the reveal shows; works without a prediction (then nothing is scored).
  Status reveal(TourHost& demo);
  // Plays the open step's reveal animation again (refused before the reveal).
  Status replay();
  // Try again: forgets step n's prediction and reveal (its mark leaves the
  // recap) and opens it in its asking state.
  Status retry(TourHost& demo, int n);
  // Once per frame: a training reveal whose steps were asked of a training
  // Worker (app/training/live_training.h "Where it trains") is measured, and its
  // "revealed" event logged, when they have arrived.
  void tick(TourHost& demo);

  // {step, range: [first, last], error, answers: [{step, id, answer,
  // correct, reason}] (one per step predicted and revealed), steps: [{id,
  // title, question, answer: {kind, ...}, predicted, revealed, pending,
  // measured, feedback, score, correct, parts, reason}]}
  std::string state_json(std::string_view error) const;
  // Events (entered, predicted, revealed) with a sequence number above
  // `since`, as a JSON array of the postMessage objects (type
  // "headroom:tour-event"); the last kMaxEvents are kept.
  std::string events_json(int64_t since) const;
  int64_t last_event() const { return next_event_ - 1; }
  static constexpr size_t kMaxEvents = 64;

 private:
  void log(const char* event, int step, const std::string& extra);
  void enter(TourHost& demo);            // the asking state
  Status measure(TourHost& demo, bool emit, int step = 0);  // step 0: the open one
  void log_revealed(int step, const Scene& scene);  // the "revealed" event, with its xAPI statement
  int awaiting_ = 0;        // the training step whose reveal waits for the Worker's steps
  int64_t awaited_count_ = -1;  // the step count it was last measured at
  bool awaiting_emit_ = false;
  int step_ = 0, first_ = 1, last_ = kTourSteps;
  int anim_ = 0;
  std::array<TourRecord, kTourSteps> records_{};
  std::deque<std::pair<int64_t, std::string>> events_;
  int64_t next_event_ = 1;
};

}  // namespace headroom::app
