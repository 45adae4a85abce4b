// trainer.h: training runs side by side, one per head count, on the task of
// train_task.h.
//
// Does: keep one run per head count H in kTrainHeads = {1, 2, 4} (and, when
// reset with tie_qk, a second, TIED run per head count after them), each the
// engine's multi-head attention (D = 128, d_head = D / H, no MLP, no readout:
// the prediction is Y), its own weights and its own Adam, all trained on the
// same batches from the same seed. Per run it measures the held-out loss, the
// floor 1 - min(H, R) / R, and per head the held-out average attention weight
// the query puts on each related token; it catches divergence; it hands out a
// snapshot anyone can recompute with numpy.
// Does not: run a clock or a frame loop (the app calls step(n), or run_unit()
// as many times as fit in its frame), serialise
// JSON (src/app does), or let a NaN or Inf out: every number it returns is
// finite.
//
// Determinism: the same seed (and the same lr calls between the same steps)
// gives the same weights and loss curves bit for bit on the same build,
// however step(n) and run_unit() calls are chunked.
//
// Units (what a frame can afford; a whole step of three runs plus an
// evaluation is 10-85 ms in a loaded browser): one step is, in this order,
// each run's training step (kTrain, run 1, 2, 4 heads in turn), then, when the
// step is an evaluation step, each run's held-out evaluation in
// held_out_examples_at(step) / kTrainBatch chunks of kTrainBatch examples (kEval, run by
// run, chunk by chunk), so a run is evaluated with the weights of the step the
// point is recorded at, before its next training step. step_count(), the
// history and next_eval advance only when the step's last unit is done; in
// between, weights(h) of a run already trained are one step ahead. A run's
// TrainRun::steps counts the step once it is complete for that run: right
// after its training unit, or on an evaluation step only after its held-out
// check passed (that check can still undo the step), so it never goes back
// except on reset. The learning rate of a step is the one set when its first unit
// ran (set_lr mid-step applies from the next step). step(n) first finishes a
// step in progress (that counts as one of the n).
//
// Tied query and key (reset's tie_qk): the runs are listed untied 1, 2, 4,
// then tied 1, 2, 4; a tied run's key projection IS its query projection (one
// matrix per head, W_K = W_Q at every step, its gradient dW_Q + dW_K:
// attention_batch.h's tie_query_key_grads), so its scores are symmetric,
// score(i -> j) = score(j -> i). It starts from the untied runs' W_Q, W_V and
// W_O (W_K := W_Q) and trains on the same batches.
//
// Initial weights: W_Q, W_K, W_V, W_O drawn as D x D matrices, uniform in
// (-1/sqrt(D), 1/sqrt(D)), from the seed; every run starts from the same four
// matrices, heads taking column blocks of D / H. Adam: betas 0.9 / 0.999,
// eps 1e-8, bias-corrected.
//
// Batches: step s (counting from 0) trains on examples s*B .. s*B + B - 1 of
// the seed's training streams (B = kTrainBatch, L = kTrainTokens, each example
// with kTrainQueries query tokens: the masked rows). The held-out set is
// kHeldOutExamples examples of a disjoint stream, generated at reset.
// What the runs reach against their floors is checked by
// tests/engine/trainer_tests.cpp; measured losses belong in the notes and
// benchmarks (tests/bench/bench_train.cpp), not here.
//
// Held-out evaluation schedule (the "history"): after reset (step 0) and then
// whenever the step counter reaches the next evaluation step, next =
// min(step + gap, max(step + 1, floor(step * 5 / 4))), gap starting at
// kEvalGap; so steps 1..8 are all evaluated, then about every 25% more steps
// (log-spaced, as the chart's log axis wants), then every `gap` steps. The
// history holds at most kMaxHistory points: when full, every second point
// after the first is dropped and gap doubles. `loss` is the latest evaluation.
//
// What a point is measured on (held_out_examples_at): a point at a step
// before kFullEvalFrom is measured on the held-out set's first
// kHeldOutSubset examples, a point from kFullEvalFrom on on all
// kHeldOutExamples. Early on the schedule evaluates nearly every step (19 of
// the first 80), and a full evaluation of the three runs costs about four
// runs' training steps, so early training would spend most of its time
// measuring; the subset costs a quarter of that. Past kFullEvalFrom points
// are at least 25 steps apart and the full set costs under 6% of the time.
// The curve keeps one meaning: the held-out examples are drawn independently
// from one distribution, the subset is fixed (the same examples at every
// early point, chosen before training, never by their loss), and it is
// normalised like the full set (per query row), so an early point is an
// unbiased estimate of the same expected held-out loss the later points
// measure, only noisier (a quarter of the rows). Points on the subset move
// together (the same examples every time), so the early curve's shape is
// not noise between points. weightOn is measured on the same examples.
//
// Divergence: before applying a step a run checks its training-batch loss and
// gradients; a non-finite value or a loss above kDivergeLoss (predicting zero
// scores 1) stops that run with a message naming the step and the lr. On an
// evaluation step the held-out loss is checked too, after the step: if it is
// not finite or above kDivergeLoss the step is undone and the run stops the
// same way. Its weights stay those of the last good step, TrainRun::steps
// counts the good steps; the other runs go on; reset recovers.
//
// Shares (set_share): the runs never read each other (each its own weights
// and Adam; the batches and the held-out set come from the seed alone), so
// they can train in several programs at once, each Trainer holding a share
// of them: run i of the full list (untied 1, 2, 4, then tied 1, 2, 4)
// belongs to part i % parts. A run trained in a share follows the same
// curve bit for bit as in a Trainer with every run (trainer_tests checks);
// the step counter, schedule and batches are the same in every part.
//
// Shape letters as in tensor.h (B, L, D, T, R, H); D = T = 128.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "head_scores.h"
#include "engine/core/attention.h"
#include "engine/core/status.h"
#include "engine/core/tensor.h"
#include "train_task.h"

