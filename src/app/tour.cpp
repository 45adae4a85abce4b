// tour.cpp: the guided lesson's steps, predictions, reveals and scores (see
// tour.h).
//
// Index of this file
//   [SECTION] the steps' words
//   [SECTION] helpers: words, numbers, JSON of a prediction
//   [SECTION] entering a step (the state it asks about)
//   [SECTION] measuring a step (the reveal)
//   [SECTION] verbs
//   [SECTION] state and events as JSON
//
// Does not: keep any number it did not just read from the engine: a reveal
// measures the live Scene (or a copy of it with one setting changed) and the
// live training every time.
#include "app/tour.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/demo.h"
#include "app/describe.h"
#include "app/json_write.h"
#include "app/lang.h"
#include "engine/lesson/readout.h"

namespace headroom::app {

//-----------------------------------------------------------------------------
// [SECTION] the steps' words
//-----------------------------------------------------------------------------
const std::array<TourStepInfo, kTourSteps>& tour_steps() {
  // The words are catalogue keys (N_): the panel shows them through tr(),
  // and each catalogue names its own lesson's words where these name
  // "said", "researcher" and "it". tour.state() keeps the keys (English).
  static const std::array<TourStepInfo, kTourSteps> steps = {{
      {"average", N_("One head, one average"),
       N_("An attention head gives each token one output: a weighted average of the value vectors of the "
          "tokens it looks at, with weights that add up to 1. \"said\" needs two of them: who said it "
          "(researcher) and what was said (the clause from \"it\")."),
       N_("With one head looking at both, where does said's output land among the values? Drag the marker "
          "in the plane (or use the arrow keys), or pick an answer."),
       AnswerKind::Point,
       {{"researcher", N_("near the subject")}, {"it", N_("near the complement")}, {"between", N_("between them")},
        {"neither", N_("near neither")}}},
      {"options", N_("Three ways to fail"),
       N_("One head has one set of weights for said. It can put them all on one target, split them between "
          "the two, or spread them over every token."),
       N_("Which of the three keeps the most of BOTH targets in the output?"),
       AnswerKind::Choice,
       {{"one", N_("all on one")}, {"split", N_("split")}, {"spread", N_("spread")}}},
      {"two-heads", N_("Two heads"),
       N_("Give the model two heads of half the size. Each has its own W_Q, W_K and W_V, so each can look at "
          "a different token."),
       N_("Where will each head's output land? Place both markers (click to place the next one, drag to "
          "move, arrow keys move the selected one)."),
       AnswerKind::Points,
       {}},
      {"coordinates", N_("Side by side, then mixed"),
       N_("The two heads' outputs are not averaged together: they sit side by side in the concatenation, "
          "each in its own coordinates, and W_O mixes them afterwards."),
       N_("If head 2's output is set to zero before W_O, what does said's final output lose?"),
       AnswerKind::Choice,
       {{"researcher", N_("the subject")}, {"it", N_("the complement")}, {"both", N_("both")}, {"nothing", N_("nothing")}}},
      {"more-heads", N_("More heads, more kinds"),
       N_("With four heads, each can hold another kind of relationship: the subject, the complement, the "
          "previous token, and what a pronoun refers to (coreference)."),
       N_("For each relationship, which token will its head look at most?"),
       AnswerKind::Match,
       {}},
      {"query-key", N_("One vector for query and key"),
       N_("Each head compares a query with keys through two matrices, W_Q and W_K. Tie them (W_K = W_Q) "
          "and a token asks with the same vector it answers with: the same kind of limit as one head, "
          "one level down."),
       N_("With the tie, how does the score said -> researcher compare with researcher -> said?"),
       AnswerKind::Choice,
       {{"equal", N_("they become equal")}, {"unchanged", N_("they stay as they were")},
        {"zero", N_("both drop to zero")}}},
      {"training", N_("Heads learn it themselves"),
       N_("Nobody has to build these heads: a small model trained to copy said's two targets into two "
          "slots finds them by itself. One head can only ever carry one mixture, so half of the task stays "
          "out of its reach."),
       N_("What loss will the one-head run end with (0 = perfect, 1 = knows nothing)?"),
       AnswerKind::Number,
       {}},
      {"recap", N_("What to keep"),
       N_("One head outputs one weighted average, so it cannot keep two things whole. Several heads keep "
          "several, side by side, and W_O mixes them; training finds this without being told."),
       N_("Nothing to predict: reveal the table of your answers against the engine's numbers."),
       AnswerKind::None,
       {}},
  }};
  return steps;
}

//-----------------------------------------------------------------------------
// [SECTION] helpers: words, numbers, JSON of a prediction
//-----------------------------------------------------------------------------
namespace {

// A number, written in the language the reveal is read in (Phrase).
Phrase fmt(float v, int digits = 2) { return Phrase::number(static_cast<double>(v), digits); }

const std::string& word(const Scene& s, int token) {
  static const std::string none = "-";
  if (token < 0 || token >= static_cast<int>(s.tokens().size())) return none;
  return s.tokens()[static_cast<size_t>(token)].text;
}

const char* kind_name(AnswerKind k) {
  switch (k) {
    case AnswerKind::Point: return "point";
    case AnswerKind::Points: return "points";
    case AnswerKind::Choice: return "choice";
    case AnswerKind::Number: return "number";
    case AnswerKind::Match: return "match";
    default: return "none";
  }
}

// The relationships step more-heads asks about, in the order predict takes.
constexpr std::array<Relation, 4> kMatchRelations = {Relation::Subject, Relation::Complement, Relation::Previous,
                                                     Relation::Antecedent};

// The query each matched relationship is asked from: the lesson's query, but
// coreference from the complement's pronoun (it -> paper) or else the first
// token that refers back to another.
int match_query(const Scene& s, Relation r) {
  const int q = s.query();
  if (r != Relation::Antecedent) return q;
  const int comp = s.target(q, Relation::Complement);
  if (comp >= 0 && s.target(comp, Relation::Antecedent) != comp) return comp;
  for (int i = 0; i < static_cast<int>(s.tokens().size()); ++i)
    if (s.target(i, Relation::Antecedent) != i) return i;
  return q;
}

}  // namespace

int tour_match_query(const Scene& s, int i) {
  return i >= 0 && i < static_cast<int>(kMatchRelations.size()) ? match_query(s, kMatchRelations[static_cast<size_t>(i)])
                                                                  : s.query();
}

namespace {

float dist(float x0, float y0, float x1, float y1) { return std::hypot(x0 - x1, y0 - y1); }

Phrase choice_label(const TourStepInfo& info, const std::string& id) {
  for (const TourChoice& c : info.choices)
    if (id == c.id) return Phrase::key(c.label);
  return {};
}

void prediction_json(std::string& out, const TourRecord& r) {
  if (!r.predicted) {
    out += "null";
    return;
  }
  const Prediction& p = r.prediction;
  JsonObject o(out);
  o.field("kind", kind_name(p.kind));
  switch (p.kind) {
    case AnswerKind::Point: o.field("x", p.xy[0]).field("y", p.xy[1]); break;
    case AnswerKind::Points:
      append_array_n(o.key("points"), 2, [&](long long i) {
        JsonObject pt(out);
        pt.field("x", p.xy[static_cast<size_t>(2 * i)]).field("y", p.xy[static_cast<size_t>(2 * i + 1)]);
      });
      break;
    case AnswerKind::Choice: o.field("id", p.choice); break;
    case AnswerKind::Number: o.field("value", p.number); break;
    case AnswerKind::Match: append_values(o.key("tokens"), p.match); break;
    default: break;
  }
}

// Value-space point of token j in head h's plane, and the head's output.
struct Plane {
  float ax, ay, bx, by, ox, oy;
};
Plane plane(const Scene& s, int h) {
  const ValueMap& m = s.value_maps()[static_cast<size_t>(h)];
  return {m.points(m.anchor_a, 0), m.points(m.anchor_a, 1), m.points(m.anchor_b, 0), m.points(m.anchor_b, 1),
          m.output[0], m.output[1]};
}

float cos_to(const Scene& s, int h, int token) {
  const HeadTrace& ht = s.trace().heads[static_cast<size_t>(h)];
  return cosine(ht.out.row(s.query()), ht.v.row(token));
}

float weight_on(const Scene& s, int h, int query, int token) {
  return s.trace().heads[static_cast<size_t>(h)].weights(query, token);
}

float clamp01(float v) { return std::min(1.f, std::max(0.f, v)); }

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] entering a step (the state it asks about)
//-----------------------------------------------------------------------------
void Tour::enter(Demo& demo) {
  const std::string id = tour_steps()[static_cast<size_t>(step_ - 1)].id;
  const int heads = id == "average" || id == "options" || id == "two-heads" ? 1
                    : id == "coordinates" || id == "more-heads" || id == "query-key" ? 2
                                                                                       : 0;
  // Training unties (the query-key reveal ties): with the tie on, a trainer
  // built now would train tied runs beside the three this step is about.
  if (id == "training") demo.set_tie_qk(false);
  if (heads == 0) return;  // training and recap leave the views as they are
  demo.set_heads(heads);
  if (heads == 1) demo.set_focus(0.5f);
  demo.set_knockout({});
  demo.set_tie_qk(false);
}

//-----------------------------------------------------------------------------
// [SECTION] measuring a step (the reveal)
//-----------------------------------------------------------------------------
namespace {

// What one reveal produces, before it is stored in the step's record.
struct Reveal {
  std::string measured;  // JSON object
  std::vector<Phrase> lines;  // read in the language shown when they are read
  Phrase feedback;
  float score = -1;
  std::vector<float> from, to;
  int head = 0;
  Mat scores_before, scores_after;
};

void measure_average(Demo& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o) {
  Scene& s = demo.scene;
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const Prediction& p = rec.prediction;
  const Plane pl = plane(s, 0);
  const float mx = 0.5f * (pl.ax + pl.bx), my = 0.5f * (pl.ay + pl.by);
  const float span = std::max(1e-6f, dist(pl.ax, pl.ay, pl.bx, pl.by));
  const float da = dist(pl.ox, pl.oy, pl.ax, pl.ay), db = dist(pl.ox, pl.oy, pl.bx, pl.by),
              dm = dist(pl.ox, pl.oy, mx, my);
  const float dmin = std::min({da, db, dm});
  const char* where = dmin > 0.25f * span ? "neither" : dmin == da ? "researcher" : dmin == db ? "it" : "between";
  const float w0 = weight_on(s, 0, q, t[0]), w1 = weight_on(s, 0, q, t[1]);
  const float c0 = cos_to(s, 0, t[0]), c1 = cos_to(s, 0, t[1]);
  append_values(o.key("output"), std::vector<float>{pl.ox, pl.oy});
  append_values(o.key("targetPoints"), std::vector<float>{pl.ax, pl.ay, pl.bx, pl.by});
  append_values(o.key("midpoint"), std::vector<float>{mx, my});
  append_values(o.key("weights"), std::vector<float>{w0, w1});
  append_values(o.key("cos"), std::vector<float>{c0, c1});
  o.field("lands", where);
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]);
  r.lines.push_back(phrase("{0}'s output lands {1} ({2}, {3}); the midpoint of {4} and {5} is ({6}, {7}).",
                        {word(s, q), choice_label(info, where), fmt(pl.ox), fmt(pl.oy), wa, wb, fmt(mx), fmt(my)}));
  r.lines.push_back(phrase("weights {0} {1}, {2} {3}; cos to {0} {4}, to {2} {5}.",
                        {wa, fmt(w0), wb, fmt(w1), fmt(c0), fmt(c1)}));
  r.from = {0.f, 0.f};
  r.to = {pl.ox, pl.oy};
  if (rec.predicted && p.kind == AnswerKind::Point) {
    const float d = dist(p.xy[0], p.xy[1], pl.ox, pl.oy);
    o.field("guessDistance", d);
    r.score = clamp01(1.f - d / span);
    r.from = {p.xy[0], p.xy[1]};
    r.feedback = phrase("Your marker was {0} from the output (the two targets are {1} apart).", {fmt(d), fmt(span)});
  } else if (rec.predicted) {
    r.score = p.choice == where ? 1.f : 0.f;
    r.feedback = phrase("You said {0}; it lands {1}.", {choice_label(info, p.choice), choice_label(info, where)});
  }
}

