// fuzz_training.cpp: libFuzzer target for live training as a state machine
// (app/training/live_training.h): random sequences of its verbs with random values.
//
// Does: read the input as a program of verbs (reset, step, set_lr, play,
// pause, the speed cap, the weights choice, a frame tick, snapshot) with
// values drawn from the bytes (every float bit pattern, out-of-range counts
// and seeds, garbage choices), run it on one LiveTraining with a deterministic
// clock, and after every verb parse train.state() with a strict JSON reader
// (tests/app/json_read.h) and check:
// - every number is present and finite (no NaN or Inf anywhere; a null in a
//   number's place fails);
// - the step counter, and each run's steps, never go back except on a reset
//   that was accepted;
// - a diverged run stays diverged, its steps frozen, until a reset;
// - every history is sorted by step, strictly, and starts at step 0;
// - a refused verb changed nothing but `error` (which then names why);
// - a snapshot's loss, recomputed in double from the snapshot's own JSON
//   arrays (as a host would with numpy), equals the loss it reports (first
//   snapshot of each input only: the naive loop is slow).
// Does not: run in the normal build (see fuzz.cmake); run long (an input runs
// at most 4 training steps); start each input afresh (see the note on `t`: a
// crash found after a long run may need the inputs before it to reproduce).
//
// Run: ./build.sh fuzz   (or build/native-asan/fuzz_training <corpus dirs>)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../app/json_read.h"
#include "app/training/live_training.h"

#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) __builtin_trap(); \
  } while (0)

using namespace headroom;
using namespace headroom::app;