namespace headroom {

constexpr std::array<int, 3> kTrainHeads = {1, 2, 4};
constexpr int kTrainBatch = 32;          // B
constexpr int kTrainTokens = 12;         // L
constexpr int kTrainQueries = 10;        // query tokens per example (masked rows); R = 4 allows L - 2
constexpr int kHeldOutExamples = 128;    // x kTrainQueries = 1280 held-out query rows
constexpr int kHeldOutSubset = 32;       // the early points' examples: the set's first ones (one chunk)
constexpr int64_t kFullEvalFrom = 100;   // points from this step on use the whole held-out set
constexpr int kEvalGap = 50;             // initial cap on steps between evaluations
constexpr int kMaxHistory = 512;
constexpr float kDivergeLoss = 100.f;

// Documented ranges, checked by reset / set_lr / step.
constexpr int64_t kMaxSeed = 4294967295;  // seeds are 0 .. 2^32 - 1
constexpr float kMinLr = 1e-6f, kMaxLr = 10.f;
constexpr const char* kLrRangeText = "1e-6 to 10";  // kMinLr to kMaxLr, as messages say it (trainer_tests checks)
constexpr std::array<int, 2> kTrainRelations = {2, 4};  // the task's R choices
constexpr int kMaxStepsPerCall = 10000;   // step(n): 1 .. kMaxStepsPerCall
constexpr int kMaxRunShares = static_cast<int>(kTrainHeads.size());  // parts: every part has a run
constexpr float kDefaultLr = 1e-2f;
constexpr int64_t kDefaultSeed = 1;
constexpr int kDefaultRelations = 2;

// The checks reset, set_lr and step(n) make, with their messages, for a
// caller that validates before it hands the call on (the app, when the runs
// train in another program).
Status check_train_settings(int64_t seed, int r, float lr);
Status check_lr(float lr);
Status check_train_steps(int n);

// How many held-out examples the point at `step` is measured on (see "What
// a point is measured on"): the first kHeldOutSubset before kFullEvalFrom,
// else all kHeldOutExamples.
constexpr int held_out_examples_at(int64_t step) {
  return step < kFullEvalFrom ? kHeldOutSubset : kHeldOutExamples;
}

// One held-out evaluation.
struct EvalPoint {
  int64_t step = 0;
  float loss = 0.f;                // held-out task loss
  std::vector<float> weight_on;    // H x R, head-major: head h's average weight on slot r
};

// One run's state, as the app reads it. Every float is finite.
struct TrainRun {
  int heads = 0;
  bool tie_qk = false;             // W_K = W_Q (see "Tied query and key")
  float floor = 0.f;               // 1 - min(H, R) / R
  int64_t steps = 0;               // steps this run has completed (see "Units"); never goes
                                   // back but on reset, stops growing if diverged
  std::vector<EvalPoint> history;  // see the schedule above; never empty after reset
  bool diverged = false;
  Status stopped;                  // why it stopped (refusals::run_stopped), ok while healthy
  std::vector<HeadSlot> per_head;  // the text task's measured heads (head_scores.h); empty for the roles task

