// tour_tests.cpp: the guided lesson's steps measure their claims with the
// engine at reveal time. Expected values come from the Scene's trace and
// value maps read here, or from the lesson's words (which token is the
// subject), never from the tour's own numbers; a change made before the
// reveal (focus, a reassigned target) must move what is revealed.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <string>

#include "app/state/demo.h"
#include "app/state/tables.h"
#include "app/lang/describe.h"
#include "app/state/url_state.h"
#include "json_read.h"
#include "../common/scene_lookup.h"

using namespace headroom;
using headroom::testing::index_of;
using namespace headroom::app;

namespace {


jsonr::Value tour_state(const Demo& d) {
  jsonr::Value v;
  REQUIRE(jsonr::parse(d.tour_state_json(), v));
  return v;
}

const jsonr::Value& step_of(const jsonr::Value& v, int n) { return v["steps"][static_cast<size_t>(n - 1)]; }

Prediction point(float x, float y) {
  Prediction p;
  p.kind = AnswerKind::Point;
  p.xy = {x, y};
  return p;
}
Prediction choice(const char* id) {
  Prediction p;
  p.kind = AnswerKind::Choice;
  p.choice = id;
  return p;
}

}  // namespace

TEST_CASE("tour: the nine steps in the lesson's order, each with words and an answer kind") {
  Demo d;
  const jsonr::Value v = tour_state(d);
  const char* ids[] = {"average", "options", "two-heads", "coordinates", "more-heads",
                       "query-key", "training", "real-text", "recap"};
  REQUIRE(v["steps"].items.size() == 9);
  for (int i = 0; i < 9; ++i) {
    const jsonr::Value& s = v["steps"][static_cast<size_t>(i)];
    CHECK(s["id"].str == ids[i]);
    CHECK(s["title"].str.size() > 3);
    CHECK(s["question"].str.size() > 10);
    CHECK(s["predicted"].kind == jsonr::Value::Null);
    CHECK_FALSE(s["revealed"].b);
  }
  CHECK(v["step"].num == 0);
  CHECK(step_of(v, 1)["answer"]["kind"].str == "point");
  CHECK(step_of(v, 1)["answer"]["choices"].items.size() == 4);
  CHECK(step_of(v, 8)["answer"]["kind"].str == "labels");
  CHECK(step_of(v, 8)["answer"]["choices"].items.size() == kHeadKindCount + 1);  // every kind and "mixed"
  CHECK(step_of(v, 9)["answer"]["kind"].str == "none");
}

