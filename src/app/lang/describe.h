// describe.h: the demo's state in plain words, for the readout view, the
// page's aria-live region and getState().
//
// Does: turn the engine's readout (weights on each head's targets, cosines of
// each head's output to its targets' value vectors) into one sentence, e.g.
//   "1 head: said = 0.49 researcher + 0.47 it; its output is close to neither
//    (similarity 0.64 / 0.64; cos, 1 = same direction)"
//   "2 heads: head 1 reads researcher (similarity 0.99; cos, 1 = same
//    direction), head 2 reads it (similarity 0.98)"
// Words first, the symbol after: "similarity" is the cosine of two vectors,
// glossed the first time a sentence uses it. Each relationship past the
// lesson's subject and complement is named, from the query's own
// (Scene::relations_for):
//   "1 head: it = 0.99 paper (antecedent); its output reads paper (...)"
//   "4 heads: ..., head 3 (previous token) reads paper, head 4 (next token) ..."
// Does not: compute any weight or cosine (Scene::readout() does), or use ImGui
// (so native tests can check the words).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "engine/lesson/scene.h"

namespace headroom::app {

// The name of relationship r in the shown language (relation.h's
// relation_name is the English one).
const char* relation_word(Relation r);

// The engine's help line for relationship r (relation.h relation_help) in
// the shown language.
const char* relation_help_word(Relation r);
// The roles the parser gave `token` ("noun, subject": Scene::roles) in the
// shown language.
std::string role_words(const Scene& scene, int token);

// A head's output "reads" a target when their cosine is at least this.
constexpr float kReadsCos = 0.9f;

// What one head's output reads, in words: "reads researcher (similarity
// 0.99)" or "is close to neither (similarity 0.64 / 0.64)"; with `gloss`,
// the parenthesis also says what similarity is ("; cos, 1 = same direction").
std::string head_verdict(const Scene& scene, const HeadReadout& r, bool gloss = false);
// The same for any model's tokens (app/state/model_shown.h: the text model's).
std::string head_verdict(const std::vector<Token>& tokens, const HeadReadout& r, bool gloss = false);

// A head's caption after "Head N · ". With the scene's built weights, the
// relationships the scene dealt it ("subject + complement"; one the query's
// word does not have, a spare head's, in parentheses: "(subject)"). With trained
// weights, what the head is measured to attend to from the query on this
// sentence: the token with most weight, named by its relationship to the
// query (or "itself", or the word), and that weight:
// "measured: subject 0.93". Reads Scene::trace(); computes no attention.
std::string head_caption(const Scene& scene, const HeadReadout& r, int head);
// The measured caption of a head whose query puts `weight` on token `top`:
// "measured: {what} 0.93", `what` being "itself" (top == query) or the quoted
// word when empty. head_caption's, and the text model's unlabelled heads'.
std::string measured_caption(const std::vector<Token>& tokens, int query, int top, float weight, std::string what = "");

// What a text-model head's behaviour kind (engine/train/head_scores.h
// kHeadKinds, by index or by name) names, as the query's target: "previous
// word", "its determiner"; "mixed" for anything else (a head with no label).
const char* head_kind_word(int kind);
// The same words' catalogue keys (English, untranslated): kinds 0 ..
// kHeadKindCount - 1, and "mixed" for any other kind or name.
const char* head_kind_key(int kind);
const char* head_kind_key(std::string_view kind);
const char* head_kind_word(std::string_view kind);

// The readout sentence for the current query and head count; when the targets
// are guesses (Scene::targets_guessed) it says so and how to set them.
// Ends with controls_sentence when a lesson control is on.
// `gloss` false leaves out what similarity is (a course page's small frame,
// where the readout's help marker says it).
std::string readout_sentence(const Scene& scene, bool gloss = true);
// readout_sentence without the controls.
std::string heads_sentence(const Scene& scene, bool gloss = true);
// The lesson controls in words, "" when none is on: "head 2 knocked out; the
// output still carries researcher 0.98, it 0.01; query and key tied (W_K = W_Q)".
std::string controls_sentence(const Scene& scene);

// Everything a screen reader user needs: the sentence, the query, the heads,
// the readout sentence (the aria-live region and the canvas's aria-label).
std::string describe_state(const Scene& scene);
// The same from its parts: the tokens shown, the query, the sizes and the
// readout sentence (app/state/model_shown.h describe_shown: whichever model
// the views draw).
std::string describe_state(const std::vector<Token>& tokens, int query, int heads, int d_model, int d_head,
                           const std::string& readout);

}  // namespace headroom::app