  const EvalPoint& latest() const { return history.back(); }
  float loss() const { return history.back().loss; }
  // Head h's average weight on slot r at the latest evaluation.
  float weight_on(int h, int r, int relations) const {
    return history.back().weight_on[static_cast<size_t>(h * relations + r)];
  }
};

// Everything needed to check one step with numpy (the app writes it as JSON,
// row-major). The batch is the one the run's NEXT step trains on; loss and
// grads are of the current weights on it, before that step is applied. `step`
// is the step those weights are at: step_count(), or one more for a run
// already trained in a step in progress (see "Units").
struct TrainSnapshot {
  int heads = 0;
  bool tie_qk = false;               // a tied run: wk equals wq, gq is the shared
                                     // matrix's gradient dW_Q + dW_K, gk is empty
  int64_t step = 0, seed = 0;
  int relations = 0;                 // R
  int batch = 0, tokens = 0, d_model = 0, outputs = 0;  // B, L, D, T
  Mat x;                             // (B*L) x D     -> X [B, L, D]
  Mat target;                        // (B*L) x T     -> target [B, L, T]; no readout W_R: T = D, the prediction is Y
  std::vector<float> mask;           // B*L of 0 / 1  -> mask [B, L]
  Mat wq, wk, wv, wo;                // D x D; head h owns columns h*dh .. (h+1)*dh - 1
                                     // of W_Q, W_K, W_V and rows h*dh.. of W_O
  float loss_scale = 0.f;            // R / T
  float loss = 0.f;                  // task loss of these weights on this batch
  Mat gq, gk, gv, go;                // dLoss/dW, D x D each, same layout as the weights
};

// The history's thinning: keeps the first point, every second one after it
// and the last (513 points -> 258). Trainer::step applies it when a run's
// history grows past kMaxHistory, and doubles its evaluation gap.
void thin_history(std::vector<EvalPoint>& history);

// Which runs a Trainer holds (see "Shares"): part `part` of `parts`.
struct RunShare {
  int part = 0;
  int parts = 1;
};
// Whether `share` names a part (1 <= parts <= kMaxRunShares, 0 <= part < parts).
Status check_run_share(RunShare share);

// The kind of the next unit of work (see "Units" above).
enum class TrainUnit { kTrain, kEval, kNone };

class Trainer {
 public:
  Trainer();  // reset(kDefaultSeed, kDefaultRelations, kDefaultLr, false)
  ~Trainer();
  Trainer(const Trainer&) = delete;
  Trainer& operator=(const Trainer&) = delete;

  // Starts every run afresh from `seed` (0 .. kMaxSeed) with R = r (2 or 4)
  // and learning rate lr (kMinLr .. kMaxLr), with tied runs beside the untied
  // ones when tie_qk; evaluates step 0. On a bad value returns why and
  // changes nothing.
  Status reset(int64_t seed, int r, float lr, bool tie_qk = false);
  // The share of the runs the next reset() holds (see "Shares"); refuses a
  // share that names no part, keeping the previous one. The runs held now
  // stay until that reset.
  Status set_share(RunShare share);
  RunShare share() const { return share_; }
  // Learning rate for the following steps (kMinLr .. kMaxLr); keeps the
  // previous one on error.
  Status set_lr(float lr);
  // n steps (1 .. kMaxStepsPerCall) of every run that has not diverged.
  // Refuses a bad n with nothing changed. A run that diverges is not an error
  // of the call: see TrainRun::diverged.
  Status step(int n);
  // The next unit run_unit() would do: kTrain or kEval, kNone when every run
  // has diverged (run_unit() then only closes the step, training nothing).
  TrainUnit next_unit() const;
  // Runs one unit; returns true when it completed a step (step_count() went
  // up by one). Never fails: a diverging run stops as in step().
  bool run_unit();
  // Whether a step has begun and not ended (some of its units are done).
  bool mid_step() const;

  int64_t seed() const { return seed_; }
  int relations() const { return cfg_.relations; }
  bool tie_qk() const { return tie_qk_; }
  float lr() const { return lr_; }
  int64_t step_count() const { return step_; }
  const std::vector<TrainRun>& runs() const { return runs_; }
  // The run with `heads` heads (tied or not), or nullptr if there is none.
  const TrainRun* run(int heads, bool tied = false) const;
  // The trained weights of that run (nullptr if none): to drive the scene's views.
  const AttentionWeights* weights(int heads, bool tied = false) const;

  // Fills `out` for the run with `heads` heads, tied or not (see
  // TrainSnapshot); refuses a run that does not exist.
  Status snapshot(int heads, TrainSnapshot& out) const { return snapshot(heads, false, out); }
  Status snapshot(int heads, bool tied, TrainSnapshot& out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  TaskConfig cfg_;
  int64_t seed_ = kDefaultSeed;
  float lr_ = kDefaultLr;
  bool tie_qk_ = false;
  RunShare share_;
  float step_lr_ = kDefaultLr;  // the rate of the step in progress
  int64_t step_ = 0;
  std::vector<TrainRun> runs_;
};

}  // namespace headroom
