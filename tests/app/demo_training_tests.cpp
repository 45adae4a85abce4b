// demo_training_tests.cpp: the Demo's training verbs and hash keys: a link's
// seed and r start the runs afresh only when they differ (re-applying the
// page's own hash changes nothing), weights=trained puts the Scene on the
// trained run of its head count (or says there is none), refusals keep the
// state and set `error`, and getState's modelWeights says which weights the
// views show.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "app/state/demo.h"
#include "json_read.h"

using namespace headroom;
using namespace headroom::app;

namespace {
jsonr::Value state_of(Demo& d) {
  jsonr::Value v;
  REQUIRE(jsonr::parse(state_json(d), v));
  return v;
}
}  // namespace

TEST_CASE("a link's seed and r reset the runs; the same link again keeps them going") {
  Demo d;
  CHECK(d.apply_hash("view=train&seed=7&r=4"));
  CHECK(d.view == "train");
  CHECK(d.training.trainer().seed() == 7);
  CHECK(d.training.trainer().relations() == 4);
  REQUIRE(d.train_step(2));
  const std::string h = d.hash();
  CHECK(h.find("seed=7") != std::string::npos);
  CHECK(h.find("r=4") != std::string::npos);
  CHECK(h.find("view=train") != std::string::npos);
  CHECK(d.apply_hash(h));  // the page's own hash: no reset
  CHECK(d.training.trainer().step_count() == 2);
  CHECK(d.apply_hash("seed=8"));  // another seed: afresh, r kept
  CHECK(d.training.trainer().step_count() == 0);
  CHECK(d.training.trainer().seed() == 8);
  CHECK(d.training.trainer().relations() == 4);
  // Refused values keep everything and say why.
  CHECK_FALSE(d.apply_hash("seed=99999999999&r=3&weights=maybe"));
  CHECK(d.training.trainer().seed() == 8);
  CHECK(d.training.trainer().relations() == 4);
  CHECK(d.error.find("seed") != std::string::npos);
  CHECK(d.error.find("r=") != std::string::npos);
  CHECK(d.error.find("weights") != std::string::npos);
  // Defaults stay out of a plain link.
  Demo plain;
  const std::string ph = plain.hash();
  CHECK(ph.find("seed") == std::string::npos);
  CHECK(ph.find("r=") == std::string::npos);
  CHECK(ph.find("weights") == std::string::npos);
}

TEST_CASE("weights=trained: getState's weights change, follow the heads, and a count with no run says so") {
  Demo d;
  REQUIRE(d.set_heads(2));
  REQUIRE(d.train_step(2));
  const jsonr::Value built = state_of(d);
  CHECK(built["modelWeights"]["choice"].str == "built");
  CHECK(built["modelWeights"]["shown"].str == "built");
  CHECK(built["modelWeights"]["note"].kind == jsonr::Value::Null);
  CHECK(d.apply_hash("weights=trained"));
  const jsonr::Value trained = state_of(d);
  CHECK(trained["modelWeights"]["shown"].str == "trained");
  CHECK(trained["modelWeights"]["step"].num == 2);
  // The attention rows the views draw are now the trained model's: the
  // built 2-head scene puts >= 0.9 on one token per head, 2 steps from
  // random weights do not.
  double built_max = 0, trained_max = 0;
  for (const auto& row : built["weights"].items)
    for (const auto& w : row.items) built_max = std::max(built_max, w.num);
  for (const auto& row : trained["weights"].items)
    for (const auto& w : row.items) trained_max = std::max(trained_max, w.num);
  CHECK(built_max >= 0.9);
  CHECK(trained_max < 0.9);
  CHECK(d.hash().find("weights=trained") != std::string::npos);
  // Heads with no run: built weights, and the state says so.
  REQUIRE(d.set_heads(8));
  const jsonr::Value eight = state_of(d);
  CHECK(eight["modelWeights"]["shown"].str == "built");
  CHECK(eight["modelWeights"]["note"].str.find("8 heads") != std::string::npos);
  CHECK(eight["modelWeights"]["step"].kind == jsonr::Value::Null);
  REQUIRE(d.set_heads(4));
  CHECK(state_of(d)["modelWeights"]["shown"].str == "trained");
  // Back to built by the verb; a bad choice is refused and kept.
  CHECK_FALSE(d.set_weights("best"));
  CHECK(d.error.find("weights") != std::string::npos);
  CHECK(state_of(d)["modelWeights"]["choice"].str == "trained");
  REQUIRE(d.set_weights("built"));
  CHECK(state_of(d)["modelWeights"]["shown"].str == "built");
  CHECK(d.error.empty());
}

