// tour_measure.cpp: the reveals of the guided lesson's steps: each measures
// the live Scene (or a copy with one setting changed) and the live training,
// marks the learner's prediction against what it measured, and stores the
// lines, the feedback and the JSON the step's record keeps (Tour::measure,
// see tour.h).
//
// Index of this file
//   [SECTION] marks: what a reveal produces and how an answer is marked
//   [SECTION] steps 1-3: one head (average, options, two-heads)
//   [SECTION] steps 4-6: more heads (coordinates, more-heads, query-key)
//   [SECTION] steps 7-9: training, real text, recap
//   [SECTION] Tour::measure: the open step's reveal, filed in its record
//
// Does: one measure_<step> per step, in the order the tour takes them, then
// Tour::measure, which runs the open step's and files the result.
// Does not: keep any number it did not just read from the engine, draw
// (src/ui/view_tour.cpp), or log events (tour.cpp: the "revealed" event).
#include <algorithm>
#include <cmath>

#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/tour/tour.h"
#include "app/tour/tour_read.h"
#include "app/wire/json_write.h"
#include "engine/lesson/readout.h"

namespace headroom::app {

using namespace tour_read;

namespace {

//-----------------------------------------------------------------------------
// [SECTION] marks: what a reveal produces and how an answer is marked
//-----------------------------------------------------------------------------
// A choice's words, as a catalogue key (empty when `id` is not one of them).
Phrase choice_label(const TourStepInfo& info, const std::string& id) {
  for (const TourChoice& c : info.choices)
    if (id == c.id) return Phrase::key(c.label);
  return {};
}

// What one reveal produces, before it is stored in the step's record.
struct Reveal {
  std::string measured;  // JSON object
  std::vector<Phrase> lines;  // read in the language shown when they are read
  Phrase feedback;
  float score = -1;
  std::vector<bool> correct;
  Phrase reason, answer_text, measured_text;
  bool pending = false;
  std::vector<float> from, to;
  int head = 0;
  Mat scores_before, scores_after;
};

// A choice step's mark: right when the learner chose what was measured; the
// reason is the measurement's sentence, after what the choice claimed when
// it was not right.
void mark_choice(const TourStepInfo& info, const TourRecord& rec, const std::string& measured, const Phrase& because,
                 Reveal& r) {
  r.measured_text = choice_label(info, measured);
  if (!rec.predicted || rec.prediction.kind != AnswerKind::Choice) return;
  const bool right = rec.prediction.choice == measured;
  r.correct = {right};
  r.score = right ? 1.f : 0.f;
  r.answer_text = choice_label(info, rec.prediction.choice);
  const char* means = "";
  for (const TourChoice& c : info.choices)
    if (rec.prediction.choice == c.id) means = c.means;
  r.reason = right || !*means ? phrase("Right. {0}", {because}) : phrase("{0} {1}", {Phrase::key(means), because});
}

// Where one head's output for the query lands against two targets, in the
// main screen's words (describe.cpp head_verdict): on one of them (its value
// direction, cos >= kReadsCos), mush (no weight above 0.3), or between them.
const char* lands(const HeadReadout& r, float c0, float c1) {
  if (std::max(c0, c1) >= kReadsCos) return c0 >= c1 ? "researcher" : "it";
  return r.max_weight < 0.3f ? "spread" : "neither";
}

//-----------------------------------------------------------------------------
// [SECTION] steps 1-3: one head (average, options, two-heads)
//-----------------------------------------------------------------------------
void measure_average(TourHost& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o) {
  Scene& s = demo.tour_scene();
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const Prediction& p = rec.prediction;
  const Plane pl = plane(s, 0);
  const float mx = 0.5f * (pl.ax + pl.bx), my = 0.5f * (pl.ay + pl.by);
  const float span = std::max(1e-6f, dist(pl.ax, pl.ay, pl.bx, pl.by));
  const float w0 = weight_on(s, 0, q, t[0]), w1 = weight_on(s, 0, q, t[1]);
  const float c0 = cos_to(s, 0, t[0]), c1 = cos_to(s, 0, t[1]);
  const std::string where = lands(s.readout()[0], c0, c1);
  append_values(o.key("output"), std::vector<float>{pl.ox, pl.oy});
  append_values(o.key("targetPoints"), std::vector<float>{pl.ax, pl.ay, pl.bx, pl.by});
  append_values(o.key("midpoint"), std::vector<float>{mx, my});
  append_values(o.key("weights"), std::vector<float>{w0, w1});
  append_values(o.key("cos"), std::vector<float>{c0, c1});
  o.field("lands", where);
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]), &wq = word(s, q);
  const Phrase because =
      where == "neither"
          ? phrase("The head gives weight {0} to {1} and {2} to {3}, so {4}'s output is their midpoint: similarity {5} "
                   "and {6}, close to neither. The midpoint of two meanings is not a meaning.",
                   {fmt(w0), wa, fmt(w1), wb, wq, fmt(c0), fmt(c1)})
      : where == "spread"
          ? phrase("No token gets more than {0} of the weight, so {1}'s output is mush: similarity {2} to {3} and {4} to "
                   "{5}.",
                   {fmt(s.readout()[0].max_weight), wq, fmt(c0), wa, fmt(c1), wb})
          : phrase("The head gives weight {0} to {1}, so {2}'s output reads {1} (similarity {3}) and loses {4}.",
                   {fmt(where == "researcher" ? w0 : w1), where == "researcher" ? wa : wb, wq,
                    fmt(where == "researcher" ? c0 : c1), where == "researcher" ? wb : wa});
  r.lines.push_back(phrase("{0}'s output lands {1}: weight {2} on {3} and {4} on {5}.",
                           {wq, choice_label(info, where), fmt(w0), wa, fmt(w1), wb}));
  r.from = {0.f, 0.f};
  r.to = {pl.ox, pl.oy};
  if (rec.predicted && p.kind == AnswerKind::Point) {
    // A marker is right within a quarter of the distance between the targets.
    const float d = dist(p.xy[0], p.xy[1], pl.ox, pl.oy);
    const bool right = d <= 0.25f * span;
    o.field("guessDistance", d);
    r.score = clamp01(1.f - d / span);
    r.correct = {right};
    r.from = {p.xy[0], p.xy[1]};
    r.feedback = phrase("Your marker was {0} from the output (the two targets are {1} apart).", {fmt(d), fmt(span)});
    r.answer_text = phrase("a marker {0} from the output", {fmt(d)});
    r.reason = right ? phrase("Right: your marker is within a quarter of the targets' distance of the output. {0}", {because})
                     : phrase("Your marker is {0} from the output, more than a quarter of the targets' distance ({1}). {2}",
                              {fmt(d), fmt(span), because});
    r.measured_text = choice_label(info, where);
  } else {
    mark_choice(info, rec, where, because, r);
  }
}

