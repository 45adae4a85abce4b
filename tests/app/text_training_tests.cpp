// text_training_tests.cpp: the text task in the app's live training
// (app/training/live_training.h "The text task"): its options, its state JSON, its
// wire message and the hash keys task and layers.
// Checks: reset_text refuses layers other than 1 or 2, a bad seed or rate,
// and any start without a corpus (with the fetch's failure when there was
// one), each keeping the previous state; accepted, state() says task
// "text", the corpus' counts, and per run one perHead entry per head of
// every layer, layer by layer, whose held-out loss is the TextTrainer's own
// (an independent trainer from the same seed); a reset() goes back to the
// roles task; the program's bytes give the page the same state; the hash
// parses and writes task and layers and refuses other values; a knockout
// equals the engine's, crosses the wire, and is refused with the last kept.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "app/state/demo.h"
#include "app/training/live_training.h"
#include "app/wire/train_wire.h"
#include "app/state/url_state.h"
#include "app/lang/refusals.h"
#include "json_read.h"
#include "text_corpus_fixture.h"

using namespace headroom;
using namespace headroom::app;

namespace {

jsonr::Value state_of(const LiveTraining& t) {
  jsonr::Value v;
  REQUIRE(jsonr::parse(t.state_json(), v));
  return v;
}

}  // namespace

TEST_CASE("text task: options are refused with the previous state kept") {
  LiveTraining t([] { return 0.0; });
  REQUIRE(t.reset(5, 2, 0.01f));
  const std::string before = t.state_json();
  // No corpus yet: refused, and a failed fetch is what it says.
  CHECK_FALSE(t.reset_text(1, 1, 3e-3f));
  t.corpus_failed("HTTP 404");
  const Status s = t.reset_text(1, 1, 3e-3f);
  CHECK_FALSE(s);
  CHECK(s.error.find("HTTP 404") != std::string::npos);
  CHECK(t.error() == s.error);
  CHECK_FALSE(t.text_task());
  // Bytes that are not the corpus.
  const std::vector<uint8_t> junk(100, 0x5a);
  CHECK_FALSE(t.set_corpus(junk.data(), junk.size(), 1.0));
  CHECK_FALSE(t.has_corpus());
  t.set_corpus(test_fixture::small_corpus(), 1234, 5.0);
  for (int layers : {0, 3, -1}) {
    const Status r = t.reset_text(layers, 1, 3e-3f);
    CHECK_FALSE(r);
    CHECK(r.error.find("layers must be 1 or 2") != std::string::npos);
  }
  CHECK_FALSE(t.reset_text(1, -1, 3e-3f));
  CHECK_FALSE(t.reset_text(1, kMaxSeed + 1, 3e-3f));
  CHECK_FALSE(t.reset_text(1, 1, 0.f));
  CHECK_FALSE(t.reset_text(1, 1, NAN));
  CHECK_FALSE(t.text_task());
  // The roles runs are untouched (the error aside).
  jsonr::Value a, b;
  REQUIRE(jsonr::parse(before, a));
  REQUIRE(jsonr::parse(t.state_json(), b));
  CHECK(b["task"].str == "roles");
  CHECK(b["step"].num == a["step"].num);
  CHECK(b["runs"].items.size() == 3);
}

