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
#include "app/tour/tour.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/lang/describe.h"
#include "app/wire/json_write.h"
#include "app/lang/lang.h"
#include "engine/common/words.h"
#include "engine/lesson/readout.h"
#include "app/lang/refusals.h"

namespace headroom::app {

//-----------------------------------------------------------------------------
// [SECTION] the steps' words
//-----------------------------------------------------------------------------
namespace {

// Step real-text's answers: each behaviour head_scores.h measures, and
// "mixed", in the words the heads' captions use (describe.h).
std::vector<TourChoice> label_choices() {
  std::vector<TourChoice> out;
  for (int k = 0; k <= kHeadKindCount; ++k)
    out.push_back({k < kHeadKindCount ? kHeadKinds[static_cast<size_t>(k)] : "mixed", head_kind_key(k)});
  return out;
}

// The words are catalogue keys (N_): the panel shows them through tr(),
// and each catalogue names its own lesson's words where these name
// "said", "researcher" and "it". tour.state() keeps the keys (English).
// A choice step's answers exclude each other, in the main screen's words;
// each carries what choosing it claims (the reason when it is not what
// the engine measures).

TourStepInfo average_step() {
  return {"average", N_("One head, one average"),
          N_("An attention head gives each token one output: a weighted average of the value vectors of the "
             "tokens it looks at, with weights that add up to 1. \"said\" needs two of them: who said it "
             "(researcher) and what was said (the clause from \"it\")."),
          N_("With one head looking at both, where does said's output land among the values? Place the marker "
             "in the plane, or pick an answer."),
          AnswerKind::Point,
          {{"researcher", N_("on the subject, losing the complement"),
            N_("That answer expects the head to put nearly all its weight on researcher.")},
           {"it", N_("on the complement, losing the subject"),
            N_("That answer expects the head to put nearly all its weight on it.")},
           {"neither", N_("between them, close to neither"),
            N_("That answer expects the weight split between the two, giving their midpoint.")},
           {"spread", N_("spread thin, close to no target"),
            N_("That answer expects the weight spread over every token, giving mush.")}}};
}

TourStepInfo options_step() {
  return {"options", N_("Three ways to fail"),
          N_("One head has one set of weights for said. It can put them all on one target, split them between "
             "the two, or spread them over every token."),
          N_("Which of the three keeps the most of BOTH targets in the output?"),
          AnswerKind::Choice,
          {{"one", N_("all on one"), N_("All on one keeps one target whole and the other not at all.")},
           {"split", N_("split"), N_("A split keeps half of each target.")},
           {"spread", N_("spread"), N_("Spreading keeps a little of every token, and little of either target.")}}};
}

TourStepInfo two_heads_step() {
  return {"two-heads", N_("Two heads"),
          N_("Give the model two heads of half the size. Each has its own W_Q, W_K and W_V, so each can look at "
             "a different token."),
          N_("Where will each head's output land? Place both markers in the plane."),
          AnswerKind::Points,
          {}};
}

TourStepInfo coordinates_step() {
  return {"coordinates", N_("Side by side, then mixed"),
          N_("The two heads' outputs are not averaged together: they sit side by side in the concatenation, "
             "each in its own coordinates, and W_O mixes them afterwards."),
          N_("If head 2's output is set to zero before W_O, what does said's final output lose?"),
          AnswerKind::Choice,
          {{"researcher", N_("the subject"), N_("That answer expects head 2 to hold researcher.")},
           {"it", N_("the complement"), N_("That answer expects head 2 to hold it.")},
           {"both", N_("both"), N_("That answer expects W_O to have mixed the two heads into every coordinate.")},
           {"nothing", N_("nothing"), N_("That answer expects head 1 to hold both targets.")}}};
}

TourStepInfo more_heads_step() {
  return {"more-heads", N_("More heads, more kinds"),
          N_("With four heads, each holds one kind of relationship for every token: head 1 the subject, head 2 "
             "the complement, head 3 the previous token, head 4 what a pronoun refers to (coreference)."),
          N_("For each relationship, which token will its head look at most?"),
          AnswerKind::Match,
          {}};
}

TourStepInfo query_key_step() {
  return {"query-key", N_("One vector for query and key"),
          N_("Each head compares a query with keys through two matrices, W_Q and W_K. Tie them (W_K = W_Q) "
             "and a token asks with the same vector it answers with: the same kind of limit as one head, "
             "one level down."),
          N_("With the tie, how does the score said -> researcher compare with researcher -> said?"),
          AnswerKind::Choice,
          {{"equal", N_("they become equal"), ""},
           {"unchanged", N_("they stay as they were"), N_("That answer expects the tie to leave each score as it was.")},
           {"zero", N_("both drop to zero"), N_("That answer expects a shared matrix to cancel the scores.")}}};
}

TourStepInfo training_step() {
  return {"training", N_("Heads learn it themselves"),
          N_("Nobody has to build these heads: a small model trained to copy said's two targets into two "
             "slots finds them by itself. One head can only ever carry one mixture, so half of the task stays "
             "out of its reach."),
          N_("What loss will the one-head run end with (0 = perfect, 1 = knows nothing)?"),
          AnswerKind::Number,
          {}};
}

TourStepInfo real_text_step() {
  return {"real-text", N_("Real English: nobody assigns the jobs"),
          N_("The same kind of model, trained to predict the next word of real English (the Brown corpus), with "
             "nobody telling its heads what to look at. Each head is then measured on held-out text and named "
             "after the relationship it weights at least twice as much as chance would, or \"mixed\" when none."),
          N_("Before it trains: what will the four heads of the 4-head model do? Pick a label for each head. Head "
             "numbers are only names: your labels are matched to the measured ones in any order."),
          AnswerKind::Labels,
          label_choices()};
}

TourStepInfo recap_step() {
  return {"recap", N_("What to keep"),
          N_("One head outputs one weighted average, so it cannot keep two things whole. Several heads keep "
             "several, side by side, and W_O mixes them; training finds this without being told."),
          N_("Nothing to predict: reveal the table of your answers against the engine's numbers."),
          AnswerKind::None,
          {}};
}

}  // namespace

// The steps in the lesson's order, one function each (above).
const std::array<TourStepInfo, kTourSteps>& tour_steps() {
  static const std::array<TourStepInfo, kTourSteps> steps = {{
      average_step(), options_step(), two_heads_step(), coordinates_step(),
      more_heads_step(), query_key_step(), training_step(), real_text_step(), recap_step(),
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
    case AnswerKind::Labels: return "labels";
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
  if (comp >= 0 && s.fits(comp, Relation::Antecedent)) return comp;
  for (int i = 0; i < static_cast<int>(s.tokens().size()); ++i)
    if (s.fits(i, Relation::Antecedent)) return i;
  return q;
}

}  // namespace

int tour_match_query(const Scene& s, int i) {
  return i >= 0 && i < static_cast<int>(kMatchRelations.size()) ? match_query(s, kMatchRelations[static_cast<size_t>(i)])
                                                                  : s.query();
}

int tour_match_head(const Scene& s, int i) {
  if (i < 0 || i >= static_cast<int>(kMatchRelations.size())) return i;
  for (int h = 0; h < s.heads(); ++h)
    if (s.head_relations(h).front() == kMatchRelations[static_cast<size_t>(i)]) return h;
  return i;
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
    case AnswerKind::Labels: append_values(o.key("labels"), p.labels); break;
    default: break;
  }
}

// A mark as JSON: "correct" is one boolean per part for a match or labels, else one
// boolean (every part right); "parts" lists the parts when there are several.
void correct_json(JsonObject& o, const TourRecord& r) {
  bool all = true;
  for (bool c : r.correct) all = all && c;
  // (each as a plain bool: libc++'s vector<bool> hands out a proxy)
  auto bools = [&](std::string& out) { append_array(out, r.correct, [&](bool c) { append_value(out, c); }); };
  if (r.prediction.kind == AnswerKind::Match || r.prediction.kind == AnswerKind::Labels) bools(o.key("correct"));
  else o.field("correct", all);
  if (r.correct.size() > 1) bools(o.key("parts"));
}

// The learner's answer as an LMS stores a response: a choice's id, "x,y"
// points, a number, the words of a match.
std::string response_text(const TourRecord& r, const Scene& s) {
  const Prediction& p = r.prediction;
  char buf[32];
  auto num = [&](float v) {
    std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(v));
    return std::string(buf);
  };
  std::string out;
  switch (p.kind) {
    case AnswerKind::Choice: return p.choice;
    case AnswerKind::Number: return num(p.number);
    case AnswerKind::Point:
    case AnswerKind::Points:
      for (size_t i = 0; i < p.xy.size(); i += 2) out += (i ? ";" : "") + num(p.xy[i]) + "," + num(p.xy[i + 1]);
      return out;
    case AnswerKind::Match:
      for (size_t i = 0; i < p.match.size(); ++i) out += (i ? "," : "") + word(s, p.match[i]);
      return out;
    case AnswerKind::Labels:
      for (size_t i = 0; i < p.labels.size(); ++i) out += (i ? "," : "") + p.labels[i];
      return out;
    default: return out;
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
void Tour::enter(TourHost& demo) {
  const std::string id = tour_steps()[static_cast<size_t>(step_ - 1)].id;
  const int heads = id == "average" || id == "options" || id == "two-heads" ? 1
                    : id == "coordinates" || id == "more-heads" || id == "query-key" ? 2
                                                                                       : 0;
  // Training unties (the query-key reveal ties): with the tie on, a trainer
  // built now would train tied runs beside the three this step is about.
  if (id == "training") demo.set_tie_qk(false);
  // The step is about the roles runs (the one-head floor): a learner who
  // switched to the English text model is taken back to them, same seed,
  // the roles task's R and its default rate (the text model's is its own).
  if (id == "training" && demo.tour_training().text_task())
    demo.train_reset(demo.tour_training().seed(), demo.tour_training().relations(), kDefaultLr, false);
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

void Tour::log_revealed(int n, const Scene& scene) {
  const TourStepInfo& info = tour_steps()[static_cast<size_t>(n - 1)];
  const TourRecord& rec = records_[static_cast<size_t>(n - 1)];
  std::string extra = ",\"measured\":" + rec.measured;
  if (rec.predicted) {
    extra += ",\"predicted\":";
    prediction_json(extra, rec);
  }
  if (rec.score >= 0) {
    extra += ",\"score\":";
    append_value(extra, rec.score);
  }
  // An xAPI-shaped statement an LMS wrapper can forward as it is: "answered"
  // with the mark for a predicted step, "experienced" for one revealed
  // without an answer (and the recap).
  int right = 0;
  for (bool c : rec.correct) right += c ? 1 : 0;
  const bool answered = rec.predicted && !rec.correct.empty();
  extra += ",\"statement\":";
  {
    JsonObject st(extra);
    {
      JsonObject verb(st.key("verb"));
      verb.field("id", answered ? "http://adlnet.gov/expapi/verbs/answered" : "http://adlnet.gov/expapi/verbs/experienced");
    }
    {
      JsonObject obj(st.key("object"));
      obj.field("id", std::string("urn:headroom:tour:") + info.id).field("name", tr(info.title));
    }
    JsonObject res(st.key("result"));
    if (answered) {
      res.field("success", right == static_cast<int>(rec.correct.size()));
      {
        JsonObject sc(res.key("score"));
        sc.field("scaled", static_cast<float>(right) / static_cast<float>(rec.correct.size()));
      }
      res.field("response", response_text(rec, scene));
    } else {
      res.field("completion", true);
    }
  }
  log("revealed", n, extra);
}

//-----------------------------------------------------------------------------
// [SECTION] verbs
//-----------------------------------------------------------------------------
Status Tour::go(TourHost& demo, int n) {
  if (n < first_ || n > last_)
    return Status::fail(refusals::tour_step_range, n, first_, last_);
  step_ = n;
  enter(demo);
  log("entered", n, "");
  if (records_[static_cast<size_t>(n - 1)].revealed) {
    (void)measure(demo, false);  // a revealed step shows its answer again, animated from the start
    ++anim_;
  }
  return Status::ok();
}

Status Tour::open_range(TourHost& demo, int first, int last, int step) {
  if (first < 1 || last > kTourSteps || first > last)
    return Status::fail(refusals::tour_range, kTourSteps, first, last);
  if (step < first || step > last)
    return Status::fail(refusals::tour_step_outside, step, first, last);
  first_ = first;
  last_ = last;
  return go(demo, step);
}

void Tour::close() {
  step_ = 0;
  first_ = 1;
  last_ = kTourSteps;
}

Status Tour::predict(TourHost& demo, const Prediction& p) {
  if (!open()) return Status::fail(refusals::tour_closed);
  const TourStepInfo& info = tour_steps()[static_cast<size_t>(step_ - 1)];
  TourRecord& rec = records_[static_cast<size_t>(step_ - 1)];
  const std::string id = info.id;
  if (info.kind == AnswerKind::None) return Status::fail(refusals::step_no_prediction, id);
  if (rec.revealed)
    return Status::fail(refusals::step_revealed, id);
  // The step's own kind, or a choice for `average` (its alternative to a point).
  const bool choice_ok_here = id == "average" && p.kind == AnswerKind::Choice;
  if (p.kind != info.kind && !choice_ok_here)
    return Status::fail(id == "average" ? refusals::step_kind_or_choice : refusals::step_kind, id, kind_name(info.kind),
                        kind_name(p.kind));
  for (float v : p.xy)
    if (!std::isfinite(v) || std::fabs(v) > 1000.f)
      return Status::fail(refusals::point_range);
  switch (p.kind) {
    case AnswerKind::Point:
      if (p.xy.size() != 2) return Status::fail(refusals::point_shape);
      break;
    case AnswerKind::Points:
      if (p.xy.size() != 4) return Status::fail(refusals::two_points);
      break;
    case AnswerKind::Choice: {
      bool known = false;
      std::string ids;
      for (const TourChoice& c : info.choices) {
        known = known || p.choice == c.id;
        ids += std::string(ids.empty() ? "" : ", ") + c.id;
      }
      if (!known) return Status::fail(refusals::choice_unknown, id, ids, p.choice.substr(0, 40));
      break;
    }
    case AnswerKind::Number:
      if (!std::isfinite(p.number) || p.number < 0.f || p.number > 1.f)
        return Status::fail(refusals::number_range, id);
      break;
    case AnswerKind::Match: {
      const int L = static_cast<int>(demo.tour_scene().tokens().size());
      if (p.match.size() != kMatchRelations.size())
        return Status::fail(refusals::match_count);
      // A partial answer (-1: no token picked yet) is refused, naming what is missing.
      std::vector<std::string> missing;
      for (size_t i = 0; i < p.match.size(); ++i)
        if (p.match[i] == -1) missing.emplace_back(relation_name(kMatchRelations[i]));
      if (!missing.empty())
        return Status::fail(refusals::match_missing, StatusArg::list(missing, " and "));
      for (int t : p.match)
        if (t < 0 || t >= L)
          return Status::fail(refusals::token_missing, t, L - 1);
      break;
    }
    case AnswerKind::Labels:
      if (p.labels.size() != static_cast<size_t>(kTourTextHeads))
        return Status::fail(refusals::labels_count, kTourTextHeads, static_cast<int>(p.labels.size()));
      {  // a partial answer ("": no label picked yet) is refused, naming the heads
        std::vector<std::string> missing;
        for (size_t h = 0; h < p.labels.size(); ++h)
          if (p.labels[h].empty()) missing.push_back(std::to_string(h + 1));
        if (!missing.empty()) return Status::fail(refusals::labels_missing, StatusArg::list(missing, " and "));
      }
      for (const std::string& l : p.labels)
        if (std::none_of(info.choices.begin(), info.choices.end(), [&](const TourChoice& c) { return l == c.id; }))
          return Status::fail(refusals::label_unknown, l.substr(0, 40));
      break;
    default: return Status::fail(refusals::no_prediction);
  }
  rec.predicted = true;
  rec.prediction = p;
  std::string extra = ",\"predicted\":";
  prediction_json(extra, rec);
  log("predicted", step_, extra);
  return Status::ok();
}

void Tour::tick(TourHost& demo) {
  if (awaiting_ == 0 || !demo.tour_training().ready()) return;
  // The pending reveal shows the run's progress as its steps arrive, and is
  // marked (its "revealed" event logged, if due) once they reach the step.
  if (demo.tour_training().step_count() == awaited_count_) return;
  awaited_count_ = demo.tour_training().step_count();
  (void)measure(demo, false, awaiting_);
}

Status Tour::reveal(TourHost& demo) {
  if (!open()) return Status::fail(refusals::tour_closed);
  return measure(demo, true);
}

Status Tour::retry(TourHost& demo, int n) {
  if (n < first_ || n > last_)
    return Status::fail(refusals::tour_step_range, n, first_, last_);
  records_[static_cast<size_t>(n - 1)] = TourRecord{};
  if (awaiting_ == n) {
    awaiting_ = 0;
    awaiting_emit_ = false;
  }
  return go(demo, n);
}

Status Tour::replay() {
  if (!open()) return Status::fail(refusals::tour_closed);
  if (!records_[static_cast<size_t>(step_ - 1)].revealed)
    return Status::fail(refusals::replay_unrevealed, tour_steps()[static_cast<size_t>(step_ - 1)].id);
  ++anim_;
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] state and events as JSON
//-----------------------------------------------------------------------------
void Tour::log(const char* event, int step, const std::string& extra) {
  std::string e;
  e += "{\"type\":\"headroom:tour-event\",\"event\":";
  append_json_string(e, event);
  e += ",\"step\":" + std::to_string(step) + ",\"stepId\":";
  append_json_string(e, tour_steps()[static_cast<size_t>(step - 1)].id);
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
    // The recap's table: one row per step answered and revealed (a pending
    // training reveal is not marked yet).
    std::vector<size_t> answered;
    for (size_t i = 0; i < records_.size(); ++i)
      if (records_[i].predicted && records_[i].revealed && !records_[i].correct.empty()) answered.push_back(i);
    append_array(o.key("answers"), answered, [&](size_t i) {
      const TourRecord& rec = records_[i];
      JsonObject a(out);
      a.field("step", static_cast<int>(i + 1)).field("id", tour_steps()[i].id);
      a.field("answer", rec.answer_text.str()).field("measured", rec.measured_text.str());
      correct_json(a, rec);
      a.field("reason", rec.reason.str());
    });
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
        if (info.kind == AnswerKind::Labels)
          ans.field("takes", "{labels: [id, id, id, id]}: a choice's id per head of the text model's 4-head run")
              .field("heads", kTourTextHeads);
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
      st.field("pending", rec.pending);
      st.string_or_null("feedback", rec.feedback.str());
      if (rec.score >= 0) st.field("score", rec.score); else st.key("score") += "null";
      if (rec.correct.empty()) st.key("correct") += "null"; else correct_json(st, rec);
      st.string_or_null("reason", rec.reason.str());
    });
  }
  return out;
}

}  // namespace headroom::app