TEST_CASE("tour step average: the output sits at the midpoint of the two targets' values, measured at reveal") {
  Demo d;
  REQUIRE(d.set_heads(4));
  REQUIRE(d.tour_go(1));
  CHECK(d.scene.heads() == 1);  // the step asks with one head
  const int researcher = index_of(d.scene, "researcher"), it = index_of(d.scene, "it");
  // reference: the value map's own points, read here
  const ValueMap& m = d.scene.value_maps()[0];
  const float mx = 0.5f * (m.points(researcher, 0) + m.points(it, 0)), my = 0.5f * (m.points(researcher, 1) + m.points(it, 1));
  const float span = std::hypot(m.points(researcher, 0) - m.points(it, 0), m.points(researcher, 1) - m.points(it, 1));
  CHECK(std::hypot(m.output[0] - mx, m.output[1] - my) <= 0.1f * span);

  SUBCASE("a marker on the midpoint scores near 1; the reveal shows the engine's output") {
    REQUIRE(d.tour_predict(point(mx, my)));
    REQUIRE(d.tour_reveal());
    const jsonr::Value v = tour_state(d);
    const jsonr::Value& s = step_of(v, 1);
    CHECK(s["revealed"].b);
    CHECK(s["measured"]["lands"].str == "neither");
    CHECK(s["measured"]["output"][0].num == doctest::Approx(m.output[0]).epsilon(1e-4));
    CHECK(s["score"].num >= 0.9);
    CHECK(s["predicted"]["x"].num == doctest::Approx(mx));
  }
  SUBCASE("a marker on researcher scores about half; a far one 0") {
    REQUIRE(d.tour_predict(point(m.points(researcher, 0), m.points(researcher, 1))));
    REQUIRE(d.tour_reveal());
    CHECK(step_of(tour_state(d), 1)["score"].num == doctest::Approx(0.5).epsilon(0.15));
  }
  SUBCASE("reveal without a prediction scores nothing") {
    REQUIRE(d.tour_reveal());
    CHECK(step_of(tour_state(d), 1)["score"].kind == jsonr::Value::Null);
    CHECK(step_of(tour_state(d), 1)["feedback"].kind == jsonr::Value::Null);
  }
  SUBCASE("a change before the reveal moves what is revealed (never a stored answer)") {
    REQUIRE(d.set_focus(0.f));  // all on one
    REQUIRE(d.tour_predict(choice("neither")));
    REQUIRE(d.tour_reveal());
    const jsonr::Value v = tour_state(d);
    CHECK(step_of(v, 1)["measured"]["lands"].str != "neither");
    CHECK(step_of(v, 1)["score"].num == 0);
  }
  SUBCASE("refusals keep the state and say why") {
    Prediction bad = choice("somewhere");
    CHECK_FALSE(d.tour_predict(bad));
    CHECK(d.tour_error.find("researcher, it, neither, spread") != std::string::npos);
    Prediction nan = point(std::nanf(""), 0.f);
    CHECK_FALSE(d.tour_predict(nan));
    Prediction n;
    n.kind = AnswerKind::Number;
    n.number = 0.5f;
    CHECK_FALSE(d.tour_predict(n));
    CHECK(step_of(tour_state(d), 1)["predicted"].kind == jsonr::Value::Null);
    CHECK_FALSE(d.tour_go(10));
    CHECK_FALSE(d.tour_go(0));
    CHECK(d.tour.step() == 1);
    CHECK_FALSE(d.tour_replay());  // nothing revealed yet
    REQUIRE(d.tour_reveal());
    CHECK(d.tour_replay());
    CHECK_FALSE(d.tour_predict(point(0, 0)));  // after the reveal
  }
  SUBCASE("a refusal made outside the verbs always names a reason (fuzz_tour found an empty one)") {
    d.tour_reject(Status::ok());
    CHECK_FALSE(d.tour_error.empty());
    CHECK(d.error == d.tour_error);
    const jsonr::Value v = tour_state(d);
    CHECK(v["error"].kind == jsonr::Value::String);
    CHECK_FALSE(v["error"].str.empty());
    CHECK(v["step"].num == 1);
    d.tour_reject(js_refusal("js_tour_go", {"\"one\""}));
    CHECK(d.tour_error == "tour.go needs a step number (1 to 9), not \"one\"");
    CHECK(d.error_code == "js_tour_go");
    REQUIRE(d.tour_go(1));
    CHECK(d.tour_error.empty());
  }
}

