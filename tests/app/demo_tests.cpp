// demo_tests.cpp: the app's verbs (app/state/demo.h) as the UI, the JS API and a
// link drive them: a hash applies what it can and keeps the rest, theme and
// view accept only their listed values, and the stress tick runs and times
// the forward pass only while stress is on. Expected values come from the
// inputs (the hash's fields, the lists in url_state.h), never from the Demo.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "app/state/demo.h"
#include "app/state/tables.h"
#include "app/state/url_state.h"
#include "json_read.h"
#include "../common/text_bits.h"

using namespace headroom;
using headroom::testing::has;
using namespace headroom::app;

namespace {


// What a refusal must leave alone.
struct Snapshot {
  int heads, query, L, stress;
  float focus;
  std::string view, theme, draft;
  explicit Snapshot(Demo& d)
      : heads(d.scene.heads()),
        query(d.scene.query()),
        L(static_cast<int>(d.scene.tokens().size())),
        stress(d.scene.stress()),
        focus(d.scene.focus()),
        view(d.view),
        theme(d.theme),
        draft(d.scene.text()) {}
  bool operator==(const Snapshot& o) const {
    return heads == o.heads && query == o.query && L == o.L && stress == o.stress && focus == o.focus &&
           view == o.view && theme == o.theme && draft == o.draft;
  }
};

}  // namespace

TEST_CASE("apply_hash: a good link sets every field and clears the error") {
  Demo d;
  d.reject(js_refusal("js_token", {"\"x\""}));
  CHECK(d.apply_hash("#heads=2&sentence=The+cat+sat+down.&query=1&focus=0.25&view=values&theme=dark"));
  CHECK(d.error.empty());
  CHECK(d.scene.heads() == 2);
  CHECK(d.scene.tokens().size() == 5);  // The cat sat down .
  CHECK(d.scene.query() == 1);
  CHECK(d.scene.focus() == 0.25f);
  CHECK(d.view == "values");
  CHECK(d.theme == "dark");
  CHECK(d.scene.text() == "The cat sat down.");  // the sentence box follows
}

TEST_CASE("apply_hash: refused fields keep their values, accepted ones apply, every refusal is named") {
  Demo d;
  REQUIRE(d.set_heads(2));
  REQUIRE(d.set_view("concat"));
  REQUIRE(d.set_theme("dark"));
  const Snapshot before(d);

  // Every field hostile: nothing changes, one message per field.
  CHECK_FALSE(d.apply_hash("heads=3&view=%3Cscript%3E&theme=blue&sentence=%ZZ&query=0&focus=NaN"));
  CHECK(Snapshot(d) == before);
  for (const char* key : {"heads", "view", "theme", "sentence", "query", "focus"}) {
    CAPTURE(key);
    CHECK(has(d.error, key));
  }

  // A mix: heads 4 applies, the refused theme stays dark.
  CHECK_FALSE(d.apply_hash("heads=4&theme=nope"));
  CHECK(d.scene.heads() == 4);
  CHECK(d.theme == "dark");
  CHECK(has(d.error, "theme"));
  CHECK_FALSE(has(d.error, "heads"));

  // A sentence the engine refuses (over the token cap) keeps the old one and
  // its query; the sentence box keeps its text.
  std::string many = "sentence=";
  for (int i = 0; i < SceneConfig::kMaxTokens + 8; ++i) many += "w+";
  const Snapshot mid(d);
  CHECK_FALSE(d.apply_hash(many + "&query=0"));
  CHECK(Snapshot(d) == mid);
  CHECK(has(d.error, "query was skipped"));
}

TEST_CASE("hash: the state written out applies to a fresh Demo as the same state") {
  Demo a;
  REQUIRE(a.set_sentence("Ünïcødé <b> & = % + # words, 我 😀."));
  REQUIRE(a.set_heads(4));
  REQUIRE(a.select_token(2));
  REQUIRE(a.set_focus(0.125f));
  REQUIRE(a.set_view("steps"));
  REQUIRE(a.set_theme("dark"));
  const std::string hash = a.hash();
  CHECK_FALSE(has(hash, "#"));
  Demo b;
  CHECK(b.apply_hash(hash));
  CHECK(Snapshot(b) == Snapshot(a));

  // Defaults are left out: a plain link stays short.
  Demo plain;
  CHECK(plain.hash() == "heads=1&query=" + std::to_string(plain.scene.query()));
}

TEST_CASE("set_theme and set_view accept exactly their lists") {
  Demo d;
  for (const char* t : kThemes) {
    CAPTURE(t);
    CHECK(d.set_theme(t));
    CHECK(d.theme == t);
    CHECK(d.error.empty());
  }
  for (const char* v : kViews) {
    CAPTURE(v);
    CHECK(d.set_view(v));
    CHECK(d.view == v);
  }
  REQUIRE(d.set_theme("dark"));
  REQUIRE(d.set_view("values"));
  for (const char* bad : {"", "Dark", "dark ", "<b>", "light\n"}) {
    CAPTURE(bad);
    CHECK_FALSE(d.set_theme(bad));
    CHECK(d.theme == "dark");
    CHECK(has(d.error, "light or dark"));  // the message names the choices
    CHECK_FALSE(d.set_view(bad));
    CHECK(d.view == "values");
    CHECK(has(d.error, "is not a view"));
  }
  CHECK(d.set_heads(2));
  CHECK(d.error.empty());  // the next accepted verb clears the refusal
}

