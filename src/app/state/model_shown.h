// model_shown.h: the model the views draw, described once and read-only.
//
// Does: say what "the model shown" is for the sentence, the query and the
// head count on screen, whatever made it:
// - the tokens, each marked unknown when the model has no word for it;
// - the shown layer's trace (per head: scores, weights, values, output; the
//   concatenation; W_O's output) and that layer's weights, the layer's input
//   (the residual stream the heads read) and how many layers there are;
// - per head: its readout for the query (the tokens it is read against, with
//   their weights and cosines), its value-space picture (engine/lesson/
//   value_map.h), its caption, its output in words, and its verdict.
// Three sources fill it, each through one function: the lesson's Scene on its
// built weights or on a trained roles run's weights (from_scene), and the
// text model on the sentence (from_text). The views draw from it alone and
// never ask which source filled it; `source` is kept for the one statement
// that names the weights and for getState().
// The text model has no lesson targets: each head is read against the two
// tokens the query gives most weight (one when the second has less than
// kTextSecondTarget), so its plane is the one its output mixes, and a head
// that splits its weight between two tokens sits at their midpoint exactly
// as the lesson's single head does.
// Does not: compute attention (the Scene and text_sentence_forward did),
// own the traces (it points into the Scene or the Demo's text trace: valid
// until either changes, so the Demo rebuilds it after every verb), or draw.
#pragma once
#include <string>
#include <vector>

#include "app/lang/output_kind.h"
#include "engine/core/attention.h"
#include "engine/lesson/readout.h"
#include "engine/lesson/scene.h"
#include "engine/lesson/tokenizer.h"
#include "engine/lesson/value_map.h"
#include "engine/train/head_scores.h"

namespace headroom::app {

// Which weights the views show: the lesson's built ones, a trained roles
// run's, or the text model's.
enum class ModelSource { kBuilt, kTrained, kText };
const char* model_source_name(ModelSource s);  // "built" | "trained" | "text"

// A text head's second target counts when it takes at least this weight.
constexpr float kTextSecondTarget = 0.1f;

struct ShownHead {
  HeadReadout readout;   // for the query; relations empty for the text model
  // Per relation of the readout: whether the query's word has it
  // (Scene::fits; one it has not is a spare head's, shown in parentheses).
  std::vector<bool> relation_fits;
  ValueMap map;          // its value-space picture
  OutputMeasure output;  // "midpoint", "reads researcher", ...
  std::string caption;   // after "Head N · ": its relationships, or what it was measured doing
  std::string verdict;   // "reads researcher (similarity 0.99)"
};

struct ModelShown {
  ModelSource source = ModelSource::kBuilt;
  std::vector<Token> tokens;
  std::vector<bool> unknown;  // per token: the model has no word for it
  std::vector<int> ids;             // the text model's word ids (empty for the Scene, which has no vocabulary)
  std::vector<std::string> notes;  // per token, for its tooltip: its roles, or that it is unknown ("" none)
  int query = 0;
  int heads = 1, d_model = 0, d_head = 0;
  int layers = 1, layer = 0;  // how many, and which one is shown (0-based)
  bool causal = false;        // the text model: token i reads only tokens 0..i
  const Trace* trace = nullptr;
  const AttentionWeights* weights = nullptr;
  const Mat* input = nullptr;  // the shown layer's input, L x D
  std::vector<ShownHead> head;
  // What the final output still carries of the lesson's targets (the built
  // and trained roles weights; empty for the text model).
  std::vector<int> carried_targets;
  std::vector<float> carried;
  // The readout in words (the card above the views): with what similarity
  // means (`glossed`) and without (a small frame's).
  std::string sentence, sentence_glossed;

  int token_count() const { return static_cast<int>(tokens.size()); }
};

// The Scene as it is now (its built or its trained weights).
void from_scene(const Scene& scene, ModelShown& out);

// One layer of the text model on a sentence: `words` as typed (unknown[i]
// when the model's vocabulary has no such word), the per-layer traces and
// residual streams (x: layers + 1 of them), the shown layer's weights, the
// query (clamped into the sentence), and the heads' measured behaviour
// (`slots`: the run's perHead, any order; a head not measured yet is
// captioned by its query's heaviest token, as a trained roles head is).
struct TextShownInput {
  const std::vector<std::string>* words = nullptr;
  const std::vector<bool>* unknown = nullptr;
  const std::vector<int>* ids = nullptr;
  const std::vector<Trace>* traces = nullptr;
  const std::vector<Mat>* x = nullptr;
  const AttentionWeights* weights = nullptr;
  const std::vector<HeadSlot>* slots = nullptr;
  int layers = 1, layer = 0, query = 0;
};
void from_text(const TextShownInput& in, ModelShown& out);

// The state in words for a screen reader (describe.h describe_state) of the
// model shown: its tokens, query, sizes and readout sentence.
std::string describe_shown(const ModelShown& m);

}  // namespace headroom::app