void measure_options(Demo& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o,
                     std::string& m) {
  Scene& s = demo.scene;
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]);
  struct Option {
    const char* id;
    float focus;
  };
  const Option opts[] = {{"one", 0.f}, {"split", 0.5f}, {"spread", 1.f}};
  float best_keep = -1, chosen_keep = 0;
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
    if (keep > best_keep) {
      best_keep = keep;
      best = op.id;
    }
    if (rec.predicted && rec.prediction.choice == op.id) chosen_keep = keep;
    JsonObject e(m);
    e.field("id", op.id).field("focus", op.focus);
    append_values(e.key("weights"), std::vector<float>{weight_on(c, 0, q, t[0]), weight_on(c, 0, q, t[1])});
    append_values(e.key("cos"), std::vector<float>{c0, c1});
    append_values(e.key("carried"), carried);
    e.field("keepsBoth", keep);
    r.lines.push_back(phrase("{0}: carries {1} {2}, {3} {4} (cos {5} / {6})",
                          {choice_label(info, op.id), wa, fmt(carried[0]), wb, fmt(carried[1]), fmt(c0), fmt(c1)}));
  });
  o.field("best", best).field("bestKeepsBoth", best_keep);
  r.lines.push_back(phrase(best_keep < 0.9f ? "None keeps both whole: the most any keeps of both is {0} ({1}), and a "
                                           "split output is the midpoint of two meanings."
                                         : "Measured here, {1} keeps {0} of both targets.",
                        {fmt(best_keep), choice_label(info, best)}));
  if (rec.predicted) {
    r.score = best_keep > 0 ? clamp01(chosen_keep / best_keep) : 0.f;
    r.feedback = phrase("You chose {0}: it keeps {1} of both; the best keeps {2}.",
                     {choice_label(info, rec.prediction.choice), fmt(chosen_keep), fmt(best_keep)});
  }
}