void measure_options(TourHost& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o,
                     std::string& m) {
  Scene& s = demo.tour_scene();
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]);
  struct Option {
    const char* id;
    float focus;
  };
  const Option opts[] = {{"one", 0.f}, {"split", 0.5f}, {"spread", 1.f}};
  float best_keep = -1;
  std::vector<float> keeps;
  const char* best = opts[1].id;
  const Plane split = plane(s, 0);
  append_array(o.key("outcomes"), opts, [&](const Option& op) {
    Scene c = s;  // the same weights with another focus
    (void)c.set_focus(op.focus);
    const std::vector<float> carried = c.carried();
    const float keep = std::min(carried[0], carried[1]);
    const float c0 = cos_to(c, 0, t[0]), c1 = cos_to(c, 0, t[1]);
    const Plane pl = plane(c, 0);  // the option's output, in the same plane (same anchors)
    r.from.insert(r.from.end(), {split.ox, split.oy});
    r.to.insert(r.to.end(), {pl.ox, pl.oy});
    keeps.push_back(keep);
    if (keep > best_keep) {
      best_keep = keep;
      best = op.id;
    }
    JsonObject e(m);
    e.field("id", op.id).field("focus", op.focus);
    append_values(e.key("weights"), std::vector<float>{weight_on(c, 0, q, t[0]), weight_on(c, 0, q, t[1])});
    append_values(e.key("cos"), std::vector<float>{c0, c1});
    append_values(e.key("carried"), carried);
    e.field("keepsBoth", keep);
    r.lines.push_back(phrase("{0}: the output carries {1} {2} and {3} {4}",
                             {choice_label(info, op.id), wa, fmt(carried[0]), wb, fmt(carried[1])}));
  });
  o.field("best", best).field("bestKeepsBoth", best_keep);
  const Phrase because =
      phrase(best_keep < 0.9f ? "Measured, the target kept least keeps {0} all on one, {1} split and {2} spread: {3} "
                                "keeps the most of both, yet none keeps both whole, and a split output is the midpoint "
                                "of two meanings."
                              : "Measured, the target kept least keeps {0} all on one, {1} split and {2} spread: {3} "
                                "keeps the most of both.",
             {fmt(keeps[0]), fmt(keeps[1]), fmt(keeps[2]), choice_label(info, best)});
  mark_choice(info, rec, best, because, r);
  r.measured_text = phrase("{0} keeps {1} of both", {choice_label(info, best), fmt(best_keep)});
  if (rec.predicted) {
    float chosen = 0;
    for (size_t i = 0; i < 3; ++i)
      if (rec.prediction.choice == opts[i].id) chosen = keeps[i];
    r.feedback = phrase("You chose {0}: it keeps {1} of both; the best keeps {2}.",
                        {choice_label(info, rec.prediction.choice), fmt(chosen), fmt(best_keep)});
  }
}

