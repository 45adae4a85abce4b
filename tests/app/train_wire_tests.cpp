// train_wire_tests.cpp: the page's mirror of runs trained elsewhere
// (app/wire/train_wire.h, app/training/live_training.h "Where it trains"). A "page" LiveTraining in
// remote mode is wired to a "program" LiveTraining (the Worker's, here in the
// same process) by a fake link that runs each command on the program and
// hands its bytes back, as headroom.mjs and headroom-train-worker.js do.
// Checks: the page's runs equal the program's bit for bit and equal an
// independent local LiveTraining driven by the same verbs; the page validates
// with the trainer's messages and sends nothing when it refuses; a cut,
// foreign or NaN-carrying message is refused and changes nothing; the
// weights come over exactly and drive the Scene; restart empties the
// mirror and resets the runs (playing again if they were); a program that
// could not start is said so, and asked for again on the next use; the
// page's LiveTraining (TrainsElsewhere) keeps the uses before its sender
// came and sends them then.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "app/lang/refusals.h"
#include "app/training/live_training.h"
#include "app/wire/train_wire.h"
#include "json_read.h"
#include "../common/text_bits.h"

using namespace headroom;
using headroom::testing::bytes;
using namespace headroom::app;

namespace {


// The program and the page, linked.
struct Linked {
  LiveTraining program;
  LiveTraining page{TrainsElsewhere{}};  // as the page makes it (js_api.cpp)
  std::vector<std::string> sent;  // the verbs the page sent
  bool connected = true;          // false: commands are only recorded (a program not started yet)
  bool playing = false;

  Linked() {
    REQUIRE(page.use_remote([this](const TrainCommand& c) { on_command(c); }));
  }
  void post() {
    const std::string wire = encode_state(program.trainer(), 0.0, playing, program.errors());
    REQUIRE(page.take_wire(bytes(wire), wire.size()));
  }
  void on_command(const TrainCommand& c) {
    const std::string verb = c.verb;
    sent.push_back(verb);
    if (!connected || verb == "start") return;
    if (verb == "reset") REQUIRE(program.reset(static_cast<int64_t>(c.a), static_cast<int>(c.b), static_cast<float>(c.c), c.d == 1));
    if (verb == "step") REQUIRE(program.step(static_cast<int>(c.a)));
    if (verb == "lr") REQUIRE(program.set_lr(static_cast<float>(c.a)));
    if (verb == "play") playing = true;
    if (verb == "pause") playing = false;
    if (verb == "weights" && c.a > 0) {
      const std::string w = encode_weights(program.trainer(), static_cast<int>(c.a), c.b == 1);
      if (!w.empty()) REQUIRE(page.take_wire(bytes(w), w.size()));
    }
    post();
  }
};

// The runs of a state() document, without the page's own fields.
std::string runs_of(const std::string& state_json) {
  jsonr::Value v;
  REQUIRE(jsonr::parse(state_json, v));
  const jsonr::Value& runs = v["runs"];
  std::string out;
  for (const auto& r : runs.items) {
    out += std::to_string(static_cast<int>(r["heads"].num)) + (r["tieQK"].b ? "t" : "") + ":";
    for (const auto& p : r["history"].items) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g@%.0f,", p[1].num, p[0].num);
      out += buf;
    }
    for (const auto& h : r["perHead"].items)
      for (const auto& w : h["weightOn"].items) out += std::to_string(w.num) + ";";
    out += "|";
  }
  return out;
}

}  // namespace