TEST_CASE("tour steps options, two-heads, coordinates: measured with the engine") {
  Demo d;
  const int researcher = index_of(d.scene, "researcher"), it = index_of(d.scene, "it");
  REQUIRE(d.tour_go(2));
  // A choice step takes a choice only (fuzz_tour found a number, a point and
  // token indices accepted here, then revealed as "You chose : ...").
  {
    Prediction n;
    n.kind = AnswerKind::Number;
    n.number = 0.5f;
    Prediction m;
    m.kind = AnswerKind::Match;
    m.match = {1, 2, 3, 4};
    for (const Prediction& wrong : {n, point(0.f, 0.f), m}) {
      CHECK_FALSE(d.tour_predict(wrong));
      CHECK(d.tour_error.find("takes a choice, not a") != std::string::npos);
      CHECK(step_of(tour_state(d), 2)["predicted"].kind == jsonr::Value::Null);
    }
    for (int step : {4, 6}) {
      REQUIRE(d.tour_go(step));
      CHECK_FALSE(d.tour_predict(n));
      CHECK(step_of(tour_state(d), step)["predicted"].kind == jsonr::Value::Null);
    }
    REQUIRE(d.tour_go(2));
  }
  REQUIRE(d.tour_predict(choice("split")));
  REQUIRE(d.tour_reveal());
  jsonr::Value v = tour_state(d);
  const jsonr::Value& opt = step_of(v, 2)["measured"];
  REQUIRE(opt["outcomes"].items.size() == 3);
  CHECK(opt["outcomes"][0]["carried"][0].num >= 0.9);   // all on one keeps the subject
  CHECK(opt["outcomes"][0]["carried"][1].num <= 0.1);   // and loses the complement
  CHECK(opt["outcomes"][1]["keepsBoth"].num == doctest::Approx(0.5).epsilon(0.3));
  CHECK(opt["outcomes"][2]["keepsBoth"].num <= 0.3);    // spread keeps little of either
  CHECK(opt["bestKeepsBoth"].num < 0.9);                // none keeps both whole

  REQUIRE(d.tour_go(3));
  CHECK(d.scene.heads() == 1);  // asks with one head
  REQUIRE(d.tour_reveal());
  CHECK(d.scene.heads() == 2);  // reveals two
  v = tour_state(d);
  const jsonr::Value& two = step_of(v, 3)["measured"];
  // one head reads each target: cos >= 0.9 to its own, per the trace
  for (int h = 0; h < 2; ++h) {
    const HeadTrace& ht = d.scene.trace().heads[static_cast<size_t>(h)];
    const float c0 = cosine(ht.out.row(d.scene.query()), ht.v.row(researcher));
    CHECK(two["heads"][static_cast<size_t>(h)]["cos"][0].num == doctest::Approx(c0).epsilon(1e-4));
  }
  CHECK(std::max(two["heads"][0]["cos"][0].num, two["heads"][1]["cos"][0].num) >= 0.9);
  CHECK(std::max(two["heads"][0]["cos"][1].num, two["heads"][1]["cos"][1].num) >= 0.9);

  REQUIRE(d.tour_go(4));
  REQUIRE(d.tour_predict(choice("it")));
  REQUIRE(d.tour_reveal());
  v = tour_state(d);
  CHECK(step_of(v, 4)["measured"]["loses"].str == "it");
  CHECK(step_of(v, 4)["score"].num == 1);
  CHECK(d.scene.knockout() == std::vector<int>{1});  // the reveal shows head 2 knocked out
  (void)it;

  SUBCASE("re-entering a revealed step reveals it again; a change before a reveal moves what is measured") {
    REQUIRE(d.tour_go(3));
    CHECK(d.scene.heads() == 2);  // step 3 was revealed: it shows two heads again
    Demo e;
    REQUIRE(e.tour_go(4));
    CHECK(e.scene.knockout().empty());
    REQUIRE(e.set_target(Relation::Subject, it));  // both heads now look at "it"
    REQUIRE(e.tour_reveal());
    CHECK(step_of(tour_state(e), 4)["measured"]["loses"].str == "nothing");
  }
}

