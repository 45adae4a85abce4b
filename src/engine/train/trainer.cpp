// trainer.cpp: the side-by-side training runs. See trainer.h.
//
// Index of this file
//   [SECTION] state
//   [SECTION] initial weights
//   [SECTION] held-out evaluation
//   [SECTION] one training step
//   [SECTION] public verbs
#include "trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/common/words.h"
#include "engine/core/adam.h"
#include "engine/core/attention_batch.h"
#include "engine/common/embedding.h"
#include "engine/common/random.h"
#include "history.h"
#include "engine/core/refusals.h"

namespace headroom {
namespace {

constexpr int D = kTaskDModel;
// Stream ids under the seed (task_streams / mix_seed purposes).
constexpr uint64_t kTrainPurpose = 1, kHeldOutPurpose = 2, kInitPurpose = 3;

static_assert(kHeldOutExamples % kTrainBatch == 0 && kHeldOutSubset % kTrainBatch == 0,
              "the held-out set and its subset are whole chunks");
static_assert(kHeldOutSubset <= kHeldOutExamples, "the subset is the set's first examples");
// The chunks of kTrainBatch examples the evaluation at `step` runs.
constexpr int eval_chunks(int64_t step) { return held_out_examples_at(step) / kTrainBatch; }

bool finite(const AttentionGrads& g) {
  for (size_t h = 0; h < g.wq.size(); ++h)
    if (!g.wq[h].allFinite() || !g.wk[h].allFinite() || !g.wv[h].allFinite()) return false;
  return g.wo.allFinite();
}

bool finite(const AttentionWeights& w) {
  for (size_t h = 0; h < w.wq.size(); ++h)
    if (!w.wq[h].allFinite() || !w.wk[h].allFinite() || !w.wv[h].allFinite()) return false;
  return w.wo.allFinite();
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

// The learning-rate range (kMinLr .. kMaxLr), one message for reset and set_lr.
Status check_lr(float lr) {
  if (std::isfinite(lr) && lr >= kMinLr && lr <= kMaxLr) return Status::ok();
  return Status::fail(refusals::lr_range, StatusArg::number(number(lr)));
}


//-----------------------------------------------------------------------------
// [SECTION] state
//-----------------------------------------------------------------------------
struct RunWork {
  AttentionWeights w;
  AttentionWeights good;  // the weights before the current step (restored on divergence)
  bool ahead = false;     // trained in the step in progress: w is one step past step_count()
  Adam adam;
  BatchTrace trace;       // the training batch's forward / backward, then held-out chunks
  AttentionGrads grads;
  Mat dy;                 // dLoss/dY, (B*L) x T
};

struct Trainer::Impl {
  TaskBatch batch;      // the current training batch
  TaskBatch held_out;
  TaskBatch held_out_subset;  // its first kHeldOutSubset examples (the early points')
  std::vector<RunWork> runs;
  Mat xb;               // one held-out chunk of kTrainBatch examples ((B*L) x D)
  Mat y_all;            // the held-out prediction, (examples*L) x T
  std::vector<double> on;  // the evaluation in progress: summed weight on each related slot
  std::vector<EvalPoint> pending;  // per run: its evaluation of the step in progress
  std::vector<bool> has_pending;
  int64_t next_eval = 0;
  int64_t gap = kEvalGap;

  // Where the step in progress is (see trainer.h "Units"; history.h).
  using Phase = StepPhase;
  using Cursor = StepCursor;
  bool in_step = false;
  Cursor cur;
  static Cursor settle(Cursor c, const std::vector<TrainRun>& runs, bool eval_step) {
    return settle_cursor(c, runs, eval_step);
  }

  // One chunk of kTrainBatch held-out examples through the run's weights
  // (chunk 0 starts the sums); after the last chunk, the EvalPoint goes to
  // pending, or the run stops if anything is not finite. Evaluates the
  // weights after `step` steps; a non-finite or exploding held-out result
  // stops the run like a failed training step (lr names the rate of that step).
  void evaluate_chunk(const TaskConfig& cfg, int64_t step, float lr, int chunk, size_t r, TrainRun& run);
  // The whole evaluation of run r at once (reset), straight into its history.
  void evaluate(const TaskConfig& cfg, int64_t step, float lr, size_t r, TrainRun& run) {
    for (int c = 0; c < eval_chunks(step); ++c) evaluate_chunk(cfg, step, lr, c, r, run);
    if (has_pending[r]) run.history.push_back(std::move(pending[r]));
    has_pending[r] = false;
  }
  // One step of one run on `batch`; false (and run.message) if it diverged.
  // Does not count the step (run_unit does, once the step is complete for
  // the run: on an evaluation step only after its held-out check).
  bool train(int64_t step, float lr, TrainRun& run, RunWork& work);
  // Marks the run stopped at `step` (the step that failed) with the reason.
  static void stop(TrainRun& run, int64_t step, float lr, const Status& why) {
    run.diverged = true;
    run.stopped = Status::fail(refusals::run_stopped, step, StatusArg::number(number(lr)), StatusArg::refusal(why), step - 1);
  }
};

Trainer::Trainer() : impl_(std::make_unique<Impl>()) {
  const Status s = reset(kDefaultSeed, kDefaultRelations, kDefaultLr, false);
  (void)s;  // the defaults are in range
}

Trainer::~Trainer() = default;

//-----------------------------------------------------------------------------
// [SECTION] initial weights
//-----------------------------------------------------------------------------
namespace {
// W_Q, W_K, W_V, W_O as D x D, each uniform(-1/sqrt(D), 1/sqrt(D)), drawn in
// that order, row-major, from Rng{mix_seed(seed, kInitPurpose)}; head h of H
// takes columns h*dh .. of the first three; a tied run (tie_qk) takes W_Q's
// columns for W_K too.
AttentionWeights initial_weights(int64_t seed, int heads, bool tie_qk) {
  prng::Rng rng{prng::mix_seed(static_cast<uint64_t>(seed), kInitPurpose)};
  const double a = 1.0 / std::sqrt(static_cast<double>(D));
  Mat full[4];
  for (Mat& m : full) {
    m.resize(D, D);
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) m(i, j) = static_cast<float>(a * (2.0 * rng.uniform() - 1.0));
  }
  AttentionWeights w;
  w.d_model = D;
  w.heads = heads;
  const int dh = D / heads;
  for (int h = 0; h < heads; ++h) {
    w.wq.push_back(full[0].middleCols(h * dh, dh));
    w.wk.push_back((tie_qk ? full[0] : full[1]).middleCols(h * dh, dh));
    w.wv.push_back(full[2].middleCols(h * dh, dh));
  }
  w.wo = full[3];
  return w;
}
}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] held-out evaluation
//-----------------------------------------------------------------------------
// kTrainBatch examples at a time through forward_batch(); the query rows'
// attention weights on their related tokens are averaged over the set: the
// whole held-out set, or before kFullEvalFrom its fixed first examples
// (held_out_subset: generated as examples 0 .. kHeldOutSubset - 1 of the same
// streams, so the same examples as the set's first ones; trainer.h "What a
// point is measured on"). The sums run chunk by chunk in the same order
// however the chunks are spread over frames, so the result is the same bit
// for bit.
void Trainer::Impl::evaluate_chunk(const TaskConfig& cfg, int64_t step, float lr, int chunk, size_t r,
                                   TrainRun& run) {
  const int chunks = eval_chunks(step);
  const TaskBatch& set = step < kFullEvalFrom ? held_out_subset : held_out;
  RunWork& work = runs[r];
  const int L = cfg.tokens, R = cfg.relations, H = run.heads, B = kTrainBatch;
  const Eigen::Index chunk_rows = static_cast<Eigen::Index>(B) * L;
  if (chunk == 0) {
    y_all.resize(set.x.rows(), kTaskOutputDims);
    on.assign(static_cast<size_t>(H * R), 0.0);
  }
  const Eigen::Index row0 = chunk * chunk_rows;
  xb = set.x.middleRows(row0, chunk_rows);
  const Status s = forward_batch(xb, B, work.w, work.trace, default_backend());
  (void)s;  // shapes are right by construction
  y_all.middleRows(row0, chunk_rows) = work.trace.out;
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < L; ++i) {
      const Eigen::Index row = row0 + static_cast<Eigen::Index>(b) * L + i;
      if (set.mask[static_cast<size_t>(row)] == 0.f) continue;
      for (int h = 0; h < H; ++h) {
        const auto P = work.trace.weights(b, h);
        for (int k = 0; k < R; ++k)
          on[static_cast<size_t>(h * R + k)] += P(i, set.related[static_cast<size_t>(row * R + k)]);
      }
    }
  if (chunk + 1 < chunks) return;
  EvalPoint p;
  p.step = step;
  p.loss = task_loss(set, y_all);
  p.weight_on.assign(on.size(), 0.f);
  bool ok = std::isfinite(p.loss) && p.loss <= kDivergeLoss;
  for (size_t j = 0; j < on.size(); ++j) {
    p.weight_on[j] = static_cast<float>(on[j] / set.masked);
    ok = ok && std::isfinite(p.weight_on[j]);
  }
  if (!ok) {  // the step's own checks passed, but the held-out set blows up
    if (step > 0) {  // undo that step (it was never counted in run.steps)
      work.w = work.good;
      work.ahead = false;
    }
    stop(run, step, lr, Status::fail(refusals::held_out_diverged, StatusArg::number(number(kDivergeLoss))));
    return;
  }
  pending[r] = std::move(p);
  has_pending[r] = true;
}