void measure_two_heads(TourHost& demo, const TourRecord& rec, Reveal& r, JsonObject& o, std::string& m) {
  Scene& s = demo.tour_scene();
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]);
  const Plane one = plane(s, 0);
  demo.set_heads(2);  // the reveal shows the split to two heads
  append_values(o.key("oneHead"), std::vector<float>{one.ox, one.oy});
  std::vector<float> outs, w;
  std::vector<std::string> reads;
  append_array_n(o.key("heads"), 2, [&](long long hh) {
    const int h = static_cast<int>(hh);
    const Plane pl = plane(s, h);
    outs.push_back(pl.ox);
    outs.push_back(pl.oy);
    const float c0 = cos_to(s, h, t[0]), c1 = cos_to(s, h, t[1]);
    const float w0 = weight_on(s, h, q, t[0]), w1 = weight_on(s, h, q, t[1]);
    reads.push_back(c0 >= c1 ? wa : wb);
    w.push_back(std::max(w0, w1));
    JsonObject e(m);
    append_values(e.key("output"), std::vector<float>{pl.ox, pl.oy});
    append_values(e.key("weights"), std::vector<float>{w0, w1});
    append_values(e.key("cos"), std::vector<float>{c0, c1});
    r.lines.push_back(phrase("head {0} puts weight {1} on {2}: its output reads {2} (similarity {3})",
                             {std::to_string(h + 1), fmt(std::max(w0, w1)), reads.back(), fmt(std::max(c0, c1))}));
  });
  r.from = {one.ox, one.oy, one.ox, one.oy};
  r.to = outs;
  const Phrase because = phrase("Each head has its own W_Q and W_K, so head 1 reads {0} and head 2 reads {1}: two "
                                "outputs, each on a meaning, where one head gave their midpoint.",
                                {reads[0], reads[1]});
  r.measured_text = phrase("head 1 on {0}, head 2 on {1}", {reads[0], reads[1]});
  if (rec.predicted) {
    const Prediction& p = rec.prediction;
    const float span = std::max(1e-6f, dist(one.ax, one.ay, one.bx, one.by));
    auto d = [&](int g, int h) {
      return dist(p.xy[static_cast<size_t>(2 * g)], p.xy[static_cast<size_t>(2 * g + 1)],
                  outs[static_cast<size_t>(2 * h)], outs[static_cast<size_t>(2 * h + 1)]);
    };
    // the markers pair with the outputs the closer way round
    const bool swap = d(0, 1) + d(1, 0) < d(0, 0) + d(1, 1);
    const float d0 = d(0, swap ? 1 : 0), d1 = d(1, swap ? 0 : 1);
    r.score = clamp01(1.f - 0.5f * (d0 + d1) / span);
    r.correct = {d0 <= 0.25f * span, d1 <= 0.25f * span};
    const int right = static_cast<int>(r.correct[0]) + static_cast<int>(r.correct[1]);
    r.answer_text = phrase("two markers, {0} and {1} from the outputs", {fmt(d0), fmt(d1)});
    r.feedback = phrase("Your markers are {0} and {1} from the heads' outputs (the two targets are {2} apart).",
                        {fmt(d0), fmt(d1), fmt(span)});
    r.reason = right == 2 ? phrase("Right: both markers are on the heads' outputs. {0}", {because})
                          : phrase("{0} of your 2 markers are within a quarter of the targets' distance of an output. {1}",
                                   {std::to_string(right), because});
  }
}

