// live_training_tests.cpp: the app's live training: verbs refuse bad values and
// keep the previous ones, step(n) and tick() train what they say, the frame
// budget and reduced motion hold under a fake clock, divergence stops a run
// with a message and reset recovers, the Scene shows the chosen weights, and
// the JSON documents are what a host parses: state() strictly valid and
// finite, snapshot(heads) recomputable by anyone (its loss by a naive double
// loop here, its gradients by central finite differences of that loss).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/training/live_training.h"
#include "json_read.h"

using namespace headroom;
using namespace headroom::app;

namespace {

// A clock that moves only when read: every read advances it by `tick` ms,
// as if each step took that long; tests move it further by hand.
struct StepClock {
  double t = 0, tick = 0;
};
LiveTraining::Clock clock_of(StepClock& c) {
  return [&c] {
    c.t += c.tick;
    return c.t;
  };
}

jsonr::Value parse_state(const LiveTraining& t) {
  jsonr::Value v;
  size_t where = 0;
  const std::string s = t.state_json();
  REQUIRE_MESSAGE(jsonr::parse(s, v, &where), "state() is not JSON near byte " << where << ": " << s.substr(where, 60));
  return v;
}

std::string history_of(const jsonr::Value& state) {
  std::string out;
  for (const auto& run : state["runs"].items)
    for (const auto& p : run["history"].items) out += std::to_string(p[0].num) + ":" + std::to_string(p[1].num) + " ";
  return out;
}

}  // namespace

TEST_CASE("state(): the documented fields, runs of 1, 2 and 4 heads with their floors, valid JSON") {
  StepClock c;
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(5, 2, 3e-3f).is_ok());
  const jsonr::Value s = parse_state(t);
  CHECK(s["seed"].num == 5);
  CHECK(s["r"].num == 2);
  CHECK(s["step"].num == 0);
  CHECK(s["running"].kind == jsonr::Value::Bool);
  CHECK(s["stepsPerSecond"].num == 0);
  CHECK(s["error"].kind == jsonr::Value::Null);
  CHECK(s["weights"]["choice"].str == "built");
  REQUIRE(s["runs"].size() == 3);
  const int heads[] = {1, 2, 4};
  const double floors[] = {0.5, 0.0, 0.0};  // 1 - min(H, R) / R, R = 2
  for (size_t i = 0; i < 3; ++i) {
    const jsonr::Value& run = s["runs"][i];
    CHECK(run["heads"].num == heads[i]);
    CHECK(run["floor"].num == doctest::Approx(floors[i]));
    REQUIRE(run["history"].size() >= 1);
    CHECK(run["history"][0][0].num == 0);
    CHECK(run["history"][0][1].num == doctest::Approx(run["loss"].num));
    REQUIRE(run["perHead"].size() == static_cast<size_t>(heads[i]));
    for (const auto& h : run["perHead"].items) {
      REQUIRE(h["weightOn"].size() == 2);
      for (const auto& w : h["weightOn"].items) CHECK((w.num >= 0 && w.num <= 1));
    }
  }
  REQUIRE(t.reset(5, 4, 3e-3f).is_ok());
  const jsonr::Value s4 = parse_state(t);
  const double floors4[] = {0.75, 0.5, 0.0};
  for (size_t i = 0; i < 3; ++i) {
    CHECK(s4["runs"][i]["floor"].num == doctest::Approx(floors4[i]));
    CHECK(s4["runs"][i]["perHead"][0]["weightOn"].size() == 4);
  }
}