//-----------------------------------------------------------------------------
// [SECTION] one training step
//-----------------------------------------------------------------------------
// forward, loss and dY, backward, then checks before Adam moves anything:
// a non-finite or exploding loss, or a non-finite gradient, stops the run
// with its current weights; non-finite weights after the step (not expected
// with finite gradients, checked anyway) restore the previous ones.
bool Trainer::Impl::train(int64_t step, float lr, TrainRun& run, RunWork& work) {
  const Backend backend = default_backend();
  auto stop = [&](const Status& why) {
    Impl::stop(run, step, lr, why);
    return false;
  };
  Status s = forward_batch(batch.x, batch.examples, work.w, work.trace, backend);
  (void)s;  // shapes are right by construction
  const float loss = task_loss(batch, work.trace.out, &work.dy);
  if (!std::isfinite(loss)) return stop(Status::fail(refusals::loss_not_finite));
  if (loss > kDivergeLoss)
    return stop(Status::fail(refusals::loss_reached, StatusArg::number(number(loss)), StatusArg::number(number(kDivergeLoss))));
  s = backward_batch(batch.x, batch.examples, work.w, work.trace, work.dy, work.grads, backend);
  if (run.tie_qk) tie_query_key_grads(work.grads);
  if (!finite(work.grads)) return stop(Status::fail(refusals::gradient_not_finite));
  work.good = work.w;
  work.adam.step(work.w, work.grads);
  if (!finite(work.w)) {
    work.w = work.good;
    return stop(Status::fail(refusals::weight_not_finite));
  }
  work.ahead = true;
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] public verbs
//-----------------------------------------------------------------------------
Status check_train_settings(int64_t seed, int r, float lr) {
  if (seed < 0 || seed > kMaxSeed)
    return Status::fail(refusals::seed_range, kMaxSeed, seed);
  if (std::find(kTrainRelations.begin(), kTrainRelations.end(), r) == kTrainRelations.end()) {
    std::vector<std::string> choices;
    for (int c : kTrainRelations) choices.push_back(std::to_string(c));
    return Status::fail(refusals::r_choice, StatusArg::list(choices, " or "), r);
  }
  return check_lr(lr);
}

