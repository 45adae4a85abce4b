// text_splits_tests.cpp: the midpoint found in held-out text in the app
// (engine/train/text_splits.h's cases): over the training program's wire
// (app/wire/train_wire.h "the splits"), in train.state() JSON
// (live_training.h "JSON" splits) and through Demo::show_split.
// Checks: hand-made cases cross the wire exactly; every cut of the message
// and every case out of range (positions out of order, one head taking
// both, a weight above 1, a non-finite or impossible cosine, too many
// cases, too few tokens, an empty word, cases on the roles task) is
// refused and changes nothing; the JSON gives positions 0-based and heads
// 1-based; the roles task's splits are null; show_split puts the case's
// sentence, query, the text weights and one head on the Demo, and refuses
// a case there is not with the state kept.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "app/lang/refusals.h"
#include "app/state/demo.h"
#include "app/training/live_training.h"
#include "app/wire/train_wire.h"
#include "json_read.h"
#include "../common/text_bits.h"

using namespace headroom;
using headroom::testing::bytes;
using namespace headroom::app;

namespace {


// "the researcher who wrote the paper said it was wrong ." with query 7
// ("it") splitting between "researcher" (1) and "paper" (5): made-up numbers.
TextSplit hand_case() {
  TextSplit c;
  c.step = 51;
  c.sentence = 3;
  c.words = {"the", "researcher", "who", "wrote", "the", "paper", "said", "it", "was", "wrong", "."};
  c.ids = {2, 900, 40, 300, 2, 500, 60, 30, 20, 700, 5};
  c.query = 7, c.a = 1, c.b = 5;
  c.one_a = 0.41f, c.one_b = 0.37f;
  c.head_a = 1, c.head_b = 2;
  c.many_a = 0.83f, c.many_b = 0.66f;
  c.cos_a = 0.6f, c.cos_b = 0.55f, c.cos_mid = 0.97f, c.many_cos_a = 0.99f, c.many_cos_b = 0.9f;
  return c;
}

TrainMirror text_mirror(std::vector<TextSplit> splits) {
  TrainMirror m;
  m.text = true;
  m.layers = 1;
  m.relations = 0;
  m.seed = 7;
  m.lr = 3e-3f;
  m.step = 51;
  TrainRun run;
  run.heads = 1;
  run.steps = 51;
  run.history = {EvalPoint{0, 8.f, {}}, EvalPoint{51, 6.5f, {}}};
  m.runs = {run};
  m.splits = std::move(splits);
  return m;
}

void check_same(const TextSplit& x, const TextSplit& y) {
  CHECK(x.step == y.step);
  CHECK(x.sentence == y.sentence);
  CHECK(x.words == y.words);
  CHECK(x.ids == y.ids);
  CHECK((x.query == y.query && x.a == y.a && x.b == y.b && x.head_a == y.head_a && x.head_b == y.head_b));
  CHECK((x.one_a == y.one_a && x.one_b == y.one_b && x.many_a == y.many_a && x.many_b == y.many_b));
  CHECK((x.cos_a == y.cos_a && x.cos_b == y.cos_b && x.cos_mid == y.cos_mid && x.many_cos_a == y.many_cos_a &&
         x.many_cos_b == y.many_cos_b));
}

jsonr::Value parsed(const std::string& json) {
  jsonr::Value v;
  REQUIRE(jsonr::parse(json, v));
  return v;
}

}  // namespace

