// scene.h: the lesson's model: tokens, embeddings, and head weights built
// from named relationships.
//
// Does: turn a sentence into X (L x D) whose columns are readable feature
// blocks, and build W_Q, W_K, W_V, W_O for H heads, one fixed relationship
// per head ("my subject", "my complement", "the previous token", ...)
// whatever token is selected (head_relations): one model per head count.
// With one head, that head holds the lesson's two relationships at once, so
// its scores for the two targets tie and softmax splits the weight: the
// midpoint appears by itself. Runs the forward pass and caches, per query,
// each head's readout (readout.h) and value map (value_map.h): the reads are
// const, and what they compute lives in one named cache (Scene::Cache).
// Does not: parse (parser.h finds roles and default targets), name or explain
// relationships (relation.h), write any attention weight by hand (every
// weight comes from attention.h's softmax), or know about GL, ImGui or the
// browser.
//
// Embedding layout (D = 128 columns; embedding.h defines it, shared with the
// training task of train_task.h), documented for the views:
//   [  0, 32)  content: a fixed unit vector per lower-cased word (its "meaning")
//   [ 32, 48)  roles: noun, verb, pronoun, determiner, ..., constant 1
//   [ 48, 64)  position code p(i): 8 cos/sin pairs, |p(i)| = 1
//   [ 64, 80)  pointer "subject":    p(subject target of this token)
//   [ 80, 96)  pointer "complement": p(complement target)
//   [ 96,112)  pointer "antecedent": p(antecedent of a pronoun)
//   [112,128)  pointer "object":     p(object of a verb)
// The pointer blocks stand in for what earlier layers of a real model would
// have computed; a relationship is the bilinear form x_i W_Q W_K^T x_j that
// compares a pointer (or a shifted position) of token i with the position of j.
#pragma once
#include <cstdint>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/attention.h"
#include "readout.h"
#include "relation.h"
#include "engine/core/status.h"
#include "engine/core/tensor.h"
#include "tokenizer.h"
#include "value_map.h"

namespace headroom {

struct SceneConfig {
  static constexpr int kDModel = 128;
  static constexpr int kMaxTokens = 32;        // cap for typed sentences
  static constexpr int kMaxStressTokens = 512; // cap for the stress setting
  static constexpr size_t kMaxBytes = 4096;    // cap on input text
  float sharpness = 8.f;  // score margin (nats) a relationship gives its target
};

// The head counts a scene takes (Scene::set_heads): each H divides
// kDModel = 128 so that d_head = 128/H holds the 16-wide position code, and
// H <= 8 = the number of relationships to deal out. The one list: the UI's
// heads control and the URL's `heads` key offer exactly these.
inline constexpr std::array<int, 4> kHeadCounts = {1, 2, 4, 8};

class Scene {
 public:
  Scene();  // the lesson sentence, query "said", one head, focus 0.5

  static const char* lesson_sentence();
  // The sentence as last given to set_sentence (UTF-8, as typed: the tokens
  // drop spaces and case), which links and the page's sentence field show.
  const std::string& text() const { return text_; }

  // A lesson sentence with its query and the query's two targets named
  // explicitly (token indices), for a sentence the parser cannot read (a
  // lesson in another language: the English parser must not guess them);
  // and, where the sentence has one, a pronoun and its antecedent (-1: none).
  struct LessonTargets {
    int query = 0, subject = 0, complement = 0;
    int pronoun = -1, antecedent = -1;
  };

  // Each setter validates first; on error it returns why and changes nothing.
  Status set_sentence(std::string_view utf8);
  // set_sentence, then the query and its subject and complement as given:
  // they are the parser's defaults for this sentence (reset_targets keeps
  // them), so targets_guessed() is false. Refused (nothing changes) when an
  // index is no token, or a target is the query itself.
  Status set_lesson(std::string_view utf8, const LessonTargets& t);
  Status set_heads(int heads);
  Status set_query(int token);
  Status set_target(Relation r, int token);  // the query's target for r (pointer relations only)
  void reset_targets();                      // back to the parser's defaults
  Status set_focus(float focus);             // single head: 0 all on one, 0.5 split, 1 spread
  Status set_stress(int tokens);             // 0 = off; else repeat text up to `tokens`
  void set_relation_order(const std::array<Relation, kRelations>& order);  // tests, perturbations
  // Trained weights in place of the built ones (nullptr: the built ones
  // again). Validated first: check_weights, d_model = 128, and heads equal to
  // the scene's heads. A set_heads to another count drops them (the caller
  // then gives the weights of that count, or says there are none). With
  // trained weights nothing was dealt out, so every head is read against the
  // query's first two relationships, and focus has no effect.
  Status set_weights_override(const AttentionWeights* w);
  bool weights_overridden() const { return override_.has_value(); }
  // Head knockout: these heads' outputs (0-based, each < heads(), none twice)
  // are zeroed before W_O. A new head count clears it. Refused lists change
  // nothing.
  Status set_knockout(const std::vector<int>& heads);
  const std::vector<int>& knockout() const { return knockout_; }  // ascending
  // Tied query and key: W_K = W_Q in every head of the built weights (the
  // query projections serve as keys, so score(i -> j) = score(j -> i)).
  // Trained weights are shown as trained (a tied run is the training's).
  Status set_tie_qk(bool tie);
  bool tie_qk() const { return tie_qk_; }