Status check_train_steps(int n) {
  if (n < 1 || n > kMaxStepsPerCall)
    return Status::fail(refusals::step_count, kMaxStepsPerCall, n);
  return Status::ok();
}

Status check_run_share(RunShare share) {
  if (share.parts < 1 || share.parts > kMaxRunShares || share.part < 0 || share.part >= share.parts)
    return Status::fail(refusals::run_share, share.part, share.parts, kMaxRunShares);
  return Status::ok();
}

Status Trainer::set_share(RunShare share) {
  if (Status ok = check_run_share(share); !ok) return ok;
  share_ = share;
  return Status::ok();
}

Status Trainer::reset(int64_t seed, int r, float lr, bool tie_qk) {
  if (Status ok = check_train_settings(seed, r, lr); !ok) return ok;

  TaskConfig cfg;
  cfg.relations = r;
  cfg.tokens = kTrainTokens;
  cfg.queries = kTrainQueries;
  Impl& m = *impl_;
  const Status s = generate_task_batch(cfg, task_streams(static_cast<uint64_t>(seed), kHeldOutPurpose), 0,
                                       kHeldOutExamples, m.held_out);
  if (!s) return s;
  // The subset's examples are the set's first ones (an example depends only
  // on the streams and its index: train_task.h); on R = 4 the same pairing
  // draws, so it cannot fail where the set did not.
  const Status sub = generate_task_batch(cfg, task_streams(static_cast<uint64_t>(seed), kHeldOutPurpose), 0,
                                         kHeldOutSubset, m.held_out_subset);
  if (!sub) return sub;
  cfg_ = cfg;
  seed_ = seed;
  lr_ = lr;
  tie_qk_ = tie_qk;
  step_ = 0;
  step_lr_ = lr;
  m.gap = kEvalGap;
  m.in_step = false;
  m.cur = Impl::Cursor{};
  m.runs.clear();
  runs_.clear();
  int index = 0;  // in the full list of runs (see "Shares")
  for (int tied = 0; tied <= (tie_qk ? 1 : 0); ++tied)
    for (int heads : kTrainHeads) {
      if (index++ % share_.parts != share_.part) continue;
      RunWork work;
      work.w = initial_weights(seed, heads, tied == 1);
      const Status lr_ok = work.adam.set_lr(lr);
      (void)lr_ok;  // lr was checked above
      m.runs.push_back(std::move(work));
      TrainRun run;
      run.heads = heads;
      run.tie_qk = tied == 1;
      run.floor = 1.f - static_cast<float>(std::min(heads, r)) / static_cast<float>(r);
      runs_.push_back(std::move(run));
    }
  m.pending.assign(runs_.size(), EvalPoint{});
  m.has_pending.assign(runs_.size(), false);
  for (size_t i = 0; i < runs_.size(); ++i) m.evaluate(cfg_, 0, lr, i, runs_[i]);
  m.next_eval = 1;
  return Status::ok();
}