TEST_CASE("refused values keep the previous ones and say why") {
  StepClock c;
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(9, 2, 1e-2f).is_ok());
  REQUIRE(t.step(3).is_ok());
  const std::string before = t.state_json();
  struct Bad {
    const char* what;
    Status s;
  };
  const Bad bad[] = {
      {"seed -1", t.reset(-1, 2, 1e-2f)},
      {"seed 2^32", t.reset(int64_t{1} << 32, 2, 1e-2f)},
      {"r 3", t.reset(9, 3, 1e-2f)},
      {"lr 0", t.reset(9, 2, 0.f)},
      {"lr NaN", t.reset(9, 2, std::nanf(""))},
      {"lr 1e9", t.set_lr(1e9f)},
      {"n 0", t.step(0)},
      {"n too many", t.step(kMaxStepsPerCall + 1)},
      {"speed 0", t.set_max_steps_per_frame(0)},
      {"speed 10000", t.set_max_steps_per_frame(10000)},
      {"weights", t.set_weights("learned")},
  };
  for (const Bad& b : bad) {
    CAPTURE(b.what);
    CHECK_FALSE(b.s.is_ok());
    CHECK(!b.s.error.empty());
  }
  // Nothing moved: the same document but for the last message.
  jsonr::Value now = parse_state(t), was;
  REQUIRE(jsonr::parse(before, was));
  CHECK(now["error"].str.find("weights") != std::string::npos);
  for (const char* k : {"seed", "r", "lr", "step", "maxStepsPerFrame"}) {
    CAPTURE(k);
    CHECK(now[k].num == was[k].num);
  }
  CHECK(history_of(now) == history_of(was));
  // An accepted verb clears the message.
  REQUIRE(t.step(1).is_ok());
  CHECK(parse_state(t)["error"].kind == jsonr::Value::Null);
}

TEST_CASE("step(n) trains n steps of every run; the same seed gives the same curve, another seed another") {
  StepClock c;
  LiveTraining a(clock_of(c)), b(clock_of(c)), other(clock_of(c));
  REQUIRE(a.reset(42, 2, 1e-2f).is_ok());
  REQUIRE(b.reset(42, 2, 1e-2f).is_ok());
  REQUIRE(other.reset(43, 2, 1e-2f).is_ok());
  REQUIRE(a.step(3).is_ok());
  REQUIRE(b.step(1).is_ok());  // chunked differently: the same steps
  REQUIRE(b.step(2).is_ok());
  REQUIRE(other.step(3).is_ok());
  const jsonr::Value sa = parse_state(a), sb = parse_state(b), so = parse_state(other);
  CHECK(sa["step"].num == 3);
  for (const auto& run : sa["runs"].items) CHECK(run["steps"].num == 3);
  CHECK(history_of(sa) == history_of(sb));
  CHECK(history_of(sa) != history_of(so));
  // Training lowers the two-head loss from its start.
  const jsonr::Value& two = sa["runs"][1];
  CHECK(two["loss"].num < two["history"][0][1].num);
}