//-----------------------------------------------------------------------------
// [SECTION] steps 4-6: more heads (coordinates, more-heads, query-key)
//-----------------------------------------------------------------------------
void measure_coordinates(TourHost& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o) {
  Scene& s = demo.tour_scene();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]);
  if (s.heads() != 2) demo.set_heads(2);
  demo.set_knockout({});
  const std::vector<float> all = s.carried();
  Scene k1 = s, k2 = s;  // the same weights with one head knocked out
  (void)k1.set_knockout({0});
  (void)k2.set_knockout({1});
  const std::vector<float> w1 = k1.carried(), w2 = k2.carried();
  demo.set_knockout({1});  // the reveal shows head 2 knocked out
  const bool lost_a = all[0] - w2[0] >= 0.5f, lost_b = all[1] - w2[1] >= 0.5f;
  const char* loses = lost_a && lost_b ? "both" : lost_a ? "researcher" : lost_b ? "it" : "nothing";
  {
    JsonObject c(o.key("carried"));
    append_values(c.key("allHeads"), all);
    append_values(c.key("withoutHead1"), w1);
    append_values(c.key("withoutHead2"), w2);
  }
  o.field("loses", loses);
  r.lines.push_back(phrase("every head: the output carries {0} {1}, {2} {3}", {wa, fmt(all[0]), wb, fmt(all[1])}));
  r.lines.push_back(phrase("head {0} knocked out: {1} {2}, {3} {4}", {std::string("2"), wa, fmt(w2[0]), wb, fmt(w2[1])}));
  const Phrase because =
      lost_a != lost_b
          ? phrase("Without head 2 the output still carries {0} {1} but {2} only {3}: each head's result has "
                   "coordinates of its own in the concatenation, and W_O mixes them without merging them.",
                   {lost_a ? wb : wa, fmt(lost_a ? w2[1] : w2[0]), lost_a ? wa : wb, fmt(lost_a ? w2[0] : w2[1])})
          : phrase("Without head 2 the output carries {0} {1} and {2} {3}.", {wa, fmt(w2[0]), wb, fmt(w2[1])});
  mark_choice(info, rec, loses, because, r);
  if (rec.predicted)
    r.feedback = phrase("You said {0}; measured: {1}.", {choice_label(info, rec.prediction.choice), choice_label(info, loses)});
}

// The relationships step more-heads asks about, in the order predict takes:
// head h of four holds kMatchRelations[h] (Scene::head_relations).
void measure_more_heads(TourHost& demo, const TourRecord& rec, Reveal& r, JsonObject& o, std::string& m) {
  Scene& s = demo.tour_scene();
  demo.set_heads(4);  // the reveal shows four heads
  std::vector<Phrase> parts, measured;
  append_array_n(o.key("relations"), static_cast<long long>(kMatchRelations.size()), [&](long long i) {
    const Relation rel = kMatchRelations[static_cast<size_t>(i)];
    const int q = match_query(s, rel);
    const int head = tour_match_head(s, static_cast<int>(i));
    // One model for every row: the head's row for q is read from the same
    // trace whatever token is selected.
    const auto& row = s.trace().heads[static_cast<size_t>(head)].weights.row(q);
    Eigen::Index looks = 0;
    row.maxCoeff(&looks);
    const int token = static_cast<int>(looks);
    JsonObject e(m);
    e.field("relation", relation_name(rel)).field("query", q).field("head", head).field("token", token);
    e.field("word", word(s, token)).field("weight", row[looks]);
    r.lines.push_back(phrase("head {0}, {1}: from {2} it puts weight {3} on {4}",
                             {std::to_string(head + 1), Phrase::key(relation_name(rel)), word(s, q), fmt(row[looks]),
                              word(s, token)}));
    measured.push_back(word(s, token));
    if (!rec.predicted) return;
    const int guess = rec.prediction.match[static_cast<size_t>(i)];
    const bool right = guess == token;
    r.correct.push_back(right);
    parts.push_back(right ? phrase("{0}: {1}, right", {Phrase::key(relation_name(rel)), word(s, token)})
                          : phrase("{0}: {1}, not {2}", {Phrase::key(relation_name(rel)), word(s, token), word(s, guess)}));
  });
  r.measured_text = phrase("{0}, {1}, {2}, {3}", {measured[0], measured[1], measured[2], measured[3]});
  if (rec.predicted) {
    int right = 0;
    for (bool c : r.correct) right += c ? 1 : 0;
    r.score = static_cast<float>(right) / static_cast<float>(kMatchRelations.size());
    std::vector<Phrase> guessed;
    for (int g : rec.prediction.match) guessed.push_back(word(s, g));
    r.answer_text = phrase("{0}, {1}, {2}, {3}", {guessed[0], guessed[1], guessed[2], guessed[3]});
    r.feedback = phrase("{0} of {1} matched.", {std::to_string(right), std::to_string(kMatchRelations.size())});
    r.reason = phrase("Each head holds one relationship for every token, and looks where it points: {0}; {1}; {2}; {3}.",
                      {parts[0], parts[1], parts[2], parts[3]});
  }
}

