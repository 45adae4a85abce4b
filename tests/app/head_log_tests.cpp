// head_log_tests.cpp: the text heads over time (app/training/head_log.h).
// Checks, on runs made up here (every number set by hand): a point per new
// held-out step with each head's score of each kind where the engine gave
// one (NaN elsewhere) and its label; no point for a step already logged or a
// head not measured yet; a label that differs from the previous point's is
// one change, dated at the new point, with the new label's score; a run
// whose step goes back starts afresh and loses its changes; roles runs empty
// the log; past kMaxLogPoints the points thin and keep the first and the
// newest. Then through LiveTraining on a small corpus: every published
// held-out point is logged with the scores state() showed at that moment.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "app/training/head_log.h"
#include "app/training/live_training.h"
#include "json_read.h"
#include "text_corpus_fixture.h"

using namespace headroom;
using namespace headroom::app;

namespace {

// A run of `heads` heads in one layer at `step`, head h labelled labels[h]
// with score 0.1 * (h + 1) on "previous" and 0.5 on its label's kind.
TrainRun run_at(int heads, int64_t step, const std::vector<std::string>& labels) {
  TrainRun run;
  run.heads = heads;
  run.steps = step;
  run.history.push_back(EvalPoint{step, 5.f, {}});
  for (int h = 0; h < heads; ++h) {
    HeadSlot s{0, h, {{"previous", 0.1f * static_cast<float>(h + 1)}}, {{"previous", 0.05f}}, labels[static_cast<size_t>(h)], 0.5f};
    if (labels[static_cast<size_t>(h)] != "mixed" && labels[static_cast<size_t>(h)] != "previous") {
      s.scores.emplace_back(labels[static_cast<size_t>(h)], 0.5f);
      s.baselines.emplace_back(labels[static_cast<size_t>(h)], 0.1f);
    }
    run.per_head.push_back(s);
  }
  return run;
}

}  // namespace

TEST_CASE("head log: a point per new held-out step, scores by kind, labels as kinds") {
  HeadScoreLog log;
  log.observe({run_at(2, 0, {"mixed", "self"})}, true, 1);
  REQUIRE(log.runs().size() == 1);
  REQUIRE(log.runs()[0].points.size() == 1);
  const HeadLogPoint& p = log.runs()[0].points[0];
  CHECK(p.step == 0);
  REQUIRE(p.scores.size() == 2u * kHeadKindCount);
  CHECK(p.scores[kKindPrevious] == doctest::Approx(0.1f));
  CHECK(p.scores[kHeadKindCount + kKindPrevious] == doctest::Approx(0.2f));
  CHECK(p.scores[kHeadKindCount + kKindSelf] == 0.5f);
  CHECK(std::isnan(p.scores[kKindSelf]));  // head 1 had no "self" score
  CHECK(p.labels == std::vector<int>{-1, kKindSelf});
  CHECK(log.changes().empty());
  // The same step again: nothing new.
  log.observe({run_at(2, 0, {"previous", "self"})}, true, 1);
  CHECK(log.runs()[0].points.size() == 1);
  CHECK(log.changes().empty());
  // A head not measured yet: no point.
  TrainRun unmeasured = run_at(2, 50, {"mixed", "self"});
  unmeasured.per_head[1].label.clear();
  log.observe({unmeasured}, true, 1);
  CHECK(log.runs()[0].points.size() == 1);
}

TEST_CASE("head log: a changed label is one change at the new point; a reset starts afresh") {
  HeadScoreLog log;
  log.observe({run_at(2, 0, {"mixed", "mixed"})}, true, 1);
  log.observe({run_at(2, 50, {"mixed", "mixed"})}, true, 1);
  CHECK(log.changes().empty());
  log.observe({run_at(2, 100, {"previous", "mixed"})}, true, 1);
  REQUIRE(log.changes().size() == 1);
  const LabelChange& c = log.changes()[0];
  CHECK(c.heads == 2);
  CHECK(c.layer == 0);
  CHECK(c.head == 0);
  CHECK(c.step == 100);
  CHECK(c.from == -1);
  CHECK(c.to == kKindPrevious);
  CHECK(c.score == 0.5f);
  log.observe({run_at(2, 150, {"duplicate", "self"})}, true, 1);
  REQUIRE(log.changes().size() == 3);
  CHECK(log.changes()[1].from == kKindPrevious);
  CHECK(log.changes()[1].to == kKindDuplicate);
  CHECK(log.changes()[2].head == 1);
  // The step goes back: a reset. The run's points and changes go.
  log.observe({run_at(2, 0, {"mixed", "mixed"})}, true, 1);
  CHECK(log.runs()[0].points.size() == 1);
  CHECK(log.changes().empty());
  // Roles runs (or no runs) empty the log.
  log.observe({run_at(2, 50, {"self", "self"})}, false, 0);
  CHECK(log.runs().empty());
}