TEST_CASE("tour steps more-heads and query-key") {
  Demo d;
  const int researcher = index_of(d.scene, "researcher"), it = index_of(d.scene, "it"),
            paper = index_of(d.scene, "paper"), said = index_of(d.scene, "said");
  REQUIRE(d.tour_go(5));
  CHECK(d.scene.heads() == 2);
  Prediction m;
  m.kind = AnswerKind::Match;
  m.match = {researcher, it, paper, paper};
  REQUIRE(d.tour_predict(m));
  REQUIRE(d.tour_reveal());
  CHECK(d.scene.heads() == 4);
  jsonr::Value v = tour_state(d);
  const jsonr::Value& rel = step_of(v, 5)["measured"]["relations"];
  REQUIRE(rel.items.size() == 4);
  CHECK(rel[0]["token"].num == researcher);
  CHECK(rel[1]["token"].num == it);
  CHECK(rel[2]["token"].num == said - 1);  // the previous token
  CHECK(rel[3]["query"].num == it);        // coreference from "it"
  CHECK(rel[3]["token"].num == paper);
  CHECK(step_of(v, 5)["score"].num == 1);

  REQUIRE(d.tour_go(6));
  CHECK_FALSE(d.scene.tie_qk());
  REQUIRE(d.tour_predict(choice("equal")));
  REQUIRE(d.tour_reveal());
  CHECK(d.scene.tie_qk());
  v = tour_state(d);
  const jsonr::Value& qk = step_of(v, 6)["measured"];
  CHECK(qk["symmetric"].b);
  CHECK(qk["answer"].str == "equal");
  CHECK(qk["after"][0].num == doctest::Approx(qk["after"][1].num).epsilon(1e-4));
  CHECK(std::fabs(qk["before"][0].num - qk["before"][1].num) >= 1.0);
  // the reference: the live trace's scores, transposed
  const Mat& sc = d.scene.trace().heads[static_cast<size_t>(qk["head"].num)].scores;
  CHECK(qk["after"][0].num == doctest::Approx(sc(said, researcher)).epsilon(1e-4));
  CHECK(step_of(v, 6)["score"].num == 1);
  // The tie is one setting for the lesson and training (demo.h): the
  // training step unties, so the runs it trains are the three untied ones.
  REQUIRE(d.tour_go(7));
  CHECK_FALSE(d.scene.tie_qk());
  CHECK(d.training.trainer().runs().size() == 3);
}

TEST_CASE("tour: events, hash tour=N and tour=N-M, recap") {
  Demo d;
  REQUIRE(d.apply_hash("#tour=3-3"));
  CHECK(d.tour.step() == 3);
  CHECK(d.tour.first() == 3);
  CHECK(d.tour.last() == 3);
  CHECK_FALSE(d.tour_go(2));  // outside the range
  CHECK(d.hash().find("tour=3-3") != std::string::npos);
  CHECK(d.apply_hash(d.hash()));  // the page's own hash changes nothing
  Prediction pts;
  pts.kind = AnswerKind::Points;
  pts.xy = {0.5f, 0.f, 0.f, 0.5f};
  REQUIRE(d.tour_predict(pts));
  REQUIRE(d.tour_reveal());
  jsonr::Value ev;
  REQUIRE(jsonr::parse(d.tour.events_json(0), ev));
  REQUIRE(ev.items.size() == 3);
  CHECK(ev[0]["type"].str == "headroom:tour-event");
  CHECK(ev[0]["event"].str == "entered");
  CHECK(ev[1]["event"].str == "predicted");
  CHECK(ev[1]["predicted"]["points"].items.size() == 2);
  CHECK(ev[2]["event"].str == "revealed");
  CHECK(ev[2]["stepId"].str == "two-heads");
  CHECK(ev[2]["step"].num == 3);
  CHECK(ev[2]["measured"]["heads"].items.size() == 2);
  CHECK(ev[2]["score"].kind == jsonr::Value::Number);
  jsonr::Value later;
  REQUIRE(jsonr::parse(d.tour.events_json(d.tour.last_event()), later));
  CHECK(later.items.empty());

  Demo e;
  REQUIRE(e.apply_hash("tour=4"));
  CHECK(e.tour.step() == 4);
  CHECK(e.tour.first() == 1);
  CHECK(e.hash().find("tour=4") != std::string::npos);
  CHECK_FALSE(e.apply_hash("tour=10"));
  CHECK_FALSE(e.apply_hash("tour=5-3"));
  CHECK(e.tour.step() == 4);
  REQUIRE(e.tour_reveal());
  REQUIRE(e.tour_go(9));
  Prediction none = choice("x");
  CHECK_FALSE(e.tour_predict(none));  // recap takes no prediction
  REQUIRE(e.tour_reveal());
  const jsonr::Value v = tour_state(e);
  const jsonr::Value& rows = step_of(v, 9)["measured"]["rows"];
  REQUIRE(rows.items.size() == 8);
  CHECK(rows[3]["revealed"].b);
  CHECK_FALSE(rows[0]["revealed"].b);
}