TEST_CASE("tick: paused trains nothing; running fits units into the frame budget, counts whole steps, measures steps/s") {
  StepClock c;
  c.tick = 4.0;  // every clock read is 4 ms later, as if each unit took 4 ms
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(1, 2, 3e-3f).is_ok());
  CHECK_FALSE(t.tick(false));  // paused
  CHECK(t.trainer().step_count() == 0);
  REQUIRE(t.play().is_ok());
  CHECK(t.running());
  // The pacer reads the clock at its start and after each unit. With 4 ms a
  // unit it stops once 4 n + 4 > 12: after 3 units, the three runs' training
  // steps of step 1; its held-out evaluation (steps 1..8 are evaluated) waits
  // for the next frame, so no step is complete and the chart has no step 1.
  CHECK(t.tick(false));
  CHECK(t.units_last_frame() == 3);
  CHECK(t.steps_last_frame() == 0);
  CHECK(t.trainer().step_count() == 0);
  CHECK(t.trainer().mid_step());
  // Trained but not yet counted: a run counts step 1 once its held-out check
  // has passed (so a check that fails never takes a step back).
  Trainer untrained;
  REQUIRE(untrained.reset(1, 2, 3e-3f).is_ok());
  for (int heads : kTrainHeads) {
    CHECK(t.trainer().run(heads)->steps == 0);
    CHECK(t.trainer().weights(heads)->wo != untrained.weights(heads)->wo);
  }
  CHECK(t.trainer().runs()[1].history.size() == 1u);
  CHECK(parse_state(t)["stepsPerFrame"].num == 0);
  CHECK(t.pacer().estimate_ms(0) == doctest::Approx(4.0));
  // The next frame goes on with the evaluation: 3 chunks of 4 ms (the first
  // measured, then predicted at 4), one per run (step 1 is before
  // kFullEvalFrom: the held-out subset is one chunk), so step 1 completes.
  CHECK(t.tick(false));
  CHECK(t.units_last_frame() == 3);
  CHECK(t.steps_last_frame() == 1);
  CHECK(t.trainer().step_count() == 1);
  CHECK(t.trainer().next_unit() == TrainUnit::kTrain);
  for (const TrainRun& run : t.trainer().runs()) CHECK(run.steps == 1);
  CHECK(t.pacer().estimate_ms(1) == doctest::Approx(4.0));
  // A frame of step 2's training units: a step in progress again.
  CHECK(t.tick(false));
  CHECK(t.units_last_frame() == 3);
  CHECK(t.trainer().mid_step());
  // Free units: the speed cap (in whole steps) ends the frame; the step in
  // progress counts as one.
  c.tick = 0;
  REQUIRE(t.set_max_steps_per_frame(5).is_ok());
  CHECK(t.tick(false));
  CHECK(t.steps_last_frame() == 5);
  CHECK(t.trainer().step_count() == 6);
  CHECK_FALSE(t.trainer().mid_step());
  CHECK(t.chart_step() == 6);
  REQUIRE(t.set_max_steps_per_frame(1).is_ok());
  CHECK(t.tick(false));
  CHECK(t.trainer().step_count() == 7);
  // Frames 250 ms apart, one step each, for 1.5 s: about 4 steps/s.
  const int64_t s0 = t.trainer().step_count();
  const double t_start = c.t + 1000;  // after a pause in frames: a new window
  for (int f = 0; f <= 6; ++f) {
    c.t = t_start + f * 250.0;
    t.tick(false);
  }
  CHECK(t.trainer().step_count() - s0 == 7);
  CHECK(t.steps_per_second() == doctest::Approx(4.0).epsilon(0.01));  // the 4 steps after the first, in 1 s
  CHECK(parse_state(t)["stepsPerSecond"].num == doctest::Approx(t.steps_per_second()));
  // Paused: no frames wanted, nothing trained, rate 0.
  t.pause();
  const int64_t s1 = t.trainer().step_count();
  CHECK_FALSE(t.tick(false));
  CHECK(t.trainer().step_count() == s1);
  CHECK(parse_state(t)["running"].b == false);
  CHECK(t.steps_per_second() == 0);
}

TEST_CASE("reduced motion trains every frame but updates the chart at most 4 times a second") {
  for (bool reduced : {false, true}) {
    CAPTURE(reduced);
    StepClock c;
    LiveTraining t(clock_of(c));
    REQUIRE(t.reset(1, 2, 3e-3f).is_ok());
    REQUIRE(t.set_max_steps_per_frame(1).is_ok());
    REQUIRE(t.play().is_ok());
    const long long u0 = t.chart_updates();
    for (int f = 0; f < 6; ++f) {  // 10 Hz frames for half a second (slow ones: each trains)
      c.t = f * 100.0;
      CHECK(t.tick(reduced));
    }
    CHECK(t.trainer().step_count() == 6);  // trained every frame either way
    const long long updates = t.chart_updates() - u0;
    if (reduced) {
      CHECK(updates == 2);  // at 0 and 300 ms: never two within 250 ms
      CHECK(t.chart_step() == 4);  // the step published at 300 ms, not the latest
    } else {
      CHECK(updates == 6);
      CHECK(t.chart_step() == 6);
    }
  }
}

