// runs_here.cpp: the runs that train in this program (see runs_here.h).
//
// Index of this file
//   [SECTION] the roles task
//   [SECTION] either task
//   [SECTION] the text task
//   [SECTION] snapshot JSON
#include "app/training/runs_here.h"

#include <cmath>
#include <optional>
#include <utility>

#include "app/lang/refusals.h"
#include "app/wire/json_tensor.h"
#include "app/wire/json_write.h"
#include "app/wire/text_json.h"

namespace headroom::app {

namespace {

class TrainersHere final : public RunsHere {
 public:
  void build(bool tie) override;
  bool built() const override { return trainer_ != nullptr; }
  const Trainer& trainer() const override { return *trainer_; }
  Status reset(int64_t seed, int r, float lr, bool tie) override;
  void set_share(RunShare share) override;
  RunShare share() const override { return share_; }

  Status step(int n) override;
  Status set_lr(float lr) override;
  int train(FramePacer& pacer, const std::function<double()>& now, int max_steps_per_frame) override;
  bool can_step() const override;
  const std::vector<TrainRun>& runs() const override { return text_on_ ? text_runs_ : trainer_->runs(); }
  int64_t step_count() const override { return text_on_ ? text_->step_count() : built() ? trainer_->step_count() : 0; }
  std::string wire_state(double steps_per_second, bool running, const std::vector<Status>& errors) const override;
  Status snapshot_json(int heads, bool tied, std::string& out) const override;

  bool text_on() const override { return text_on_; }
  const TextTrainConfig& text_config() const override { return text_->config(); }
  float text_lr() const override { return text_lr_; }
  const std::vector<TextSplit>& splits() const override { return text_splits_; }
  Status reset_text(int layers, int64_t seed, float lr) override;
  Status set_corpus(const uint8_t* data, size_t n, double fetch_ms) override;
  void set_corpus(std::shared_ptr<const TextCorpus> corpus, int64_t bytes, double fetch_ms) override;
  void corpus_failed(std::string why) override;
  bool has_corpus() const override { return corpus_ != nullptr; }
  const CorpusInfo& corpus_info() const override { return corpus_info_; }
  std::shared_ptr<const TextWeights> text_weights(int heads) const override;
  std::string wire_text_weights(int heads) const override;
  Status knockout(int heads, int layer, int head) override;
  const TextKnockout* last_knockout() const override { return knockout_ ? &*knockout_ : nullptr; }

 private:
  void refresh_text_runs();  // text_runs_ and text_splits_ from the TextTrainer

