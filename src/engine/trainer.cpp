// trainer.cpp: the side-by-side training runs. See trainer.h.
//
// Index of this file
//   [SECTION] state
//   [SECTION] initial weights
//   [SECTION] held-out evaluation
//   [SECTION] public verbs
#include "trainer.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "embedding.h"

namespace headroom {
namespace {

constexpr int D = kTaskDModel;
// Stream ids under the seed (task_streams / mix_seed purposes).
constexpr uint64_t kHeldOutPurpose = 2, kInitPurpose = 3;  // training batches: purpose 1

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] state
//-----------------------------------------------------------------------------
struct RunWork {
  AttentionWeights w;
  Trace trace;  // held-out forward, one example at a time
};

struct Trainer::Impl {
  TaskBatch held_out;
  std::vector<RunWork> runs;
  Mat xb, yb;    // one held-out example (L x D) and the held-out prediction
  Mat y_all;     // (examples*L) x T
  int64_t next_eval = 0;
  int64_t gap = kEvalGap;

  // Runs every held-out example through the run's weights; appends an
  // EvalPoint, or stops the run if anything is not finite.
  void evaluate(const TaskConfig& cfg, int64_t step, TrainRun& run, RunWork& work);
};

Trainer::Trainer() : impl_(std::make_unique<Impl>()) {
  const Status s = reset(kDefaultSeed, kDefaultRelations, kDefaultLr);
  (void)s;  // the defaults are in range
}

Trainer::~Trainer() = default;

//-----------------------------------------------------------------------------
// [SECTION] initial weights
//-----------------------------------------------------------------------------
namespace {
// W_Q, W_K, W_V, W_O as D x D, each uniform(-1/sqrt(D), 1/sqrt(D)), drawn in
// that order, row-major, from Rng{mix_seed(seed, kInitPurpose)}; head h of H
// takes columns h*dh .. of the first three.
AttentionWeights initial_weights(int64_t seed, int heads) {
  embed::Rng rng{embed::mix_seed(static_cast<uint64_t>(seed), kInitPurpose)};
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
    w.wk.push_back(full[1].middleCols(h * dh, dh));
    w.wv.push_back(full[2].middleCols(h * dh, dh));
  }
  w.wo = full[3];
  return w;
}
}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] held-out evaluation
//-----------------------------------------------------------------------------
// One example at a time through forward(); the query rows' attention
// weights on their related tokens are averaged over the set.
void Trainer::Impl::evaluate(const TaskConfig& cfg, int64_t step, TrainRun& run, RunWork& work) {
  Impl& m = *this;
  const TaskBatch& set = m.held_out;
  const int L = cfg.tokens, R = cfg.relations, H = run.heads;
  m.y_all.resize(set.x.rows(), kTaskOutputDims);
  EvalPoint p;
  p.step = step;
  p.weight_on.assign(static_cast<size_t>(H * R), 0.f);
  std::vector<double> on(static_cast<size_t>(H * R), 0.0);
  ForwardOptions opt;
  opt.backend = default_backend();
  for (int b = 0; b < set.examples; ++b) {
    const Eigen::Index row0 = static_cast<Eigen::Index>(b) * L;
    m.xb = set.x.middleRows(row0, L);
    const Status s = forward(m.xb, work.w, work.trace, opt);
    (void)s;  // shapes are right by construction
    m.y_all.middleRows(row0, L) = work.trace.out;
    for (int i = 0; i < L; ++i) {
      if (set.mask[static_cast<size_t>(row0 + i)] == 0.f) continue;
      for (int h = 0; h < H; ++h)
        for (int r = 0; r < R; ++r) {
          const int t = set.related[static_cast<size_t>((row0 + i) * R + r)];
          on[static_cast<size_t>(h * R + r)] += work.trace.heads[static_cast<size_t>(h)].weights(i, t);
        }
    }
  }
  p.loss = task_loss(set, m.y_all);
  bool finite = std::isfinite(p.loss);
  for (size_t j = 0; j < on.size(); ++j) {
    p.weight_on[j] = static_cast<float>(on[j] / set.masked);
    finite = finite && std::isfinite(p.weight_on[j]);
  }
  if (!finite) {
    run.diverged = true;
    run.message = "the held-out loss is not finite at step " + std::to_string(step);
    return;
  }
  run.history.push_back(std::move(p));
}


//-----------------------------------------------------------------------------
// [SECTION] public verbs
//-----------------------------------------------------------------------------
Status Trainer::reset(int64_t seed, int r, float lr) {
  if (seed < 0 || seed > kMaxSeed)
    return Status::fail("seed must be a whole number from 0 to " + std::to_string(kMaxSeed) + ", got " +
                        std::to_string(seed));
  if (r != 2 && r != 4) return Status::fail("r must be 2 or 4 related tokens, got " + std::to_string(r));
  if (!std::isfinite(lr) || lr < kMinLr || lr > kMaxLr)
    return Status::fail("the learning rate must be from 1e-6 to 10, got " + std::to_string(lr));

  TaskConfig cfg;
  cfg.relations = r;
  cfg.tokens = kTrainTokens;
  Impl& m = *impl_;
  const Status s = generate_task_batch(cfg, task_streams(static_cast<uint64_t>(seed), kHeldOutPurpose), 0,
                                       kHeldOutExamples, m.held_out);
  if (!s) return s;
  cfg_ = cfg;
  seed_ = seed;
  lr_ = lr;
  step_ = 0;
  m.gap = kEvalGap;
  m.runs.clear();
  runs_.clear();
  for (int heads : kTrainHeads) {
    RunWork work;
    work.w = initial_weights(seed, heads);
    m.runs.push_back(std::move(work));
    TrainRun run;
    run.heads = heads;
    run.floor = 1.f - static_cast<float>(std::min(heads, r)) / static_cast<float>(r);
    runs_.push_back(std::move(run));
  }
  for (size_t i = 0; i < runs_.size(); ++i) m.evaluate(cfg_, 0, runs_[i], m.runs[i]);
  m.next_eval = 1;
  return Status::ok();
}

Status Trainer::set_lr(float lr) {
  if (!std::isfinite(lr) || lr < kMinLr || lr > kMaxLr)
    return Status::fail("the learning rate must be from 1e-6 to 10, got " + std::to_string(lr));
  lr_ = lr;
  return Status::ok();
}

Status Trainer::step(int n) {
  if (n < 1 || n > kMaxStepsPerCall)
    return Status::fail("step(n) takes n from 1 to " + std::to_string(kMaxStepsPerCall) + ", got " +
                        std::to_string(n));
  return Status::fail("training steps need the backward pass (src/engine/backward.h), not in this build yet");
}

const TrainRun* Trainer::run(int heads) const {
  for (const TrainRun& r : runs_)
    if (r.heads == heads) return &r;
  return nullptr;
}

const AttentionWeights* Trainer::weights(int heads) const {
  for (size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].heads == heads) return &impl_->runs[i].w;
  return nullptr;
}

Status Trainer::snapshot(int heads, TrainSnapshot& out) const {
  if (!run(heads)) return Status::fail("no training run has " + std::to_string(heads) + " heads (runs: 1, 2, 4)");
  return Status::fail("snapshots need the backward pass (src/engine/backward.h), not in this build yet");
}

}  // namespace headroom
