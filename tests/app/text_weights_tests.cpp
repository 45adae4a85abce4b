// text_weights_tests.cpp: the text model's weights reaching the views
// (app/wire/train_wire.h "text weights", app/training/live_training.h with
// the weights choice "text") and a typed sentence run through them.
// Does: check the text-weights message round-trips a model bit for bit and
// refuses it cut at every length, with a byte too many, a NaN, a foreign
// magic, the other kind, or specials missing, leaving its output
// unchanged; that with "text" chosen and the text task trained a few steps
// here, text_weights() is that run (heads, layers, step, vocabulary) and
// text_sentence's per-layer weights equal text_sentence_forward on an
// independent TextTrainer's snapshot (same corpus, seed, steps) for ids
// spelled out here by hand; the notes and refusals when no text model is
// shown; and the remote path: the page's model comes through the wire and
// gives the same text_sentence as the program's, bit for bit.
// Does not: test the tokeniser's rules (engine/text_words_tests.cpp) or the
// sentence forward's maths (engine/text_sentence_tests.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "app/lang/describe.h"
#include "app/lang/refusals.h"
#include "app/state/demo.h"
#include "app/state/url_state.h"
#include "app/training/live_training.h"
#include "app/wire/train_wire.h"
#include "engine/train/text_model.h"
#include "engine/train/text_trainer.h"
#include "json_read.h"
#include "text_corpus_fixture.h"
#include "../common/text_bits.h"

using namespace headroom;
using headroom::testing::bytes;
using namespace headroom::app;

namespace {


// A small text model made here (not by a trainer): 2 layers of 2 heads.
TextWeights small_weights() {
  TextShape s;
  s.vocab = 5;
  s.d_model = 4;
  s.tokens = 3;
  s.heads = 2;
  s.layers = 2;
  TextWeights w;
  w.heads = 2;
  w.layers = 2;
  w.step = 17;
  w.vocab = {"<unk>", "<num>", "the", "said", "."};
  w.params = initial_text_params(s, 4, 21);
  w.params.unembed.resize(0, 0);
  w.params.bias.resize(0, 0);
  return w;
}

bool same_model(const TextWeights& a, const TextWeights& b) {
  if (a.heads != b.heads || a.layers != b.layers || a.step != b.step || a.vocab != b.vocab) return false;
  const TextParams &p = a.params, &q = b.params;
  if (p.shape.vocab != q.shape.vocab || p.shape.d_model != q.shape.d_model || p.shape.tokens != q.shape.tokens ||
      p.shape.heads != q.shape.heads || p.shape.layers != q.shape.layers)
    return false;
  if (!(p.tok == q.tok) || !(p.pos == q.pos) || p.layers.size() != q.layers.size()) return false;
  for (size_t l = 0; l < p.layers.size(); ++l) {
    const AttentionWeights &x = p.layers[l], &y = q.layers[l];
    if (x.d_model != y.d_model || x.heads != y.heads || !(x.wo == y.wo)) return false;
    for (size_t h = 0; h < x.wq.size(); ++h)
      if (!(x.wq[h] == y.wq[h]) || !(x.wk[h] == y.wk[h]) || !(x.wv[h] == y.wv[h])) return false;
  }
  return true;
}

// Every matrix of two traces equal, bit for bit.
void check_same_trace(const TextSentenceTrace& a, const TextSentenceTrace& b) {
  CHECK(a.ids == b.ids);
  REQUIRE(a.x.size() == b.x.size());
  for (size_t l = 0; l < a.x.size(); ++l) CHECK(a.x[l] == b.x[l]);
  REQUIRE(a.layers.size() == b.layers.size());
  for (size_t l = 0; l < a.layers.size(); ++l) {
    REQUIRE(a.layers[l].heads.size() == b.layers[l].heads.size());
    for (size_t h = 0; h < a.layers[l].heads.size(); ++h) {
      CHECK(a.layers[l].heads[h].scores == b.layers[l].heads[h].scores);
      CHECK(a.layers[l].heads[h].weights == b.layers[l].heads[h].weights);
      CHECK(a.layers[l].heads[h].out == b.layers[l].heads[h].out);
    }
    CHECK(a.layers[l].concat == b.layers[l].concat);
    CHECK(a.layers[l].out == b.layers[l].out);
  }
}

constexpr int kLayers = 2;
constexpr int64_t kSeed = 5;
constexpr float kLr = 3e-3f;
constexpr int kSteps = 3;

}  // namespace