TEST_CASE("text splits: the cases cross the wire exactly; cuts and cases out of range are refused") {
  TextSplit second = hand_case();
  second.query = 9, second.a = 0, second.b = 9, second.head_a = 3, second.head_b = 0;
  const std::string wire = encode_mirror(text_mirror({hand_case(), second}));
  TrainMirror got;
  REQUIRE(decode_state(bytes(wire), wire.size(), got));
  REQUIRE(got.splits.size() == 2);
  check_same(got.splits[0], hand_case());
  check_same(got.splits[1], second);
  for (size_t n = 0; n < wire.size(); ++n) {
    TrainMirror cut = got;
    CHECK_FALSE(decode_state(bytes(wire), n, cut));
    CHECK(cut.splits.size() == 2);  // unchanged
  }
  // one field wrong at a time
  const std::vector<std::function<void(TextSplit&)>> wrong = {
      [](TextSplit& c) { c.a = c.b; },            [](TextSplit& c) { c.b = c.query + 1; },
      [](TextSplit& c) { c.query = 11; },         [](TextSplit& c) { c.a = -1; },
      [](TextSplit& c) { c.head_b = c.head_a; },  [](TextSplit& c) { c.head_a = 8; },
      [](TextSplit& c) { c.one_a = 1.5f; },       [](TextSplit& c) { c.many_b = -0.1f; },
      [](TextSplit& c) { c.cos_mid = std::nanf(""); }, [](TextSplit& c) { c.many_cos_a = 1.5f; },
      [](TextSplit& c) { c.step = -1; },          [](TextSplit& c) { c.words[3].clear(); },
      [](TextSplit& c) { c.ids[2] = -4; },
      [](TextSplit& c) { c.words.resize(2), c.ids.resize(2), c.query = 1, c.a = 0, c.b = 1; }};
  for (size_t k = 0; k < wrong.size(); ++k) {
    CAPTURE(k);
    TextSplit c = hand_case();
    wrong[k](c);
    const std::string bad = encode_mirror(text_mirror({c}));
    TrainMirror out = got;
    const Status s = decode_state(bytes(bad), bad.size(), out);
    CHECK_FALSE(s);
    CHECK(s.refusal == &refusals::wire_broken);
    CHECK(out.splits.size() == 2);
  }
  // more than kSplitKeep cases: the writer keeps kSplitKeep, and a count above it is refused
  const std::string nine = encode_mirror(text_mirror(std::vector<TextSplit>(kSplitKeep + 1, hand_case())));
  REQUIRE(decode_state(bytes(nine), nine.size(), got));
  CHECK(got.splits.size() == static_cast<size_t>(kSplitKeep));
  std::string over = nine;
  const size_t count_at = over.size() - kSplitKeep * (wire.size() - encode_mirror(text_mirror({})).size()) / 2 - 4;
  uint32_t count = 0;
  std::memcpy(&count, &over[count_at], 4);
  REQUIRE(count == static_cast<uint32_t>(kSplitKeep));
  count = kSplitKeep + 1;
  std::memcpy(&over[count_at], &count, 4);
  CHECK_FALSE(decode_state(bytes(over), over.size(), got));
  // cases on the roles task
  TrainMirror roles = text_mirror({hand_case()});
  roles.text = false;
  roles.layers = 0;
  roles.relations = 2;
  roles.runs[0].history = {EvalPoint{0, 1.f, {0.5f, 0.5f}}};
  const std::string r = encode_mirror(roles);
  CHECK_FALSE(decode_state(bytes(r), r.size(), got));
  roles.splits.clear();
  const std::string r0 = encode_mirror(roles);
  CHECK(decode_state(bytes(r0), r0.size(), got));
}

TEST_CASE("text splits: train.state() gives each case, positions 0-based and heads 1-based; null for the roles task") {
  LiveTraining page([] { return 0.0; });
  REQUIRE(page.use_remote([](const TrainCommand&) {}));
  REQUIRE(page.reset_text(1, 7, 3e-3f));
  const std::string wire = encode_mirror(text_mirror({hand_case()}));
  REQUIRE(page.take_wire(bytes(wire), wire.size()));
  const jsonr::Value s = parsed(page.state_json());
  REQUIRE(s["splits"].items.size() == 1);
  const jsonr::Value& c = s["splits"].items[0];
  const TextSplit want = hand_case();
  CHECK(c["step"].num == 51);
  CHECK(c["query"].num == 7);
  CHECK(c["a"].num == 1);
  CHECK(c["b"].num == 5);
  REQUIRE(c["words"].items.size() == want.words.size());
  CHECK(c["words"].items[1].str == "researcher");
  CHECK(c["ids"].items[5].num == 500);
  CHECK(static_cast<float>(c["one"]["weightA"].num) == want.one_a);
  CHECK(static_cast<float>(c["one"]["weightB"].num) == want.one_b);
  CHECK(static_cast<float>(c["one"]["cosMidpoint"].num) == want.cos_mid);
  CHECK(c["four"]["headA"].num == 2);
  CHECK(c["four"]["headB"].num == 3);
  CHECK(static_cast<float>(c["four"]["weightB"].num) == want.many_b);
  LiveTraining roles([] { return 0.0; });
  REQUIRE(roles.reset(5, 2, 0.01f));
  CHECK(parsed(roles.state_json())["splits"].kind == jsonr::Value::Null);
}

TEST_CASE("text splits: Demo::show_split puts the case on the lesson's views; a case there is not is refused") {
  Demo demo;
  REQUIRE(demo.training.use_remote([](const TrainCommand&) {}));
  REQUIRE(demo.train_reset_text(1, 7, 3e-3f));
  const std::string wire = encode_mirror(text_mirror({hand_case()}));
  REQUIRE(demo.training.take_wire(bytes(wire), wire.size()));
  REQUIRE(demo.set_heads(2));
  const std::string before = demo.scene.text();
  CHECK_FALSE(demo.show_split(1));
  CHECK(demo.error_code == "no_split_case");
  CHECK(demo.scene.text() == before);
  CHECK(demo.scene.heads() == 2);
  CHECK(demo.shown_split() == nullptr);
  REQUIRE(demo.show_split(0));
  CHECK(demo.scene.text() == "the researcher who wrote the paper said it was wrong .");
  CHECK(demo.scene.query() == 7);
  CHECK(demo.scene.heads() == 1);
  CHECK(demo.training.weights_choice() == "text");
  REQUIRE(demo.shown_split() != nullptr);
  CHECK(demo.shown_split()->query == 7);
  // another sentence: no longer the case shown
  REQUIRE(demo.set_sentence("The cat sat."));
  CHECK(demo.shown_split() == nullptr);
}