TEST_CASE("a learning rate that diverges stops the runs with the step and the rate; reset recovers") {
  StepClock c;  // units cost nothing: the cap of one step ends each frame
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(3, 2, kMaxLr).is_ok());
  REQUIRE(t.set_max_steps_per_frame(1).is_ok());
  REQUIRE(t.play().is_ok());
  bool wants = true;
  for (int f = 0; f < 20 && wants; ++f) wants = t.tick(false);
  REQUIRE_FALSE(wants);  // every run diverged, so the tick stopped asking for frames
  CHECK_FALSE(t.running());
  const jsonr::Value s = parse_state(t);  // strict parse: no NaN, no Infinity
  for (const auto& run : s["runs"].items) {
    CAPTURE(run["message"].str);
    CHECK(run["diverged"].b);
    CHECK(run["message"].str.find("step") != std::string::npos);
    CHECK(run["message"].str.find("lr 10") != std::string::npos);  // the rate it diverged at
    CHECK(std::isfinite(run["loss"].num));
  }
  CHECK(s["error"].str.find("step") != std::string::npos);
  CHECK_FALSE(t.play().is_ok());  // nothing left to train
  REQUIRE(t.reset(3, 2, 3e-3f).is_ok());
  const jsonr::Value r = parse_state(t);
  CHECK(r["error"].kind == jsonr::Value::Null);
  for (const auto& run : r["runs"].items) CHECK_FALSE(run["diverged"].b);
  CHECK(t.play().is_ok());
  CHECK(t.tick(false));
  CHECK(t.trainer().step_count() == 1);
}

TEST_CASE("weights 'trained' drive the scene; a head count with no run says so and shows built weights") {
  StepClock c;
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(11, 2, 1e-2f).is_ok());
  REQUIRE(t.step(2).is_ok());
  Scene scene;
  REQUIRE(scene.set_heads(2).is_ok());
  const Mat built_out = scene.trace().out;
  t.sync_scene(scene);  // "built" by default
  CHECK_FALSE(scene.weights_overridden());
  REQUIRE(t.set_weights("trained").is_ok());
  t.sync_scene(scene);
  CHECK(scene.weights_overridden());
  CHECK(t.weights_shown() == "trained");
  CHECK(t.weights_note().is_ok());
  const AttentionWeights* w = t.trainer().weights(2);
  REQUIRE(w != nullptr);
  CHECK(scene.weights().wq[1] == w->wq[1]);
  CHECK(scene.weights().wo == w->wo);
  CHECK((scene.trace().out - built_out).norm() > 1e-3f);
  // More training: the scene follows.
  const Mat before = scene.weights().wq[0];
  REQUIRE(t.step(1).is_ok());
  t.sync_scene(scene);
  CHECK(scene.weights().wq[0] == t.trainer().weights(2)->wq[0]);
  CHECK(scene.weights().wq[0] != before);
  // Heads follow: 4 has a run, 8 has none and says so.
  REQUIRE(scene.set_heads(4).is_ok());
  t.sync_scene(scene);
  CHECK(scene.weights().wq[3] == t.trainer().weights(4)->wq[3]);
  REQUIRE(scene.set_heads(8).is_ok());
  t.sync_scene(scene);
  CHECK_FALSE(scene.weights_overridden());
  CHECK(t.weights_shown() == "built");
  CHECK(t.weights_note().error.find("8 heads") != std::string::npos);
  const jsonr::Value s = parse_state(t);
  CHECK(s["weights"]["shown"].str == "built");
  CHECK(s["weights"]["note"].str.find("built") != std::string::npos);
  // Back to built.
  REQUIRE(scene.set_heads(1).is_ok());
  REQUIRE(t.set_weights("built").is_ok());
  t.sync_scene(scene);
  CHECK_FALSE(scene.weights_overridden());
  CHECK(t.weights_note().is_ok());
}