TEST_CASE("text weights: the message round-trips bit for bit; a cut, longer, NaN, foreign or other-kind one is refused") {
  const TextWeights w = small_weights();
  const std::string wire = encode_text_weights(w);
  WireKind kind{};
  REQUIRE(decode_kind(bytes(wire), wire.size(), kind));
  CHECK(kind == WireKind::kTextWeights);
  TextWeights got;
  REQUIRE(decode_text_weights(bytes(wire), wire.size(), got));
  CHECK(same_model(got, w));
  CHECK(got.params.unembed.size() == 0);

  const TextWeights before = got;
  for (size_t n = 0; n < wire.size(); ++n) {
    CAPTURE(n);
    CHECK_FALSE(decode_text_weights(bytes(wire), n, got));
  }
  const std::string longer = wire + "x";
  CHECK_FALSE(decode_text_weights(bytes(longer), longer.size(), got));
  std::string foreign = wire;
  foreign[3] ^= 1;
  CHECK(std::string(decode_text_weights(bytes(foreign), foreign.size(), got).code()) == "wire_foreign");
  // A NaN where E_pos(0, 0) is (tok is stored first, then pos).
  const float pos00 = w.params.pos(0, 0);
  std::string nan = wire;
  const size_t at = nan.find(std::string(reinterpret_cast<const char*>(&pos00), 4));
  REQUIRE(at != std::string::npos);
  const float q = std::nanf("");
  std::memcpy(&nan[at], &q, 4);
  CHECK_FALSE(decode_text_weights(bytes(nan), nan.size(), got));
  // The specials must lead the vocabulary.
  TextWeights bad = w;
  bad.vocab[0] = "<unq>";
  const std::string renamed = encode_text_weights(bad);
  CHECK_FALSE(decode_text_weights(bytes(renamed), renamed.size(), got));
  CHECK(same_model(got, before));  // every refusal left it as it was
  // The kinds do not mix.
  TrainedWeights tw;
  CHECK(std::string(decode_weights(bytes(wire), wire.size(), tw).code()) == "wire_other_kind");
  LiveTraining program([] { return 0.0; });
  const std::string roles = encode_weights(program.trainer(), 2, false);
  CHECK(std::string(decode_text_weights(bytes(roles), roles.size(), got).code()) == "wire_other_kind");
}

