// tour.cpp: the guided lesson's steps, their verbs and its state and events
// (see tour.h); the reveals that measure a step are in tour_measure.cpp.
//
// Index of this file
//   [SECTION] the steps' words
//   [SECTION] helpers: JSON of a prediction
//   [SECTION] entering a step (the state it asks about)
//   [SECTION] the "revealed" event
//   [SECTION] verbs
//   [SECTION] state and events as JSON
//
// Does not: keep any number it did not just read from the engine: a reveal
// measures the live Scene (or a copy of it with one setting changed) and the
// live training every time.
#include "app/tour/tour.h"

#include <cmath>
#include <cstdio>

#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/lang/refusals.h"
#include "app/tour/tour_read.h"
#include "app/wire/json_write.h"

namespace headroom::app {

using namespace tour_read;

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
// [SECTION] helpers: JSON of a prediction (what a step reads off the Scene
// is in tour_read.h)
//-----------------------------------------------------------------------------
namespace {

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
// [SECTION] the "revealed" event (the reveals: tour_measure.cpp)
//-----------------------------------------------------------------------------
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