TEST_CASE("text task: state() says the task, the corpus and a perHead per head of every layer") {
  const auto corpus = test_fixture::small_corpus();
  for (int layers : {1, 2}) {
    CAPTURE(layers);
    LiveTraining t([] { return 0.0; });
    t.set_corpus(corpus, 999, 12.5);
    REQUIRE(t.reset_text(layers, 3, 3e-3f));
    REQUIRE(t.step(2));
    const jsonr::Value v = state_of(t);
    CHECK(v["task"].str == "text");
    CHECK(v["layers"].num == layers);
    CHECK(v["step"].num == 2);
    const jsonr::Value& c = v["corpus"];
    CHECK(c["name"].str == "small");
    CHECK(c["vocab"].num == corpus->vocab());
    CHECK(c["trainWords"].num == static_cast<double>(corpus->train_tokens));
    CHECK(c["heldOutWords"].num == static_cast<double>(corpus->held_out_tokens));
    CHECK(c["trainWords"].num + c["heldOutWords"].num == corpus->tokens());
    CHECK(c["bytes"].num == 999);
    // An independent trainer from the same seed gives the same held-out losses.
    TextTrainer ref;
    TextTrainConfig cfg;
    cfg.layers = layers;
    cfg.seed = 3;
    cfg.lr = 3e-3f;
    REQUIRE(ref.reset(corpus, cfg));
    REQUIRE(ref.step(2));
    REQUIRE(v["runs"].items.size() == kTextHeads.size());
    for (size_t i = 0; i < kTextHeads.size(); ++i) {
      const jsonr::Value& run = v["runs"][i];
      const int heads = kTextHeads[i];
      CHECK(run["heads"].num == heads);
      CHECK(run["steps"].num == 2);
      CHECK(static_cast<float>(run["loss"].num) == ref.runs()[i].loss());
      CHECK(run["history"].items.size() == ref.runs()[i].history.size());
      const auto& per = run["perHead"].items;
      REQUIRE(per.size() == static_cast<size_t>(layers * heads));
      for (size_t k = 0; k < per.size(); ++k) {
        CHECK(per[k]["layer"].num == static_cast<double>(k / heads + 1));
        CHECK(per[k]["head"].num == static_cast<double>(k % heads + 1));
        // the reference trainer's measured slot, number for number
        const HeadSlot& slot = ref.runs()[i].per_head[k];
        REQUIRE(per[k]["scores"].kind == jsonr::Value::Object);
        REQUIRE(per[k]["baselines"].kind == jsonr::Value::Object);
        CHECK(per[k]["scores"].fields.size() == slot.scores.size());
        CHECK(per[k]["baselines"].fields.size() == slot.baselines.size());
        for (size_t j = 0; j < slot.scores.size(); ++j) {
          CHECK(static_cast<float>(per[k]["scores"][slot.scores[j].first].num) == slot.scores[j].second);
          CHECK(static_cast<float>(per[k]["baselines"][slot.baselines[j].first].num) == slot.baselines[j].second);
        }
        CHECK(per[k]["label"].str == slot.label);
        CHECK(static_cast<float>(per[k]["labelScore"].num) == slot.label_score);
      }
    }
    // Back to the roles task.
    REQUIRE(t.reset(1, 2, 0.01f));
    const jsonr::Value r = state_of(t);
    CHECK(r["task"].str == "roles");
    CHECK(r["runs"].items.size() == 3);
    CHECK(r["runs"][0]["perHead"][0]["weightOn"].items.size() == 2);
  }
}

TEST_CASE("text task: the program's bytes give the page its state, bit for bit") {
  LiveTraining program([] { return 0.0; });
  program.set_corpus(test_fixture::small_corpus(), 10, 1.0);
  REQUIRE(program.reset_text(2, 9, 3e-3f));
  REQUIRE(program.step(3));
  LiveTraining page([] { return 0.0; });
  std::vector<std::string> sent;
  REQUIRE(page.use_remote([&](const TrainCommand& c) { sent.emplace_back(c.verb); }));
  REQUIRE(page.reset_text(2, 9, 3e-3f));
  CHECK(sent == std::vector<std::string>{"start", "text"});
  CHECK_FALSE(page.reset_text(5, 9, 3e-3f));  // refused here: nothing sent
  CHECK(sent.size() == 2);
  const std::string wire = program.wire_state(4.5, true);
  REQUIRE(page.take_wire(reinterpret_cast<const uint8_t*>(wire.data()), wire.size()));
  jsonr::Value a = state_of(program), b = state_of(page);
  CHECK(b["task"].str == "text");
  CHECK(b["layers"].num == 2);
  CHECK(b["corpus"]["vocab"].num == a["corpus"]["vocab"].num);
  REQUIRE(b["runs"].items.size() == a["runs"].items.size());
  for (size_t i = 0; i < a["runs"].items.size(); ++i) {
    CHECK(b["runs"][i]["loss"].num == a["runs"][i]["loss"].num);
    CHECK(b["runs"][i]["perHead"].items.size() == a["runs"][i]["perHead"].items.size());
    // the measured heads cross the wire bit for bit
    for (size_t k = 0; k < a["runs"][i]["perHead"].items.size(); ++k) {
      const jsonr::Value &x = a["runs"][i]["perHead"][k], &y = b["runs"][i]["perHead"][k];
      CHECK(y["label"].str == x["label"].str);
      CHECK(y["labelScore"].num == x["labelScore"].num);
      REQUIRE(y["scores"].fields.size() == x["scores"].fields.size());
      CHECK(y["scores"].fields.size() >= 2);  // previous and self at least
      for (const auto& [kind, v] : x["scores"].fields) CHECK(y["scores"][kind].num == v.num);
      for (const auto& [kind, v] : x["baselines"].fields) CHECK(y["baselines"][kind].num == v.num);
    }
  }
  // A cut message changes nothing.
  CHECK_FALSE(page.take_wire(reinterpret_cast<const uint8_t*>(wire.data()), wire.size() - 3));
  CHECK(state_of(page)["layers"].num == 2);
}