TEST_CASE("text weights here: the run's model, and text_sentence equals text_sentence_forward on the trainer's snapshot") {
  const auto corpus = test_fixture::small_corpus();
  LiveTraining t([] { return 0.0; });
  t.set_corpus(corpus, 10, 1.0);
  Scene scene;
  REQUIRE(scene.set_heads(2));
  REQUIRE(t.set_weights("text"));
  // Not the text task yet: nothing shown, and the note and the refusal say why.
  t.sync_scene(scene);
  CHECK(t.text_weights() == nullptr);
  CHECK(t.weights_shown() == "built");
  CHECK(std::string(t.weights_note().code()) == "note_not_text_task");
  std::vector<std::string> words = {"kept"};
  std::vector<bool> unknown = {true};
  TextSentenceTrace trace;
  Status s = t.text_sentence("w0 w1", words, unknown, trace);
  CHECK(std::string(s.code()) == "text_not_shown_note");
  CHECK(words == std::vector<std::string>{"kept"});
  CHECK(trace.layers.empty());

  REQUIRE(t.reset_text(kLayers, kSeed, kLr));
  REQUIRE(t.step(kSteps));
  t.sync_scene(scene);
  CHECK_FALSE(scene.weights_overridden());  // the Scene keeps its built weights
  CHECK(t.weights_shown() == "text");
  CHECK(t.weights_note().is_ok());
  const TextWeights* tw = t.text_weights();
  REQUIRE(tw != nullptr);
  CHECK(tw->heads == 2);
  CHECK(tw->layers == kLayers);
  CHECK(tw->step == kSteps);
  CHECK(tw->vocab == corpus->words);
  CHECK(t.weights_step() == kSteps);

  // An independent trainer: the same corpus, settings and steps.
  TextTrainer ref;
  TextTrainConfig cfg;
  cfg.layers = kLayers;
  cfg.seed = kSeed;
  cfg.lr = kLr;
  REQUIRE(ref.reset(corpus, cfg));
  REQUIRE(ref.step(kSteps));
  TextSnapshot snap;
  REQUIRE(ref.snapshot(2, snap));
  // "W1 w3 zz 7 w11 w3" in the fixture's ids, spelled out: w_k is id 2 + k,
  // a number <num> (1), a word it lacks <unk> (0).
  const std::vector<int> ids = {3, 5, 0, 1, 13, 5};
  TextSentenceTrace want;
  REQUIRE(text_sentence_forward(snap.params, ids, want));

  REQUIRE(t.text_sentence("W1 w3 zz 7 w11 w3", words, unknown, trace));
  CHECK(words == std::vector<std::string>{"W1", "w3", "zz", "7", "w11", "w3"});
  CHECK(unknown == std::vector<bool>{false, false, true, false, false, false});
  REQUIRE(trace.layers.size() == static_cast<size_t>(kLayers));
  for (size_t h = 0; h < 2; ++h) CHECK(trace.layers[0].heads[h].weights == want.layers[0].heads[h].weights);
  check_same_trace(trace, want);

  // Longer than the model's L tokens: its first L.
  std::string longer;
  for (int i = 0; i < kTextTokens + 5; ++i) longer += "w" + std::to_string(i % 12) + " ";
  REQUIRE(t.text_sentence(longer, words, unknown, trace));
  CHECK(words.size() == static_cast<size_t>(kTextTokens));
  CHECK(unknown.size() == static_cast<size_t>(kTextTokens));
  CHECK(trace.ids.size() == static_cast<size_t>(kTextTokens));
  // No word: refused, the last trace kept.
  s = t.text_sentence("  ", words, unknown, trace);
  CHECK(std::string(s.code()) == "sentence_empty");
  CHECK(trace.ids.size() == static_cast<size_t>(kTextTokens));

  // The model follows the chart: another step, another copy.
  REQUIRE(t.step(1));
  t.sync_scene(scene);
  REQUIRE(t.text_weights() != nullptr);
  CHECK(t.text_weights()->step == kSteps + 1);
  // Another head count: that run.
  REQUIRE(scene.set_heads(4));
  t.sync_scene(scene);
  REQUIRE(t.text_weights() != nullptr);
  CHECK(t.text_weights()->heads == 4);

  // "trained" with the text task: the lesson's note, no text model.
  REQUIRE(t.set_weights("trained"));
  t.sync_scene(scene);
  CHECK(t.text_weights() == nullptr);
  CHECK(std::string(t.weights_note().code()) == "note_text_model");
  // "built": no note, the plain refusal.
  REQUIRE(t.set_weights("built"));
  t.sync_scene(scene);
  CHECK(t.text_weights() == nullptr);
  CHECK(std::string(t.text_sentence("w1", words, unknown, trace).code()) == "text_not_shown");
  // Back to the roles task: the text model is gone.
  REQUIRE(t.set_weights("text"));
  REQUIRE(t.reset(kDefaultSeed, kDefaultRelations, kDefaultLr));
  t.sync_scene(scene);
  CHECK(t.text_weights() == nullptr);
  CHECK(t.weights_shown() == "built");
  CHECK(t.wire_text_weights(2).empty());
}