void measure_query_key(TourHost& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o,
                       std::string& m) {
  Scene& s = demo.tour_scene();
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wq = word(s, q);
  demo.set_tie_qk(false);
  Scene untied = s;
  // the head that reads the subject (most weight on it) without the tie
  int h = 0;
  for (int k = 1; k < untied.heads(); ++k)
    if (weight_on(untied, k, q, t[0]) > weight_on(untied, h, q, t[0])) h = k;
  const Mat before = untied.trace().heads[static_cast<size_t>(h)].scores;
  demo.set_tie_qk(true);  // the reveal shows the tie
  const Trace& trace = s.trace();
  const Mat& after = trace.heads[static_cast<size_t>(h)].scores;
  r.head = h;
  r.scores_before = before;
  r.scores_after = after;
  float asym = 0, scale = 1, asym_before = 0;
  int self_tops = 0;  // rows of the tied head whose largest score is their own
  for (size_t k = 0; k < trace.heads.size(); ++k) {
    const Mat& sc = trace.heads[k].scores;
    asym = std::max(asym, (sc - sc.transpose()).cwiseAbs().maxCoeff());
    scale = std::max(scale, sc.cwiseAbs().maxCoeff());
    const Mat& ub = untied.trace().heads[k].scores;
    asym_before = std::max(asym_before, (ub - ub.transpose()).cwiseAbs().maxCoeff());
  }
  for (int i = 0; i < after.rows(); ++i) {
    Eigen::Index top = 0;
    after.row(i).maxCoeff(&top);
    self_tops += static_cast<int>(top) == i ? 1 : 0;
  }
  const bool symmetric = asym <= 1e-5f * scale;
  const bool same = std::fabs(after(q, t[0]) - before(q, t[0])) <= 1e-3f * scale &&
                    std::fabs(after(t[0], q) - before(t[0], q)) <= 1e-3f * scale;
  const bool zero = std::fabs(after(q, t[0])) <= 1e-3f * scale && std::fabs(after(t[0], q)) <= 1e-3f * scale;
  const char* answer = zero ? "zero" : symmetric ? "equal" : same ? "unchanged" : "other";
  const std::vector<float> carried = s.carried();
  o.field("head", h);
  append_values(o.key("before"), std::vector<float>{before(q, t[0]), before(t[0], q)});
  append_values(o.key("after"), std::vector<float>{after(q, t[0]), after(t[0], q)});
  o.field("selfScore", after(q, q)).field("rowsLedBySelf", self_tops).field("rows", static_cast<int>(after.rows()));
  o.field("maxAsymmetry", asym).field("maxAsymmetryUntied", asym_before).field("symmetric", symmetric);
  o.field("answer", answer);
  append_array_n(o.key("weightsOnTargets"), static_cast<long long>(trace.heads.size()), [&](long long k) {
    append_values(m, std::vector<float>{weight_on(s, static_cast<int>(k), q, t[0]), weight_on(s, static_cast<int>(k), q, t[1])});
  });
  append_values(o.key("carried"), carried);
  r.lines.push_back(phrase("untied, head {0} scores {1} -> {2} {3} and {2} -> {1} {4}; tied, both are {5}",
                           {std::to_string(h + 1), wq, wa, fmt(before(q, t[0]), 1), fmt(before(t[0], q), 1),
                            fmt(after(q, t[0]), 1)}));
  r.lines.push_back(phrase("tied, {0} scores itself {1}, and {2} of {3} rows score themselves highest",
                           {wq, fmt(after(q, q), 1), std::to_string(self_tops), std::to_string(after.rows())}));
  const Phrase because =
      phrase("Tied, a score is the dot product x W . y W, the same both ways. By the same algebra a token's score "
             "with itself is the largest it can get unless another token's x W is longer ({0} for {1}), so the tied "
             "head leans to each token itself and the output keeps {2} of {3}.",
             {fmt(after(q, q), 1), wq, fmt(carried[0]), wa});
  mark_choice(info, rec, std::string(answer) == "other" ? "unchanged" : answer, because, r);
  if (std::string(answer) == "other") r.measured_text = phrase("something else");
  if (rec.predicted)
    r.feedback = phrase("You said {0}; measured: {1}.",
                        {choice_label(info, rec.prediction.choice),
                         std::string(answer) == "other" ? phrase("something else") : choice_label(info, answer)});
}

