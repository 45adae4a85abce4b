// text_trainer.h: language models on real English (the corpus of
// text_corpus.h), one run per head count, side by side.
//
// Does: keep one run per H in TextTrainConfig::heads (default 1, 2, 4, 8),
// each the model of text_model.h at one D (d_head = D / H, so every run has
// the same parameter count) with 1 or 2 layers, its own parameters and
// AdamList, all from the same seed's initial matrices (heads take column
// blocks) and trained on the same batches. Per run: the held-out loss in
// nats per word over a fixed held-out sample (its perplexity is exp(loss)),
// a history on the roles trainer's schedule (history.h), divergence caught,
// and one HeadSlot per head of every layer, layer by layer: its behaviour
// scores, baselines and label (head_scores.h), measured at every held-out
// point (step 0 included) on the held-out sample and the induction windows.
// Does not: read files or fetch (the caller hands it a TextCorpus), run a
// clock, serialise JSON (src/app does), or let a NaN or Inf out: every
// number it returns is finite.
//
// Batches: step s (from 0) trains on B windows of L + 1 consecutive tokens
// of the TRAINING documents (never across a document's end): inputs are the
// first L, targets the last L (every position predicts its next word). The
// window starts are drawn uniformly over all such windows by
// prng::Rng(mix_seed(seed, kTextTrainPurpose, s)), so the same seed gives
// the same batches on every build, whatever the head count.
// Held-out sample: held_out_windows windows of the held-out documents,
// evenly spaced over all their windows (the same for every seed, so runs and
// seeds are compared on the same text), evaluated in chunks of B windows;
// the same forward passes give the head scores of every kind but induction.
// Induction windows: kInductionWindows rounded up to whole batches, drawn
// once at reset from their own seed (kInductionSeed, never the training's
// stream: the curves do not change with the scores), run through the
// attention layers only (no unembedding) in chunks of B after the held-out
// chunks.
//
// Units (as the roles trainer, trainer.h): one step is each run's training
// step in turn, then on an evaluation step each run's held-out evaluation
// chunk by chunk (held-out chunks, then induction chunks; the head slots
// change after a run's last chunk). step_count() and the histories advance when a step's last
// unit is done. A run's `steps` counts its training steps.
//
// Knockout (knockout(heads, layer, head)): the run's model as it is, and the
// same model with that head knocked out (text_model.h "Knockout": its output
// zeroed before W_O), each measured the way a held-out point is: the loss
// over the held-out sample and every head slot's scores on the held-out and
// induction windows. The head's own scores are what the model loses (its
// attention weights do not change, only nothing reads its output); heads of
// the same or an earlier layer measure the same; heads of a later layer
// read a changed residual stream and may change. It reads the run's
// parameters only: training, its batches and its evaluation are untouched.
//
// Splits (text_splits.h): at every held-out point (step 0 included), once
// the step's last unit is done, the queries of a fixed sample of
// kSplitSentences held-out sentences (chosen at reset) where the 1-head run
// splits its weight between two tokens that two heads of the 4-head run take
// one each: splits(), best first, at most kSplitKeep. Empty when either run
// is missing or has stopped. Its cost rides on the step's last unit: for
// the 64 sentences (552 queries, two sentence forwards each) about 2 ms
// natively and 5 ms in wasm (SIMD128, under node), against tens of ms for
// the held-out evaluation (bench_text --curve brown.bin --heads 1,4 prints
// it as "splitsMs").
//
// Divergence: a non-finite or above-kTextDivergeLoss training loss, a
// non-finite gradient or weight stops that run with a message naming the
// step and the rate (its weights stay those of its last good step); a
// held-out loss that is not finite stops it the same way. reset recovers.
//
// Shape letters as in text_model.h (B, L, D, H, V).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/status.h"
#include "head_scores.h"
#include "text_corpus.h"
#include "text_model.h"
#include "text_splits.h"
#include "trainer.h"