namespace {

struct Bytes {
  const uint8_t* p;
  size_t n;
  uint8_t u8() { return n ? (--n, *p++) : 0; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) v = v << 8 | u8();
    return v;
  }
  float f32() {
    // half the time a value near the documented range, else any bit pattern
    const uint8_t how = u8();
    const uint32_t bits = u32();
    if (how & 1) {
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    static const float kNear[] = {1e-6f, 1e-3f, 1e-2f, 0.1f, 1.f, 10.f, 0.f, -1.f, 9.9999e-7f, 10.0001f, 100.f};
    return kNear[bits % (sizeof kNear / sizeof kNear[0])];
  }
};

bool is_number(const jsonr::Value& v) { return v.kind == jsonr::Value::Number && std::isfinite(v.num); }

struct Seen {
  double step = 0;
  std::vector<double> run_steps;
  std::vector<bool> diverged;
};

// Parses train.state() and checks the invariants that hold in any state.
jsonr::Value checked_state(const LiveTraining& t) {
  jsonr::Value s;
  FUZZ_CHECK(jsonr::parse(t.state_json(), s));
  for (const char* k : {"seed", "r", "lr", "step", "stepsPerSecond", "stepsPerFrame", "maxStepsPerFrame"})
    FUZZ_CHECK(is_number(s[k]));
  FUZZ_CHECK(s["error"].kind == jsonr::Value::Null || (s["error"].kind == jsonr::Value::String && !s["error"].str.empty()));
  const jsonr::Value& runs = s["runs"];
  FUZZ_CHECK(runs.kind == jsonr::Value::Array && runs.size() > 0);
  for (const jsonr::Value& run : runs.items) {
    for (const char* k : {"heads", "loss", "floor", "steps"}) FUZZ_CHECK(is_number(run[k]));
    const jsonr::Value& h = run["history"];
    FUZZ_CHECK(h.kind == jsonr::Value::Array && h.size() >= 1);
    FUZZ_CHECK(h[0][0].num == 0);
    for (size_t i = 0; i < h.size(); ++i) {
      FUZZ_CHECK(h[i].size() == 2 && is_number(h[i][0]) && is_number(h[i][1]));
      if (i) FUZZ_CHECK(h[i][0].num > h[i - 1][0].num);
    }
    FUZZ_CHECK(run["perHead"].size() == static_cast<size_t>(run["heads"].num));
    for (const jsonr::Value& head : run["perHead"].items) {
      FUZZ_CHECK(head["weightOn"].size() == static_cast<size_t>(s["r"].num));
      for (const jsonr::Value& w : head["weightOn"].items) FUZZ_CHECK(is_number(w) && w.num >= 0 && w.num <= 1.0001);
    }
  }
  return s;
}

// Everything in a state but the fields a refusal may change (error) or that
// measure time (stepsPerSecond): a refused verb must leave this alone.
std::string without_error(const LiveTraining& t) {
  std::string s = t.state_json();
  const jsonr::Value v = checked_state(t);
  std::string out;
  for (const auto& [k, val] : v.fields) {
    if (k == "error" || k == "stepsPerSecond") continue;
    out += k;
    out += ':';
    // re-serialise cheaply: the runs' numbers and the scalars are enough
    if (val.kind == jsonr::Value::Number) out += std::to_string(val.num);
  }
  const size_t runs = s.find("\"runs\"");
  out += s.substr(runs);
  return out;
}

// The task loss of a snapshot, recomputed in double from its JSON arrays.
double naive_snapshot_loss(const jsonr::Value& s) {
  const int B = static_cast<int>(s["X"]["shape"][0].num), L = static_cast<int>(s["X"]["shape"][1].num),
            D = static_cast<int>(s["X"]["shape"][2].num), T = static_cast<int>(s["target"]["shape"][2].num);
  const int H = static_cast<int>(s["heads"].num), dh = D / H;
  auto at = [](const jsonr::Value& t, size_t i) { return t["data"][i].num; };
  const jsonr::Value &X = s["X"], &Y = s["target"], &M = s["mask"];
  const jsonr::Value &WQ = s["W_Q"], &WK = s["W_K"], &WV = s["W_V"], &WO = s["W_O"];
  std::vector<double> q(L * D), k(L * D), v(L * D), cat(L * D), p(L);
  double sum = 0;
  int masked = 0;
  for (int b = 0; b < B; ++b) {
    for (int i = 0; i < L; ++i)
      for (int c = 0; c < D; ++c) {
        double sq = 0, sk = 0, sv = 0;
        for (int e = 0; e < D; ++e) {
          const double x = at(X, (static_cast<size_t>(b) * L + i) * D + e);
          sq += x * at(WQ, static_cast<size_t>(e) * D + c);
          sk += x * at(WK, static_cast<size_t>(e) * D + c);
          sv += x * at(WV, static_cast<size_t>(e) * D + c);
        }
        q[i * D + c] = sq, k[i * D + c] = sk, v[i * D + c] = sv;
      }
    for (int h = 0; h < H; ++h)
      for (int i = 0; i < L; ++i) {
        double mx = -1e300;
        for (int j = 0; j < L; ++j) {
          double d = 0;
          for (int c = h * dh; c < (h + 1) * dh; ++c) d += q[i * D + c] * k[j * D + c];
          p[j] = d / std::sqrt(static_cast<double>(dh));
          mx = std::max(mx, p[j]);
        }
        double z = 0;
        for (int j = 0; j < L; ++j) z += (p[j] = std::exp(p[j] - mx));
        for (int c = h * dh; c < (h + 1) * dh; ++c) {
          double o = 0;
          for (int j = 0; j < L; ++j) o += p[j] / z * v[j * D + c];
          cat[i * D + c] = o;
        }
      }
    for (int i = 0; i < L; ++i) {
      if (at(M, static_cast<size_t>(b) * L + i) == 0) continue;
      ++masked;
      for (int c = 0; c < T; ++c) {
        double y = 0;
        for (int e = 0; e < D; ++e) y += cat[i * D + e] * at(WO, static_cast<size_t>(e) * D + c);
        const double d = y - at(Y, (static_cast<size_t>(b) * L + i) * T + c);
        sum += d * d;
      }
    }
  }
  return sum / (masked * static_cast<double>(T) * s["lossScale"].num);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // One LiveTraining for the whole run: a fresh one (its reset builds and
  // evaluates the held-out set) costs about 0.5 s under ASan, so an input
  // starts where the last one left it, and the invariants are checked against
  // that state. Each clock read is 5 ms later, so the pacer sees every unit as
  // costly and a tick runs one or two of them: an input stays fast.
  static double clock = 0;
  static LiveTraining t([] { return clock += 5.0; });
  Bytes in{data, size};
  jsonr::Value state = checked_state(t);
  Seen seen{state["step"].num, {}, {}};
  auto remember = [&](const jsonr::Value& s) {
    seen.step = s["step"].num;
    seen.run_steps.clear();
    seen.diverged.clear();
    for (const jsonr::Value& run : s["runs"].items) {
      seen.run_steps.push_back(run["steps"].num);
      seen.diverged.push_back(run["diverged"].b);
    }
  };
  remember(state);
  bool snapshot_checked = false;
  int steps_left = 4;  // training steps this input may still run

  for (int verb = 0; verb < 24 && in.n; ++verb) {
    const std::string before = without_error(t);
    Status st = Status::ok();
    bool is_reset = false;
    switch (in.u8() % 9) {
      case 0: {
        is_reset = true;
        const int64_t seed = static_cast<int64_t>(in.u32()) - (in.u8() & 1 ? 5 : 0);
        const int r = in.u8() % 6;
        st = t.reset(seed, r, in.f32());
        break;
      }
      case 1: {
        const uint8_t b = in.u8();
        int n = b < 200 ? b % 4 : (b < 230 ? -static_cast<int>(b) : 10001 + b);
        if (n >= 1 && n <= kMaxStepsPerCall) {
          n = std::min(n, steps_left);
          if (n == 0) break;
          steps_left -= n;
        }
        st = t.step(n);
        break;
      }
      case 2: st = t.set_lr(in.f32()); break;
      case 3: st = t.play(); break;
      case 4: t.pause(); break;
      case 5: st = t.set_max_steps_per_frame(static_cast<int8_t>(in.u8())); break;
      case 6: {
        static const char* kChoices[] = {"built", "trained", "", "Trained", "built ", "tr"};
        st = t.set_weights(kChoices[in.u8() % 6]);
        break;
      }
      case 7: t.tick(in.u8() & 1); break;
      case 8: {
        const uint8_t b = in.u8();
        const int heads = b % 6;
        std::string snap;
        st = t.snapshot_json(heads, snap);
        if (st.is_ok() && !snapshot_checked) {
          snapshot_checked = true;
          jsonr::Value s;
          FUZZ_CHECK(jsonr::parse(snap, s));
          const double loss = s["loss"].num, naive = naive_snapshot_loss(s);
          FUZZ_CHECK(std::isfinite(loss) && std::fabs(loss - naive) <= 1e-3 * std::max(1.0, std::fabs(naive)));
        }
        if (!st.is_ok()) st = Status::ok();  // a refused snapshot is not a verb that records a refusal
        break;
      }
    }
    state = checked_state(t);
    if (!st.is_ok()) {
      FUZZ_CHECK(!st.error.empty() && st.error.size() < 400);
      FUZZ_CHECK(without_error(t) == before);
      FUZZ_CHECK(state["error"].kind == jsonr::Value::String);
      continue;
    }
    if (!is_reset) {
      FUZZ_CHECK(state["step"].num >= seen.step);
      for (size_t i = 0; i < seen.run_steps.size(); ++i) {
        const jsonr::Value& run = state["runs"][i];
        FUZZ_CHECK(run["steps"].num >= seen.run_steps[i]);
        if (seen.diverged[i]) FUZZ_CHECK(run["diverged"].b && run["steps"].num == seen.run_steps[i]);
      }
    } else {
      FUZZ_CHECK(state["step"].num == 0);
      for (const jsonr::Value& run : state["runs"].items) FUZZ_CHECK(!run["diverged"].b && run["steps"].num == 0);
    }
    remember(state);
  }
  return 0;
}
