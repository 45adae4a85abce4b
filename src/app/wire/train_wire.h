// train_wire.h: the messages the training program (headroom-train.wasm, in a
// Worker) sends the page, declared once and read and written by the same C++
// on both sides: the runs' state (what train.state() and the training views
// show), one roles run's trained weights (what the lesson's views show with
// weights=trained) and one text run's model (weights=text: the views run a
// typed sentence through it).
//
// Does: write a Trainer's runs as bytes (encode_state, encode_weights,
// encode_text_weights) and read them back into a TrainMirror,
// TrainedWeights or TextWeights (decode_*), checking every count, size and
// string against the bytes there are and every number for finiteness, so a
// truncated, foreign or corrupt message is refused with a reason and
// changes nothing. Floats travel as their 4 bytes and counts as 8-byte
// integers, so the page shows the program's numbers bit for bit.
// Layout (little-endian, as wasm is on both sides): u32 magic "HRw7", u32
// kind (1 state, 2 weights, 3 text weights), then
//   state:   u8 task (0 roles, 1 text), i32 layers (text: 1 or 2; roles: 0),
//            i64 seed, i32 r (text: 0), f32 lr, u8 tieQK, i64 step, f64
//            stepsPerSecond, u8 running, u32 errors, per error status,
//            u32 runs, per run: i32
//            heads, u8 tieQK, f32 floor, i64 steps, u8 diverged, status stopped,
//            u32 points, per point: i64 step, f32 loss, f32 weightOn[heads * r],
//            then u32 head slots (text: layers * heads; roles: 0), per slot
//            i32 layer, i32 head, u32 kinds, per kind str kind, f32 score,
//            f32 baseline, then str label, f32 labelScore;
//            then the corpus: str name ("" none), i64 trainWords, i64
//            heldOutWords, i32 vocab, i64 bytes, f64 fetchMs; then the last
//            knockout: u8 (0 none; 1: i32 heads, i32 layer, i32 head (0-based),
//            i64 step, f32 lossBefore, f32 lossAfter, head slots before, head
//            slots after, each as a run's); then the splits: u32 cases
//            (at most kSplitKeep; 0 for the roles task), per case i64 step,
//            i32 sentence, u32 n (kSplitMinTokens .. kMaxTokens), n times
//            (i32 id, str word), i32 query, a, b (0 <= a < b <= query < n),
//            f32 oneA, oneB, i32 headA, headB (0-based, different), f32
//            manyA, manyB (weights in [0, 1]), f32 cosA, cosB, cosMid,
//            manyCosA, manyCosB (in [-1, 1] within rounding);
//   weights: i32 heads, u8 tieQK, i64 step, i32 D, per head W_Q, W_K, W_V
//            (D x D/heads each), then W_O (D x D), each in Mat's own order;
//   text weights: i32 heads, i32 layers, i64 step, i32 D, i32 L, u32 V, V
//            str words (id order: "<unk>", "<num>", then the corpus'),
//            E_tok (V x D), E_pos (L x D), then per layer: per head W_Q,
//            W_K, W_V (D x D/heads each), then W_O (D x D), each in Mat's
//            own order (no unembedding: the views read the heads);
//   str: u32 length, then that many UTF-8 bytes;
//   status (a refusal as code and arguments, never its English: the page
//   words it in its own language): str code ("" ok), u32 args, per arg u8
//   kind (StatusArg::Kind), str text, u32 items, per item str, and for a
//   refusal inside, its status (at most 4 deep).
// merge_parts: the states of programs that each train a share of the runs
// (engine/train/trainer.h "Shares") as one state, as one program with every
// run would have sent it.
// Does not: choose when to send (the Worker's driver does), know about
// JavaScript or postMessage, or train anything.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/attention.h"
#include "engine/core/status.h"
#include "engine/train/text_trainer.h"
#include "engine/train/trainer.h"

namespace headroom::app {

enum class WireKind : uint32_t { kState = 1, kWeights = 2, kTextWeights = 3 };

// The text task's corpus as train.state().corpus shows it (name "": none
// loaded), with what its fetch cost.
struct CorpusInfo {
  std::string name;
  int64_t train_words = 0, held_out_words = 0;
  int vocab = 0;
  int64_t bytes = 0;    // its size on the wire (the body as fetched)
  double fetch_ms = 0;  // fetch to loaded
};

// The runs as the program last reported them. The text task's runs are
// TrainRuns too (relations 0: no weightOn; floor 0), so the views read one kind.
struct TrainMirror {
  bool text = false;    // the task: text (true) or roles
  int layers = 0;       // the text model's layers (0 for roles)
  CorpusInfo corpus;
  int64_t seed = kDefaultSeed;
  int relations = kDefaultRelations;
  float lr = kDefaultLr;
  bool tie_qk = false;  // what the runs were reset with
  int64_t step = 0;
  double steps_per_second = 0;
  bool running = false;
  std::vector<Status> errors;  // the program's: its refusal, or why runs stopped
  std::vector<TrainRun> runs;
  std::optional<TextKnockout> knockout;  // the last head knocked out of a text run
  std::vector<TextSplit> splits;          // the text task's cases (text_splits.h), best first
};

// One run's weights, for the lesson's views.
struct TrainedWeights {
  int heads = 0;
  bool tie_qk = false;
  int64_t step = 0;
  AttentionWeights w;
};

// One text run's model, for the views that run a typed sentence through it:
// params has tok, pos and layers (shape filled); unembed and bias stay empty.
struct TextWeights {
  int heads = 0;
  int layers = 0;
  int64_t step = 0;                // the run's steps
  std::vector<std::string> vocab;  // id -> word, as TextCorpus::words
  TextParams params;
};

std::string encode_state(const Trainer& t, double steps_per_second, bool running, const std::vector<Status>& errors);
// The roles runs of `t` as a mirror (what encode_state writes).
TrainMirror mirror_of(const Trainer& t, double steps_per_second, bool running, const std::vector<Status>& errors);
// Any mirror (the text task's runs): the same layout.
std::string encode_mirror(const TrainMirror& m);
// "" when the trainer has no such run.
std::string encode_weights(const Trainer& t, int heads, bool tied);

// The text run with `heads` heads of `t` (its current parameters); false,
// out unchanged, when `t` has no such run.
bool text_weights_of(const TextTrainer& t, int heads, TextWeights& out);
std::string encode_text_weights(const TextWeights& w);

// One refusal alone as its status bytes (the layout's "status"): the
// program's reason for a snapshot it could not make, which the page words
// in its own language. decode_status refuses a cut or unknown one.
std::string encode_status(const Status& s);
Status decode_status(const uint8_t* data, size_t n, Status& out);

// The states of the parts that train shares of the runs (each decoded from
// its own post; parts that have not posted yet left out by the caller) as
// one: the settings, task, corpus, knockout and splits of the first part;
// the runs of every part in the full list's order (untied 1, 2, 4, then
// tied); the step and steps/s the slowest part's (the chart shows no point
// past that step); running while any part runs; each part's errors, a
// repeated one once. The text task trains in the first part alone: its
// state is taken as it is. `parts` must not be empty.
TrainMirror merge_parts(const std::vector<TrainMirror>& parts);

// The kind of a message (refused when it is not one of ours).
Status decode_kind(const uint8_t* data, size_t n, WireKind& kind);
// Each refuses a message of the other kind, and leaves `out` as it was on error.
Status decode_state(const uint8_t* data, size_t n, TrainMirror& out);
Status decode_weights(const uint8_t* data, size_t n, TrainedWeights& out);
Status decode_text_weights(const uint8_t* data, size_t n, TextWeights& out);

}  // namespace headroom::app