void measure_two_heads(Demo& demo, const TourRecord& rec, Reveal& r, JsonObject& o, std::string& m) {
  Scene& s = demo.scene;
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]);
  const Plane one = plane(s, 0);
  demo.set_heads(2);  // the reveal shows the split to two heads
  append_values(o.key("oneHead"), std::vector<float>{one.ox, one.oy});
  std::vector<float> outs;
  append_array_n(o.key("heads"), 2, [&](long long hh) {
    const int h = static_cast<int>(hh);
    const Plane pl = plane(s, h);
    outs.push_back(pl.ox);
    outs.push_back(pl.oy);
    const float c0 = cos_to(s, h, t[0]), c1 = cos_to(s, h, t[1]);
    const float w0 = weight_on(s, h, q, t[0]), w1 = weight_on(s, h, q, t[1]);
    JsonObject e(m);
    append_values(e.key("output"), std::vector<float>{pl.ox, pl.oy});
    append_values(e.key("weights"), std::vector<float>{w0, w1});
    append_values(e.key("cos"), std::vector<float>{c0, c1});
    r.lines.push_back(phrase("head {0}: weights {1} {2}, {3} {4}; cos to {1} {5}, to {3} {6}",
                          {std::to_string(h + 1), wa, fmt(w0), wb, fmt(w1), fmt(c0), fmt(c1)}));
  });
  r.from = {one.ox, one.oy, one.ox, one.oy};
  r.to = outs;
  if (rec.predicted) {
    const Prediction& p = rec.prediction;
    const float span = std::max(1e-6f, dist(one.ax, one.ay, one.bx, one.by));
    auto sc = [&](int g, int h) {
      return clamp01(1.f - dist(p.xy[static_cast<size_t>(2 * g)], p.xy[static_cast<size_t>(2 * g + 1)],
                                outs[static_cast<size_t>(2 * h)], outs[static_cast<size_t>(2 * h + 1)]) /
                               span);
    };
    r.score = std::max(0.5f * (sc(0, 0) + sc(1, 1)), 0.5f * (sc(0, 1) + sc(1, 0)));
    r.feedback = phrase("Your two markers score {0} (1: on the heads' outputs; 0: as far off as the two targets are apart).",
                     {fmt(r.score)});
  }
}