TEST_CASE("the stress tick runs the forward pass only while stress is on, and times it") {
  Demo d;
  CHECK_FALSE(d.tick());  // off: nothing runs, no frames wanted
  CHECK(d.stress.count == 0);

  REQUIRE(d.set_stress(SceneConfig::kMaxStressTokens));
  CHECK(d.scene.tokens().size() == static_cast<size_t>(SceneConfig::kMaxStressTokens));
  const int ticks = 5;
  for (int i = 0; i < ticks; ++i) CHECK(d.tick());
  CHECK(d.stress.count == ticks);
  // The median is one of the timed values, and a 512-token forward pass takes time.
  const auto first = d.stress.ms.begin(), last = first + ticks;
  CHECK(std::find(first, last, d.stress.median_ms) != last);
  CHECK(d.stress.median_ms > 0);
  // The trace the views read is the one tick computed: every weight row sums to 1.
  const Mat& w = d.scene.trace().heads[0].weights;
  CHECK(w.rows() == SceneConfig::kMaxStressTokens);
  CHECK(std::abs(w.row(w.rows() - 1).sum() - 1.f) < 1e-4f);

  // The same length again keeps the clock; a new length restarts it.
  REQUIRE(d.set_stress(SceneConfig::kMaxStressTokens));
  CHECK(d.stress.count == ticks);
  REQUIRE(d.set_stress(64));
  CHECK(d.stress.count == 0);
  CHECK(d.tick());
  CHECK(d.stress.count == 1);

  // A refused length keeps stress as it was; off stops the ticks.
  CHECK_FALSE(d.set_stress(SceneConfig::kMaxStressTokens + 1));
  CHECK(d.scene.stress() == 64);
  CHECK_FALSE(d.error.empty());
  REQUIRE(d.set_stress(0));
  CHECK_FALSE(d.tick());
  CHECK(d.stress.count == 0);
}

TEST_CASE("reject records a message and changes nothing else; reduced motion is app state") {
  Demo d;
  const Snapshot before(d);
  d.reject(js_refusal("js_heads", {"\"two\""}));
  CHECK(d.error == "heads must be a whole number (1, 2, 4 or 8), not \"two\"");
  CHECK(d.error_code == "js_heads");
  CHECK(Snapshot(d) == before);
  CHECK_FALSE(d.reduced_motion);
  d.set_reduced_motion(true);
  CHECK(d.reduced_motion);
}

TEST_CASE("getState carries the theme and the view") {
  Demo d;
  REQUIRE(d.set_theme("dark"));
  REQUIRE(d.set_view("values"));
  const std::string json = state_json(d);
  CHECK(has(json, "\"theme\":\"dark\""));
  CHECK(has(json, "\"view\":\"values\""));
}

TEST_CASE("getState's text is the accepted sentence as typed; a refused one leaves it") {
  Demo d;
  const std::string typed = "Die Forscherin sagte, es sei falsch.";
  REQUIRE(d.set_sentence(typed));
  CHECK(has(state_json(d), "\"text\":\"" + typed + "\""));
  CHECK_FALSE(d.set_sentence(""));  // refused: nothing to tokenize
  CHECK(has(state_json(d), "\"text\":\"" + typed + "\""));
}

TEST_CASE("getState: knockout, carried, tieQK and scores come from the engine and follow the verbs") {
  Demo d;
  REQUIRE(d.set_heads(2));
  jsonr::Value v;
  REQUIRE(jsonr::parse(state_json(d), v));
  CHECK(v["knockout"].items.empty());
  CHECK(v["tieQK"].kind == jsonr::Value::Bool);
  CHECK_FALSE(v["tieQK"].b);
  REQUIRE(v["carried"].items.size() == 2);
  const std::vector<float>& carried = d.scene.carried();
  CHECK(v["carried"][0].num == doctest::Approx(carried[0]).epsilon(1e-5));
  const int L = static_cast<int>(d.scene.tokens().size()), q = d.scene.query();
  REQUIRE(v["scores"].items.size() == 2);
  REQUIRE(v["scores"][1].items.size() == static_cast<size_t>(L));
  for (int j = 0; j < L; ++j)
    CHECK(v["scores"][1][static_cast<size_t>(j)].num ==
          doctest::Approx(d.scene.trace().heads[1].scores(q, j)).epsilon(1e-5));

  REQUIRE(d.set_knockout({1}));
  REQUIRE(d.set_tie_qk(true));
  v = jsonr::Value{};
  REQUIRE(jsonr::parse(state_json(d), v));
  REQUIRE(v["knockout"].items.size() == 1);
  CHECK(v["knockout"][0].num == 1);
  CHECK(v["tieQK"].b);
  CHECK(has(d.hash(), "knockout=2"));
  CHECK(has(d.hash(), "tieqk=1"));
  // a refusal keeps both and says why
  CHECK_FALSE(d.set_knockout({5}));
  CHECK(has(d.error, "does not exist"));
  CHECK(d.scene.knockout() == std::vector<int>{1});
  CHECK(d.scene.tie_qk());
}