TEST_CASE("text task: knockout here equals the engine's, crosses the wire, and is refused with the last one kept") {
  const auto corpus = test_fixture::small_corpus();
  LiveTraining program([] { return 0.0; });
  program.set_corpus(corpus, 10, 1.0);
  const Status roles = program.knockout(1, 1, 1);  // the roles task: nothing to knock out
  REQUIRE_FALSE(roles);
  CHECK(roles.refusal == &refusals::knockout_text_only);
  REQUIRE(program.reset_text(2, 9, 3e-3f));
  REQUIRE(program.step(4));
  CHECK(state_of(program)["knockout"].kind == jsonr::Value::Null);
  REQUIRE(program.knockout(2, 1, 2));
  // an independent TextTrainer from the same seed, knocked out the same way (0-based)
  TextTrainConfig cfg;
  cfg.layers = 2;
  cfg.seed = 9;
  cfg.lr = 3e-3f;
  TextTrainer engine;
  REQUIRE(engine.reset(corpus, cfg));
  REQUIRE(engine.step(4));
  TextKnockout want;
  REQUIRE(engine.knockout(2, 0, 1, want));
  jsonr::Value k = state_of(program)["knockout"];
  CHECK(k["heads"].num == 2);
  CHECK(k["layer"].num == 1);
  CHECK(k["head"].num == 2);
  CHECK(k["step"].num == 4);
  // floats as JSON's shortest round-trip text: equal once read back as float
  CHECK(static_cast<float>(k["lossBefore"].num) == want.loss_before);
  CHECK(static_cast<float>(k["lossAfter"].num) == want.loss_after);
  CHECK(k["lossAfter"].num != k["lossBefore"].num);
  CHECK(static_cast<float>(k["change"].num) == want.loss_after - want.loss_before);
  CHECK(k["lost"]["label"].str == want.before[1].label);
  for (const jsonr::Value& c : k["changed"].items) CHECK(c["layer"].num == 2);  // only the later layer reads it
  // refused: the last knockout stays, each with its code
  for (const auto& bad : {std::tuple{3, 1, 1, &refusals::no_text_run},
                                                  std::tuple{2, 3, 1, &refusals::text_knockout_layer},
                                                  std::tuple{2, 0, 1, &refusals::text_knockout_layer},
                                                  std::tuple{2, 1, 3, &refusals::text_knockout_head},
                                                  std::tuple{2, 1, 0, &refusals::text_knockout_head}}) {
    // (not a structured binding: clang 14 cannot capture one in CAPTURE's lambda)
    const int heads = std::get<0>(bad), layer = std::get<1>(bad), head = std::get<2>(bad);
    const Refusal* code = std::get<3>(bad);
    CAPTURE(heads); CAPTURE(layer); CAPTURE(head);
    const Status s = program.knockout(heads, layer, head);
    REQUIRE_FALSE(s);
    CHECK(s.refusal == code);
    jsonr::Value now = state_of(program);
    CHECK(now["knockout"]["lossAfter"].num == k["lossAfter"].num);
    CHECK(now["error"].str == s.error);
  }
  // The page: validated here, measured by the program, back with its state.
  LiveTraining page([] { return 0.0; });
  std::vector<TrainCommand> sent;
  REQUIRE(page.use_remote([&](const TrainCommand& c) { sent.push_back(c); }));
  REQUIRE(page.reset_text(2, 9, 3e-3f));
  std::string wire = program.wire_state(0, false);
  REQUIRE(page.take_wire(reinterpret_cast<const uint8_t*>(wire.data()), wire.size()));
  CHECK(state_of(page)["knockout"]["lossAfter"].num == k["lossAfter"].num);
  const size_t before = sent.size();
  CHECK_FALSE(page.knockout(2, 1, 5));  // refused here: nothing sent
  CHECK(sent.size() == before);
  REQUIRE(page.knockout(4, 2, 3));
  REQUIRE(sent.size() == before + 1);
  CHECK(std::string(sent.back().verb) == "knockout");
  CHECK((sent.back().a == 4 && sent.back().b == 2 && sent.back().c == 3));
  REQUIRE(program.knockout(4, 2, 3));  // what the program does with it
  wire = program.wire_state(0, false);
  REQUIRE(page.take_wire(reinterpret_cast<const uint8_t*>(wire.data()), wire.size()));
  jsonr::Value a = state_of(program)["knockout"], b = state_of(page)["knockout"];
  CHECK(b["heads"].num == 4);
  CHECK(b["layer"].num == 2);
  CHECK(b["lossBefore"].num == a["lossBefore"].num);
  CHECK(b["lossAfter"].num == a["lossAfter"].num);
  CHECK(b["lost"]["labelScore"].num == a["lost"]["labelScore"].num);
  CHECK(b["changed"].items.size() == a["changed"].items.size());
  CHECK(b["changed"].items.empty());  // a last-layer head: no later layer reads it
  // a reset forgets it
  REQUIRE(program.reset_text(1, 9, 3e-3f));
  CHECK(state_of(program)["knockout"].kind == jsonr::Value::Null);
}