void measure_coordinates(Demo& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o) {
  Scene& s = demo.scene;
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
  r.lines.push_back(phrase("head {0} knocked out: {1} {2}, {3} {4}", {std::string("1"), wa, fmt(w1[0]), wb, fmt(w1[1])}));
  r.lines.push_back(phrase("head {0} knocked out: {1} {2}, {3} {4}", {std::string("2"), wa, fmt(w2[0]), wb, fmt(w2[1])}));
  r.lines.push_back(phrase(lost_a != lost_b ? "Without head 2 the output loses {0} and keeps the other: each head's result "
                                           "has coordinates of its own."
                                         : "Without head 2 the output loses {0}.",
                        {choice_label(info, loses)}));
  if (rec.predicted) {
    r.score = rec.prediction.choice == loses ? 1.f : 0.f;
    r.feedback = phrase("You said {0}; measured: {1}.", {choice_label(info, rec.prediction.choice), choice_label(info, loses)});
  }
}

void measure_more_heads(Demo& demo, const TourRecord& rec, Reveal& r, JsonObject& o, std::string& m) {
  Scene& s = demo.scene;
  demo.set_heads(4);  // the reveal shows four heads
  const int H = s.heads();
  int right = 0;
  append_array_n(o.key("relations"), static_cast<long long>(kMatchRelations.size()), [&](long long i) {
    const Relation rel = kMatchRelations[static_cast<size_t>(i)];
    const int q = match_query(s, rel), target = s.target(q, rel);
    // The heads are dealt the relationships of the word asked from (Scene::
    // relations_for: a pronoun's antecedent first), so measure with it selected.
    Scene c = s;
    (void)c.set_query(q);
    // the head that puts the most weight on this relationship's target
    int head = 0;
    for (int h = 1; h < H; ++h)
      if (weight_on(c, h, q, target) > weight_on(c, head, q, target)) head = h;
    const auto& row = c.trace().heads[static_cast<size_t>(head)].weights.row(q);
    Eigen::Index looks = 0;
    row.maxCoeff(&looks);
    const int token = static_cast<int>(looks);
    if (rec.predicted && rec.prediction.match[static_cast<size_t>(i)] == token) ++right;
    JsonObject e(m);
    e.field("relation", relation_name(rel)).field("query", q).field("head", head).field("token", token);
    e.field("word", word(s, token)).field("weight", row[looks]);
    r.lines.push_back(phrase("{0} (from {1}): head {2} looks at {3} (weight {4})",
                          {Phrase::key(relation_name(rel)), word(s, q), std::to_string(head + 1), word(s, token), fmt(row[looks])}));
  });
  if (rec.predicted) {
    r.score = static_cast<float>(right) / static_cast<float>(kMatchRelations.size());
    r.feedback = phrase("{0} of {1} matched.", {std::to_string(right), std::to_string(kMatchRelations.size())});
  }
}