//-----------------------------------------------------------------------------
// [SECTION] steps 7-9: training, real text, recap
//-----------------------------------------------------------------------------
void measure_training(TourHost& demo, const TourRecord& rec, Reveal& r, JsonObject& o, std::string& m, bool ask) {
  const int64_t have = demo.tour_training().step_count();
  if (have < kTourTrainSteps && ask) demo.train_step(static_cast<int>(kTourTrainSteps - have));
  const LiveTraining& tr = demo.tour_training();
  o.field("steps", static_cast<long long>(tr.step_count())).field("r", tr.relations());
  float one = -1, floor1 = 0, best_multi = -1;
  append_array(o.key("runs"), tr.runs(), [&](const TrainRun& run) {
    if (run.heads == 1) {
      one = run.loss();
      floor1 = run.floor;
    } else if (!run.diverged && (best_multi < 0 || run.loss() < best_multi)) {
      best_multi = run.loss();
    }
    JsonObject e(m);
    e.field("heads", run.heads).field("loss", run.loss()).field("floor", run.floor).field("diverged", run.diverged);
    static constexpr const char* kLines[2][2] = {
        {N_("{0} heads: loss {1} (floor {2})"), N_("{0} heads: loss {1} (floor {2}), diverged")},
        {N_("{0} head: loss {1} (floor {2})"), N_("{0} head: loss {1} (floor {2}), diverged")}};
    const char* line = kLines[run.heads == 1][run.diverged ? 1 : 0];
    r.lines.push_back(phrase(line, {std::to_string(run.heads), fmt(run.loss(), 3), fmt(run.floor)}));
  });
  o.field("oneHeadLoss", one);
  // Training in another program (a Worker): the steps asked for arrive
  // later; until the runs reach the step the answer is judged at, the
  // reveal shows their progress and no mark (Tour::tick measures again).
  r.pending = tr.step_count() < kTourTrainSteps;
  o.field("pending", r.pending);
  if (r.pending) {
    r.lines.insert(r.lines.begin(), phrase("Training: {0} of {1} steps; the answer is judged at step {1}.",
                                           {std::to_string(tr.step_count()), std::to_string(kTourTrainSteps)}));
    return;
  }
  r.lines.insert(r.lines.begin(), phrase("After {0} training steps (R = {1}):",
                                         {std::to_string(tr.step_count()), std::to_string(tr.relations())}));
  r.measured_text = fmt(one, 2);
  if (rec.predicted && one >= 0) {
    const float off = std::fabs(rec.prediction.number - one);
    const bool right = off <= 0.1f;
    r.score = clamp01(1.f - off);
    r.correct = {right};
    r.answer_text = fmt(rec.prediction.number, 2);
    r.feedback = phrase("You guessed {0}; the one-head run ends at {1}.", {fmt(rec.prediction.number), fmt(one, 3)});
    const Phrase because = phrase("The one-head run ends at {0}, at its floor of {1}: one head carries one mixture of "
                                  "the two targets, so half the task stays out of reach, while more heads reach {2}.",
                                  {fmt(one), fmt(floor1), fmt(std::max(0.f, best_multi))});
    r.reason = right ? phrase("Right: your guess is within 0.1. {0}", {because})
                     : phrase("Your guess is {0} away. {1}", {fmt(off), because});
  }
}

// Step real-text: the labels of the 4-head text run's first-layer heads, as
// measured on held-out text at its first held-out point from
// kTourTextSteps on. The first reveal starts the text task (one layer, the
// runs' seed) if another task trains, and plays it; until the run's
// measurement is there the reveal shows its progress and no mark (as step
// training's). Heads have no order, so the labels are matched as multisets:
// a predicted label is right when a head not matched yet carries it.
const std::vector<HeadSlot>* text_heads(const LiveTraining& tr) {
  const TrainRun* run = tr.text_task() ? tr.run(kTourTextHeads) : nullptr;
  if (!run || run->history.empty() || run->latest().step < kTourTextSteps) return nullptr;
  if (run->per_head.size() < static_cast<size_t>(kTourTextHeads)) return nullptr;
  for (int h = 0; h < kTourTextHeads; ++h)
    if (run->per_head[static_cast<size_t>(h)].label.empty()) return nullptr;
  return &run->per_head;
}