  // The reads below are const. Each returns what the cache (Cache, below)
  // holds, filling it first when a setter changed what it depends on; a
  // reference a read returns stays valid and unchanged until that same read
  // is made again after a change (a view may call a verb mid-frame and keep
  // drawing from the numbers it read).
  // X, the weights and the Trace, recomputed only if an input changed.
  const Trace& trace() const;
  // Forces the forward pass to run again (stress timing), returns the Trace.
  const Trace& recompute();

  const std::vector<Token>& tokens() const { return tokens_; }
  int heads() const { return heads_; }
  int d_model() const { return SceneConfig::kDModel; }
  int d_head() const { return SceneConfig::kDModel / heads_; }
  int query() const { return query_; }
  float focus() const { return focus_; }
  int stress() const { return stress_; }
  const Mat& x() const;
  const AttentionWeights& weights() const;
  // Counts the changes of what the reads below return: any setter that marks
  // the trace or the query's readout stale moves it. A reader that keeps
  // something made from them (app/state/model_shown.h) rebuilds when it moved.
  uint64_t revision() const { return cache_.revision; }
  // Relationship r fits token's word: a pointer one parser.h found for it
  // or whose target the user set, or a positional one (they fit every token
  // by definition).
  bool fits(int token, Relation r) const;
  // The one model per head count: head h holds the same relationships for
  // every token (a head is one W_Q for every row), in the relation order
  // (set_relation_order; by default relation.h's: subject, complement,
  // previous token, antecedent, next token, object, self, first token):
  //   H = 1: the first two at once (the lesson's subject + complement),
  //   H >= 2: head h holds the h-th.
  // Trained weights were dealt nothing: every head is read against the
  // first two. Selecting another token never changes these.
  std::vector<Relation> head_relations(int head) const;
  // The token that relationship r makes `token` attend to: its target where
  // r fits the token, else the token itself. A head whose relationship has
  // nothing to find for a token does what an idle head of a real model
  // often does and looks at that token itself (for the previous token of
  // the first token, and the next of the last, that is the same). Each
  // pointer block of X carries p(looks_at), so the built weights realise
  // exactly this.
  int looks_at(int token, Relation r) const;
  // Target of relationship r for token i (default from the parser, or reassigned).
  int target(int token, Relation r) const;
  // The sentence is outside the lesson's English grammar (parser.h found no
  // verb with a subject and a complement) and the query's targets are still
  // the parser's guesses (none reassigned): the readout says so.
  bool targets_guessed() const;
  // Per-head readout for the current query (cached until the trace, the
  // query or a target changes).
  const std::vector<HeadReadout>& readout() const;
  // Per head, the value-space picture for the query, anchored on its
  // lesson_targets(), so the 1-head midpoint and the 2-head outputs share
  // one plane.
  const std::vector<ValueMap>& value_maps() const;
  // The query's lesson targets: the targets of the single head's two
  // relationships (subject and complement) for the query, the value maps'
  // anchors; where one does not fit the query's word, the parser's
  // stand-in (the nearest content word, parser.h), so the plane keeps two
  // anchors while the head itself looks at the query (looks_at).
  std::vector<int> lesson_targets() const;
  // What the final output still carries of each lesson target, 0..1 (readout.h
  // carried(): after W_O and any knockout), cached like readout().
  const std::vector<float>& carried() const;
  // Role names of a token ("noun", "verb", ...), for the UI.
  std::string roles(int token) const;

  const SceneConfig& config() const { return cfg_; }

 private:
  Status load_tokens(std::vector<Token> toks, int default_query);
  Status load_sentence(std::string_view utf8, const std::optional<LessonTargets>& lesson);
  void build() const;           // X and the weights into cache_
  void run_forward() const;     // the Trace into cache_; the per-query reads go stale
  void parse();

  SceneConfig cfg_;
  std::string text_;
  std::vector<Token> tokens_;
  std::vector<std::array<int, kRelations>> targets_;  // per token, per relation
  std::vector<unsigned> role_bits_;                    // per token, parser.h roles
  std::vector<unsigned> fits_;                         // per token, parser.h Parse::fits
  // The parser's defaults (parser.h Parse): reset_targets() and
  // targets_guessed() compare against them.
  std::vector<std::array<int, kRelations>> default_targets_;
  int default_query_ = 0;
  bool guessed_ = false;
  std::optional<LessonTargets> lesson_;  // set_lesson's explicit targets, applied by parse()
  std::array<Relation, kRelations> order_;
  int heads_ = 1;
  int query_ = 0;
  float focus_ = 0.5f;
  int stress_ = 0;
  std::vector<int> knockout_;  // ascending head indices
  bool tie_qk_ = false;
  Backend backend_ = default_backend();  // SIMD128 kernels on the web
  std::optional<AttentionWeights> override_;  // trained weights, see set_weights_override

  // Everything the const reads compute from the inputs above, filled lazily:
  // a link applies up to six setters in a row and only the last state's
  // forward pass runs, and the stress timing (recompute) times the forward
  // pass alone. Setters only mark entries stale (inputs_changed,
  // query_changed); the reads fill them. Nothing else in the class is
  // mutable.
  struct Cache {
    bool trace_stale = true;  // x, w and trace
    // What depends on the query as well as the trace. A new query re-reads
    // the trace; it does not recompute it.
    bool readout_stale = true, maps_stale = true, carried_stale = true;
    Mat x;
    AttentionWeights w;
    Trace trace;
    std::vector<HeadReadout> readout;
    std::vector<ValueMap> maps;
    std::vector<float> carried;
    uint64_t revision = 0;
    void inputs_changed() { trace_stale = true; ++revision; }
    void query_changed() { readout_stale = maps_stale = carried_stale = true; ++revision; }
  };
  mutable Cache cache_;
};

}  // namespace headroom