void measure_query_key(Demo& demo, const TourStepInfo& info, const TourRecord& rec, Reveal& r, JsonObject& o,
                       std::string& m) {
  Scene& s = demo.scene;
  const int q = s.query();
  const std::vector<int> t = s.lesson_targets();
  const std::string &wa = word(s, t[0]), &wb = word(s, t[1]), &wq = word(s, q);
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
  for (size_t k = 0; k < trace.heads.size(); ++k) {
    const Mat& sc = trace.heads[k].scores;
    asym = std::max(asym, (sc - sc.transpose()).cwiseAbs().maxCoeff());
    scale = std::max(scale, sc.cwiseAbs().maxCoeff());
    const Mat& ub = untied.trace().heads[k].scores;
    asym_before = std::max(asym_before, (ub - ub.transpose()).cwiseAbs().maxCoeff());
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
  o.field("maxAsymmetry", asym).field("maxAsymmetryUntied", asym_before).field("symmetric", symmetric);
  o.field("answer", answer);
  append_array_n(o.key("weightsOnTargets"), static_cast<long long>(trace.heads.size()), [&](long long k) {
    append_values(m, std::vector<float>{weight_on(s, static_cast<int>(k), q, t[0]), weight_on(s, static_cast<int>(k), q, t[1])});
  });
  append_values(o.key("carried"), carried);
  r.lines.push_back(phrase("head {0} untied: {1} -> {2} {3}, {2} -> {1} {4}",
                        {std::to_string(h + 1), wq, wa, fmt(before(q, t[0]), 1), fmt(before(t[0], q), 1)}));
  r.lines.push_back(phrase("tied: {0} -> {1} {2}, {1} -> {0} {3}; the largest |score(i->j) - score(j->i)| is {4} (untied {5})",
                        {wq, wa, fmt(after(q, t[0]), 1), fmt(after(t[0], q), 1), fmt(asym, 6), fmt(asym_before, 1)}));
  r.lines.push_back(phrase("With the tie the output carries {0} {1}, {2} {3}: \"my subject is there\" is not a two-way "
                        "relation, so a shared vector cannot ask for it.",
                        {wa, fmt(carried[0]), wb, fmt(carried[1])}));
  if (rec.predicted) {
    r.score = rec.prediction.choice == answer ? 1.f : 0.f;
    r.feedback = phrase("You said {0}; measured: {1}.",
                     {choice_label(info, rec.prediction.choice),
                      std::string(answer) == "other" ? phrase("something else") : choice_label(info, answer)});
  }
}

void measure_training(Demo& demo, const TourRecord& rec, Reveal& r, JsonObject& o, std::string& m, bool ask) {
  const int64_t have = demo.training.step_count();
  if (have < kTourTrainSteps && ask) demo.train_step(static_cast<int>(kTourTrainSteps - have));
  const LiveTraining& tr = demo.training;
  o.field("steps", static_cast<long long>(tr.step_count())).field("r", tr.relations());
  float one = -1;
  append_array(o.key("runs"), tr.runs(), [&](const TrainRun& run) {
    if (run.heads == 1) one = run.loss();
    JsonObject e(m);
    e.field("heads", run.heads).field("loss", run.loss()).field("floor", run.floor).field("diverged", run.diverged);
    static constexpr const char* kLines[2][2] = {
        {N_("{0} heads: loss {1} (floor {2})"), N_("{0} heads: loss {1} (floor {2}), diverged")},
        {N_("{0} head: loss {1} (floor {2})"), N_("{0} head: loss {1} (floor {2}), diverged")}};
    const char* line = kLines[run.heads == 1][run.diverged ? 1 : 0];
    r.lines.push_back(phrase(line, {std::to_string(run.heads), fmt(run.loss(), 3), fmt(run.floor)}));
  });
  o.field("oneHeadLoss", one);
  r.lines.insert(r.lines.begin(), phrase("After {0} training steps (R = {1}):",
                                      {std::to_string(tr.step_count()), std::to_string(tr.relations())}));
  // Training in another program (a Worker): the steps asked for arrive
  // later, and the reveal is measured again then (Tour::tick).
  if (tr.step_count() < kTourTrainSteps)
    r.lines.insert(r.lines.begin() + 1, phrase("(the training program is still running the {0} steps: the numbers follow)",
                                            {std::to_string(kTourTrainSteps)}));
  if (rec.predicted && one >= 0) {
    r.score = clamp01(1.f - std::fabs(rec.prediction.number - one));
    r.feedback = phrase("You guessed {0}; the one-head run ends at {1}.", {fmt(rec.prediction.number), fmt(one, 3)});
  }
}

}  // namespace

