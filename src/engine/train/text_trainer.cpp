// text_trainer.cpp: the side-by-side text model runs. See text_trainer.h.
//
// Index of this file
//   [SECTION] configuration and windows
//   [SECTION] state
//   [SECTION] one training step, one held-out chunk
//   [SECTION] public verbs
#include "text_trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/common/random.h"
#include "engine/core/adam.h"
#include "history.h"
#include "engine/core/refusals.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] configuration and windows
//-----------------------------------------------------------------------------
namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Windows of L + 1 tokens inside document d: count - L of them (or none).
int64_t windows_in(const CorpusDocument& d, int L) { return d.count > L ? d.count - L : 0; }

int64_t held_out_window_count(const TextCorpus& c, int L) {
  int64_t n = 0;
  for (const CorpusDocument& d : c.documents) n += d.held_out ? windows_in(d, L) : 0;
  return n;
}

bool all_finite(const std::vector<const Mat*>& ms) {
  for (const Mat* m : ms)
    if (!m->allFinite()) return false;
  return true;
}

}  // namespace

Status check_text_config(const TextTrainConfig& cfg, const TextCorpus& corpus) {
  if (Status s = check_train_settings(cfg.seed, kTrainRelations[0], cfg.lr); !s) return s;
  if (cfg.heads.empty() || cfg.heads.size() > 8) return Status::fail(refusals::head_count_range);
  for (size_t i = 0; i < cfg.heads.size(); ++i) {
    const TextShape shape{corpus.vocab(), cfg.d_model, cfg.tokens, cfg.heads[i], cfg.layers};
    if (Status s = check_text_shape(shape); !s) return s;
    if (std::count(cfg.heads.begin(), cfg.heads.end(), cfg.heads[i]) > 1)
      return Status::fail(refusals::head_count_twice, cfg.heads[i]);
  }
  if (cfg.batch < 1 || cfg.held_out_windows < cfg.batch || cfg.held_out_windows % cfg.batch != 0)
    return Status::fail(refusals::held_out_batches, cfg.batch);
  int64_t train = 0;
  for (const CorpusDocument& d : corpus.documents) train += d.held_out ? 0 : windows_in(d, cfg.tokens);
  if (train < 1) return Status::fail(refusals::no_training_document, cfg.tokens + 1);
  if (held_out_window_count(corpus, cfg.tokens) < 1)
    return Status::fail(refusals::no_held_out_document, cfg.tokens + 1);
  return Status::ok();
}

void text_window_batch(const TextCorpus& c, const std::vector<int>& starts, int L, std::vector<int>& ids,
                       std::vector<int>& targets) {
  ids.resize(starts.size() * static_cast<size_t>(L));
  targets.resize(ids.size());
  for (size_t b = 0; b < starts.size(); ++b)
    for (int i = 0; i < L; ++i) {
      ids[b * L + i] = c.ids[static_cast<size_t>(starts[b] + i)];
      targets[b * L + i] = c.ids[static_cast<size_t>(starts[b] + i + 1)];
    }
}

void TextTrainer::train_windows(int64_t s, std::vector<int>& starts) const {
  starts.clear();
  if (!corpus_) return;
  prng::Rng rng{prng::mix_seed(static_cast<uint64_t>(cfg_.seed), kTextTrainPurpose, static_cast<uint64_t>(s))};
  const int64_t total = train_cumulative_.back();
  const auto& docs = corpus_->documents;
  for (int b = 0; b < cfg_.batch; ++b) {
    // uniform over every training window: a 53-bit uniform times the count
    const int64_t k = std::min<int64_t>(total - 1, static_cast<int64_t>(rng.uniform() * static_cast<double>(total)));
    const size_t d = static_cast<size_t>(std::upper_bound(train_cumulative_.begin(), train_cumulative_.end(), k) -
                                         train_cumulative_.begin()) - 1;
    starts.push_back(docs[d].first + static_cast<int>(k - train_cumulative_[d]));
  }
}

//-----------------------------------------------------------------------------
// [SECTION] state
//-----------------------------------------------------------------------------
struct TextRunWork {
  TextParams p, good;  // good: before the step in progress (restored if Adam makes a non-finite weight)
  TextGrads g;
  AdamList adam;
};

// One evaluation's running sums: the held-out loss's and every head slot's scores.
struct EvalSums {
  double sum = 0;
  int64_t scored = 0;
  std::vector<HeadScoreSums> heads;