  std::unique_ptr<Trainer> trainer_;  // null until build()
  RunShare share_;
  // The text task.
  std::shared_ptr<const TextCorpus> corpus_;
  CorpusInfo corpus_info_;
  Status corpus_error_;
  std::unique_ptr<TextTrainer> text_;
  bool text_on_ = false;  // the text task trains (text_ is set)
  float text_lr_ = kTextDefaultLr;
  std::vector<TrainRun> text_runs_;  // text_'s runs as the chart reads runs
  std::vector<TextSplit> text_splits_;
  std::optional<TextKnockout> knockout_;  // the last one measured
};

//-----------------------------------------------------------------------------
// [SECTION] the roles task
//-----------------------------------------------------------------------------
void TrainersHere::build(bool tie) {
  if (trainer_) return;
  trainer_ = std::make_unique<Trainer>();
  // The defaults with the tie and the share (the defaults are in range and
  // the share was checked: it cannot fail).
  const bool shared = share_.parts != 1;
  (void)trainer_->set_share(share_);
  if (tie || shared) (void)trainer_->reset(kDefaultSeed, kDefaultRelations, kDefaultLr, tie);
}

Status TrainersHere::reset(int64_t seed, int r, float lr, bool tie) {
  build(tie);
  if (Status s = trainer_->reset(seed, r, lr, tie); !s) return s;
  text_on_ = false;
  text_.reset();
  text_runs_.clear();
  text_splits_.clear();
  knockout_.reset();
  return Status::ok();
}

void TrainersHere::set_share(RunShare share) {
  share_ = share;
  if (trainer_) (void)trainer_->set_share(share);  // checked by the caller
}

//-----------------------------------------------------------------------------
// [SECTION] either task
//-----------------------------------------------------------------------------
Status TrainersHere::step(int n) {
  if (text_on_) {
    if (Status s = text_->step(n); !s) return s;
    refresh_text_runs();
    return Status::ok();
  }
  return trainer_->step(n);
}

Status TrainersHere::set_lr(float lr) {
  if (!text_on_) return trainer_->set_lr(lr);
  if (Status s = text_->set_lr(lr); !s) return s;
  text_lr_ = lr;
  return Status::ok();
}

int TrainersHere::train(FramePacer& pacer, const std::function<double()>& now, int max_steps_per_frame) {
  // The pacer's units are the trainer's: kind 0 one run's training step,
  // kind 1 one held-out chunk of one run's evaluation.
  // (Trainer or TextTrainer, which share the units' kinds.)
  auto run_pacer = [&](auto& trainer) {
    struct Units {
      decltype(trainer)& t;
      int next() const {
        switch (t.next_unit()) {
          case TrainUnit::kTrain: return 0;
          case TrainUnit::kEval: return 1;
          default: return -1;  // every run has diverged
        }
      }
      bool run() { return t.run_unit(); }
    } units{trainer};
    return pacer.run(units, now, max_steps_per_frame);
  };
  if (!text_on_) return run_pacer(*trainer_);
  const int n = run_pacer(*text_);
  refresh_text_runs();
  return n;
}

bool TrainersHere::can_step() const {
  return (text_on_ ? text_->next_unit() : trainer_->next_unit()) != TrainUnit::kNone;
}

std::string TrainersHere::wire_state(double steps_per_second, bool running, const std::vector<Status>& errors) const {
  if (!text_on_) {
    TrainMirror m = mirror_of(*trainer_, steps_per_second, running, errors);
    m.corpus = corpus_info_;
    return encode_mirror(m);
  }
  TrainMirror m;
  m.text = true;
  m.layers = text_->config().layers;
  m.seed = text_->config().seed;
  m.relations = 0;
  m.lr = text_lr_;
  m.step = text_->step_count();
  m.runs = text_runs_;
  m.knockout = knockout_;
  m.splits = text_splits_;
  m.steps_per_second = steps_per_second;
  m.running = running;
  m.errors = errors;
  m.corpus = corpus_info_;
  return encode_mirror(m);
}

//-----------------------------------------------------------------------------
// [SECTION] the text task
//-----------------------------------------------------------------------------
Status TrainersHere::reset_text(int layers, int64_t seed, float lr) {
  if (!corpus_) return corpus_error_.is_ok() ? Status::fail(refusals::corpus_not_loaded) : corpus_error_;
  TextTrainConfig cfg;
  cfg.layers = layers;
  cfg.seed = seed;
  cfg.lr = lr;
  auto text = std::make_unique<TextTrainer>();
  if (Status s = text->reset(corpus_, cfg); !s) return s;
  text_ = std::move(text);
  text_on_ = true;
  text_lr_ = lr;
  knockout_.reset();
  refresh_text_runs();
  return Status::ok();
}

Status TrainersHere::set_corpus(const uint8_t* data, size_t n, double fetch_ms) {
  auto c = std::make_shared<TextCorpus>();
  if (Status s = read_text_corpus(data, n, *c); !s) {
    corpus_error_ = Status::fail(refusals::corpus_unreadable, StatusArg::refusal(s));
    return corpus_error_;
  }
  set_corpus(std::move(c), static_cast<int64_t>(n), fetch_ms);
  return Status::ok();
}

void TrainersHere::set_corpus(std::shared_ptr<const TextCorpus> c, int64_t bytes, double fetch_ms) {
  corpus_info_.name = c->name;
  corpus_info_.train_words = c->train_tokens;
  corpus_info_.held_out_words = c->held_out_tokens;
  corpus_info_.vocab = c->vocab();
  corpus_info_.bytes = bytes;
  corpus_info_.fetch_ms = std::isfinite(fetch_ms) && fetch_ms > 0 ? fetch_ms : 0;
  corpus_ = std::move(c);
  corpus_error_ = Status::ok();
}

void TrainersHere::corpus_failed(std::string why) {
  corpus_error_ = Status::fail(refusals::corpus_unfetched, std::move(why));
}

void TrainersHere::refresh_text_runs() {
  const std::vector<TextRun>& runs = text_->runs();
  text_runs_.resize(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    const TextRun& from = runs[i];
    TrainRun& to = text_runs_[i];
    to.heads = from.heads;
    to.tie_qk = false;
    to.floor = 0.f;
    to.steps = from.steps;
    to.diverged = from.diverged;
    to.stopped = from.stopped;
    to.per_head = from.per_head;
    to.history.resize(from.history.size());
    for (size_t k = 0; k < from.history.size(); ++k) to.history[k] = EvalPoint{from.history[k].step, from.history[k].loss, {}};
  }
  text_splits_ = text_->splits();
}

std::shared_ptr<const TextWeights> TrainersHere::text_weights(int heads) const {
  auto tw = std::make_shared<TextWeights>();
  if (!text_on_ || !text_weights_of(*text_, heads, *tw)) return nullptr;
  return tw;
}

std::string TrainersHere::wire_text_weights(int heads) const {
  TextWeights tw;
  if (!text_on_ || !text_weights_of(*text_, heads, tw)) return {};
  return encode_text_weights(tw);
}

Status TrainersHere::knockout(int heads, int layer, int head) {
  TextKnockout k;
  if (Status s = text_->knockout(heads, layer, head, k); !s) return s;
  knockout_ = std::move(k);
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] snapshot JSON (live_training.h "JSON"; array layout: json_tensor.h)
//-----------------------------------------------------------------------------
Status TrainersHere::snapshot_json(int heads, bool tied, std::string& out) const {
  if (text_on_) {
    if (tied) return Status::fail(refusals::text_not_tied);
    TextSnapshot ts;
    if (Status st = text_->snapshot(heads, ts); !st) return st;
    out = text_snapshot_json(ts);
    return Status::ok();
  }
  TrainSnapshot s;
  if (Status st = trainer_->snapshot(heads, tied, s); !st) return st;
  const long long B = s.batch, L = s.tokens, D = s.d_model, T = s.outputs;
  out.clear();
  out.reserve(static_cast<size_t>((2 * B * L * D + 8 * D * D) * 13));
  JsonObject o(out);
  o.field("heads", s.heads).field("tieQK", s.tie_qk).field("step", s.step).field("seed", s.seed).field("r", s.relations);
  append_mat(o.key("X"), {B, L, D}, s.x);
  append_mat(o.key("target"), {B, L, T}, s.target);
  append_tensor(o.key("mask"), {B, L}, s.mask.data(), static_cast<long long>(s.mask.size()));
  const std::pair<const char*, const Mat*> weights[] = {{"W_Q", &s.wq}, {"W_K", &s.wk}, {"W_V", &s.wv}, {"W_O", &s.wo}};
  const std::pair<const char*, const Mat*> grads[] = {{"W_Q", &s.gq}, {"W_K", &s.gk}, {"W_V", &s.gv}, {"W_O", &s.go}};
  for (const auto& [name, m] : weights) append_mat(o.key(name), {D, D}, *m);
  o.field("lossScale", s.loss_scale).field("loss", s.loss);
  JsonObject g(o.key("grads"));  // g, then o, close when the function returns
  for (const auto& [name, m] : grads)
    if (!(s.tie_qk && m == &s.gk)) append_mat(g.key(name), {D, D}, *m);  // tied: W_Q's is the shared one
  return Status::ok();
}

}  // namespace

std::unique_ptr<RunsHere> make_runs_here() { return std::make_unique<TrainersHere>(); }

}  // namespace headroom::app