TEST_CASE("remote: the page's runs are the program's bit for bit, and an independent local run's") {
  Linked l;
  CHECK(l.page.where() == "worker");
  CHECK_FALSE(l.page.started());
  CHECK_FALSE(l.page.ready());
  CHECK(l.sent.empty());
  (void)l.page.runs();  // the first read starts the program (this link answers at once)
  CHECK(l.sent == std::vector<std::string>{"start", "reset"});
  CHECK(l.page.ready());  // the reset's answer came

  LiveTraining local;
  REQUIRE(l.page.reset(77, 4, 0.02f, true));
  REQUIRE(local.reset(77, 4, 0.02f, true));
  REQUIRE(l.page.step(6));
  REQUIRE(local.step(6));
  REQUIRE(l.page.set_lr(0.005f));
  REQUIRE(local.set_lr(0.005f));
  REQUIRE(l.page.step(3));
  REQUIRE(local.step(3));
  CHECK(l.page.step_count() == 9);
  CHECK(l.page.runs().size() == 6);
  CHECK(runs_of(l.page.state_json()) == runs_of(l.program.state_json()));
  CHECK(runs_of(l.page.state_json()) == runs_of(local.state_json()));
  CHECK(l.page.seed() == 77);
  CHECK(l.page.relations() == 4);
  CHECK(l.page.runs_tie_qk());

  // Another seed moves the curves (the comparison above can fail).
  LiveTraining other;
  REQUIRE(other.reset(78, 4, 0.02f, true));
  REQUIRE(other.step(9));
  CHECK(runs_of(other.state_json()) != runs_of(l.page.state_json()));
}

TEST_CASE("remote: refusals use the trainer's messages and send nothing") {
  Linked l;
  (void)l.page.runs();
  const size_t before = l.sent.size();
  LiveTraining local;
  CHECK_FALSE(l.page.reset(1, 3, 0.01f));
  CHECK_FALSE(local.reset(1, 3, 0.01f));
  CHECK(l.page.error() == local.error());
  CHECK_FALSE(l.page.step(0));
  CHECK_FALSE(local.step(0));
  CHECK(l.page.error() == local.error());
  CHECK_FALSE(l.page.set_lr(100.f));
  CHECK_FALSE(local.set_lr(100.f));
  CHECK(l.page.error() == local.error());
  CHECK(l.page.error_code() == "lr_range");
  CHECK(l.sent.size() == before);
}

TEST_CASE("remote: a cut, foreign or non-finite message is refused and changes nothing") {
  Linked l;
  REQUIRE(l.page.step(3));
  const std::string before = l.page.state_json();
  const std::string wire = encode_state(l.program.trainer(), 12.5, true, {});
  for (size_t n = 0; n < wire.size(); n += 7) CHECK_FALSE(l.page.take_wire(bytes(wire), n));
  std::string longer = wire + "x";
  CHECK_FALSE(l.page.take_wire(bytes(longer), longer.size()));
  std::string foreign = wire;
  foreign[0] ^= 1;
  CHECK_FALSE(l.page.take_wire(bytes(foreign), foreign.size()));
  // A NaN where the first run's first loss is: find that loss's bytes and overwrite them.
  const float loss0 = l.program.trainer().runs()[0].history[0].loss;
  std::string nan = wire;
  const size_t at = nan.find(std::string(reinterpret_cast<const char*>(&loss0), 4));
  REQUIRE(at != std::string::npos);
  const float q = std::nanf("");
  std::memcpy(&nan[at], &q, 4);
  CHECK_FALSE(l.page.take_wire(bytes(nan), nan.size()));
  CHECK(l.page.state_json() == before);
  CHECK(l.page.take_wire(bytes(wire), wire.size()));  // the whole message is taken
  CHECK(l.page.running());
  CHECK(l.page.steps_per_second() == 12.5);
}

TEST_CASE("remote: trained weights come over exactly and drive the Scene") {
  Linked l;
  REQUIRE(l.page.step(20));
  Scene scene;
  REQUIRE(scene.set_heads(2));
  REQUIRE(l.page.set_weights("trained"));
  l.page.sync_scene(scene);
  CHECK(l.page.weights_shown() == "trained");
  CHECK(l.sent.back() == "weights");
  const AttentionWeights* want = l.program.trainer().weights(2, false);
  REQUIRE(want != nullptr);
  TrainedWeights got;
  const std::string w = encode_weights(l.program.trainer(), 2, false);
  REQUIRE(decode_weights(bytes(w), w.size(), got));
  CHECK(got.w.wo == want->wo);
  for (int h = 0; h < 2; ++h) {
    CHECK(got.w.wq[static_cast<size_t>(h)] == want->wq[static_cast<size_t>(h)]);
    CHECK(got.w.wk[static_cast<size_t>(h)] == want->wk[static_cast<size_t>(h)]);
    CHECK(got.w.wv[static_cast<size_t>(h)] == want->wv[static_cast<size_t>(h)]);
  }
  REQUIRE(scene.weights_overridden());
  CHECK(l.page.set_weights("built"));
  l.page.sync_scene(scene);
  CHECK_FALSE(scene.weights_overridden());
  CHECK(l.sent.back() == "weights");  // none wanted any more
}