  void clear(size_t slots) {
    sum = 0, scored = 0;
    heads.assign(slots, HeadScoreSums{});
  }
  float loss() const { return static_cast<float>(sum / static_cast<double>(scored)); }
};

struct TextTrainer::Impl {
  std::vector<TextRunWork> runs;
  TextWork work;                     // shared: the runs take turns
  std::vector<int> ids, targets;     // the step's batch
  std::vector<int> ho_ids, ho_targets;  // the held-out sample, all windows
  std::vector<int> chunk_ids, chunk_targets;
  std::vector<EvalSums> evals;       // per run: the evaluation in progress
  ScoreSample text_sample, induction_sample;  // the head scores' queries (head_scores.h)
  std::vector<int> induction_ids;             // induction_sample's windows, L ids each
  int64_t next_eval = 1, gap = kTextEvalGap;
  using Phase = StepPhase;
  using Cursor = StepCursor;
  bool in_step = false;
  Cursor cur;
  static Cursor settle(Cursor c, const std::vector<TextRun>& runs, bool eval_step) {
    return settle_cursor(c, runs, eval_step);
  }
  static void stop(TextRun& run, int64_t step, float lr, const Status& why) {
    run.diverged = true;
    run.stopped = Status::fail(refusals::text_run_stopped, step, StatusArg::number(number(lr)), StatusArg::refusal(why));
  }
  bool train(const TextTrainConfig& cfg, int64_t step, float lr, TextRun& run, TextRunWork& w);
  // Chunk c of run r's evaluation: the held-out chunks (loss and head
  // scores), then the induction chunks; after the last, the point joins the
  // history and the head slots are measured (or the run stops on a
  // non-finite held-out loss). Returns whether it was the last.
  bool evaluate_chunk(const TextTrainConfig& cfg, int64_t step, float lr, int c, size_t r, TextRun& run);
  // The chunks of one evaluation: held-out, then induction.
  int eval_chunks(const TextTrainConfig& cfg) const {
    return cfg.held_out_windows / cfg.batch + induction_sample.windows() / cfg.batch;
  }
  // Chunk c of p's evaluation into e (held-out chunks: loss and head scores;
  // then induction chunks: head scores).
  void eval_chunk(const TextTrainConfig& cfg, int c, const TextParams& p, EvalSums& e);
  void held_out_chunk(const TextTrainConfig& cfg, int c, const TextParams& p, EvalSums& e);
  void induction_chunk(const TextTrainConfig& cfg, int c, const TextParams& p, EvalSums& e);
  // Adds the head scores of `windows` windows of s from `first` (the last forward's weights).
  void add_scores(const ScoreSample& s, int first, int windows, EvalSums& e);
  // A whole evaluation of p at once (the knockout's): its loss and head slots
  // (`slots` gives the layer and head of each).
  void measure(const TextTrainConfig& cfg, const TextParams& p, float& loss, std::vector<HeadSlot>& slots);
};

TextTrainer::TextTrainer() : impl_(std::make_unique<Impl>()) {}
TextTrainer::~TextTrainer() = default;

//-----------------------------------------------------------------------------
// [SECTION] one training step, one held-out chunk
//-----------------------------------------------------------------------------
bool TextTrainer::Impl::train(const TextTrainConfig& cfg, int64_t step, float lr, TextRun& run, TextRunWork& w) {
  CrossEntropy ce;
  const Status s = text_loss(w.p, ids, targets, cfg.batch, default_backend(), work, ce, &w.g);
  (void)s;  // shapes and ids are right by construction (reset checked them)
  if (!std::isfinite(ce.loss)) return stop(run, step, lr, Status::fail(refusals::loss_not_finite)), false;
  if (ce.loss > kTextDivergeLoss)
    return stop(run, step, lr,
                Status::fail(refusals::text_loss_reached, StatusArg::number(number(ce.loss)),
                             StatusArg::number(number(kTextDivergeLoss)))),
           false;
  const std::vector<const Mat*> grads = text_grad_list(w.g);
  if (!all_finite(grads)) return stop(run, step, lr, Status::fail(refusals::gradient_not_finite)), false;
  w.good = w.p;
  std::vector<Mat*> params = text_param_list(w.p);
  w.adam.step(params, grads);
  if (!all_finite(std::vector<const Mat*>(params.begin(), params.end()))) {
    w.p = w.good;
    return stop(run, step, lr, Status::fail(refusals::weight_not_finite)), false;
  }
  ++run.steps;
  return true;
}

