// describe.cpp: see describe.h.
#include "app/lang/describe.h"

#include <cstdio>

#include "app/lang/lang.h"
#include "engine/common/roles.h"
#include "engine/common/words.h"
#include "engine/train/head_scores.h"

namespace headroom::app {

namespace {

std::string fmt2(float v) { return num(v, 2); }  // in the language's decimal mark

const std::string& word(const std::vector<Token>& t, int token) {
  static const std::string none = "(none)";
  return token >= 0 && token < static_cast<int>(t.size()) ? t[static_cast<size_t>(token)].text : none;
}

// Outside the lesson's grammar the targets are the parser's guesses: say so,
// and how to set them.
std::string guessed_note(const Scene& scene) {
  return scene.targets_guessed()
             ? std::string("; ") + tr("targets guessed (this sentence is outside the lesson's English grammar): to set one, click a target chip, then a token")
             : "";
}

// The lesson's own wording leaves the subject and complement of heads 1 and 2
// unnamed ("head 1 reads researcher"); every other relationship is named, and
// one that does not fit the query's word says what the head does instead:
// "antecedent: said has none, so the head looks at said itself".
std::string relation_label(const Scene& scene, Relation r) {
  const int q = scene.query();
  if (scene.fits(q, r)) return relation_word(r);
  return trf("{0}: {1} has none, so the head looks at {1} itself", {relation_word(r), word(scene.tokens(), q)});
}

bool lesson_pair(const Scene& scene, const HeadReadout& r) {
  for (Relation rel : r.relations)
    if ((rel != Relation::Subject && rel != Relation::Complement) || !scene.fits(scene.query(), rel)) return false;
  return true;
}

}  // namespace

const char* relation_word(Relation r) {
  // The engine's names (relation.h relation_name), marked for the catalogue;
  // describe_tests checks they are the engine's.
  static constexpr const char* kNames[kRelations] = {N_("subject"),    N_("complement"), N_("previous token"),
                                                     N_("antecedent"), N_("next token"), N_("object"),
                                                     N_("self"),       N_("first token")};
  const int i = static_cast<int>(r);
  return i >= 0 && i < kRelations ? tr(kNames[i]) : relation_name(r);
}

const char* relation_help_word(Relation r) {
  // The engine's help lines (relation.h relation_help), marked for the catalogue.
  static constexpr const char* kHelp[kRelations] = {
      N_("a verb looks back to its subject, across a relative clause"),
      N_("a verb looks ahead to the first token of what it says/claims"),
      N_("every token looks at the token before it (local context)"),
      N_("a pronoun looks back to the noun it refers to (coreference)"),
      N_("every token looks at the token after it"),
      N_("a verb looks at its object noun"),
      N_("every token looks at itself"),
      N_("every token looks at the first token (an attention sink)")};
  const int i = static_cast<int>(r);
  return i >= 0 && i < kRelations ? tr(kHelp[i]) : relation_help(r);
}

std::string role_words(const Scene& scene, int token) {
  // The engine's role names (parser.cpp role_name), marked for the catalogue.
  static constexpr const char* kRoles[] = {N_("noun"),        N_("verb"),      N_("pronoun"),   N_("determiner"),
                                           N_("relative"),    N_("preposition"), N_("punctuation"), N_("adjective"),
                                           N_("auxiliary"),   N_("conjunction"), N_("number"),    N_("subject"),
                                           N_("in clause"),   N_("first")};
  static_assert(sizeof kRoles / sizeof kRoles[0] == kRoleCount, "one name per role bit");
  std::vector<std::string> words;
  const std::string english = scene.roles(token);
  for (size_t start = 0; start < english.size();) {
    size_t end = english.find(", ", start);
    if (end == std::string::npos) end = english.size();
    const std::string role = english.substr(start, end - start);
    const char* shown = role.c_str();
    for (const char* k : kRoles)
      if (role == k) shown = tr(k);
    words.emplace_back(shown);
    start = end + 2;
  }
  return join_words(words, ", ");
}

std::string head_caption(const Scene& scene, const HeadReadout& r, int head) {
  std::string out;
  if (!scene.weights_overridden()) {
    // a spare head's relationship the word does not have, in parentheses
    for (size_t i = 0; i < r.relations.size(); ++i) {
      const Relation rel = r.relations[i];
      const std::string name = relation_word(rel);
      out += (i ? " + " : "") + (scene.fits(scene.query(), rel) ? name : "(" + name + ")");
    }
    return out;
  }
  // 1. The token the query puts most weight on, in this head.
  const int q = scene.query();
  const Mat& w = scene.trace().heads[static_cast<size_t>(head)].weights;
  Eigen::Index top = 0;
  const float weight = w.row(q).maxCoeff(&top);
  const int j = static_cast<int>(top);
  // 2. Its name: every relationship that fits the query's word (Scene::fits;
  // not a spare head's stand-in) and points at it, else "itself" or the word.
  std::string what;
  for (int k = 0; k < kRelations; ++k) {
    const Relation rel = static_cast<Relation>(k);
    if (rel == Relation::Self || !scene.fits(q, rel) || scene.target(q, rel) != j) continue;
    what += (what.empty() ? "" : " / ") + std::string(relation_word(rel));
  }
  return measured_caption(scene.tokens(), q, j, weight, what);
}

std::string measured_caption(const std::vector<Token>& tokens, int query, int top, float weight, std::string what) {
  if (what.empty()) what = top == query ? tr("itself") : "\"" + tokens[static_cast<size_t>(top)].text + "\"";
  return trf("measured: {0} {1}", {what, fmt2(weight)});
}

const char* head_kind_key(int kind) {
  static constexpr const char* kWords[kHeadKindCount] = {
      N_("previous word"), N_("itself"),      N_("sentence start"), N_("earlier copy"), N_("induction"),
      N_("its determiner"), N_("its subject"), N_("its noun"),       N_("punctuation")};
  return kind >= 0 && kind < kHeadKindCount ? kWords[kind] : N_("mixed");
}

const char* head_kind_key(std::string_view kind) {
  for (int k = 0; k < kHeadKindCount; ++k)
    if (kind == kHeadKinds[static_cast<size_t>(k)]) return head_kind_key(k);
  return head_kind_key(kHeadKindCount);
}

const char* head_kind_word(int kind) { return tr(head_kind_key(kind)); }
const char* head_kind_word(std::string_view kind) { return tr(head_kind_key(kind)); }

std::string head_verdict(const Scene& scene, const HeadReadout& r, bool gloss) {
  return head_verdict(scene.tokens(), r, gloss);
}

std::string head_verdict(const std::vector<Token>& tokens, const HeadReadout& r, bool gloss) {
  // "(similarity 0.99)", the first time in a sentence "(similarity 0.99; cos, 1 = same direction)".
  const auto sim = [gloss](const std::string& numbers) {
    return gloss ? trf("(similarity {0}; cos, 1 = same direction)", {numbers}) : trf("(similarity {0})", {numbers});
  };
  const size_t n = r.targets.size();
  int best = -1;
  for (size_t i = 0; i < n; ++i)
    if (r.target_cos[i] >= kReadsCos && (best < 0 || r.target_cos[i] > r.target_cos[static_cast<size_t>(best)]))
      best = static_cast<int>(i);
  if (n == 1) {
    return trf(best == 0 ? "reads {0} {1}" : "misses {0} {1}", {word(tokens, r.targets[0]), sim(fmt2(r.target_cos[0]))});
  }
  std::string cos_list;
  for (size_t i = 0; i < n; ++i) cos_list += (i ? " / " : "") + fmt2(r.target_cos[i]);
  if (best < 0) {
    if (r.max_weight < 0.3f) return trf("is mush, close to no target {0}", {sim(cos_list)});
    return trf(n == 2 ? "is close to neither {0}" : "is close to none of them {0}", {sim(cos_list)});
  }
  std::vector<std::string> lost;
  for (size_t i = 0; i < n; ++i)
    if (static_cast<int>(i) != best) lost.push_back(word(tokens, r.targets[i]));
  return trf("reads {0} and loses {1} {2}",
             {word(tokens, r.targets[static_cast<size_t>(best)]), join_words(lost, ", "), sim(cos_list)});
}

std::string controls_sentence(const Scene& scene) {
  std::string s;
  const std::vector<int>& knocked = scene.knockout();
  if (!knocked.empty()) {
    std::vector<std::string> numbers;
    for (int h : knocked) numbers.push_back(std::to_string(h + 1));
    const std::vector<int> targets = scene.lesson_targets();
    const std::vector<float>& carried = scene.carried();
    std::vector<std::string> kept;
    for (size_t i = 0; i < targets.size(); ++i) kept.push_back(word(scene.tokens(), targets[i]) + " " + fmt2(carried[i]));
    s += trf(knocked.size() == 1 ? "head {0} knocked out; the output still carries {1}"
                                 : "heads {0} knocked out; the output still carries {1}",
             {join_words(numbers, tr(" and ")), join_words(kept, ", ")});
  }
  if (scene.tie_qk()) s += std::string(s.empty() ? "" : "; ") + tr("query and key tied (W_K = W_Q)");
  return s;
}

std::string readout_sentence(const Scene& scene, bool gloss) {
  const std::string controls = controls_sentence(scene);
  if (!controls.empty()) return heads_sentence(scene, gloss) + "; " + controls;
  return heads_sentence(scene, gloss);
}

std::string heads_sentence(const Scene& scene, bool gloss) {
  const std::vector<HeadReadout>& readout = scene.readout();
  const int H = scene.heads();
  const std::string query = word(scene.tokens(), scene.query());
  if (H == 1) {
    const HeadReadout& r = readout[0];
    std::string s = trf("1 head: {0} =", {query});
    const bool named = !lesson_pair(scene, r) || r.relations.size() == 1;
    for (size_t i = 0; i < r.targets.size(); ++i) {
      s += std::string(i ? " + " : " ") + fmt2(r.target_weight[i]) + " " + word(scene.tokens(), r.targets[i]);
      if (named) s += " (" + relation_label(scene, r.relations[i]) + ")";
    }
    if (r.max_weight < 0.3f) s += std::string(" + ") + tr("thin spread over the rest");
    return s + trf("; its output {0}", {head_verdict(scene, r, gloss)}) + guessed_note(scene);
  }
  std::string s = trf("{0} heads:", {std::to_string(H)});
  for (int h = 0; h < H; ++h) {
    const HeadReadout& r = readout[static_cast<size_t>(h)];
    s += (h ? ", " : " ") + trf("head {0}", {std::to_string(h + 1)});
    // Past the lesson's two, say which relationship each head holds.
    if (!r.relations.empty() && (h >= 2 || !lesson_pair(scene, r))) s += " (" + relation_label(scene, r.relations[0]) + ")";
    s += " " + head_verdict(scene, r, gloss && h == 0);
  }
  return s + guessed_note(scene);
}

std::string describe_state(const Scene& scene) {
  return describe_state(scene.tokens(), scene.query(), scene.heads(), scene.d_model(), scene.d_head(),
                        readout_sentence(scene));
}

std::string describe_state(const std::vector<Token>& tokens, int query, int heads, int d_model, int d_head,
                           const std::string& readout) {
  std::string sentence;
  for (const Token& t : tokens) sentence += (sentence.empty() ? "" : " ") + t.text;
  return trf(heads == 1 ? "Sentence: {0}. Selected token: {1}. {2} head; each token is {3} numbers (d_model), each head gets {4} of them (d_head). {5}."
                        : "Sentence: {0}. Selected token: {1}. {2} heads; each token is {3} numbers (d_model), each head gets {4} of them (d_head). {5}.",
             {sentence, word(tokens, query), std::to_string(heads), std::to_string(d_model), std::to_string(d_head), readout});
}

}  // namespace headroom::app
