// train_api.cpp: the training program's C functions (headroom-train.wasm),
// which web/headroom-train-worker.js calls inside a dedicated Worker.
//
// Does: own one app::Training (src/app/training.h: the runs of 1, 2 and 4
// heads, the same code and JSON as the page's) and expose its verbs and its
// state as JSON: reset(seed, r, lr, tie), step(n), train_for(ms) (whole steps
// until `ms` have passed: the Worker's continuous play, no frame budget),
// state_json(). Each verb returns 1 when accepted, 0 when refused (the reason
// is the state's error).
// Does not: link ImGui, GL or the page's glue, draw anything, or keep a clock
// of its own beyond Training::steady_ms.
//
// Build: cmake/web.cmake (target headroom_train: headroom-train.js + .wasm).
#include <emscripten.h>

#include <optional>
#include <string>

#include "app/training.h"

namespace {
headroom::app::Training& training() {
  static headroom::app::Training t;
  return t;
}
}  // namespace

extern "C" {

// tie: 1 tied runs beside the untied ones, 0 none, -1 as the last reset;
// any other value is refused (the driver passes 2 for a tieQK that is not a
// boolean).
EMSCRIPTEN_KEEPALIVE int headroom_train_reset(double seed, int r, double lr, int tie) {
  if (tie < -1 || tie > 1) {
    training().reject("tieQK must be true or false");
    return 0;
  }
  const std::optional<bool> t = tie < 0 ? std::nullopt : std::optional<bool>(tie != 0);
  return training().reset(static_cast<int64_t>(seed), r, static_cast<float>(lr), t) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_train_step(int n) { return training().step(n) ? 1 : 0; }

// Whole steps of every run until about `ms` milliseconds have passed (at
// least one); returns the steps taken, 0 when every run has diverged (nothing
// is left to train). Curves do not depend on how steps are grouped
// (engine/train/trainer.h "Determinism").
EMSCRIPTEN_KEEPALIVE int headroom_train_for(double ms) {
  headroom::app::Training& t = training();
  const headroom::Trainer& tr = t.trainer();
  const int64_t before = tr.step_count();
  const double end = headroom::app::Training::steady_ms() + ms;
  do {
    if (tr.next_unit() == headroom::TrainUnit::kNone) break;
    if (!t.step(1)) break;
  } while (headroom::app::Training::steady_ms() < end);
  return static_cast<int>(tr.step_count() - before);
}

EMSCRIPTEN_KEEPALIVE void headroom_train_reject(const char* why) { training().reject(why ? why : "refused"); }

// train.state() as JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_train_state_json() {
  static std::string json;
  json = training().state_json();
  return json.c_str();
}

}  // extern "C"