void TextTrainer::Impl::add_scores(const ScoreSample& s, int first, int windows, EvalSums& e) {
  for (size_t l = 0; l < work.traces.size(); ++l) {
    const BatchTrace& t = work.traces[l];
    for (int h = 0; h < t.heads; ++h)
      for (int b = 0; b < windows; ++b)
        add_head_scores(s, first + b, t.weights(b, h), e.heads[l * static_cast<size_t>(t.heads) + static_cast<size_t>(h)]);
  }
}

void TextTrainer::Impl::held_out_chunk(const TextTrainConfig& cfg, int c, const TextParams& p, EvalSums& e) {
  const size_t n = static_cast<size_t>(cfg.batch) * cfg.tokens, at = static_cast<size_t>(c) * n;
  chunk_ids.assign(ho_ids.begin() + static_cast<long>(at), ho_ids.begin() + static_cast<long>(at + n));
  chunk_targets.assign(ho_targets.begin() + static_cast<long>(at), ho_targets.begin() + static_cast<long>(at + n));
  CrossEntropy ce;
  const Status s = text_loss(p, chunk_ids, chunk_targets, cfg.batch, default_backend(), work, ce, nullptr);
  (void)s;
  e.sum += ce.sum;
  e.scored += ce.scored;
  add_scores(text_sample, c * cfg.batch, cfg.batch, e);
}

void TextTrainer::Impl::induction_chunk(const TextTrainConfig& cfg, int c, const TextParams& p, EvalSums& e) {
  const size_t n = static_cast<size_t>(cfg.batch) * cfg.tokens, at = static_cast<size_t>(c) * n;
  chunk_ids.assign(induction_ids.begin() + static_cast<long>(at), induction_ids.begin() + static_cast<long>(at + n));
  const Status s = text_layers_forward(p, chunk_ids, cfg.batch, default_backend(), work);
  (void)s;
  add_scores(induction_sample, c * cfg.batch, cfg.batch, e);
}

void TextTrainer::Impl::eval_chunk(const TextTrainConfig& cfg, int c, const TextParams& p, EvalSums& e) {
  const int held = cfg.held_out_windows / cfg.batch;
  if (c < held) held_out_chunk(cfg, c, p, e);
  else induction_chunk(cfg, c - held, p, e);
}

bool TextTrainer::Impl::evaluate_chunk(const TextTrainConfig& cfg, int64_t step, float lr, int c, size_t r,
                                       TextRun& run) {
  const int held = cfg.held_out_windows / cfg.batch, chunks = eval_chunks(cfg);
  EvalSums& e = evals[r];
  if (c == 0) e.clear(run.per_head.size());
  eval_chunk(cfg, c, runs[r].p, e);
  const float loss = e.loss();  // read after the held-out chunks
  if (c + 1 == held && !std::isfinite(loss)) {
    stop(run, step, lr, Status::fail(refusals::held_out_not_finite));
    return true;
  }
  if (c + 1 < chunks) return false;
  run.history.push_back(TextEvalPoint{step, loss});
  for (size_t k = 0; k < run.per_head.size(); ++k) finish_head_slot(e.heads[k], run.per_head[k]);
  return true;
}

void TextTrainer::Impl::measure(const TextTrainConfig& cfg, const TextParams& p, float& loss,
                                std::vector<HeadSlot>& slots) {
  EvalSums e;
  e.clear(slots.size());
  for (int c = 0, chunks = eval_chunks(cfg); c < chunks; ++c) eval_chunk(cfg, c, p, e);
  loss = e.loss();
  for (size_t k = 0; k < slots.size(); ++k) finish_head_slot(e.heads[k], slots[k]);
}