TEST_CASE("text weights remote: they come through the wire, and text_sentence is the program's bit for bit") {
  const auto corpus = test_fixture::small_corpus();
  LiveTraining program([] { return 0.0; });
  program.set_corpus(corpus, 10, 1.0);
  LiveTraining page([] { return 0.0; });
  std::vector<std::string> sent;
  bool connected = false;  // until the program "starts"
  REQUIRE(page.use_remote([&](const TrainCommand& c) {
    sent.emplace_back(c.verb);
    if (!connected) return;
    const std::string verb = c.verb;
    if (verb == "text") REQUIRE(program.reset_text(static_cast<int>(c.a), static_cast<int64_t>(c.b), static_cast<float>(c.c)));
    if (verb == "step") REQUIRE(program.step(static_cast<int>(c.a)));
    if (verb == "weights" && c.a > 0 && c.b == 0) {
      const std::string w = program.wire_text_weights(static_cast<int>(c.a));
      if (!w.empty()) REQUIRE(page.take_wire(bytes(w), w.size()));
    }
    const std::string st = program.wire_state(0.0, false);
    REQUIRE(page.take_wire(bytes(st), st.size()));
  }));
  Scene scene;
  REQUIRE(scene.set_heads(2));
  REQUIRE(page.set_weights("text"));
  page.sync_scene(scene);  // asks the program to start
  CHECK(std::string(page.weights_note().code()) == "note_starting");
  CHECK(page.text_weights() == nullptr);

  connected = true;
  REQUIRE(page.reset_text(kLayers, kSeed, kLr));
  REQUIRE(program.text_task());
  REQUIRE(page.step(kSteps));
  // The state came, the weights are asked for and come at once here.
  page.sync_scene(scene);
  CHECK(sent.back() == "weights");
  CHECK(page.weights_shown() == "text");
  const TextWeights* got = page.text_weights();
  REQUIRE(got != nullptr);
  CHECK(got->heads == 2);
  CHECK(got->layers == kLayers);
  CHECK(got->step == kSteps);

  Scene program_scene;
  REQUIRE(program_scene.set_heads(2));
  REQUIRE(program.set_weights("text"));
  program.sync_scene(program_scene);
  REQUIRE(program.text_weights() != nullptr);
  CHECK(same_model(*got, *program.text_weights()));
  std::vector<std::string> wa, wb;
  std::vector<bool> ua, ub;
  TextSentenceTrace ta, tb;
  const char* sentence = "w2 w5, 1960's w9 nothing-here w0.";
  REQUIRE(program.text_sentence(sentence, wa, ua, ta));
  REQUIRE(page.text_sentence(sentence, wb, ub, tb));
  CHECK(wa == wb);
  CHECK(ua == ub);
  check_same_trace(ta, tb);

  // Another step: the page shows the step it was sent when it asks again.
  REQUIRE(page.step(1));
  const std::string w = program.wire_text_weights(2);
  REQUIRE(page.take_wire(bytes(w), w.size()));
  page.sync_scene(scene);
  REQUIRE(page.text_weights() != nullptr);
  CHECK(page.text_weights()->step == kSteps + 1);

  // A head count whose model has not come yet: on its way, built shown.
  REQUIRE(scene.set_heads(4));
  connected = false;  // the program answers later
  page.sync_scene(scene);
  CHECK(sent.back() == "weights");
  CHECK(page.text_weights() == nullptr);
  CHECK(page.weights_shown() == "built");
  CHECK(std::string(page.weights_note().code()) == "note_on_the_way");
  // A cut text-weights message is refused and changes nothing.
  const std::string w4 = program.wire_text_weights(4);
  REQUIRE_FALSE(w4.empty());
  CHECK_FALSE(page.take_wire(bytes(w4), w4.size() - 1));
  page.sync_scene(scene);
  CHECK(page.text_weights() == nullptr);
  REQUIRE(page.take_wire(bytes(w4), w4.size()));
  page.sync_scene(scene);
  REQUIRE(page.text_weights() != nullptr);
  CHECK(page.text_weights()->heads == 4);
}

TEST_CASE("weights=text: the link and set_weights take it") {
  UrlParse p = parse_url_hash("#weights=text");
  CHECK(p.messages.empty());
  CHECK(p.state.weights == std::string("text"));
  CHECK(to_url_hash(p.state) == "weights=text");
  LiveTraining t([] { return 0.0; });
  CHECK(t.set_weights("text"));
  CHECK(t.weights_choice() == "text");
  CHECK_FALSE(t.set_weights("Text"));
  CHECK(t.weights_choice() == "text");
}

TEST_CASE("weights=text: the screen reader's words and getState().sentence describe the text model the views draw") {
  Demo d;
  d.training.set_corpus(test_fixture::small_corpus(), 1000, 1.0);
  REQUIRE(d.train_reset_text(1, 3, 3e-3f));
  REQUIRE(d.train_step(3));
  const std::string built = describe_state(d.scene);
  jsonr::Value v;
  REQUIRE(jsonr::parse(state_json(d), v));
  CHECK(v["description"].str == built);  // the lesson's built weights: as before
  REQUIRE(d.set_weights("text"));
  v = jsonr::Value{};
  REQUIRE(jsonr::parse(state_json(d), v));
  REQUIRE(v["model"]["source"].str == "text");
  const std::string text_readout = v["sentence"].str;
  CHECK(text_readout != readout_sentence(d.scene));  // not the built Scene's readout
  CHECK(v["description"].str != built);
  CHECK(v["description"].str.find(text_readout) != std::string::npos);
  // every token the views show, in order, as the sentence the description names
  std::string tokens;
  for (const jsonr::Value& t : v["model"]["tokens"].items) tokens += (tokens.empty() ? "" : " ") + t.str;
  CHECK(v["description"].str.find("Sentence: " + tokens + ".") == 0);
}