//-----------------------------------------------------------------------------
// snapshot(heads): recomputed from its own numbers, as a numpy user would
//-----------------------------------------------------------------------------
namespace {

struct Tensor {
  std::vector<long long> shape;
  std::vector<double> data;
};
Tensor tensor(const jsonr::Value& v) {
  Tensor t;
  for (const auto& d : v["shape"].items) t.shape.push_back(static_cast<long long>(d.num));
  for (const auto& x : v["data"].items) t.data.push_back(x.num);
  return t;
}

struct Snap {
  int heads = 0;
  long long B = 0, L = 0, D = 0, T = 0;
  Tensor x, target, mask, wq, wk, wv, wo;
  double loss_scale = 0;
};

// The documented model, in double, by plain loops:
//   Q = X W_Q, K = X W_K, V = X W_V; per head h (columns h*dh..):
//   P = softmax(Q_h K_h^T / sqrt(dh)), O_h = P V_h; Y = concat(O_h) W_O;
//   loss = sum_masked |Y - target|^2 / (masked * T * lossScale).
double naive_loss(const Snap& s) {
  const long long B = s.B, L = s.L, D = s.D, T = s.T, dh = D / s.heads;
  double sum = 0;
  long long masked = 0;
  std::vector<double> q(L * D), k(L * D), v(L * D), o(L * D), p(L);
  for (long long b = 0; b < B; ++b) {
    const double* x = &s.x.data[b * L * D];
    for (long long i = 0; i < L; ++i)
      for (long long c = 0; c < D; ++c) {
        double aq = 0, ak = 0, av = 0;
        for (long long e = 0; e < D; ++e) {
          aq += x[i * D + e] * s.wq.data[e * D + c];
          ak += x[i * D + e] * s.wk.data[e * D + c];
          av += x[i * D + e] * s.wv.data[e * D + c];
        }
        q[i * D + c] = aq, k[i * D + c] = ak, v[i * D + c] = av;
      }
    for (long long h = 0; h < s.heads; ++h)
      for (long long i = 0; i < L; ++i) {
        double mx = -1e300;
        for (long long j = 0; j < L; ++j) {
          double d = 0;
          for (long long c = h * dh; c < (h + 1) * dh; ++c) d += q[i * D + c] * k[j * D + c];
          p[j] = d / std::sqrt(static_cast<double>(dh));
          if (p[j] > mx) mx = p[j];
        }
        double z = 0;
        for (long long j = 0; j < L; ++j) z += (p[j] = std::exp(p[j] - mx));
        for (long long c = h * dh; c < (h + 1) * dh; ++c) {
          double a = 0;
          for (long long j = 0; j < L; ++j) a += p[j] / z * v[j * D + c];
          o[i * D + c] = a;
        }
      }
    for (long long i = 0; i < L; ++i) {
      if (s.mask.data[b * L + i] == 0) continue;
      ++masked;
      for (long long t = 0; t < T; ++t) {
        double y = 0;
        for (long long c = 0; c < D; ++c) y += o[i * D + c] * s.wo.data[c * T + t];
        const double e = y - s.target.data[(b * L + i) * T + t];
        sum += e * e;
      }
    }
  }
  return sum / (static_cast<double>(masked) * T * s.loss_scale);
}

// A snapshot's numbers, read from its JSON, with the shapes checked.
Snap snap_of(const jsonr::Value& v, int heads) {
  Snap s;
  s.heads = heads;
  s.x = tensor(v["X"]);
  s.target = tensor(v["target"]);
  s.mask = tensor(v["mask"]);
  s.wq = tensor(v["W_Q"]), s.wk = tensor(v["W_K"]), s.wv = tensor(v["W_V"]), s.wo = tensor(v["W_O"]);
  s.loss_scale = v["lossScale"].num;
  REQUIRE(s.x.shape.size() == 3);
  s.B = s.x.shape[0], s.L = s.x.shape[1], s.D = s.x.shape[2];
  s.T = s.target.shape[2];
  CHECK(s.x.data.size() == static_cast<size_t>(s.B * s.L * s.D));
  CHECK(s.target.shape == std::vector<long long>{s.B, s.L, s.T});
  CHECK(s.mask.shape == std::vector<long long>{s.B, s.L});
  CHECK(s.wq.shape == std::vector<long long>{s.D, s.D});
  CHECK(s.wo.shape == std::vector<long long>{s.D, s.T});
  return s;
}

size_t argmax_abs(const std::vector<double>& xs) {
  size_t best = 0;
  for (size_t i = 1; i < xs.size(); ++i)
    if (std::fabs(xs[i]) > std::fabs(xs[best])) best = i;
  return best;
}

}  // namespace

