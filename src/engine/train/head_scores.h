// head_scores.h: what each attention head of the text model does, measured:
// its behaviour scores against named relationships, each beside its chance
// baseline, and the label they give the head.
//
// Does: for a query at position i of a window (0 <= i < L, causal: it sees
// positions 0..i) and a kind k that names a set T of earlier positions,
//   score_k    = mean over the queries where T exists of sum_{j in T} P(i, j)
//   baseline_k = mean over the same queries of |T| / (i + 1)
//                (the same query's weight spread uniformly over what it sees)
// Queries at i = 0 are never asked (they see nothing but themselves). Kinds:
//   previous         T = {i - 1}
//   self             T = {i}
//   start            the first token of i's sentence, when it is in the window
//                    and before i
//   duplicate        every earlier copy of i's word (never <unk> or <num>)
//   induction        the token after the earlier copy of i's token, on
//                    windows of distinct random words where a run of P words
//                    (P uniform in kInductionMinPeriod .. L/2, at a uniform
//                    position) is repeated once right after itself; queries
//                    are kInductionQueries positions of the repeat (distinct,
//                    uniform). The prefix-matching score: as the period
//                    varies, a head that looks a fixed distance back hits the
//                    target in about one window in (L/2 - 2) and stays near
//                    its baseline.
//   determiner-noun  a noun's determiners and adjectives before it in its own
//                    phrase (walking back over adjectives and nouns, to and
//                    including the first determiner, within the sentence)
//   verb-subject     a verb's nearest noun or personal pronoun before it in
//                    its sentence
//   pronoun-noun     a personal pronoun's nearest earlier noun (any sentence)
//   punctuation      every earlier punctuation mark
// Tag classes read the Brown tag before any "+" (contractions): noun nn* or
// np*, personal pronoun pp* without "$", verb vb*, be*, hv*, do* or md,
// determiner at ap abn abx dt dti dts dtx pp$, adjective jj*, punctuation
// . , : ( ) -- `` '' '.
// The label: the kind with the highest score among those with score >=
// kLabelRatio x baseline; "mixed" when none is (its label score is then the
// highest score of any kind). Ties go to the kind listed first.
// Does not: run the model (the caller hands it the weights its forward pass
// produced: weights are only read), draw from the training's random stream
// (the induction windows come from their own seed), or know about JSON.
//
// Shape letters: L tokens per window, P weights of one head for one window
// (L x L, row i = query i, causal).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/tensor.h"
#include "text_corpus.h"

namespace headroom {

enum HeadKind : int {
  kKindPrevious,
  kKindSelf,
  kKindStart,
  kKindDuplicate,
  kKindInduction,
  kKindDeterminerNoun,
  kKindVerbSubject,
  kKindPronounNoun,
  kKindPunctuation,
  kHeadKindCount
};
constexpr std::array<const char*, kHeadKindCount> kHeadKinds = {
    "previous", "self", "start", "duplicate", "induction", "determiner-noun", "verb-subject", "pronoun-noun",
    "punctuation"};
constexpr float kLabelRatio = 2.f;
constexpr int kInductionMinPeriod = 3;  // a period of 2 would credit a previous-token head
constexpr int kInductionQueries = 4;    // per window
constexpr int kInductionWindows = 64;   // at least; whole batches
constexpr uint64_t kInductionSeed = 34, kInductionPurpose = 17;

// One head of one layer and what it was measured doing. Empty scores and
// label "" until the first measurement.
struct HeadSlot {
  int layer = 0, head = 0;
  std::vector<std::pair<std::string, float>> scores;     // kind -> score, kinds that had queries
  std::vector<std::pair<std::string, float>> baselines;  // the same kinds, same order
  std::string label;                                     // a kind, or "mixed"
  float label_score = 0.f;
};

// Queries of a sample of windows, grouped by window: query (i, kind) names
// the positions targets[first .. first + count).
struct ScoreQuery {
  int query = 0, kind = 0, first = 0, count = 0;
};
struct ScoreSample {
  int tokens = 0;                  // L
  std::vector<ScoreQuery> queries;
  std::vector<int> targets;        // positions within the window
  std::vector<int> window_begin;   // windows + 1: window w's queries are [window_begin[w], window_begin[w + 1])
  int windows() const { return window_begin.empty() ? 0 : static_cast<int>(window_begin.size()) - 1; }
};

// Every kind but induction on the windows of L tokens starting at `starts`.
void text_score_sample(const TextCorpus& c, const std::vector<int>& starts, int L, ScoreSample& out);

// `windows` induction windows of L ids from 2 .. vocab - 1, from Rng(seed)
// (ids: windows * L); empty when L < 2 kInductionMinPeriod or the vocabulary
// has fewer than L such words.
void induction_score_sample(int vocab, int L, int windows, uint64_t seed, std::vector<int>& ids, ScoreSample& out);

// Running sums of one head's scores.
struct HeadScoreSums {
  std::array<double, kHeadKindCount> weight{}, baseline{};
  std::array<int64_t, kHeadKindCount> count{};
};

// Adds the queries of window w of s, with the head's weights P on it.
void add_head_scores(const ScoreSample& s, int w, const Eigen::Ref<const Mat>& P, HeadScoreSums& sums);

// The slot's scores, baselines and label from the sums (layer and head kept).
void finish_head_slot(const HeadScoreSums& sums, HeadSlot& slot);

}  // namespace headroom