TEST_CASE("tour step training: the one-head run's loss against its floor, measured after training" * doctest::test_suite("convergence")) {
  Demo d;
  REQUIRE(d.train_reset(1, 2, 0.01f));
  REQUIRE(d.tour_go(7));
  Prediction n;
  n.kind = AnswerKind::Number;
  n.number = 0.5f;
  REQUIRE(d.tour_predict(n));
  REQUIRE(d.tour_reveal());
  CHECK(d.training.trainer().step_count() >= kTourTrainSteps);
  const jsonr::Value v = tour_state(d);
  const jsonr::Value& m = step_of(v, 7)["measured"];
  const TrainRun* one = d.training.trainer().run(1);
  REQUIRE(one != nullptr);
  CHECK(m["oneHeadLoss"].num == doctest::Approx(one->loss()).epsilon(1e-5));
  CHECK(m["oneHeadLoss"].num >= 0.4);  // at its floor of 0.5, not below
  CHECK(step_of(v, 7)["score"].num == doctest::Approx(1.0 - std::fabs(0.5 - one->loss())).epsilon(1e-4));
}

// The main screen's verdict for one head (describe.cpp), in the words the
// tour's answers use: the learner reads the same sentence there.
std::string main_screen_lands(const Demo& d) {
  const std::string text = readout_sentence(d.scene);
  if (text.find("is close to neither") != std::string::npos) return "neither";
  if (text.find("is mush") != std::string::npos) return "spread";
  if (text.find("output reads researcher") != std::string::npos) return "researcher";
  if (text.find("output reads it") != std::string::npos) return "it";
  return "?";
}

TEST_CASE("tour marking: every option of every choice step, exactly one right, each with a reason") {
  // The right answer comes from an independent reading: the main screen's
  // sentence (step average), the carried fractions read here (options),
  // the knockout read here (coordinates), the symmetry read here (query-key).
  struct Step {
    int n;
    std::function<std::string(Demo&)> truth;
  };
  const std::vector<Step> steps = {
      {1, [](Demo& d) { return main_screen_lands(d); }},
      {2, [](Demo&) { return std::string("split"); }},  // half of each beats one whole and none (derived: min(1,0)=0 < min(.5,.5))
      {4, [](Demo&) { return std::string("it"); }},     // head 2 holds the complement (the fixed model)
      {6, [](Demo&) { return std::string("equal"); }},  // x W . y W = y W . x W
  };
  for (const Step& st : steps) {
    CAPTURE(st.n);
    const TourStepInfo& info = tour_steps()[static_cast<size_t>(st.n - 1)];
    int right = 0;
    for (const TourChoice& c : info.choices) {
      CAPTURE(c.id);
      Demo d;
      REQUIRE(d.tour_go(st.n));
      const std::string truth = st.truth(d);
      Prediction p;
      p.kind = AnswerKind::Choice;
      p.choice = c.id;
      REQUIRE(d.tour_predict(p));
      REQUIRE(d.tour_reveal());
      const jsonr::Value v = tour_state(d);
      const jsonr::Value& s = step_of(v, st.n);
      CHECK(s["correct"].kind == jsonr::Value::Bool);
      CHECK(s["correct"].b == (truth == c.id));
      CHECK(s["reason"].str.size() > 20);
      if (s["correct"].b) {
        ++right;
        CHECK(s["reason"].str.rfind("Right", 0) == 0);
      } else {
        CHECK(s["reason"].str.find(c.means) != std::string::npos);  // what the answer claimed
      }
      REQUIRE(v["answers"].items.size() == 1);
      CHECK(v["answers"][0]["step"].num == st.n);
      CHECK(v["answers"][0]["id"].str == info.id);
      CHECK(v["answers"][0]["correct"].b == s["correct"].b);
      CHECK(v["answers"][0]["reason"].str == s["reason"].str);
      CHECK(v["answers"][0]["answer"].str == c.label);
    }
    CHECK(right == 1);
  }
}