Status Trainer::set_lr(float lr) {
  if (Status ok = check_lr(lr); !ok) return ok;
  lr_ = lr;  // Adam takes it when the next step begins (run_unit)
  return Status::ok();
}

void thin_history(std::vector<EvalPoint>& history) { thin_points(history); }

Status Trainer::step(int n) {
  if (Status ok = check_train_steps(n); !ok) return ok;
  for (int i = 0; i < n; ++i)
    while (!run_unit()) {
    }
  return Status::ok();
}

bool Trainer::mid_step() const { return impl_->in_step; }

TrainUnit Trainer::next_unit() const {
  const Impl& m = *impl_;
  const Impl::Cursor c = Impl::settle(m.in_step ? m.cur : Impl::Cursor{}, runs_, step_ + 1 >= m.next_eval);
  switch (c.phase) {
    case Impl::Phase::kTrain: return TrainUnit::kTrain;
    case Impl::Phase::kEval: return TrainUnit::kEval;
    default: return TrainUnit::kNone;
  }
}

bool Trainer::run_unit() {
  Impl& m = *impl_;
  const bool eval_step = step_ + 1 >= m.next_eval;
  if (!m.in_step) {  // the step's batch and rate
    const Status s = generate_task_batch(cfg_, task_streams(static_cast<uint64_t>(seed_), kTrainPurpose),
                                         step_ * kTrainBatch, kTrainBatch, m.batch);
    (void)s;  // cfg_ was checked at reset
    step_lr_ = lr_;
    for (RunWork& work : m.runs) {
      const Status ok = work.adam.set_lr(lr_);
      (void)ok;  // checked by reset / set_lr
      work.ahead = false;
    }
    m.in_step = true;
    m.cur = Impl::Cursor{};
  }
  Impl::Cursor& c = m.cur;
  c = Impl::settle(c, runs_, eval_step);
  // A run's step counts once the step is complete for that run: after its
  // training unit, or on an evaluation step after its held-out check (which
  // may still undo the step), so TrainRun::steps never goes back.
  if (c.phase == Impl::Phase::kTrain) {
    TrainRun& run = runs_[c.run];
    if (m.train(step_ + 1, step_lr_, run, m.runs[c.run]) && !eval_step) ++run.steps;
    ++c.run;
  } else if (c.phase == Impl::Phase::kEval) {
    TrainRun& run = runs_[c.run];
    m.evaluate_chunk(cfg_, step_ + 1, step_lr_, c.chunk, c.run, run);
    if (++c.chunk == eval_chunks(step_ + 1)) {
      if (!run.diverged) ++run.steps;
      c.chunk = 0;
      ++c.run;
    }
  }
  c = Impl::settle(c, runs_, eval_step);
  if (c.phase != Impl::Phase::kDone) return false;

  // The step is complete: its points join the histories, the counter moves.
  m.in_step = false;
  ++step_;
  if (!eval_step) return true;
  for (size_t r = 0; r < runs_.size(); ++r)
    if (m.has_pending[r]) {
      runs_[r].history.push_back(std::move(m.pending[r]));
      m.has_pending[r] = false;
    }
  m.next_eval = next_eval_step(step_, m.gap);
  bool thinned = false;
  for (TrainRun& run : runs_) {
    if (static_cast<int>(run.history.size()) <= kMaxHistory) continue;
    thin_history(run.history);
    thinned = true;
  }
  if (thinned) m.gap *= 2;
  return true;
}

