// fuzz_tour.cpp: libFuzzer target for the guided tour's answers (app/tour/tour.h)
// through the Demo verbs the JS API headroom.tour.*, the postMessage bridge
// (headroom:tour) and the URL hash (tour=N, tour=N-M) call.
//
// Does: read the input as a program of verbs with values drawn from the bytes
// (go to any int; predict a point, two points, a choice, a number, token
// indices, head labels, or a prediction of any kind with any fields; reveal;
// replay; close;
// a hash with tour=<anything>; a refusal JS made itself; and the demo verbs a
// learner uses between them: heads, sentence, query, focus, targets, knockout,
// tied W_Q / W_K), run it on one Demo, and after every verb parse the tour's
// state and events with a strict JSON reader (tests/app/json_read.h) and check:
// - the state and every event parse; no number is NaN or Inf (a null in a
//   measured number's place fails; only a recap row's unscored `score` may be
//   null);
// - the open step is 0 (closed) or within the range, 1 <= first <= last <= kTourSteps;
// - scores are null or within 0..1, a step's recorded prediction has a kind
//   the step takes, an unrevealed step has nothing measured;
// - the animation counter and the event numbers never go back;
// - a refused tour verb changed nothing (tour state, events and the demo's
//   state are as before but for `error`) and names why: error non-empty and
//   short, the same in the tour's state;
// - an accepted verb did what it says: go opens that step and logs one
//   "entered", predict records the values given and logs one "predicted",
//   reveal logs one "revealed" and restarts the animation, replay restarts it
//   and logs nothing, close closes;
// - a revealed answer's figures are what the engine measures right after the
//   reveal (the value map's output for average and two-heads, carried with
//   head 2 knocked out for coordinates, the heads' largest weight for
//   more-heads, the one-head run's loss for training), and the score follows
//   from the measured numbers where that is a formula (average's point,
//   training's number).
// Does not: run in the normal build (see fuzz.cmake); start each input afresh
// (one Demo for the whole run, as in fuzz_training: a crash found late may
// need the inputs before it); reset training (the hash verb only writes tour=
// and heads=).
// Training step: its reveal first trains kTourTrainSteps steps, 100-160 s
// under ASan + UBSan + coverage on a loaded 2-core machine, so by default a
// reveal of that step is skipped (its predictions and refusals are fuzzed).
// HEADROOM_FUZZ_TOUR_TRAIN=1 trains the Demo that far once at start; then its
// reveals run and are checked like the others (for a long campaign).
//
// Run: ./build.sh fuzz   (or build/native-asan/fuzz_tour <corpus dirs>)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../app/json_read.h"
#include "app/state/demo.h"
#include "app/state/tables.h"