//-----------------------------------------------------------------------------
// [SECTION] public verbs
//-----------------------------------------------------------------------------
Status TextTrainer::reset(std::shared_ptr<const TextCorpus> corpus, const TextTrainConfig& cfg) {
  if (!corpus) return Status::fail(refusals::no_corpus);
  if (Status s = check_text_config(cfg, *corpus); !s) return s;
  const TextCorpus& c = *corpus;
  const int L = cfg.tokens;
  // training windows' prefix sums, and the held-out sample's starts
  std::vector<int64_t> cumulative{0};
  for (const CorpusDocument& d : c.documents) cumulative.push_back(cumulative.back() + (d.held_out ? 0 : windows_in(d, L)));
  const int64_t ho_total = held_out_window_count(c, L);
  std::vector<int> ho_starts;
  for (int k = 0; k < cfg.held_out_windows; ++k) {
    int64_t want = (2 * static_cast<int64_t>(k) + 1) * ho_total / (2 * static_cast<int64_t>(cfg.held_out_windows));
    for (const CorpusDocument& d : c.documents) {
      if (!d.held_out) continue;
      const int64_t n = windows_in(d, L);
      if (want < n) {
        ho_starts.push_back(d.first + static_cast<int>(want));
        break;
      }
      want -= n;
    }
  }
  corpus_ = std::move(corpus);
  cfg_ = cfg;
  train_cumulative_ = std::move(cumulative);
  held_out_starts_ = std::move(ho_starts);
  step_ = 0;
  step_lr_ = cfg.lr;
  Impl& m = *impl_;
  text_window_batch(c, held_out_starts_, L, m.ho_ids, m.ho_targets);
  text_score_sample(c, held_out_starts_, L, m.text_sample);
  const int induction_windows = (kInductionWindows + cfg.batch - 1) / cfg.batch * cfg.batch;
  induction_score_sample(c.vocab(), L, induction_windows, prng::mix_seed(kInductionSeed, kInductionPurpose),
                         m.induction_ids, m.induction_sample);
  m.runs.clear();
  runs_.clear();
  for (int H : cfg.heads) {
    TextRunWork w;
    w.p = initial_text_params({c.vocab(), cfg.d_model, L, H, cfg.layers}, static_cast<uint64_t>(cfg.seed), kTextInitPurpose);
    const Status ok = w.adam.set_lr(cfg.lr);
    (void)ok;  // checked
    m.runs.push_back(std::move(w));
    TextRun run;
    run.heads = H;
    run.layers = cfg.layers;
    for (int l = 0; l < cfg.layers; ++l)
      for (int h = 0; h < H; ++h) run.per_head.push_back(HeadSlot{l, h, {}, {}, "", 0.f});
    runs_.push_back(std::move(run));
  }
  m.evals.assign(runs_.size(), EvalSums{});
  m.in_step = false;
  m.cur = Impl::Cursor{};
  m.gap = kTextEvalGap;
  for (size_t r = 0; r < runs_.size(); ++r)
    for (int k = 0; !m.evaluate_chunk(cfg_, 0, cfg_.lr, k, r, runs_[r]); ++k) {
    }
  m.next_eval = 1;
  split_sentences(c, L, kSplitSentences, split_sample_);
  find_splits();
  return Status::ok();
}

void TextTrainer::find_splits() {
  splits_.clear();
  const TextRun *one = run(kSplitOneHeads), *many = run(kSplitManyHeads);
  if (!one || !many || one->diverged || many->diverged) return;
  const Status s = find_text_splits(*params(kSplitOneHeads), *params(kSplitManyHeads), split_sample_, kSplitKeep,
                                    step_, splits_);
  (void)s;  // the runs share the corpus' vocabulary and L, and the sample fits them (reset built both)
}

Status TextTrainer::set_lr(float lr) {
  if (Status s = check_lr(lr); !s) return s;
  cfg_.lr = lr;
  return Status::ok();
}

Status TextTrainer::step(int n) {
  if (Status s = check_train_steps(n); !s) return s;
  if (!corpus_) return Status::fail(refusals::text_no_corpus);
  for (int i = 0; i < n; ++i)
    while (!run_unit()) {
    }
  return Status::ok();
}

bool TextTrainer::mid_step() const { return impl_->in_step; }

TrainUnit TextTrainer::next_unit() const {
  const Impl& m = *impl_;
  if (!corpus_) return TrainUnit::kNone;
  const Impl::Cursor c = Impl::settle(m.in_step ? m.cur : Impl::Cursor{}, runs_, step_ + 1 >= m.next_eval);
  switch (c.phase) {
    case Impl::Phase::kTrain: return TrainUnit::kTrain;
    case Impl::Phase::kEval: return TrainUnit::kEval;
    default: return TrainUnit::kNone;
  }
}