TEST_CASE("tour marking: step average's right answer is the main screen's 'close to neither', and moves with focus") {
  Demo d;
  REQUIRE(d.tour_go(1));
  CHECK(readout_sentence(d.scene).find("close to neither") != std::string::npos);
  REQUIRE(d.tour_predict(choice("neither")));
  REQUIRE(d.tour_reveal());
  CHECK(step_of(tour_state(d), 1)["correct"].b);
  // perturbation: all on one -> the main screen says it reads researcher, and so does the mark
  Demo e;
  REQUIRE(e.tour_go(1));
  REQUIRE(e.set_focus(0.f));
  REQUIRE(main_screen_lands(e) == "researcher");
  REQUIRE(e.tour_predict(choice("neither")));
  REQUIRE(e.tour_reveal());
  CHECK_FALSE(step_of(tour_state(e), 1)["correct"].b);
  CHECK(step_of(tour_state(e), 1)["measured"]["lands"].str == "researcher");
}

TEST_CASE("tour marking: a match marks each part; a partial answer is refused, naming what is missing") {
  Demo d;
  const int researcher = index_of(d.scene, "researcher"), it = index_of(d.scene, "it"),
            paper = index_of(d.scene, "paper"), said = index_of(d.scene, "said");
  REQUIRE(d.tour_go(5));
  Prediction part;
  part.kind = AnswerKind::Match;
  part.match = {researcher, -1, paper, -1};
  CHECK_FALSE(d.tour_predict(part));
  CHECK(d.tour_error.find("complement and antecedent") != std::string::npos);
  CHECK(step_of(tour_state(d), 5)["predicted"].kind == jsonr::Value::Null);
  Prediction m;
  m.kind = AnswerKind::Match;
  m.match = {researcher, said, paper, it};  // two right (subject, previous), two wrong
  REQUIRE(d.tour_predict(m));
  REQUIRE(d.tour_reveal());
  const jsonr::Value v = tour_state(d);
  const jsonr::Value& c = step_of(v, 5)["correct"];
  REQUIRE(c.items.size() == 4);
  CHECK(c[0].b);
  CHECK_FALSE(c[1].b);
  CHECK(c[2].b);
  CHECK_FALSE(c[3].b);
  const std::string reason = step_of(v, 5)["reason"].str;
  CHECK(reason.find("complement: it, not said") != std::string::npos);
  CHECK(reason.find("antecedent: paper, not it") != std::string::npos);
  // One model: the same weights whichever token is selected.
  const Mat w4 = d.scene.trace().heads[3].weights;
  REQUIRE(d.select_token(researcher));
  CHECK(d.scene.trace().heads[3].weights == w4);
}

TEST_CASE("tour: each revealed event carries an xAPI-shaped statement; try again forgets a step's mark") {
  Demo d;
  REQUIRE(d.tour_go(4));
  REQUIRE(d.tour_predict(choice("researcher")));
  REQUIRE(d.tour_reveal());
  jsonr::Value ev;
  REQUIRE(jsonr::parse(d.tour.events_json(0), ev));
  const jsonr::Value& r = ev[ev.items.size() - 1];
  REQUIRE(r["event"].str == "revealed");
  const jsonr::Value& st = r["statement"];
  CHECK(st["verb"]["id"].str == "http://adlnet.gov/expapi/verbs/answered");
  CHECK(st["object"]["id"].str == "urn:headroom:tour:coordinates");
  CHECK(st["object"]["name"].str == "Side by side, then mixed");
  CHECK_FALSE(st["result"]["success"].b);
  CHECK(st["result"]["score"]["scaled"].num == 0);
  CHECK(st["result"]["response"].str == "researcher");
  REQUIRE(d.tour_retry(4));
  jsonr::Value v = tour_state(d);
  CHECK_FALSE(step_of(v, 4)["revealed"].b);
  CHECK(v["answers"].items.empty());
  REQUIRE(d.tour_predict(choice("it")));
  REQUIRE(d.tour_reveal());
  v = tour_state(d);
  CHECK(step_of(v, 4)["correct"].b);
  REQUIRE(jsonr::parse(d.tour.events_json(0), ev));
  CHECK(ev[ev.items.size() - 1]["statement"]["result"]["success"].b);
}