#define FUZZ_CHECK(cond)                                                         \
  do {                                                                           \
    if (!(cond)) {                                                               \
      std::fprintf(stderr, "fuzz_tour.cpp:%d: FUZZ_CHECK(%s) failed\n", __LINE__, #cond); \
      __builtin_trap();                                                          \
    }                                                                            \
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
  // Mostly small (the range and one past it), sometimes any int.
  int small_int(int lo, int hi) {
    const uint8_t b = u8();
    if (b < 224) return lo + b % (hi - lo + 1);
    return static_cast<int>(u32());
  }
  float f32() {
    // half the time a value near the answers' ranges, else any bit pattern
    const uint8_t how = u8();
    const uint32_t bits = u32();
    if (how & 1) {
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    static const float kNear[] = {0.f, -0.f, 0.5f, 1.f, -1.f, 1.0000001f, -1e-7f, 0.25f, 999.f, 1000.f, 1000.5f,
                                  -1000.f, 3.f, 1e30f, 0.75f};
    return kNear[bits % (sizeof kNear / sizeof kNear[0])];
  }
  std::string text(size_t max) {
    const size_t len = u8() % (max + 1);
    std::string s;
    for (size_t i = 0; i < len && n; ++i) s += static_cast<char>(u8());
    return s;
  }
};

bool finite_number(const jsonr::Value& v) { return v.kind == jsonr::Value::Number && std::isfinite(v.num); }

// No null in a number's place anywhere under `v` (the writer turns NaN and Inf
// into null), but a recap row's unscored "score".
void check_no_null(const jsonr::Value& v, std::string_view key) {
  switch (v.kind) {
    case jsonr::Value::Null: FUZZ_CHECK(key == "score"); break;
    case jsonr::Value::Number: FUZZ_CHECK(std::isfinite(v.num)); break;
    case jsonr::Value::Array:
      for (const jsonr::Value& x : v.items) check_no_null(x, key);
      break;
    case jsonr::Value::Object:
      for (const auto& [k, x] : v.fields) check_no_null(x, k);
      break;
    default: break;
  }
}

// A canonical re-serialisation of a parsed value, with the object field
// `skip` left out at the top level (to compare states but for `error`).
void dump(const jsonr::Value& v, std::string& out, std::string_view skip = {}) {
  switch (v.kind) {
    case jsonr::Value::Null: out += 'n'; break;
    case jsonr::Value::Bool: out += v.b ? 't' : 'f'; break;
    case jsonr::Value::Number: out += std::to_string(v.num); break;
    case jsonr::Value::String: out += '"' + v.str + '"'; break;
    case jsonr::Value::Array:
      out += '[';
      for (const jsonr::Value& x : v.items) dump(x, out), out += ',';
      out += ']';
      break;
    case jsonr::Value::Object:
      out += '{';
      for (const auto& [k, x] : v.fields) {
        if (!skip.empty() && k == skip) continue;
        out += k + ':';
        dump(x, out);
        out += ',';
      }
      out += '}';
      break;
  }
}

const char* kind_name(AnswerKind k) {
  switch (k) {
    case AnswerKind::Point: return "point";
    case AnswerKind::Points: return "points";
    case AnswerKind::Choice: return "choice";
    case AnswerKind::Number: return "number";
    case AnswerKind::Match: return "match";
    case AnswerKind::Labels: return "labels";
    default: return "none";
  }
}

// The tour's state, parsed, with the invariants that hold in any state.
jsonr::Value checked_tour(const Demo& d) {
  jsonr::Value s;
  FUZZ_CHECK(jsonr::parse(d.tour_state_json(), s));
  FUZZ_CHECK(s.kind == jsonr::Value::Object);
  FUZZ_CHECK(finite_number(s["step"]) && finite_number(s["animation"]));
  const int step = static_cast<int>(s["step"].num);
  const jsonr::Value& range = s["range"];
  FUZZ_CHECK(range.kind == jsonr::Value::Array && range.size() == 2);
  const int first = static_cast<int>(range[0].num), last = static_cast<int>(range[1].num);
  FUZZ_CHECK(1 <= first && first <= last && last <= kTourSteps);
  FUZZ_CHECK(step == 0 || (first <= step && step <= last));
  FUZZ_CHECK(step == d.tour.step() && first == d.tour.first() && last == d.tour.last());
  FUZZ_CHECK(s["error"].kind == jsonr::Value::Null ||
             (s["error"].kind == jsonr::Value::String && !s["error"].str.empty()));
  const jsonr::Value& steps = s["steps"];
  FUZZ_CHECK(steps.kind == jsonr::Value::Array && steps.size() == static_cast<size_t>(kTourSteps));
  for (int i = 0; i < kTourSteps; ++i) {
    const jsonr::Value& st = steps[static_cast<size_t>(i)];
    const TourStepInfo& info = tour_steps()[static_cast<size_t>(i)];
    FUZZ_CHECK(st["id"].str == info.id);
    FUZZ_CHECK(st["answer"]["kind"].str == kind_name(info.kind));
    const jsonr::Value& score = st["score"];
    FUZZ_CHECK(score.kind == jsonr::Value::Null || (finite_number(score) && score.num >= 0 && score.num <= 1));
    const jsonr::Value& pred = st["predicted"];
    if (pred.kind != jsonr::Value::Null) {
      FUZZ_CHECK(info.kind != AnswerKind::None);
      FUZZ_CHECK(pred["kind"].str == kind_name(info.kind) ||
                 (std::string_view(info.id) == "average" && pred["kind"].str == "choice"));
      check_no_null(pred, "");
    }
    if (!st["revealed"].b) {
      FUZZ_CHECK(st["measured"].kind == jsonr::Value::Null);
      FUZZ_CHECK(score.kind == jsonr::Value::Null);
      FUZZ_CHECK(st["result"].size() == 0);
    } else {
      FUZZ_CHECK(st["measured"].kind == jsonr::Value::Object);
      check_no_null(st["measured"], "");
      FUZZ_CHECK(st["result"].size() > 0);
      if (pred.kind == jsonr::Value::Null) FUZZ_CHECK(score.kind == jsonr::Value::Null);
    }
  }
  return s;
}

// The events after `since`, parsed and checked; returns how many.
size_t checked_events(const Demo& d, int64_t since) {
  jsonr::Value ev;
  FUZZ_CHECK(jsonr::parse(d.tour.events_json(since), ev));
  FUZZ_CHECK(ev.kind == jsonr::Value::Array && ev.size() <= Tour::kMaxEvents);
  for (const jsonr::Value& e : ev.items) {
    FUZZ_CHECK(e["type"].str == "headroom:tour-event");
    const std::string& what = e["event"].str;
    FUZZ_CHECK(what == "entered" || what == "predicted" || what == "revealed");
    FUZZ_CHECK(finite_number(e["step"]) && e["step"].num >= 1 && e["step"].num <= kTourSteps);
    if (const jsonr::Value* m = e.get("measured")) check_no_null(*m, "");
    if (const jsonr::Value* sc = e.get("score")) FUZZ_CHECK(finite_number(*sc) && sc->num >= 0 && sc->num <= 1);
  }
  return ev.size();
}

// Everything a refused tour verb must leave alone: the tour's state but for
// its error, the events, and the demo's settings (its hash: heads, sentence,
// query, focus, targets, knockout, tie, tour; the whole state_json would
// cost more than the verbs).
std::string without_error(Demo& d) {
  std::string out;
  dump(checked_tour(d), out, "error");
  out += d.tour.events_json(0);
  out += d.hash();
  return out;
}

float as_float(const jsonr::Value& v) { return static_cast<float>(v.num); }

// The figures of the open step, revealed just now, against the engine's own.
void check_revealed(Demo& d, const Prediction* given) {
  const int n = d.tour.step();
  const TourRecord& rec = d.tour.record(n);
  FUZZ_CHECK(rec.revealed);
  jsonr::Value m;
  FUZZ_CHECK(jsonr::parse(rec.measured, m));
  const std::string id = tour_steps()[static_cast<size_t>(n - 1)].id;
  Scene& s = d.scene;
  if (id == "average") {
    FUZZ_CHECK(s.heads() == 1);
    const ValueMap& vm = s.value_maps()[0];
    FUZZ_CHECK(as_float(m["output"][0]) == vm.output[0] && as_float(m["output"][1]) == vm.output[1]);
    if (given && given->kind == AnswerKind::Point) {
      const jsonr::Value& tp = m["targetPoints"];
      const float span = std::max(1e-6f, std::hypot(as_float(tp[0]) - as_float(tp[2]), as_float(tp[1]) - as_float(tp[3])));
      const float want = std::min(1.f, std::max(0.f, 1.f - as_float(m["guessDistance"]) / span));
      FUZZ_CHECK(std::fabs(rec.score - want) <= 1e-5f);
    }
  } else if (id == "two-heads") {
    FUZZ_CHECK(s.heads() == 2);
    for (size_t h = 0; h < 2; ++h) {
      const ValueMap& vm = s.value_maps()[h];
      const jsonr::Value& out = m["heads"][h]["output"];
      FUZZ_CHECK(as_float(out[0]) == vm.output[0] && as_float(out[1]) == vm.output[1]);
    }
  } else if (id == "coordinates") {
    const std::vector<float> carried = s.carried();  // head 2 is knocked out by the reveal
    const jsonr::Value& w2 = m["carried"]["withoutHead2"];
    FUZZ_CHECK(w2.size() == carried.size());
    for (size_t i = 0; i < carried.size(); ++i) FUZZ_CHECK(as_float(w2[i]) == carried[i]);
  } else if (id == "more-heads") {
    FUZZ_CHECK(s.heads() == 4);
    for (const jsonr::Value& rel : m["relations"].items) {
      const int head = static_cast<int>(rel["head"].num), q = static_cast<int>(rel["query"].num);
      FUZZ_CHECK(head >= 0 && head < 4 && q >= 0 && q < static_cast<int>(s.tokens().size()));
      // Heads are dealt the relationships of the selected word, so the row
      // is read with the relationship's own query word selected.
      Scene c = s;
      FUZZ_CHECK(c.set_query(q).is_ok());
      const auto& row = c.trace().heads[static_cast<size_t>(head)].weights.row(q);
      Eigen::Index looks = 0;
      row.maxCoeff(&looks);
      FUZZ_CHECK(static_cast<int>(looks) == static_cast<int>(rel["token"].num));
    }
  } else if (id == "training") {
    const Trainer& tr = d.training.trainer();
    FUZZ_CHECK(tr.step_count() >= kTourTrainSteps);
    FUZZ_CHECK(static_cast<int64_t>(m["steps"].num) == tr.step_count());
    FUZZ_CHECK(as_float(m["oneHeadLoss"]) == tr.run(1)->loss());
    if (given && given->kind == AnswerKind::Number)
      FUZZ_CHECK(std::fabs(rec.score - std::min(1.f, std::max(0.f, 1.f - std::fabs(given->number - tr.run(1)->loss())))) <= 1e-6f);
  }
}

Prediction any_prediction(Bytes& in) {
  Prediction p;
  switch (in.u8() % 6) {
    case 0:
      p.kind = AnswerKind::Point;
      p.xy = {in.f32(), in.f32()};
      break;
    case 1:
      p.kind = AnswerKind::Points;
      p.xy = {in.f32(), in.f32(), in.f32(), in.f32()};
      break;
    case 2: {
      p.kind = AnswerKind::Choice;
      static const char* kIds[] = {"researcher", "it", "between", "neither", "one", "split", "spread", "both",
                                   "nothing", "equal", "unchanged", "zero", "other", "", "Researcher"};
      const uint8_t b = in.u8();
      p.choice = b < 200 ? kIds[b % (sizeof kIds / sizeof kIds[0])] : in.text(64);
      break;
    }
    case 3:
      p.kind = AnswerKind::Number;
      p.number = in.f32();
      break;
    case 4: {
      p.kind = AnswerKind::Labels;
      static const char* kLabels[] = {"previous", "self", "start", "duplicate", "induction", "determiner-noun",
                                      "verb-subject", "pronoun-noun", "punctuation", "mixed", "", "Mixed", "noun"};
      const int count = in.u8() % 7;
      for (int i = 0; i < count; ++i) {
        const uint8_t b = in.u8();
        p.labels.emplace_back(b < 220 ? kLabels[b % (sizeof kLabels / sizeof kLabels[0])] : in.text(16));
      }
      break;
    }
    default: {
      p.kind = AnswerKind::Match;
      const int count = in.u8() % 7;
      for (int i = 0; i < count; ++i) p.match.push_back(in.small_int(-1, 12));
      break;
    }
  }
  return p;
}

// A prediction of any kind with any fields (what no JS wrapper builds, but
// Demo::tour_predict takes).
Prediction odd_prediction(Bytes& in) {
  Prediction p;
  p.kind = static_cast<AnswerKind>(in.u8() % 7);
  const int nxy = in.u8() % 6;
  for (int i = 0; i < nxy; ++i) p.xy.push_back(in.f32());
  p.choice = in.text(8);
  p.number = in.f32();
  const int count = in.u8() % 6;
  for (int i = 0; i < count; ++i) p.match.push_back(in.small_int(-2, 14));
  const int labels = in.u8() % 6;
  for (int i = 0; i < labels; ++i) p.labels.push_back(in.text(12));
  return p;
}

// The recorded prediction equals the one given (as the JSON carries it).
void check_predicted(const Demo& d, const Prediction& p) {
  const TourRecord& rec = d.tour.record(d.tour.step());
  FUZZ_CHECK(rec.predicted && rec.prediction.kind == p.kind);
  switch (p.kind) {
    case AnswerKind::Point:
    case AnswerKind::Points: FUZZ_CHECK(rec.prediction.xy == p.xy); break;
    case AnswerKind::Choice: FUZZ_CHECK(rec.prediction.choice == p.choice); break;
    case AnswerKind::Number: FUZZ_CHECK(rec.prediction.number == p.number); break;
    case AnswerKind::Match: FUZZ_CHECK(rec.prediction.match == p.match); break;
    case AnswerKind::Labels: FUZZ_CHECK(rec.prediction.labels == p.labels); break;
    default: FUZZ_CHECK(false);
  }
}

// A demo verb a learner (or a host through headroom.*) may use between tour
// verbs; their own refusals are not this target's business.
void context_verb(Demo& d, Bytes& in) {
  switch (in.u8() % 8) {
    case 0: d.set_heads(in.small_int(0, 9)); break;
    case 1: {
      static const char* kSentences[] = {
          "", "a", "it", "the cat sat", "she said it rained", "它 说 了", "مرحبا بالعالم",
          "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three twenty-four twenty-five "
          "twenty-six twenty-seven twenty-eight twenty-nine thirty thirty-one thirty-two thirty-three"};
      const uint8_t b = in.u8();
      if (b < 96) d.set_sentence(Scene::lesson_sentence());
      else if (b < 224) d.set_sentence(kSentences[b % (sizeof kSentences / sizeof kSentences[0])]);
      else d.set_sentence(in.text(48));
      break;
    }
    case 2: d.select_token(in.small_int(-1, 12)); break;
    case 3: d.set_focus(in.f32()); break;
    case 4: d.set_target(static_cast<Relation>(in.u8() % 4), in.small_int(-1, 12)); break;
    case 5: {
      std::vector<int> heads;
      const int count = in.u8() % 4;
      for (int i = 0; i < count; ++i) heads.push_back(in.small_int(-1, 4));
      d.set_knockout(heads);
      break;
    }
    case 6: d.set_tie_qk(in.u8() & 1); break;
    default: d.reset_targets(); break;
  }
}

// tour=<text>, optionally after heads=N; the text mostly from "0123456789-".
std::string tour_hash(Bytes& in) {
  std::string h;
  const uint8_t how = in.u8();
  if (how & 1) h += "#";
  if (how & 2) h += "heads=" + std::to_string(in.u8() % 6) + "&";
  h += "tour=";
  const int len = in.u8() % 7;
  for (int i = 0; i < len; ++i) {
    const uint8_t c = in.u8();
    h += c < 200 ? "0123456789-"[c % 11] : static_cast<char>(c);
  }
  return h;
}

}  // namespace

namespace {
// One Demo for the whole run; an input starts where the last one left it.
Demo& the_demo() {
  static Demo d;
  return d;
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* v = std::getenv("HEADROOM_FUZZ_TOUR_TRAIN"); v && std::string_view(v) == "1") {
    std::fprintf(stderr, "fuzz_tour: training %d steps first (HEADROOM_FUZZ_TOUR_TRAIN=1)\n", kTourTrainSteps);
    FUZZ_CHECK(the_demo().train_step(kTourTrainSteps));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Demo& d = the_demo();
  Bytes in{data, size};
  jsonr::Value state = checked_tour(d);
  double anim = state["animation"].num;
  int64_t events = d.tour.last_event();
  checked_events(d, 0);

  for (int verb = 0; verb < 24 && in.n; ++verb) {
    const std::string before = without_error(d);
    const int step_before = d.tour.step();
    const bool revealed_before = step_before > 0 && d.tour.record(step_before).revealed;
    enum class Kind { Go, Predict, Reveal, Replay, Close, Reject, Hash, Context, Events } kind;
    bool ok = true;
    int go_to = 0;
    Prediction p;
    const uint8_t op = in.u8() % 13;
    switch (op) {
      case 0:
      case 1:
        kind = Kind::Go;
        go_to = in.small_int(-1, kTourSteps + 1);
        ok = d.tour_go(go_to);
        break;
      case 2:
      case 3:
        kind = Kind::Predict;
        p = any_prediction(in);
        ok = d.tour_predict(p);
        break;
      case 4:
        kind = Kind::Predict;
        p = odd_prediction(in);
        ok = d.tour_predict(p);
        break;
      case 5:
      case 6:
        kind = Kind::Reveal;
        if (step_before > 0 && std::string_view(tour_steps()[static_cast<size_t>(step_before - 1)].id) == "training" &&
            d.training.trainer().step_count() < kTourTrainSteps) {
          kind = Kind::Context;  // too slow here: see "Training step" above
          break;
        }
        ok = d.tour_reveal();
        break;
      case 7:
        kind = Kind::Replay;
        ok = d.tour_replay();
        break;
      case 8:
        kind = Kind::Close;
        d.tour_close();
        break;
      case 9: {
        kind = Kind::Reject;
        const std::string code = in.text(16);  // any code, known or not: never silent
        d.tour_reject(headroom::app::js_refusal(code, {in.text(80)}));
        ok = false;
        break;
      }
      case 10:
        kind = Kind::Hash;
        ok = d.apply_hash(tour_hash(in));
        break;
      case 11:
        kind = Kind::Context;
        context_verb(d, in);
        break;
      default: {
        kind = Kind::Events;
        const int64_t since = in.u8() & 1 ? static_cast<int64_t>(static_cast<int32_t>(in.u32()))
                                          : static_cast<int64_t>(in.u32()) << 32 | in.u32();
        checked_events(d, since);
        FUZZ_CHECK(checked_events(d, d.tour.last_event()) == 0);
        break;
      }
    }
    state = checked_tour(d);
    checked_events(d, 0);
    const int64_t new_events = d.tour.last_event() - events;
    const double new_anim = state["animation"].num - anim;
    FUZZ_CHECK(new_events >= 0 && new_anim >= 0);

    const bool tour_verb = kind == Kind::Go || kind == Kind::Predict || kind == Kind::Reveal ||
                           kind == Kind::Replay || kind == Kind::Reject;
    if (tour_verb && !ok) {
      // refused: nothing changed, and the state says why
      FUZZ_CHECK(!d.tour_error.empty() && d.tour_error.size() < 300);
      FUZZ_CHECK(d.error == d.tour_error);
      FUZZ_CHECK(state["error"].kind == jsonr::Value::String && !state["error"].str.empty());
      // the same words (the writer replaces bytes that are not UTF-8, so
      // compare the printable-ASCII reasons, which are all of ours)
      if (std::all_of(d.tour_error.begin(), d.tour_error.end(), [](char c) { return c >= 0x20 && c < 0x7f; }))
        FUZZ_CHECK(state["error"].str == d.tour_error);
      FUZZ_CHECK(without_error(d) == before);
    } else if (tour_verb) {
      FUZZ_CHECK(state["error"].kind == jsonr::Value::Null && d.tour_error.empty());
      switch (kind) {
        case Kind::Go:
          FUZZ_CHECK(d.tour.step() == go_to && new_events == 1);
          FUZZ_CHECK(new_anim == (d.tour.record(go_to).revealed ? 1 : 0));
          if (d.tour.record(go_to).revealed) check_revealed(d, nullptr);
          break;
        case Kind::Predict:
          FUZZ_CHECK(d.tour.step() == step_before && !revealed_before && new_events == 1 && new_anim == 0);
          check_predicted(d, p);
          break;
        case Kind::Reveal: {
          FUZZ_CHECK(d.tour.step() == step_before && new_events == 1 && new_anim == 1);
          const TourRecord& rec = d.tour.record(step_before);
          check_revealed(d, rec.predicted ? &rec.prediction : nullptr);
          break;
        }
        default:  // replay
          FUZZ_CHECK(revealed_before && new_events == 0 && new_anim == 1);
          break;
      }
    } else if (kind == Kind::Close) {
      FUZZ_CHECK(d.tour.step() == 0 && d.tour.first() == 1 && d.tour.last() == kTourSteps);
      FUZZ_CHECK(state["error"].kind == jsonr::Value::Null && new_events == 0 && new_anim == 0);
    } else if (kind == Kind::Hash) {
      FUZZ_CHECK(ok || !d.error.empty());
      FUZZ_CHECK(new_events <= 1);
    } else {
      FUZZ_CHECK(new_events == 0 && new_anim == 0);
    }
    anim = state["animation"].num;
    events = d.tour.last_event();
  }
  return 0;
}