Status Tour::measure(Demo& demo, bool emit, int step) {
  const int n = step > 0 ? step : step_;
  const TourStepInfo& info = tour_steps()[static_cast<size_t>(n - 1)];
  const std::string id = info.id;
  TourRecord& rec = records_[static_cast<size_t>(n - 1)];
  Reveal r;
  {
    JsonObject o(r.measured);
    if (id != "training" && id != "recap") {
      const Scene& s = demo.scene;
      o.field("query", s.query()).field("queryWord", word(s, s.query()));
      append_values(o.key("targets"), s.lesson_targets());
    }
    if (id == "average" || id == "options" || id == "two-heads")
      if (demo.scene.heads() != 1) demo.set_heads(1);  // they start from one head
    if (id == "average") measure_average(demo, info, rec, r, o);
    else if (id == "options") measure_options(demo, info, rec, r, o, r.measured);
    else if (id == "two-heads") measure_two_heads(demo, rec, r, o, r.measured);
    else if (id == "coordinates") measure_coordinates(demo, info, rec, r, o);
    else if (id == "more-heads") measure_more_heads(demo, rec, r, o, r.measured);
    else if (id == "query-key") measure_query_key(demo, info, rec, r, o, r.measured);
    else if (id == "training") measure_training(demo, rec, r, o, r.measured, awaiting_ != n);
    else {  // recap: each step's prediction against what was measured
      append_array_n(o.key("rows"), kTourSteps - 1, [&](long long i) {
        const TourRecord& x = records_[static_cast<size_t>(i)];
        const TourStepInfo& si = tour_steps()[static_cast<size_t>(i)];
        JsonObject e(r.measured);
        e.field("id", si.id).field("predicted", x.predicted).field("revealed", x.revealed);
        if (x.score >= 0) e.field("score", x.score); else e.key("score") += "null";
        const Phrase how = !x.revealed ? phrase("not revealed")
                                : x.score >= 0 ? phrase("your answer scored {0}", {fmt(x.score)})
                                               : phrase("revealed without a prediction");
        r.lines.push_back(x.revealed && !x.result.empty()
                              ? phrase("{0}. {1}: {2}; {3}", {std::to_string(i + 1), Phrase::key(si.title), how, x.result.front()})
                              : phrase("{0}. {1}: {2}", {std::to_string(i + 1), Phrase::key(si.title), how}));
      });
    }
  }
  rec.revealed = true;
  rec.measured = std::move(r.measured);
  rec.result = std::move(r.lines);
  rec.feedback = std::move(r.feedback);
  rec.score = r.score;
  rec.from = std::move(r.from);
  rec.to = std::move(r.to);
  rec.head = r.head;
  rec.scores_before = std::move(r.scores_before);
  rec.scores_after = std::move(r.scores_after);
  ++anim_;
  if (id == "training" && demo.training.step_count() < kTourTrainSteps) {  // the Worker's steps are on their way
    awaiting_ = n;
    awaiting_emit_ = awaiting_emit_ || emit;
    return Status::ok();
  }
  if (awaiting_ == n) {
    emit = emit || awaiting_emit_;
    awaiting_ = 0;
    awaiting_emit_ = false;
  }
  if (emit) {
    std::string extra = ",\"measured\":" + rec.measured;
    if (rec.predicted) {
      extra += ",\"predicted\":";
      prediction_json(extra, rec);
    }
    if (rec.score >= 0) {
      extra += ",\"score\":";
      append_value(extra, rec.score);
    }
    log("revealed", extra);
  }
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] verbs
//-----------------------------------------------------------------------------
Status Tour::go(Demo& demo, int n) {
  if (n < first_ || n > last_)
    return Status::fail("tour step " + std::to_string(n) + " is not in this tour's range " + std::to_string(first_) +
                        ".." + std::to_string(last_));
  step_ = n;
  enter(demo);
  log("entered", "");
  if (records_[static_cast<size_t>(n - 1)].revealed) (void)measure(demo, false);
  return Status::ok();
}