TEST_CASE("snapshot(heads): its loss and gradients recomputed from its own X, target, mask and weights") {
  StepClock c;
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(21, 2, 1e-2f).is_ok());
  REQUIRE(t.step(4).is_ok());
  std::string json;
  CHECK_FALSE(t.snapshot_json(8, json).is_ok());  // no 8-head run
  for (int heads : {1, 2}) {
    CAPTURE(heads);
    REQUIRE(t.snapshot_json(heads, json).is_ok());
    jsonr::Value v;
    REQUIRE(jsonr::parse(json, v));
    CHECK(v["heads"].num == heads);
    CHECK(v["step"].num == 4);
    CHECK(v["seed"].num == 21);
    CHECK(v["r"].num == 2);
    CHECK(v.get("W_R") == nullptr);  // no readout: T = D
    CHECK(v["tieQK"].kind == jsonr::Value::Bool);
    CHECK_FALSE(v["tieQK"].b);
    Snap s = snap_of(v, heads);
    const double loss = naive_loss(s);
    CHECK(loss == doctest::Approx(v["loss"].num).epsilon(1e-4));
    CHECK(loss < 1.5);  // a sane value: predicting zero scores 1

    // Central finite differences of the naive loss in the coordinate where
    // each gradient is largest (so float noise cannot hide a wrong layout).
    struct Which {
      const char* name;
      Tensor* w;
    };
    for (const Which& which : {Which{"W_Q", &s.wq}, Which{"W_V", &s.wv}, Which{"W_O", &s.wo}}) {
      CAPTURE(which.name);
      const Tensor g = tensor(v["grads"][which.name]);
      REQUIRE(g.shape == std::vector<long long>{s.D, s.D});
      const size_t i = argmax_abs(g.data);
      const double keep = which.w->data[i], eps = 1e-3;
      which.w->data[i] = keep + eps;
      const double up = naive_loss(s);
      which.w->data[i] = keep - eps;
      const double down = naive_loss(s);
      which.w->data[i] = keep;
      const double fd = (up - down) / (2 * eps);
      CAPTURE(i);
      CHECK(std::fabs(g.data[i]) > 1e-6);
      CHECK(fd == doctest::Approx(g.data[i]).epsilon(2e-2));
    }
  }
}

TEST_CASE("snapshot(heads, tied): W_K is W_Q, grads.W_Q is the shared matrix's gradient, no grads.W_K") {
  StepClock c;
  LiveTraining t(clock_of(c));
  REQUIRE(t.reset(21, 2, 1e-2f, true).is_ok());
  REQUIRE(t.step(3).is_ok());
  std::string json;
  for (int heads : {1, 2}) {
    CAPTURE(heads);
    REQUIRE(t.snapshot_json(heads, true, json).is_ok());
    jsonr::Value v;
    REQUIRE(jsonr::parse(json, v));
    CHECK(v["tieQK"].kind == jsonr::Value::Bool);
    CHECK(v["tieQK"].b);
    CHECK(v["step"].num == 3);
    CHECK(v["grads"].get("W_K") == nullptr);
    REQUIRE(v["grads"].get("W_Q") != nullptr);
    Snap s = snap_of(v, heads);
    CHECK(s.wk.data == s.wq.data);  // the same numbers, written twice
    CHECK(naive_loss(s) == doctest::Approx(v["loss"].num).epsilon(1e-4));
    // The shared matrix moves W_Q and W_K together: the finite difference
    // that moves both is grads.W_Q; moving W_Q alone is a different number
    // (so a snapshot that wrote the untied dW_Q would fail here).
    // Directional derivatives along a fixed pseudo-random direction U: moving
    // the shared matrix (W_Q and W_K together) by eps U changes the naive
    // loss by eps <grads.W_Q, U>; moving W_Q alone gives another number (so a
    // snapshot that wrote the untied dW_Q would fail here).
    const Tensor g = tensor(v["grads"]["W_Q"]);
    std::vector<double> u(g.data.size());
    uint32_t state = 12345;
    for (double& x : u) {
      state = state * 1664525u + 1013904223u;
      x = static_cast<double>(state >> 8) / static_cast<double>(1u << 24) * 2 - 1;
    }
    const std::vector<double> wq0 = s.wq.data;
    auto loss_at = [&](double eq, double ek) {
      for (size_t k = 0; k < u.size(); ++k) s.wq.data[k] = wq0[k] + eq * u[k], s.wk.data[k] = wq0[k] + ek * u[k];
      const double l = naive_loss(s);
      s.wq.data = wq0, s.wk.data = wq0;
      return l;
    };
    double predicted = 0;
    for (size_t k = 0; k < u.size(); ++k) predicted += g.data[k] * u[k];
    const double eps = 1e-4;
    const double both = (loss_at(eps, eps) - loss_at(-eps, -eps)) / (2 * eps);
    const double q_only = (loss_at(eps, 0) - loss_at(-eps, 0)) / (2 * eps);
    CAPTURE(predicted);
    CAPTURE(q_only);
    CHECK(std::fabs(predicted) > 1e-4);
    CHECK(both == doctest::Approx(predicted).epsilon(1e-2));
    CHECK(std::fabs(q_only - predicted) > 0.1 * std::fabs(predicted));
  }
  // The untied runs beside them keep their own snapshot (W_K not W_Q).
  REQUIRE(t.snapshot_json(2, false, json).is_ok());
  jsonr::Value u;
  REQUIRE(jsonr::parse(json, u));
  CHECK_FALSE(u["tieQK"].b);
  CHECK(u["grads"].get("W_K") != nullptr);
  CHECK(tensor(u["W_K"]).data != tensor(u["W_Q"]).data);
  // No tied run without the tie: refused, and the message says why.
  REQUIRE(t.reset(21, 2, 1e-2f, false).is_ok());
  const Status s = t.snapshot_json(2, true, json);
  CHECK_FALSE(s.is_ok());
  CHECK(s.error.find("tied") != std::string::npos);
}