TEST_CASE("head log: past kMaxLogPoints the points thin, keeping the first and the newest") {
  HeadScoreLog log;
  for (int k = 0; k <= kMaxLogPoints; ++k) log.observe({run_at(1, 50 * k, {"mixed"})}, true, 1);
  const auto& points = log.runs()[0].points;
  CHECK(static_cast<int>(points.size()) <= kMaxLogPoints);
  CHECK(static_cast<int>(points.size()) >= kMaxLogPoints / 2);
  CHECK(points.front().step == 0);
  CHECK(points.back().step == 50 * kMaxLogPoints);
  for (size_t i = 1; i < points.size(); ++i) CHECK(points[i].step > points[i - 1].step);
}

TEST_CASE("head log: through the live training, every published point with the scores state() showed") {
  LiveTraining t([] { return 0.0; });
  t.set_corpus(test_fixture::small_corpus(), 10, 1.0);
  REQUIRE(t.reset_text(2, 5, 3e-3f));
  // state() after each held-out point: three points, the log's second and
  // third on top of the first (two gaps: under ASan each gap is ~30 s).
  std::vector<jsonr::Value> seen;
  for (int k = 0; k < 3; ++k) {
    if (k > 0) REQUIRE(t.step(kTextEvalGap));
    jsonr::Value v;
    REQUIRE(jsonr::parse(t.state_json(), v));
    seen.push_back(v);
  }
  const HeadScoreLog& log = t.head_log();
  REQUIRE(log.runs().size() == kTextHeads.size());
  for (size_t i = 0; i < kTextHeads.size(); ++i) {
    const HeadLogRun& run = log.runs()[i];
    CHECK(run.heads == kTextHeads[i]);
    CHECK(run.layers == 2);
    REQUIRE(run.points.size() == seen.size());
    for (size_t k = 0; k < seen.size(); ++k) {
      const jsonr::Value& per = seen[k]["runs"][i]["perHead"];
      const auto& history = seen[k]["runs"][i]["history"].items;
      CHECK(run.points[k].step == static_cast<int64_t>(history.back()[0].num));
      for (size_t s = 0; s < per.items.size(); ++s) {
        CHECK(run.points[k].labels[s] == head_kind_index(per[s]["label"].str));
        for (const auto& [kind, v] : per[s]["scores"].fields)
          CHECK(run.points[k].scores[s * kHeadKindCount + static_cast<size_t>(head_kind_index(kind))] ==
                static_cast<float>(v.num));
      }
    }
  }
  // Every change the log holds is one the states showed: the label before and after
  // (this run has some: 14 by the third point).
  REQUIRE_FALSE(log.changes().empty());
  jsonr::Value last;
  REQUIRE(jsonr::parse(t.state_json(), last));
  CHECK(last["labelChanges"].items.size() == log.changes().size());
  for (const LabelChange& c : log.changes()) {
    const size_t i = static_cast<size_t>(std::find(kTextHeads.begin(), kTextHeads.end(), c.heads) - kTextHeads.begin());
    const size_t slot = static_cast<size_t>(c.layer * c.heads + c.head);
    const auto& points = log.runs()[i].points;
    size_t k = 0;
    while (k < points.size() && points[k].step != c.step) ++k;
    REQUIRE(k >= 1);
    REQUIRE(k < points.size());
    CHECK(head_kind_index(seen[k - 1]["runs"][i]["perHead"][slot]["label"].str) == c.from);
    CHECK(head_kind_index(seen[k]["runs"][i]["perHead"][slot]["label"].str) == c.to);
  }
}
