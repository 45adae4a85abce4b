// training_json.cpp: train.state() and train.snapshot(heads) as JSON (the
// formats are in training.h).
//
// Does: write the Trainer's numbers with json_write.h (a non-finite number
// would become null, but the Trainer hands out finite numbers only; the tests
// parse every document strictly); write each array as {shape, data} with the
// data row-major, in the float's shortest round-trip form (9 digits).
// Does not: compute anything: losses, floors, weights and gradients all come
// from engine/trainer.h.
#include <initializer_list>

#include "app/json_write.h"
#include "app/training.h"

namespace headroom::app {

namespace {

// {"shape":[...],"data":[...]} for `n` floats at `data`.
void append_tensor(std::string& out, std::initializer_list<long long> shape, const float* data, long long n) {
  out += '{';
  json_key(out, "shape", true);
  append_array(out, shape, [&](long long d) { append_int(out, d); });
  json_key(out, "data");
  out += '[';
  for (long long i = 0; i < n; ++i) {
    if (i) out += ',';
    append_float(out, data[i]);
  }
  out += "]}";
}

// A row-major Mat as a tensor of the given shape (its size must match).
void append_mat(std::string& out, std::initializer_list<long long> shape, const Mat& m) {
  append_tensor(out, shape, m.data(), static_cast<long long>(m.size()));
}

void append_optional_string(std::string& out, const std::string& s) {
  if (s.empty()) {
    out += "null";
  } else {
    append_json_string(out, s);
  }
}

}  // namespace

std::string Training::state_json() const {
  const Trainer& t = trainer_;
  const int R = t.relations();
  std::string out;
  out.reserve(8192);
  out += '{';
  json_key(out, "seed", true);
  append_int(out, t.seed());
  json_key(out, "r");
  append_int(out, R);
  json_key(out, "lr");
  append_float(out, t.lr());
  json_key(out, "step");
  append_int(out, t.step_count());
  json_key(out, "stepsPerSecond");
  append_float(out, steps_per_second());
  json_key(out, "stepsPerFrame");
  append_int(out, running_ ? steps_last_frame() : 0);
  json_key(out, "maxStepsPerFrame");
  append_int(out, max_steps_per_frame_);
  json_key(out, "running");
  out += running_ ? "true" : "false";
  json_key(out, "error");
  append_optional_string(out, error());
  json_key(out, "weights");
  out += '{';
  json_key(out, "choice", true);
  append_json_string(out, choice_);
  json_key(out, "shown");
  append_json_string(out, shown_);
  json_key(out, "note");
  append_optional_string(out, note_);
  out += '}';
  json_key(out, "runs");
  append_array(out, t.runs(), [&](const TrainRun& run) {
    out += '{';
    json_key(out, "heads", true);
    append_int(out, run.heads);
    json_key(out, "loss");
    append_float(out, run.loss());
    json_key(out, "floor");
    append_float(out, run.floor);
    json_key(out, "steps");
    append_int(out, run.steps);
    json_key(out, "diverged");
    out += run.diverged ? "true" : "false";
    json_key(out, "message");
    append_optional_string(out, run.message);
    json_key(out, "history");
    append_array(out, run.history, [&](const EvalPoint& p) {
      out += '[';
      append_int(out, p.step);
      out += ',';
      append_float(out, p.loss);
      out += ']';
    });
    json_key(out, "perHead");
    out += '[';
    for (int h = 0; h < run.heads; ++h) {
      if (h) out += ',';
      out += '{';
      json_key(out, "weightOn", true);
      out += '[';
      for (int r = 0; r < R; ++r) {
        if (r) out += ',';
        append_float(out, run.weight_on(h, r, R));
      }
      out += "]}";
    }
    out += ']';
    out += '}';
  });
  out += '}';
  return out;
}

Status Training::snapshot_json(int heads, std::string& out) const {
  TrainSnapshot s;
  if (Status st = trainer_.snapshot(heads, s); !st) return st;
  const long long B = s.batch, L = s.tokens, D = s.d_model, T = s.outputs;
  out.clear();
  out.reserve(static_cast<size_t>((2 * B * L * D + 8 * D * D) * 13));
  out += '{';
  json_key(out, "heads", true);
  append_int(out, s.heads);
  json_key(out, "step");
  append_int(out, s.step);
  json_key(out, "seed");
  append_int(out, s.seed);
  json_key(out, "r");
  append_int(out, s.relations);
  json_key(out, "X");
  append_mat(out, {B, L, D}, s.x);
  json_key(out, "target");
  append_mat(out, {B, L, T}, s.target);
  json_key(out, "mask");
  append_tensor(out, {B, L}, s.mask.data(), static_cast<long long>(s.mask.size()));
  const std::pair<const char*, const Mat*> weights[] = {{"W_Q", &s.wq}, {"W_K", &s.wk}, {"W_V", &s.wv}, {"W_O", &s.wo}};
  const std::pair<const char*, const Mat*> grads[] = {{"W_Q", &s.gq}, {"W_K", &s.gk}, {"W_V", &s.gv}, {"W_O", &s.go}};
  for (const auto& [name, m] : weights) {
    json_key(out, name);
    append_mat(out, {D, D}, *m);
  }
  json_key(out, "lossScale");
  append_float(out, s.loss_scale);
  json_key(out, "loss");
  append_float(out, s.loss);
  json_key(out, "grads");
  out += '{';
  bool first = true;
  for (const auto& [name, m] : grads) {
    json_key(out, name, first);
    first = false;
    append_mat(out, {D, D}, *m);
  }
  out += "}}";
  return Status::ok();
}

}  // namespace headroom::app