float baseline_of(const HeadSlot& slot) {
  for (const auto& [kind, b] : slot.baselines)
    if (kind == slot.label) return b;
  return -1.f;  // "mixed": no kind beat its chance
}

// Four labels in words, read in the language shown when read.
Phrase label_list(const std::vector<std::string>& labels) {
  std::vector<Phrase> words;
  for (const std::string& l : labels) words.push_back(Phrase::key(head_kind_key(l)));
  words.resize(kTourTextHeads);
  return phrase("{0}, {1}, {2}, {3}", std::move(words));
}

void start_text_training(TourHost& demo) {
  LiveTraining& tr = demo.tour_training();
  if (!tr.text_task()) demo.train_reset_text(kTextLayers[0], tr.seed(), kTextDefaultLr);
  if (tr.text_task() && !tr.running()) demo.train_play();
}

void mark_labels(const TourRecord& rec, const std::vector<std::string>& measured, Reveal& r) {
  std::vector<bool> taken(measured.size(), false);
  int right = 0;
  for (const std::string& want : rec.prediction.labels) {
    bool hit = false;
    for (size_t h = 0; h < measured.size() && !hit; ++h)
      if (!taken[h] && measured[h] == want) taken[h] = hit = true;
    r.correct.push_back(hit);
    right += hit ? 1 : 0;
  }
  r.score = static_cast<float>(right) / static_cast<float>(kTourTextHeads);
  r.answer_text = label_list(rec.prediction.labels);
  r.feedback = phrase("{0} of your {1} labels match a head's measured label.",
                      {std::to_string(right), std::to_string(kTourTextHeads)});
  const Phrase because = phrase("Nobody chose these jobs: the heads found them by predicting words, and a head that "
                                "weights nothing twice as much as chance is mixed.");
  r.reason = right == kTourTextHeads ? phrase("Right: all four. {0}", {because})
                                     : phrase("{0} of 4: heads are matched in any order. {1}", {std::to_string(right), because});
}

void measure_real_text(TourHost& demo, const TourRecord& rec, Reveal& r, JsonObject& o, bool ask) {
  if (ask) start_text_training(demo);
  const LiveTraining& tr = demo.tour_training();
  const std::vector<HeadSlot>* heads = text_heads(tr);
  // Refused (here: no corpus yet), or not begun: where the runs train in a
  // Worker, a state it sent before the reset may still say "roles".
  const Status& why = tr.refusal();
  const bool refused = !tr.text_task() && !why.is_ok();
  r.pending = heads == nullptr && !refused;
  o.field("heads", kTourTextHeads).field("layer", 1).field("steps", static_cast<long long>(tr.step_count()));
  o.field("pending", r.pending);
  if (refused) {  // say why, mark nothing
    r.lines.push_back(phrase("The text model could not start: {0}",
                             {why.refusal && why.args.empty() ? Phrase::key(why.refusal->english) : Phrase(why.error)}));
    return;
  }
  if (!tr.text_task()) {
    r.lines.push_back(phrase("Starting the text model on English text..."));
    return;
  }
  if (r.pending) {
    r.lines.push_back(phrase("Training on English text: {0} of {1} steps; the heads are labelled at step {1}.",
                             {std::to_string(tr.step_count()), std::to_string(kTourTextSteps)}));
    return;
  }
  const TrainRun* run = tr.run(kTourTextHeads);
  std::vector<std::string> measured;
  append_array_n(o.key("labels"), kTourTextHeads, [&](long long h) {
    measured.push_back((*heads)[static_cast<size_t>(h)].label);
    append_value(r.measured, measured.back());
  });
  append_array_n(o.key("labelScores"), kTourTextHeads,
                 [&](long long h) { append_value(r.measured, (*heads)[static_cast<size_t>(h)].label_score); });
  o.field("measuredAt", static_cast<long long>(run->latest().step));
  r.lines.push_back(phrase("After {0} steps on English text, measured on held-out text:",
                           {std::to_string(run->latest().step)}));
  for (int h = 0; h < kTourTextHeads; ++h) {
    const HeadSlot& slot = (*heads)[static_cast<size_t>(h)];
    const float base = baseline_of(slot);
    r.lines.push_back(base < 0 ? phrase("head {0}: mixed (nothing at twice its chance)", {std::to_string(h + 1)})
                               : phrase("head {0}: {1} {2} (chance {3})",
                                        {std::to_string(h + 1), Phrase::key(head_kind_key(slot.label)),
                                         fmt(slot.label_score), fmt(base)}));
  }
  r.measured_text = label_list(measured);
  if (rec.predicted && rec.prediction.kind == AnswerKind::Labels) mark_labels(rec, measured, r);
}