TEST_CASE("remote: restart empties the mirror and resets the runs; a program that could not start is asked for again") {
  Linked l;
  REQUIRE(l.page.reset(9, 2, 0.01f));
  REQUIRE(l.page.play());
  REQUIRE(l.page.step(4));
  CHECK(l.page.running());
  l.connected = false;
  l.page.restarted(Status::fail(refusals::js_worker_restarted, "it stopped"));
  CHECK_FALSE(l.page.ready());
  CHECK(l.page.runs().empty());
  CHECK(l.page.notice().error ==
        "The training Worker stopped (it stopped) and was started again: the runs begin again from step 0.");
  CHECK(l.sent[l.sent.size() - 2] == "reset");
  CHECK(l.sent.back() == "play");
  jsonr::Value v;
  REQUIRE(jsonr::parse(l.page.state_json(), v));
  CHECK(v["step"].num == 0);
  CHECK(v["ready"].b == false);

  // The new program could not start either: said so; nothing is sent
  // until the next use, which asks for the program and the same settings.
  const size_t before = l.sent.size();
  l.page.unavailable(Status::fail(refusals::js_train_unavailable, "headroom-train.js: HTTP 404"));
  CHECK(l.page.remote());
  CHECK(l.page.notice().error ==
        "The training program could not start (headroom-train.js: HTTP 404); training asks for it again when next used.");
  CHECK(l.sent.size() == before);
  // Drawing the train view reads the runs every frame: reads do not ask
  // again (a CI run saw a retry per frame, one of them still in flight when
  // the program came back, land on the main thread for a stale reason).
  l.connected = true;
  for (int frame = 0; frame < 3; ++frame) {
    CHECK(l.page.runs().empty());
    CHECK(l.page.step_count() == 0);
    (void)l.page.state_json();  // train.state(), as the page polls it
  }
  CHECK(l.sent.size() == before);
  REQUIRE(l.page.step(2));
  REQUIRE(l.sent.size() == before + 3);
  CHECK(l.sent[before] == "start");
  CHECK(l.sent[before + 1] == "reset");
  CHECK(l.sent[before + 2] == "step");
  CHECK(l.page.seed() == 9);
  l.post();
  LiveTraining local;
  REQUIRE(local.reset(9, 2, 0.01f));
  REQUIRE(local.step(2));
  CHECK(runs_of(l.page.state_json()) == runs_of(local.state_json()));
}

TEST_CASE("remote: the page's LiveTraining is remote from the start and sends its first uses once the sender comes") {
  LiveTraining page{TrainsElsewhere{}};
  CHECK(page.remote());
  CHECK_FALSE(page.ready());
  CHECK_FALSE(page.has_corpus());
  CHECK(page.seed() == kDefaultSeed);
  // A use before the sender: validated here, kept.
  CHECK_FALSE(page.set_lr(-1.f));
  REQUIRE(page.set_lr(0.02f));
  CHECK(page.lr() == 0.02f);
  std::vector<std::string> sent;
  REQUIRE(page.use_remote([&](const TrainCommand& c) { sent.emplace_back(c.verb); }));
  REQUIRE(sent.size() >= 2);
  CHECK(sent[0] == "start");
  CHECK(sent[1] == "reset");
  // No trainer here: the corpus and snapshots are the program's.
  const uint8_t none[1] = {0};
  const Status corpus = page.set_corpus(none, 0, 0);
  CHECK(std::string(corpus.code()) == "corpus_in_program");
  std::string json;
  CHECK(std::string(page.snapshot_json(1, json).code()) == "snapshot_in_program");
}