Status Tour::open_range(Demo& demo, int first, int last, int step) {
  if (first < 1 || last > kTourSteps || first > last)
    return Status::fail("a tour range must be steps N-M with 1 <= N <= M <= " + std::to_string(kTourSteps) + ", got " +
                        std::to_string(first) + "-" + std::to_string(last));
  if (step < first || step > last)
    return Status::fail("tour step " + std::to_string(step) + " is outside the range " + std::to_string(first) + "-" +
                        std::to_string(last));
  first_ = first;
  last_ = last;
  return go(demo, step);
}

void Tour::close() {
  step_ = 0;
  first_ = 1;
  last_ = kTourSteps;
}

Status Tour::predict(Demo& demo, const Prediction& p) {
  if (!open()) return Status::fail("the tour is not open: go to a step first (tour.go(1))");
  const TourStepInfo& info = tour_steps()[static_cast<size_t>(step_ - 1)];
  TourRecord& rec = records_[static_cast<size_t>(step_ - 1)];
  const std::string id = info.id;
  if (info.kind == AnswerKind::None) return Status::fail("step " + id + " takes no prediction: reveal it");
  if (rec.revealed)
    return Status::fail("step " + id + " was already revealed; a prediction counts only before the reveal");
  // The step's own kind, or a choice for `average` (its alternative to a point).
  const bool choice_ok_here = id == "average" && p.kind == AnswerKind::Choice;
  if (p.kind != info.kind && !choice_ok_here)
    return Status::fail(std::string("step ") + id + " takes a " + kind_name(info.kind) +
                        (id == "average" ? " or a choice" : "") + ", not a " + kind_name(p.kind));
  for (float v : p.xy)
    if (!std::isfinite(v) || std::fabs(v) > 1000.f)
      return Status::fail("a point's coordinates must be finite numbers within +-1000");
  switch (p.kind) {
    case AnswerKind::Point:
      if (p.xy.size() != 2) return Status::fail("a point is {x, y}");
      break;
    case AnswerKind::Points:
      if (p.xy.size() != 4) return Status::fail("step two-heads takes two points, one per head");
      break;
    case AnswerKind::Choice: {
      bool known = false;
      std::string ids;
      for (const TourChoice& c : info.choices) {
        known = known || p.choice == c.id;
        ids += std::string(ids.empty() ? "" : ", ") + c.id;
      }
      if (!known) return Status::fail("step " + id + " takes one of " + ids + ", not \"" + p.choice.substr(0, 40) + "\"");
      break;
    }
    case AnswerKind::Number:
      if (!std::isfinite(p.number) || p.number < 0.f || p.number > 1.f)
        return Status::fail("step " + id + " takes a number from 0 to 1");
      break;
    case AnswerKind::Match: {
      const int L = static_cast<int>(demo.scene.tokens().size());
      if (p.match.size() != kMatchRelations.size())
        return Status::fail("step more-heads takes 4 token indices: subject, complement, previous token, antecedent");
      for (int t : p.match)
        if (t < 0 || t >= L)
          return Status::fail("token " + std::to_string(t) + " does not exist; tokens are 0.." + std::to_string(L - 1));
      break;
    }
    default: return Status::fail("no prediction given");
  }
  rec.predicted = true;
  rec.prediction = p;
  std::string extra = ",\"predicted\":";
  prediction_json(extra, rec);
  log("predicted", extra);
  return Status::ok();
}