TEST_CASE("training verbs through the Demo: refusals set error and keep state; tick trains only when playing") {
  Demo d;
  CHECK_FALSE(d.train_step(0));
  CHECK(!d.error.empty());
  CHECK_FALSE(d.train_reset(1, 3, 1e-2f));
  CHECK(d.training.trainer().relations() == 2);
  CHECK_FALSE(d.train_set_lr(-1.f));
  CHECK_FALSE(d.train_set_speed(0));
  CHECK_FALSE(d.request_download(8));
  CHECK(d.download_request == 0);
  CHECK(d.request_download(2));
  CHECK(d.download_request == 2);
  CHECK_FALSE(d.tick());  // paused, no stress: no frames wanted, nothing trained
  CHECK(d.training.trainer().step_count() == 0);
  REQUIRE(d.train_set_speed(1));
  REQUIRE(d.train_play());
  const Mat wo0 = d.training.trainer().weights(1)->wo;
  CHECK(d.tick());
  // A frame runs at least one unit, the 1-head run's training step first,
  // and at most one whole step (the cap); on a real clock it may end mid-step.
  // Step 1 is an evaluation step: a run counts it once its held-out check
  // has passed, so the 1-head run's steps are 0 or 1, never ahead of a
  // finished step by more than that.
  CHECK(d.training.trainer().weights(1)->wo != wo0);
  CHECK(d.training.trainer().step_count() <= 1);
  const int64_t steps = d.training.trainer().step_count(), run_steps = d.training.trainer().runs()[0].steps;
  CHECK(run_steps >= steps);
  CHECK(run_steps <= 1);
  const Mat wo1 = d.training.trainer().weights(1)->wo;
  d.train_pause();
  CHECK_FALSE(d.tick());
  CHECK(d.training.trainer().step_count() == steps);
  CHECK(d.training.trainer().runs()[0].steps == run_steps);
  CHECK(d.training.trainer().weights(1)->wo == wo1);
}

TEST_CASE("lazy trainer: the lesson's own verbs, hash and state never build it; training's first use does, "
          "and then trains exactly as an eagerly built one") {
  Demo d;
  // Everything a reader does who never opens training.
  CHECK(d.apply_hash("heads=2&query=6&focus=0.5&view=lesson&theme=dark&weights=built"));
  CHECK(d.set_heads(4));
  CHECK(d.select_token(1));
  (void)state_of(d);
  (void)d.hash();
  CHECK_FALSE(d.tick());
  d.train_pause();
  CHECK(d.set_weights("built"));
  CHECK_FALSE(d.training.started());
  CHECK(d.training.seed() == kDefaultSeed);
  CHECK(d.training.relations() == kDefaultRelations);
  CHECK(d.training.lr() == kDefaultLr);

  // Each first use builds it.
  {
    Demo t;
    CHECK(t.set_weights("trained"));  // the views now need a run's weights
    CHECK(t.training.started());
  }
  {
    Demo t;
    CHECK(t.apply_hash("seed=9"));  // a link naming a seed starts its runs
    CHECK(t.training.started());
    CHECK(t.training.seed() == 9);
  }
  {
    Demo t;
    (void)t.training.state_json();  // train.state()
    CHECK(t.training.started());
  }
  {
    Demo t;
    CHECK(t.train_play());
    CHECK(t.training.started());
  }

  // Built late, the runs are the engine's own, bit for bit: the same losses
  // and history as a Trainer built eagerly and stepped alike.
  REQUIRE(d.train_step(6));
  Trainer eager;
  REQUIRE(eager.step(6).is_ok());
  const auto& late = d.training.trainer().runs();
  REQUIRE(late.size() == eager.runs().size());
  for (size_t i = 0; i < late.size(); ++i) {
    REQUIRE(late[i].history.size() == eager.runs()[i].history.size());
    for (size_t p = 0; p < late[i].history.size(); ++p) {
      CHECK(late[i].history[p].step == eager.runs()[i].history[p].step);
      CHECK(late[i].history[p].loss == eager.runs()[i].history[p].loss);  // exact
      CHECK(late[i].history[p].weight_on == eager.runs()[i].history[p].weight_on);
    }
  }
}