TEST_CASE("remote: after a reset the count is the new runs' 0 before the program answers, so 'the rest to step N' asks for N") {
  // The tour asks for "the rest to step N" (N - count) right after a reset;
  // a count still the old runs' (8) would ask for 12 and stop at 12, not 20.
  Linked l;
  REQUIRE(l.page.step(8));
  REQUIRE(l.page.step_count() == 8);
  REQUIRE(l.program.step_count() == 8);
  l.connected = false;  // the program has not answered the reset yet
  REQUIRE(l.page.reset(7, 2, 0.05f));
  CHECK(l.page.step_count() == 0);
  const int64_t rest = 20 - l.page.step_count();
  l.connected = true;
  REQUIRE(l.page.reset(7, 2, 0.05f));
  REQUIRE(l.page.step(static_cast<int>(rest)));
  CHECK(l.page.step_count() == 20);
  CHECK(l.program.step_count() == 20);
}

namespace {
// The page linked to `parts` programs, each training its share of the runs
// (live_training.h "Shares"), each post handed to the page with its part,
// as headroom-train.mjs's team does.
struct Team {
  std::vector<std::unique_ptr<LiveTraining>> programs;
  LiveTraining page;
  explicit Team(int parts) {
    for (int i = 0; i < parts; ++i) {
      programs.push_back(std::make_unique<LiveTraining>());
      REQUIRE(programs.back()->set_share({i, parts}));
    }
    REQUIRE(page.use_remote([this](const TrainCommand& c) { on_command(c); }));
  }
  void on_command(const TrainCommand& c) {
    const std::string verb = c.verb;
    if (verb == "start") return;
    const int parts = static_cast<int>(programs.size());
    for (int i = 0; i < parts; ++i) {  // each answers (posts its state) in turn
      LiveTraining& p = *programs[static_cast<size_t>(i)];
      if (verb == "reset") REQUIRE(p.reset(static_cast<int64_t>(c.a), static_cast<int>(c.b), static_cast<float>(c.c), c.d == 1));
      if (verb == "step") REQUIRE(p.step(static_cast<int>(c.a)));
      if (verb == "lr") REQUIRE(p.set_lr(static_cast<float>(c.a)));
      const std::string wire = encode_state(p.trainer(), 10.0 + i, false, p.errors());
      REQUIRE(page.take_wire(bytes(wire), wire.size(), i, parts));
    }
  }
};
}  // namespace

TEST_CASE("remote: runs trained in shares by several programs reach the page as one program's, bit for bit") {
  CHECK_FALSE(LiveTraining().set_share({2, 2}));
  for (bool tie : {false, true})
    for (int parts = 2; parts <= kMaxRunShares; ++parts) {
      CAPTURE(tie);
      CAPTURE(parts);
      Team team(parts);
      LiveTraining local;  // one program, every run
      REQUIRE(team.page.reset(31, 2, 0.01f, tie));
      REQUIRE(local.reset(31, 2, 0.01f, tie));
      REQUIRE(team.page.step(5));
      REQUIRE(local.step(5));
      REQUIRE(team.page.set_lr(0.004f));
      REQUIRE(local.set_lr(0.004f));
      REQUIRE(team.page.step(4));
      REQUIRE(local.step(4));
      CHECK(team.page.step_count() == 9);
      CHECK(team.page.runs().size() == local.runs().size());
      CHECK(runs_of(team.page.state_json()) == runs_of(local.state_json()));
      CHECK(team.page.steps_per_second() == 10.0);  // the slowest part's
      for (int i = 0; i < parts; ++i)  // each program holds only its share
        CHECK(team.programs[static_cast<size_t>(i)]->runs().size() < local.runs().size());
    }
  // a part that is not one is refused, and the state is kept
  Team team(2);
  REQUIRE(team.page.step(2));
  const std::string before = team.page.state_json();
  const std::string wire = encode_state(team.programs[0]->trainer(), 0.0, false, {});
  CHECK_FALSE(team.page.take_wire(bytes(wire), wire.size(), 2, 2));
  CHECK(team.page.state_json() == before);
}