// The recap: each step's answer against what was measured.
void measure_recap(const std::array<TourRecord, kTourSteps>& records, Reveal& r, std::string& m, JsonObject& o) {
  append_array_n(o.key("rows"), kTourSteps - 1, [&](long long i) {
    const TourRecord& x = records[static_cast<size_t>(i)];
    const TourStepInfo& si = tour_steps()[static_cast<size_t>(i)];
    JsonObject e(m);
    e.field("id", si.id).field("predicted", x.predicted).field("revealed", x.revealed);
    if (x.score >= 0) e.field("score", x.score); else e.key("score") += "null";
    int right = 0;
    for (bool c : x.correct) right += c ? 1 : 0;
    const Phrase how = !x.revealed          ? phrase("not revealed")
                       : x.pending          ? phrase("still training")
                       : !x.predicted       ? phrase("revealed without an answer")
                       : x.correct.size() > 1 ? phrase("{0} of {1} parts right", {std::to_string(right), std::to_string(x.correct.size())})
                       : right == 1         ? phrase("right")
                                            : phrase("not right");
    r.lines.push_back(phrase("{0}. {1}: {2}", {std::to_string(i + 1), Phrase::key(si.title), how}));
  });
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] Tour::measure: the open step's reveal, filed in its record
//-----------------------------------------------------------------------------
Status Tour::measure(TourHost& demo, bool emit, int step) {
  const int n = step > 0 ? step : step_;
  const TourStepInfo& info = tour_steps()[static_cast<size_t>(n - 1)];
  const std::string id = info.id;
  TourRecord& rec = records_[static_cast<size_t>(n - 1)];
  Reveal r;
  {
    JsonObject o(r.measured);
    if (id != "training" && id != "real-text" && id != "recap") {
      const Scene& s = demo.tour_scene();
      o.field("query", s.query()).field("queryWord", word(s, s.query()));
      append_values(o.key("targets"), s.lesson_targets());
    }
    if (id == "average" || id == "options" || id == "two-heads")
      if (demo.tour_scene().heads() != 1) demo.set_heads(1);  // they start from one head
    if (id == "average") measure_average(demo, info, rec, r, o);
    else if (id == "options") measure_options(demo, info, rec, r, o, r.measured);
    else if (id == "two-heads") measure_two_heads(demo, rec, r, o, r.measured);
    else if (id == "coordinates") measure_coordinates(demo, info, rec, r, o);
    else if (id == "more-heads") measure_more_heads(demo, rec, r, o, r.measured);
    else if (id == "query-key") measure_query_key(demo, info, rec, r, o, r.measured);
    else if (id == "training") measure_training(demo, rec, r, o, r.measured, awaiting_ != n);
    else if (id == "real-text") measure_real_text(demo, rec, r, o, awaiting_ != n);
    else measure_recap(records_, r, r.measured, o);
  }
  const bool first_reveal = !rec.revealed;
  rec.revealed = true;
  rec.measured = std::move(r.measured);
  rec.result = std::move(r.lines);
  rec.feedback = std::move(r.feedback);
  rec.score = r.score;
  rec.correct = std::move(r.correct);
  rec.reason = std::move(r.reason);
  rec.answer_text = std::move(r.answer_text);
  rec.measured_text = std::move(r.measured_text);
  rec.pending = r.pending;
  rec.from = std::move(r.from);
  rec.to = std::move(r.to);
  rec.head = r.head;
  rec.scores_before = std::move(r.scores_before);
  rec.scores_after = std::move(r.scores_after);
  if (first_reveal || emit) ++anim_;
  if (rec.pending) {  // the Worker's steps are on their way: the event waits for the final numbers
    awaiting_ = n;
    awaiting_emit_ = awaiting_emit_ || emit;
    return Status::ok();
  }
  if (awaiting_ == n) {
    emit = emit || awaiting_emit_;
    awaiting_ = 0;
    awaiting_emit_ = false;
  }
  if (emit) log_revealed(n, demo.tour_scene());
  return Status::ok();
}

}  // namespace headroom::app