void Tour::tick(Demo& demo) {
  if (awaiting_ == 0 || !demo.training.ready() || demo.training.step_count() < kTourTrainSteps) return;
  (void)measure(demo, false, awaiting_);  // logs the reveal's event if it was due
}

Status Tour::reveal(Demo& demo) {
  if (!open()) return Status::fail("the tour is not open: go to a step first (tour.go(1))");
  return measure(demo, true);
}

Status Tour::replay() {
  if (!open()) return Status::fail("the tour is not open: go to a step first (tour.go(1))");
  if (!records_[static_cast<size_t>(step_ - 1)].revealed)
    return Status::fail("step " + std::string(tour_steps()[static_cast<size_t>(step_ - 1)].id) +
                        " has not been revealed yet: nothing to replay");
  ++anim_;
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] state and events as JSON
//-----------------------------------------------------------------------------
void Tour::log(const char* event, const std::string& extra) {
  std::string e;
  e += "{\"type\":\"headroom:tour-event\",\"event\":";
  append_json_string(e, event);
  e += ",\"step\":" + std::to_string(step_) + ",\"stepId\":";
  append_json_string(e, tour_steps()[static_cast<size_t>(step_ - 1)].id);
  e += extra;
  e += '}';
  events_.emplace_back(next_event_++, std::move(e));
  while (events_.size() > kMaxEvents) events_.pop_front();
}

std::string Tour::events_json(int64_t since) const {
  std::string out = "[";
  bool first = true;
  for (const auto& [seq, json] : events_) {
    if (seq <= since) continue;
    if (!first) out += ',';
    first = false;
    out += json;
  }
  return out + "]";
}

std::string Tour::state_json(std::string_view error) const {
  std::string out;
  {
    JsonObject o(out);
    o.field("step", step_);
    append_values(o.key("range"), std::vector<int>{first_, last_});
    o.string_or_null("error", error);
    o.field("animation", anim_);
    append_array_n(o.key("steps"), kTourSteps, [&](long long i) {
      const TourStepInfo& info = tour_steps()[static_cast<size_t>(i)];
      const TourRecord& rec = records_[static_cast<size_t>(i)];
      JsonObject st(out);
      st.field("id", info.id).field("title", info.title).field("text", info.text).field("question", info.question);
      {
        JsonObject ans(st.key("answer"));
        ans.field("kind", kind_name(info.kind));
        if (info.kind == AnswerKind::Point) ans.field("takes", "{x, y} in the coordinates of getState().valueSpace[0]");
        if (info.kind == AnswerKind::Points)
          ans.field("takes", "[{x, y}, {x, y}]: head 1's and head 2's outputs, in valueSpace coordinates");
        if (info.kind == AnswerKind::Number) ans.field("takes", "a number from 0 to 1").field("min", 0).field("max", 1);
        if (info.kind == AnswerKind::Match) {
          ans.field("takes", "[token, token, token, token]: the token each relationship's head looks at most");
          append_array(ans.key("relations"), kMatchRelations,
                       [&](Relation r) { append_json_string(out, relation_name(r)); });
        }
        if (!info.choices.empty()) {
          append_array(ans.key("choices"), info.choices, [&](const TourChoice& c) {
            JsonObject ch(out);
            ch.field("id", c.id).field("label", c.label);
          });
        }
      }
      prediction_json(st.key("predicted"), rec);
      st.field("revealed", rec.revealed);
      if (rec.revealed) st.key("measured") += rec.measured; else st.key("measured") += "null";
      append_array(st.key("result"), rec.result, [&](const Phrase& l) { append_json_string(out, l.str()); });
      st.string_or_null("feedback", rec.feedback.str());
      if (rec.score >= 0) st.field("score", rec.score); else st.key("score") += "null";
    });
  }
  return out;
}

}  // namespace headroom::app
