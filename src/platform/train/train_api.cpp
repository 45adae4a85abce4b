// train_api.cpp: the training program's C functions (headroom-train.wasm),
// which web/headroom-train-worker.js calls inside a dedicated Worker.
//
// Does: own one app::LiveTraining (src/app/live_training.h: the runs of 1, 2 and 4
// heads, or the text task's, the same code and JSON as the page's) and expose its verbs and its
// state as JSON: reset(seed, r, lr, tie), reset_text(layers, seed, lr), corpus(bytes), step(n), knockout(heads, layer, head), train_for(ms, until) (whole steps
// until `ms` have passed: the Worker's continuous play, no frame budget),
// share(part, parts) (the share of the runs trained here),
// state_json(), steps_ok(n) (step's range check alone), and the shown run's
// weights as bytes (the roles task's weights, or the text task's model). Each verb returns 1 when accepted, 0 when refused (the reason
// is the state's error).
// Does not: link ImGui, GL or the page's glue, draw anything, or keep a clock
// of its own beyond LiveTraining::steady_ms.
//
// Build: cmake/web.cmake (target headroom_train: headroom-train.js + .wasm).
#include <emscripten.h>

#include <optional>
#include <string>

#include "app/lang/refusals.h"
#include "app/wire/train_wire.h"
#include "app/training/live_training.h"

namespace {
headroom::app::LiveTraining& training() {
  static headroom::app::LiveTraining t;
  return t;
}
}  // namespace

extern "C" {

// tie: 1 tied runs beside the untied ones, 0 none, -1 as the last reset;
// any other value is refused (the driver passes 2 for a tieQK that is not a
// boolean).
EMSCRIPTEN_KEEPALIVE int headroom_train_reset(double seed, int r, double lr, int tie) {
  if (tie < -1 || tie > 1) {
    training().reject(headroom::Status::fail(headroom::refusals::tie_not_boolean));
    return 0;
  }
  const std::optional<bool> t = tie < 0 ? std::nullopt : std::optional<bool>(tie != 0);
  return training().reset(static_cast<int64_t>(seed), r, static_cast<float>(lr), t) ? 1 : 0;
}

// The text task: layers 1 or 2 (refused without a corpus: the driver loads it first).
EMSCRIPTEN_KEEPALIVE int headroom_train_reset_text(int layers, double seed, double lr) {
  return training().reset_text(layers, static_cast<int64_t>(seed), static_cast<float>(lr)) ? 1 : 0;
}

// brown.bin's bytes as fetched in `ms`: 1 read, 0 refused (why: the state's
// error); corpus_failed records a fetch that failed.
EMSCRIPTEN_KEEPALIVE int headroom_train_corpus(const uint8_t* p, int n, double ms) {
  return training().set_corpus(p, n < 0 ? 0 : static_cast<size_t>(n), ms) ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE void headroom_train_corpus_failed(const char* why) { training().corpus_failed(why ? why : ""); }
EMSCRIPTEN_KEEPALIVE int headroom_train_has_corpus() { return training().has_corpus() ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE int headroom_train_step(int n) { return training().step(n) ? 1 : 0; }

// Whether step(n) would take n (refused: 0, the reason is the state's error),
// so the driver can run a long step(n) in pieces with a heartbeat between them.
EMSCRIPTEN_KEEPALIVE int headroom_train_steps_ok(int n) {
  if (const headroom::Status s = headroom::check_train_steps(n); !s) {
    training().reject(s);
    return 0;
  }
  return 1;
}

// The step counter (the weights' driver posts them again when it moves).
EMSCRIPTEN_KEEPALIVE double headroom_train_step_count() { return static_cast<double>(training().step_count()); }

EMSCRIPTEN_KEEPALIVE int headroom_train_set_lr(double lr) { return training().set_lr(static_cast<float>(lr)) ? 1 : 0; }

// A head of the text run with `heads` heads knocked out, layer and head from 1
// (LiveTraining::knockout): 1 measured (the state's knockout), 0 refused.
EMSCRIPTEN_KEEPALIVE int headroom_train_knockout(int heads, int layer, int head) {
  return training().knockout(heads, layer, head) ? 1 : 0;
}

// Whole steps of every run until about `ms` milliseconds have passed (at
// least one), and never past step `until` (negative: no such bound; the
// driver's bound when other programs train the other shares of the runs);
// returns the steps taken, 0 when every run has diverged (nothing is left
// to train) or the bound is reached. Curves do not depend on how steps are
// grouped (engine/train/trainer.h "Determinism").
EMSCRIPTEN_KEEPALIVE int headroom_train_for(double ms, double until) {
  headroom::app::LiveTraining& t = training();
  const int64_t before = t.step_count();
  const double end = headroom::app::LiveTraining::steady_ms() + ms;
  do {
    if (until >= 0 && static_cast<double>(t.step_count()) >= until) break;
    if (!t.can_step()) break;
    if (!t.step(1)) break;
  } while (headroom::app::LiveTraining::steady_ms() < end);
  return static_cast<int>(t.step_count() - before);
}

// The share of the roles runs this program trains (part of parts:
// engine/train/trainer.h "Shares"): 1 taken (the runs start afresh holding
// it), 0 refused (the reason is the state's error).
EMSCRIPTEN_KEEPALIVE int headroom_train_share(int part, int parts) {
  return training().set_share({part, parts}) ? 1 : 0;
}

// train.state() as JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_train_state_json() {
  static std::string json;
  json = training().state_json();
  return json.c_str();
}

namespace {
std::string g_wire;  // the last message made, valid until the next
}  // namespace

// The state as bytes (train_wire.h) with the driver's rate and play flag;
// its size is headroom_train_wire_size().
EMSCRIPTEN_KEEPALIVE const char* headroom_train_state_wire(double steps_per_second, int running) {
  g_wire = training().wire_state(steps_per_second, running != 0);
  return g_wire.data();
}

// The weights of the run with `heads` heads (tied or not), or nullptr when
// there is none: the roles task's as weights, the text task's as its model
// (text weights: vocabulary, embeddings, layers; it has no tied runs).
EMSCRIPTEN_KEEPALIVE const char* headroom_train_weights_wire(int heads, int tied) {
  if (training().text_task()) {
    g_wire = tied != 0 ? std::string() : training().wire_text_weights(heads);
    return g_wire.empty() ? nullptr : g_wire.data();
  }
  g_wire = headroom::app::encode_weights(training().trainer(), heads, tied != 0);
  return g_wire.empty() ? nullptr : g_wire.data();
}

EMSCRIPTEN_KEEPALIVE int headroom_train_wire_size() { return static_cast<int>(g_wire.size()); }

// The last refusal as status bytes (train_wire.h encode_status), for the
// page to word in its language (a snapshot it could not make); its size is
// headroom_train_wire_size().
EMSCRIPTEN_KEEPALIVE const char* headroom_train_refusal_wire() {
  g_wire = headroom::app::encode_status(training().refusal());
  return g_wire.data();
}

// train.snapshot(heads, {tieQK}) as JSON, or nullptr (the reason: the state's error).
EMSCRIPTEN_KEEPALIVE const char* headroom_train_snapshot_json(int heads, int tied) {
  static std::string json;
  const headroom::Status s = training().snapshot_json(heads, tied != 0, json);
  if (!s) {
    training().reject(s);
    json.clear();
    return nullptr;
  }
  return json.c_str();
}

}  // extern "C"