TEST_CASE("state() with the tie: tieQK on top and per run, runs untied 1, 2, 4 then tied 1, 2, 4") {
  StepClock c;
  LiveTraining t(clock_of(c));
  jsonr::Value s = parse_state(t);
  CHECK(s["tieQK"].kind == jsonr::Value::Bool);
  CHECK_FALSE(s["tieQK"].b);
  REQUIRE(s["runs"].size() == 3);
  for (const auto& run : s["runs"].items) CHECK_FALSE(run["tieQK"].b);
  REQUIRE(t.reset(3, 4, 1e-2f, true).is_ok());
  CHECK(t.tie_qk());
  s = parse_state(t);
  CHECK(s["tieQK"].b);
  REQUIRE(s["runs"].size() == 6);
  const int heads[] = {1, 2, 4, 1, 2, 4};
  const double floors[] = {0.75, 0.5, 0.0, 0.75, 0.5, 0.0};
  for (size_t i = 0; i < 6; ++i) {
    CAPTURE(i);
    const jsonr::Value& run = s["runs"][i];
    CHECK(run["heads"].num == heads[i]);
    CHECK(run["tieQK"].b == (i >= 3));
    CHECK(run["floor"].num == doctest::Approx(floors[i]));
    REQUIRE(run["perHead"].size() == static_cast<size_t>(heads[i]));
    for (const auto& h : run["perHead"].items) CHECK(h["weightOn"].size() == 4);
  }
  // Same seed, same batches, same start: at step 0 a 1-head tied run's loss
  // differs from the untied one only through W_K := W_Q.
  CHECK(s["runs"][0]["loss"].num != s["runs"][3]["loss"].num);
  // A reset without the tie argument keeps the recorded tie; set_tie_qk only
  // records it for the next reset.
  REQUIRE(t.reset(4, 2, 1e-2f).is_ok());
  CHECK(parse_state(t)["runs"].size() == 6);
  t.set_tie_qk(false);
  CHECK(parse_state(t)["runs"].size() == 6);  // runs in progress keep going
  CHECK(parse_state(t)["tieQK"].b);
  REQUIRE(t.reset(4, 2, 1e-2f).is_ok());
  s = parse_state(t);
  CHECK(s["runs"].size() == 3);
  CHECK_FALSE(s["tieQK"].b);
  // A refused reset keeps the recorded tie and the runs.
  CHECK_FALSE(t.reset(4, 3, 1e-2f, true).is_ok());
  CHECK_FALSE(t.tie_qk());
  CHECK(parse_state(t)["runs"].size() == 3);
}