TEST_CASE("url hash: task and layers") {
  UrlParse p = parse_url_hash("#task=text&layers=2");
  CHECK(p.messages.empty());
  CHECK(p.state.task == std::optional<std::string>("text"));
  CHECK(p.state.layers == std::optional<int>(2));
  CHECK(to_url_hash(p.state) == "task=text&layers=2");
  for (const char* bad : {"task=poetry", "layers=3", "layers=0", "layers=1.0", "task=TEXT"}) {
    CAPTURE(bad);
    UrlParse q = parse_url_hash(bad);
    CHECK(q.messages.size() == 1);
    CHECK_FALSE(q.state.task);
    CHECK_FALSE(q.state.layers);
  }
}

TEST_CASE("text task: a rate that diverges stops every run, play is refused, a reset recovers") {
  LiveTraining t([] { return 0.0; });
  t.set_corpus(test_fixture::small_corpus(), 10, 1.0);
  REQUIRE(t.reset_text(1, 1, 10.f));
  for (int i = 0; i < 40 && t.can_step(); ++i) REQUIRE(t.step(1));
  CHECK_FALSE(t.can_step());
  for (const TrainRun& run : t.runs()) {
    CHECK(run.diverged);
    CHECK(std::isfinite(run.loss()));
    CHECK(run.stopped.error.find("rate") != std::string::npos);
    CHECK(std::string(run.stopped.code()) == "text_run_stopped");
  }
  CHECK(t.error().find(t.runs()[0].stopped.error) != std::string::npos);
  CHECK(t.error_code() == "text_run_stopped");
  CHECK_FALSE(t.play());
  REQUIRE(t.reset_text(1, 1, 3e-3f));
  CHECK(t.can_step());
  CHECK(t.error().empty());
  CHECK(t.play());
}

TEST_CASE("text task: the tour's training step takes the learner back to the roles runs") {
  Demo d;
  d.training.set_corpus(test_fixture::small_corpus(), 1000, 1.0);
  REQUIRE(d.train_reset_text(1, 5, 3e-3f));
  REQUIRE(d.training.text_task());
  CHECK(state_of(d.training)["task"].str == "text");
  int training = 0;
  for (int i = 0; i < kTourSteps; ++i)
    if (std::string(tour_steps()[static_cast<size_t>(i)].id) == "training") training = i + 1;
  REQUIRE(training > 0);
  REQUIRE(d.tour_go(training));
  CHECK_FALSE(d.training.text_task());
  const jsonr::Value v = state_of(d.training);
  CHECK(v["task"].str == "roles");
  CHECK(v["seed"].num == 5);
  CHECK(v["lr"].num == doctest::Approx(kDefaultLr));
}

namespace {

int tour_step_of(const char* id) {
  for (int i = 0; i < kTourSteps; ++i)
    if (std::string(tour_steps()[static_cast<size_t>(i)].id) == id) return i + 1;
  return 0;
}

Prediction labels(std::vector<std::string> l) {
  Prediction p;
  p.kind = AnswerKind::Labels;
  p.labels = std::move(l);
  return p;
}

}  // namespace

TEST_CASE("tour step real-text: a label per head is checked; a partial, short or unknown answer is refused, the last kept") {
  Demo d;
  const int n = tour_step_of("real-text");
  REQUIRE(n > 0);
  REQUIRE(d.tour_go(n));
  REQUIRE(d.tour_predict(labels({"previous", "mixed", "punctuation", "mixed"})));
  CHECK_FALSE(d.tour_predict(labels({"previous", "mixed"})));
  CHECK(d.tour_error.find("4 labels") != std::string::npos);
  CHECK_FALSE(d.tour_predict(labels({"previous", "", "mixed", ""})));
  CHECK(d.tour_error.find("head 2 and 4") != std::string::npos);
  CHECK_FALSE(d.tour_predict(labels({"previous", "banana", "mixed", "self"})));
  CHECK(d.tour_error.find("banana") != std::string::npos);
  CHECK(d.tour.record(n).prediction.labels == std::vector<std::string>{"previous", "mixed", "punctuation", "mixed"});
  // Here, with no corpus: the reveal cannot start the text model, says why
  // (the training's own refusal), and marks nothing.
  REQUIRE(d.tour_reveal());
  const TourRecord& rec = d.tour.record(n);
  CHECK_FALSE(d.training.text_task());
  CHECK_FALSE(rec.pending);
  CHECK(rec.score < 0);
  REQUIRE(rec.result.size() == 1);
  CHECK(rec.result[0].str().find(refusals::corpus_not_loaded.english) != std::string::npos);
}

