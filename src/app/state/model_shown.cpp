// model_shown.cpp: the model shown, filled from the Scene or from the text
// model's traces. See model_shown.h.
#include "app/state/model_shown.h"

#include <algorithm>

#include "app/lang/describe.h"
#include "app/lang/lang.h"

namespace headroom::app {

const char* model_source_name(ModelSource s) {
  switch (s) {
    case ModelSource::kBuilt: return "built";
    case ModelSource::kTrained: return "trained";
    case ModelSource::kText: return "text";
  }
  return "built";
}

void from_scene(const Scene& scene, ModelShown& out) {
  out.source = scene.weights_overridden() ? ModelSource::kTrained : ModelSource::kBuilt;
  out.tokens = scene.tokens();
  out.unknown.assign(out.tokens.size(), false);
  out.ids.clear();
  out.notes.clear();
  for (int i = 0; i < static_cast<int>(out.tokens.size()); ++i)
    out.notes.push_back(scene.roles(i).empty() ? std::string() : role_words(scene, i));
  out.query = scene.query();
  out.heads = scene.heads();
  out.d_model = scene.d_model();
  out.d_head = scene.d_head();
  out.layers = 1;
  out.layer = 0;
  out.causal = false;
  out.trace = &scene.trace();
  out.weights = &scene.weights();
  out.input = &scene.x();
  const std::vector<HeadReadout>& readout = scene.readout();
  const std::vector<ValueMap>& maps = scene.value_maps();
  out.head.resize(static_cast<size_t>(out.heads));
  for (int h = 0; h < out.heads; ++h) {
    ShownHead& s = out.head[static_cast<size_t>(h)];
    s.readout = readout[static_cast<size_t>(h)];
    s.relation_fits.clear();
    for (Relation rel : s.readout.relations) s.relation_fits.push_back(scene.fits(out.query, rel));
    s.map = maps[static_cast<size_t>(h)];
    s.output = measure_output(scene, s.readout);
    s.caption = head_caption(scene, s.readout, h);
    s.verdict = head_verdict(scene, s.readout);
  }
  out.carried_targets = scene.lesson_targets();
  out.carried = scene.carried();
  out.sentence = readout_sentence(scene, false);
  out.sentence_glossed = readout_sentence(scene, true);
}

namespace {

// The two tokens row `query` of `weights` gives most weight (ties to the
// earlier token), the second only when it takes kTextSecondTarget.
std::vector<int> heaviest_two(const Mat& weights, int query) {
  int first = 0;
  for (int j = 1; j < weights.cols(); ++j)
    if (weights(query, j) > weights(query, first)) first = j;
  int second = -1;
  for (int j = 0; j < weights.cols(); ++j)
    if (j != first && (second < 0 || weights(query, j) > weights(query, second))) second = j;
  if (second < 0 || weights(query, second) < kTextSecondTarget) return {first};
  return {std::min(first, second), std::max(first, second)};
}

// "previous word 0.91" from the head's measured label, "" when it has none yet.
std::string measured_label(const std::vector<HeadSlot>* slots, int layer, int head) {
  if (!slots) return "";
  for (const HeadSlot& s : *slots)
    if (s.layer == layer && s.head == head && !s.label.empty())
      return s.label == "mixed" ? std::string(head_kind_word(-1))
                                : trf("{0} {1}", {head_kind_word(s.label), num(s.label_score, 2)});
  return "";
}

// A head with no label yet: the token its query weighs most and that weight.
std::string heaviest_caption(const std::vector<Token>& tokens, const Mat& weights, int query) {
  Eigen::Index top = 0;
  const float w = weights.row(query).maxCoeff(&top);
  return measured_caption(tokens, query, static_cast<int>(top), w);
}

// The readout of a model with no lesson targets, in the lesson's own words:
// "1 head: said = 0.52 wrote + 0.31 it; its output is close to neither
// (similarity ...)", or "4 heads: head 1 (previous word 0.91) reads wrote
// (similarity 0.97), head 2 ...".
std::string measured_sentence(const ModelShown& m, bool gloss) {
  const std::string& query = m.tokens[static_cast<size_t>(m.query)].text;
  if (m.heads == 1) {
    const HeadReadout& r = m.head[0].readout;
    std::string s = trf("1 head: {0} =", {query});
    for (size_t i = 0; i < r.targets.size(); ++i)
      s += std::string(i ? " + " : " ") + num(r.target_weight[i], 2) + " " + m.tokens[static_cast<size_t>(r.targets[i])].text;
    if (r.max_weight < 0.3f) s += std::string(" + ") + tr("thin spread over the rest");
    return s + trf("; its output {0}", {head_verdict(m.tokens, r, gloss)});
  }
  std::string s = trf("{0} heads:", {std::to_string(m.heads)});
  for (int h = 0; h < m.heads; ++h) {
    const ShownHead& sh = m.head[static_cast<size_t>(h)];
    s += (h ? ", " : " ") + trf("head {0}", {std::to_string(h + 1)}) + " (" + sh.caption + ") " +
         head_verdict(m.tokens, sh.readout, gloss && h == 0);
  }
  return s;
}

}  // namespace

void from_text(const TextShownInput& in, ModelShown& out) {
  const std::vector<std::string>& words = *in.words;
  const Trace& trace = (*in.traces)[static_cast<size_t>(in.layer)];
  out.source = ModelSource::kText;
  out.tokens.clear();
  for (const std::string& w : words) out.tokens.push_back(Token{w, 0, 0});
  out.unknown = *in.unknown;
  out.ids = *in.ids;
  out.notes.clear();
  for (bool u : out.unknown) out.notes.push_back(u ? tr("a word the model never saw: it reads as <unk>") : "");
  const int L = static_cast<int>(words.size());
  out.query = std::clamp(in.query, 0, std::max(0, L - 1));
  out.heads = static_cast<int>(trace.heads.size());
  out.d_model = static_cast<int>(trace.out.cols());
  out.d_head = out.heads > 0 ? out.d_model / out.heads : 0;
  out.layers = in.layers;
  out.layer = in.layer;
  out.causal = true;
  out.trace = &trace;
  out.weights = in.weights;
  out.input = &(*in.x)[static_cast<size_t>(in.layer)];
  out.head.resize(static_cast<size_t>(out.heads));
  for (int h = 0; h < out.heads; ++h) {
    const HeadTrace& ht = trace.heads[static_cast<size_t>(h)];
    ShownHead& s = out.head[static_cast<size_t>(h)];
    const std::vector<int> targets = heaviest_two(ht.weights, out.query);
    s.readout = head_readout(ht, out.query, {}, targets);
    s.relation_fits.clear();
    s.map = value_map(ht, out.query, targets.front(), targets.back());
    s.output = measure_output(out.tokens, s.readout);
    s.caption = measured_label(in.slots, in.layer, h);
    if (s.caption.empty()) s.caption = heaviest_caption(out.tokens, ht.weights, out.query);
    s.verdict = head_verdict(out.tokens, s.readout);
  }
  out.carried_targets.clear();
  out.carried.clear();
  out.sentence = measured_sentence(out, false);
  out.sentence_glossed = measured_sentence(out, true);
}

std::string describe_shown(const ModelShown& m) {
  return describe_state(m.tokens, m.query, m.heads, m.d_model, m.d_head, m.sentence_glossed);
}

}  // namespace headroom::app