namespace headroom {

constexpr std::array<int, 4> kTextHeads = {1, 2, 4, 8};
constexpr int kTextDModel = 64;            // D
constexpr int kTextTokens = 32;            // L
constexpr int kTextBatch = 32;             // B
constexpr int kTextHeldOutWindows = 128;   // 4 chunks of B: 128 x 32 = 4096 held-out predictions
constexpr int kTextEvalGap = 50;
constexpr int kTextMaxHistory = 512;
constexpr float kTextDefaultLr = 3e-3f;
constexpr float kTextDivergeLoss = 30.f;   // nats per word; guessing uniformly costs ln V (8.0 for V = 3002)
constexpr uint64_t kTextTrainPurpose = 11, kTextInitPurpose = 13;

struct TextTrainConfig {
  int layers = 1;                  // 1 or 2
  int64_t seed = kDefaultSeed;     // 0 .. kMaxSeed
  float lr = kTextDefaultLr;       // kMinLr .. kMaxLr
  std::vector<int> heads = {kTextHeads.begin(), kTextHeads.end()};
  int d_model = kTextDModel, tokens = kTextTokens, batch = kTextBatch;
  int held_out_windows = kTextHeldOutWindows;  // a multiple of batch
};

// Why the configuration cannot train on `corpus`, or ok.
Status check_text_config(const TextTrainConfig& cfg, const TextCorpus& corpus);

struct TextEvalPoint {
  int64_t step = 0;
  float loss = 0.f;  // held-out, nats per word
};

struct TextRun {
  int heads = 0, layers = 0;
  int64_t steps = 0;
  std::vector<TextEvalPoint> history;  // never empty after reset
  bool diverged = false;
  Status stopped;  // why it stopped (refusals::text_run_stopped), ok while healthy
  std::vector<HeadSlot> per_head;      // layers * heads, layer by layer (measured at every held-out point)

  float loss() const { return history.back().loss; }
};

// The batch a run's NEXT step trains on, its parameters, and the loss and
// gradients of those parameters on it: what an outside implementation
// (PyTorch) recomputes.
struct TextSnapshot {
  int heads = 0, layers = 0;
  int64_t step = 0, seed = 0;
  int batch = 0, tokens = 0, d_model = 0, vocab = 0;
  std::vector<int> ids, targets;  // batch * tokens each
  TextParams params;
  float loss = 0.f;
  TextGrads grads;
};

// A head knocked out of one run and what it cost.
struct TextKnockout {
  int heads = 0, layer = 0, head = 0;         // the run; the head, 0-based
  int64_t step = 0;                           // the run's steps when measured
  float loss_before = 0.f, loss_after = 0.f;  // held-out nats per word, with and without the head
  std::vector<HeadSlot> before, after;        // every head slot, with and without it
};

class TextTrainer {
 public:
  TextTrainer();
  ~TextTrainer();
  TextTrainer(const TextTrainer&) = delete;
  TextTrainer& operator=(const TextTrainer&) = delete;

  // Starts every run afresh on `corpus`; evaluates step 0. On a bad value
  // returns why and changes nothing.
  Status reset(std::shared_ptr<const TextCorpus> corpus, const TextTrainConfig& cfg);
  bool ready() const { return corpus_ != nullptr; }
  Status set_lr(float lr);  // from the next step
  Status step(int n);       // 1 .. kMaxStepsPerCall; refused before reset
  TrainUnit next_unit() const;
  bool run_unit();          // true when it completed a step
  bool mid_step() const;

  const TextTrainConfig& config() const { return cfg_; }
  const TextCorpus* corpus() const { return corpus_.get(); }
  int64_t step_count() const { return step_; }
  const std::vector<TextRun>& runs() const { return runs_; }
  const TextRun* run(int heads) const;
  const TextParams* params(int heads) const;

  // The window starts (token indices) of step s's batch, and of the held-out sample.
  void train_windows(int64_t s, std::vector<int>& starts) const;
  const std::vector<int>& held_out_windows() const { return held_out_starts_; }

  // See "Splits" above: the last held-out point's cases and the sample.
  const std::vector<TextSplit>& splits() const { return splits_; }
  const std::vector<SplitSentence>& split_sample() const { return split_sample_; }

  Status snapshot(int heads, TextSnapshot& out) const;
  // See "Knockout" above; refused (out unchanged) before reset, for a head
  // count with no run, or a layer or head the run does not have.
  // Its forward passes use the runs' shared buffers (between units, never
  // mid-unit), so it is not const.
  Status knockout(int heads, int layer, int head, TextKnockout& out);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::shared_ptr<const TextCorpus> corpus_;
  TextTrainConfig cfg_;
  float step_lr_ = kTextDefaultLr;
  int64_t step_ = 0;
  std::vector<TextRun> runs_;
  std::vector<int> held_out_starts_;
  std::vector<int64_t> train_cumulative_;  // windows of training documents before document d (prefix sums)
  std::vector<SplitSentence> split_sample_;
  std::vector<TextSplit> splits_;
  void find_splits();  // splits_ at the current step (see "Splits")
};

// Inputs and targets of windows starting at `starts` (L + 1 tokens each).
void text_window_batch(const TextCorpus& c, const std::vector<int>& starts, int L, std::vector<int>& ids,
                       std::vector<int>& targets);

}  // namespace headroom