TEST_CASE("one tie, hash tieqk: the lesson's weights, the next training reset and the trained weights shown") {
  // A link with the tie: the lesson ties, and training (built lazily) has
  // tied runs beside the untied ones.
  Demo linked;
  CHECK(linked.apply_hash("heads=2&tieqk=1"));
  CHECK(linked.scene.tie_qk());
  CHECK_FALSE(linked.training.started());
  CHECK(linked.training.trainer().tie_qk());
  CHECK(linked.training.trainer().runs().size() == 6);
  CHECK(state_of(linked)["tieQK"].b);

  // The toggle does not throw running training away: it is for the next reset.
  Demo d;
  REQUIRE(d.set_heads(2));
  REQUIRE(d.train_step(2));
  REQUIRE(d.set_weights("trained"));
  REQUIRE(d.set_tie_qk(true));
  CHECK(d.training.trainer().runs().size() == 3);
  CHECK(d.training.trainer().step_count() == 2);
  CHECK(d.hash().find("tieqk=1") != std::string::npos);
  jsonr::Value s = state_of(d);
  CHECK(s["modelWeights"]["shown"].str == "built");  // no tied run to show yet, and it says so
  CHECK(s["modelWeights"]["note"].str.find("tie") != std::string::npos);
  // A reset with no tie argument trains the demo's tie; "trained" now shows
  // the tied 2-head run: each head's W_K is its W_Q, both the run's.
  REQUIRE(d.train_reset(5, 2, 1e-2f));
  REQUIRE(d.train_step(3));
  CHECK(d.training.trainer().runs().size() == 6);
  CHECK(state_of(d)["modelWeights"]["shown"].str == "trained");
  const AttentionWeights& shown = d.scene.weights();
  const AttentionWeights* tied = d.training.trainer().weights(2, true);
  const AttentionWeights* untied = d.training.trainer().weights(2, false);
  REQUIRE(tied != nullptr);
  REQUIRE(untied != nullptr);
  for (size_t h = 0; h < 2; ++h) {
    CHECK(shown.wk[h] == shown.wq[h]);
    CHECK(shown.wq[h] == tied->wq[h]);
    CHECK(shown.wq[h] != untied->wq[h]);
  }
  // Off again, through training: the lesson unties and "trained" shows the
  // untied run (which kept training beside the tied one).
  REQUIRE(d.set_tie_qk(false));
  CHECK(d.scene.weights().wq[0] == untied->wq[0]);
  CHECK(d.scene.weights().wk[0] == untied->wk[0]);
  REQUIRE(d.train_reset(5, 2, 1e-2f, true));  // tieQK: true ties the lesson too
  CHECK(d.scene.tie_qk());
  CHECK(d.hash().find("tieqk=1") != std::string::npos);
  REQUIRE(d.train_reset(5, 2, 1e-2f, false));
  CHECK_FALSE(d.scene.tie_qk());
  CHECK(d.training.trainer().runs().size() == 3);
  CHECK(d.hash().find("tieqk") == std::string::npos);
  // A refused reset changes neither the tie nor the runs.
  CHECK_FALSE(d.train_reset(5, 3, 1e-2f, true));
  CHECK_FALSE(d.scene.tie_qk());
  CHECK(d.training.trainer().runs().size() == 3);
}