bool TextTrainer::run_unit() {
  if (!corpus_) return true;
  Impl& m = *impl_;
  const bool eval_step = step_ + 1 >= m.next_eval;
  if (!m.in_step) {  // the step's batch and rate
    std::vector<int> starts;
    train_windows(step_, starts);
    text_window_batch(*corpus_, starts, cfg_.tokens, m.ids, m.targets);
    step_lr_ = cfg_.lr;
    for (TextRunWork& w : m.runs) {
      const Status ok = w.adam.set_lr(step_lr_);
      (void)ok;
    }
    m.in_step = true;
    m.cur = Impl::Cursor{};
  }
  Impl::Cursor& c = m.cur;
  c = Impl::settle(c, runs_, eval_step);
  if (c.phase == Impl::Phase::kTrain) {
    m.train(cfg_, step_ + 1, step_lr_, runs_[c.run], m.runs[c.run]);
    ++c.run;
  } else if (c.phase == Impl::Phase::kEval) {
    if (m.evaluate_chunk(cfg_, step_ + 1, step_lr_, c.chunk, c.run, runs_[c.run])) {
      c.chunk = 0;
      ++c.run;
    } else {
      ++c.chunk;
    }
  }
  c = Impl::settle(c, runs_, eval_step);
  if (c.phase != Impl::Phase::kDone) return false;
  m.in_step = false;
  ++step_;
  if (!eval_step) return true;
  find_splits();
  m.next_eval = next_eval_step(step_, m.gap);
  bool thinned = false;
  for (TextRun& run : runs_) {
    if (static_cast<int>(run.history.size()) <= kTextMaxHistory) continue;
    thin_points(run.history);
    thinned = true;
  }
  if (thinned) m.gap *= 2;
  return true;
}

const TextRun* TextTrainer::run(int heads) const {
  for (const TextRun& r : runs_)
    if (r.heads == heads) return &r;
  return nullptr;
}

const TextParams* TextTrainer::params(int heads) const {
  for (size_t i = 0; i < runs_.size(); ++i)
    if (runs_[i].heads == heads) return &impl_->runs[i].p;
  return nullptr;
}

Status TextTrainer::snapshot(int heads, TextSnapshot& out) const {
  const TextParams* p = params(heads);
  if (!p) return Status::fail(refusals::no_text_run, heads);
  const size_t i = static_cast<size_t>(run(heads) - runs_.data());
  // a run already trained in the step in progress is one step ahead
  const bool ahead = impl_->in_step && (impl_->cur.phase != Impl::Phase::kTrain || impl_->cur.run > i);
  const int64_t at = step_ + (ahead ? 1 : 0);
  std::vector<int> starts;
  train_windows(at, starts);
  TextSnapshot s;
  text_window_batch(*corpus_, starts, cfg_.tokens, s.ids, s.targets);
  TextWork work;
  CrossEntropy ce;
  if (Status st = text_loss(*p, s.ids, s.targets, cfg_.batch, default_backend(), work, ce, &s.grads); !st) return st;
  if (!std::isfinite(ce.loss) || !all_finite(text_grad_list(s.grads)))
    return Status::fail(refusals::run_not_finite, heads);
  s.heads = heads;
  s.layers = cfg_.layers;
  s.step = at;
  s.seed = cfg_.seed;
  s.batch = cfg_.batch;
  s.tokens = cfg_.tokens;
  s.d_model = cfg_.d_model;
  s.vocab = corpus_->vocab();
  s.params = *p;
  s.loss = static_cast<float>(ce.loss);
  out = std::move(s);
  return Status::ok();
}

Status TextTrainer::knockout(int heads, int layer, int head, TextKnockout& out) {
  if (!corpus_) return Status::fail(refusals::text_no_corpus);
  const TextParams* p = params(heads);
  if (!p) return Status::fail(refusals::no_text_run, heads);
  TextParams knocked = *p;
  if (Status s = knock_out_head(knocked, layer, head); !s) return s;
  const TextRun& run = *this->run(heads);
  TextKnockout k;
  k.heads = heads;
  k.layer = layer;
  k.head = head;
  k.step = run.steps;
  k.before = k.after = run.per_head;  // their layer and head
  impl_->measure(cfg_, *p, k.loss_before, k.before);
  impl_->measure(cfg_, knocked, k.loss_after, k.after);
  if (!std::isfinite(k.loss_before) || !std::isfinite(k.loss_after)) return Status::fail(refusals::run_not_finite, heads);
  out = std::move(k);
  return Status::ok();
}

}  // namespace headroom