const TrainRun* Trainer::run(int heads, bool tied) const {
  for (const TrainRun& r : runs_)
    if (r.heads == heads && r.tie_qk == tied) return &r;
  return nullptr;
}

const AttentionWeights* Trainer::weights(int heads, bool tied) const {
  for (size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].heads == heads && runs_[i].tie_qk == tied) return &impl_->runs[i].w;
  return nullptr;
}

Status Trainer::snapshot(int heads, bool tied, TrainSnapshot& out) const {
  const AttentionWeights* w = weights(heads, tied);
  if (!w) {
    if (tied && !tie_qk_) return Status::fail(refusals::no_tied_runs);
    return Status::fail(tied ? refusals::no_tied_run : refusals::no_run, heads);
  }
  // The batch of the run's next step (one further for a run already trained
  // in the step in progress, counted or not yet: see run_unit), and this
  // run's loss and gradients on it.
  const size_t i = static_cast<size_t>(run(heads, tied) - runs_.data());
  const int64_t at = step_ + (impl_->in_step && impl_->runs[i].ahead ? 1 : 0);
  TaskBatch batch;
  Status s = generate_task_batch(cfg_, task_streams(static_cast<uint64_t>(seed_), kTrainPurpose),
                                 at * kTrainBatch, kTrainBatch, batch);
  if (!s) return s;
  BatchTrace trace;
  AttentionGrads grads;
  Mat dy;
  const Backend backend = default_backend();
  if (s = forward_batch(batch.x, batch.examples, *w, trace, backend); !s) return s;
  const float loss = task_loss(batch, trace.out, &dy);
  if (s = backward_batch(batch.x, batch.examples, *w, trace, dy, grads, backend); !s) return s;
  if (tied) tie_query_key_grads(grads);
  if (!std::isfinite(loss) || !finite(grads))
    return Status::fail(refusals::run_not_finite, heads);

  out.heads = heads;
  out.tie_qk = tied;
  out.step = at;
  out.seed = seed_;
  out.relations = cfg_.relations;
  out.batch = batch.examples;
  out.tokens = cfg_.tokens;
  out.d_model = kTaskDModel;
  out.outputs = kTaskOutputDims;
  out.x = std::move(batch.x);
  out.target = std::move(batch.target);
  out.mask = std::move(batch.mask);
  out.wq = join_heads(w->wq);
  out.wk = join_heads(w->wk);
  out.wv = join_heads(w->wv);
  out.wo = w->wo;
  out.loss_scale = task_loss_scale(cfg_);
  out.loss = loss;
  out.gq = join_heads(grads.wq);
  out.gk = tied ? Mat() : join_heads(grads.wk);
  out.gv = join_heads(grads.wv);
  out.go = grads.wo;
  return Status::ok();
}

}  // namespace headroom
