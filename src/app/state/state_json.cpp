// state_json.cpp: the demo state as the JSON object getState() returns.
//
// Does: read the Scene's Trace and readout and write them out with the
// writers of json_write.h and export.h (the parts the exports share) (NaN/Inf as null, strings escaped).
// Does not: compute any weight (every number comes from the Trace), or use a
// JSON library (the shape is small and fixed).
#include "app/state/demo.h"
#include "app/lang/lang.h"
#include "app/lang/describe.h"
#include "app/state/export.h"
#include "app/wire/json_write.h"

namespace headroom::app {
namespace {

// stress: tokens (0 = off) and the engine's median time per forward (ms)
void append_stress(std::string& out, const Demo& demo) {
  JsonObject stress(out);
  stress.field("tokens", demo.scene.stress()).field("forwardMs", static_cast<float>(demo.stress.median_ms));
  stress.field("frames", demo.stress.count);
}

// The built lesson's numbers for the query q, read from the Scene's Trace
// and readout.
void append_lesson(JsonObject& o, std::string& out, const Scene& scene, int q) {
  const Trace& trace = scene.trace();
  const std::vector<HeadReadout>& readout = scene.readout();
  // weights[h][j] = head h's softmax weight from the query to token j.
  append_query_rows(o.key("weights"), trace, q, false);

  append_array(o.key("relations"), readout, [&](const HeadReadout& r) {
    append_array(out, r.relations, [&](Relation rel) { append_json_string(out, relation_name(rel)); });
  });
  append_array(o.key("targets"), readout, [&](const HeadReadout& r) { append_values(out, r.targets); });
  append_readout(o.key("readout"), readout);

  // valueSpace[h]: the value-space view's picture (engine/lesson/value_map.h):
  // points (L x [x, y]), output ([x, y], the query's output), explained
  // (share of the values' energy in the plane), outputInPlane.
  append_value_space(o.key("valueSpace"), scene.value_maps());
  // Lesson controls: knocked-out heads (0-based), what the final output
  // still carries of each lesson target (0..1, readout.h carried()), those
  // targets' token indices, the query/key tie, and per head the query's
  // scaled scores Q K^T / sqrt(d_head) before softmax.
  append_values(o.key("knockout"), scene.knockout());
  append_values(o.key("carried"), scene.carried());
  append_values(o.key("carriedTargets"), scene.lesson_targets());
  o.field("tieQK", scene.tie_qk());
  append_query_rows(o.key("scores"), trace, q, true);
}

// The guided lesson's open step (0: closed) and range (tour.state() has the rest).
void append_tour(std::string& out, const Tour& t) {
  JsonObject tour(out);
  tour.field("step", t.step());
  append_values(tour.key("range"), std::vector<int>{t.first(), t.last()});
}

// Which weights the views show: the choice, what is shown (a head count
// with no trained run shows the built weights and the note says so), and
// the training step of the shown trained weights.
void append_model_weights(std::string& out, const LiveTraining& training) {
  JsonObject weights(out);
  weights.field("choice", training.weights_choice()).field("shown", training.weights_shown());
  weights.string_or_null("note", training.weights_note().error);
  if (training.weights_shown() != kWeightChoices[0]) {
    weights.field("step", training.weights_step());
  } else {
    weights.key("step") += "null";
  }
}

// model: what the views draw (model_shown.h), whichever weights made it:
// source ("built" | "trained" | "text"), layers and the layer shown
// (1-based), its tokens (the text model's words as typed) and which of
// them it never saw (unknown), its word ids (the text model's; [] for
// the lesson's, which has no vocabulary), the query, per head the query's weight
// row, caption, targets (what the head is read against), and its output
// in words; the readout sentence.
void append_model(std::string& out, const ModelShown& m) {
  JsonObject mo(out);
  mo.field("source", model_source_name(m.source)).field("layers", m.layers).field("layer", m.layer + 1);
  append_array(mo.key("tokens"), m.tokens, [&](const Token& t) { append_json_string(out, t.text); });
  append_array(mo.key("unknown"), m.unknown, [&](bool u) { out += u ? "true" : "false"; });
  append_values(mo.key("ids"), m.ids);
  mo.field("query", m.query);
  append_query_rows(mo.key("weights"), *m.trace, m.query, false);
  append_array(mo.key("captions"), m.head, [&](const ShownHead& h) { append_json_string(out, h.caption); });
  append_array(mo.key("targets"), m.head, [&](const ShownHead& h) { append_values(out, h.readout.targets); });
  append_array(mo.key("outputs"), m.head, [&](const ShownHead& h) { append_json_string(out, h.output.words); });
  mo.field("sentence", m.sentence);
}

}  // namespace

std::string state_json(Demo& demo) {
  const Scene& scene = demo.scene;
  const int q = scene.query();
  std::string out;
  out.reserve(4096);
  {  // o closes the object when it goes out of scope, before the return
    JsonObject o(out);
    append_array(o.key("tokens"), scene.tokens(), [&](const Token& t) { append_json_string(out, t.text); });
    o.field("heads", scene.heads()).field("dModel", scene.d_model()).field("dHead", scene.d_head());
    o.field("query", q).field("focus", scene.focus()).field("view", demo.view).field("theme", demo.theme);
    append_stress(o.key("stress"), demo);
    append_lesson(o, out, scene, q);
    append_tour(o.key("tour"), demo.tour);
    // The sentence as typed (what the page's sentence field shows).
    o.field("text", demo.scene.text());
    // The readout sentence and the full description (the page's aria-live
    // text), of the model the views draw.
    const ModelShown& shown = demo.shown();
    o.field("sentence", shown.sentence_glossed).field("description", describe_shown(shown));
    append_model_weights(o.key("modelWeights"), demo.training);
    append_model(o.key("model"), demo.shown());
    // lang: the shown language's code; missingStrings: the strings it
    // lacked so far (shown in English instead; app/lang/lang.h);
    // langLoading: the language chosen whose catalogue the page is
    // fetching (null when none; Demo::set_language)
    o.field("lang", language().code).field("missingStrings", missing_strings());
    o.string_or_null("langLoading", demo.lang_loading);
    // error: the last refusal in the shown language; errorCode: its code
    // (a refusal table's, app/lang/refusals.h), "" when there is none
    o.string_or_null("error", demo.error).field("errorCode", demo.error_code);
  }
  return out;
}

}  // namespace headroom::app