TEST_CASE("tour step real-text: the reveal trains the text model and marks the labels against the 4-head run's, in any order" *
          doctest::test_suite("convergence")) {
  Demo d;
  d.training.set_corpus(test_fixture::small_corpus(), 1000, 1.0);
  const int n = tour_step_of("real-text");
  REQUIRE(d.tour_go(n));
  CHECK_FALSE(d.training.text_task());  // asking does not train
  // A guess with a repeat and a label no head of a one-layer model can
  // earn (induction needs two layers and repeats).
  const std::vector<std::string> guess = {"punctuation", "mixed", "induction", "mixed"};
  REQUIRE(d.tour_predict(labels(guess)));
  REQUIRE(d.tour_reveal());
  REQUIRE(d.training.text_task());  // the reveal started the text task and plays it
  CHECK(d.training.running());
  CHECK(d.training.layers() == 1);
  CHECK(d.tour.record(n).pending);
  CHECK(d.tour.record(n).score < 0);
  CHECK(d.tour.events_json(0).find("\"revealed\"") == std::string::npos);  // the event waits for the marks
  d.training.pause();
  while (d.training.run(kTourTextHeads)->latest().step < kTourTextSteps) {
    REQUIRE(d.training.step(10));
    d.tour.tick(d);
  }
  const TourRecord& rec = d.tour.record(n);
  REQUIRE_FALSE(rec.pending);
  // The measured labels are the run's own, head by head.
  const TrainRun* run = d.training.run(kTourTextHeads);
  jsonr::Value v;
  REQUIRE(jsonr::parse(d.tour_state_json(), v));
  const jsonr::Value& m = v["steps"][static_cast<size_t>(n - 1)]["measured"];
  REQUIRE(m["labels"].items.size() == static_cast<size_t>(kTourTextHeads));
  std::vector<std::string> measured;
  for (int h = 0; h < kTourTextHeads; ++h) {
    measured.push_back(run->per_head[static_cast<size_t>(h)].label);
    CHECK(m["labels"][static_cast<size_t>(h)].str == measured.back());
  }
  CHECK(m["measuredAt"].num >= kTourTextSteps);
  // The marks: a guessed label is right while the heads carrying it are
  // more than the guesses of it before (counted here, not matched).
  int right = 0;
  for (size_t i = 0; i < guess.size(); ++i) {
    const auto carried = std::count(measured.begin(), measured.end(), guess[i]);
    const auto before = std::count(guess.begin(), guess.begin() + static_cast<long>(i), guess[i]);
    const bool expect = carried > before;
    CHECK(rec.correct[i] == expect);
    right += expect ? 1 : 0;
  }
  CHECK_FALSE(rec.correct[2]);  // no head of one layer is an induction head
  CHECK(rec.score == doctest::Approx(right / 4.0));
  // Swapping the guess's order leaves the mark: heads have no order.
  const jsonr::Value ev = [&] {
    jsonr::Value e;
    REQUIRE(jsonr::parse(d.tour.events_json(0), e));
    return e;
  }();
  bool revealed = false;
  for (const jsonr::Value& e : ev.items)
    if (e["event"].str == "revealed" && e["stepId"].str == "real-text") {
      revealed = true;
      CHECK(e["statement"]["result"]["score"]["scaled"].num == doctest::Approx(right / 4.0));
      CHECK(e["statement"]["result"]["response"].str == "punctuation,mixed,induction,mixed");
    }
  CHECK(revealed);
  REQUIRE(d.tour_retry(n));
  REQUIRE(d.tour_predict(labels({guess[3], guess[2], guess[1], guess[0]})));
  REQUIRE(d.tour_reveal());
  CHECK_FALSE(d.tour.record(n).pending);  // trained already: marked at once
  CHECK(d.tour.record(n).score == doctest::Approx(right / 4.0));
}
