// head_scores_tests.cpp: the head scores and labels (head_scores.h) on heads
// built by hand. Every expected number comes from a target table derived by
// hand from the kinds' definitions and a naive loop over it, never from the
// code under test.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "engine/train/head_scores.h"

using namespace headroom;

namespace {

constexpr float kScoresTol = 1e-6f;

// "the big dog saw the cat . it ran ." : sentences start at 0 and 7.
//  0 the/at 1 big/jj 2 dog/nn 3 saw/vbd 4 the/at 5 cat/nn 6 ./. 7 it/pps 8 ran/vbd 9 ./.
constexpr int kScoresL = 10;
TextCorpus tagged_corpus() {
  const std::vector<std::string> words = {"<unk>", "<num>", "the", "big", "dog", "saw", "cat", ".", "it", "ran"};
  const std::vector<uint16_t> ids = {2, 3, 4, 5, 2, 6, 7, 8, 9, 7};
  TextCorpus c;
  REQUIRE(make_text_corpus(words, ids, {CorpusDocument{"d", 0, kScoresL, 0, true}}, c).is_ok());
  c.tags = {"at", "jj", "nn", "vbd", ".", "pps"};
  c.tag = {0, 1, 2, 3, 0, 2, 4, 5, 3, 4};
  c.sentence_start = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0};
  return c;
}

// The targets of each kind, by query, derived by hand from head_scores.h.
using Targets = std::map<int, std::vector<int>>;
std::map<std::string, Targets> hand_targets() {
  std::map<std::string, Targets> t;
  for (int i = 1; i < kScoresL; ++i) t["previous"][i] = {i - 1}, t["self"][i] = {i};
  for (int i : {1, 2, 3, 4, 5, 6}) t["start"][i] = {0};
  for (int i : {8, 9}) t["start"][i] = {7};
  t["duplicate"] = {{4, {0}}, {9, {6}}};                  // the, .
  t["determiner-noun"] = {{2, {0, 1}}, {5, {4}}};         // the big dog, the cat
  t["verb-subject"] = {{3, {2}}, {8, {7}}};               // dog saw, it ran
  t["pronoun-noun"] = {{7, {5}}};                         // it -> cat
  t["punctuation"] = {{7, {6}}, {8, {6}}, {9, {6}}};
  return t;
}

struct Ref { float score = 0, baseline = 0; };

// Naive: mean over the table's queries of the weight on its targets, and of |T| / (i + 1).
std::map<std::string, Ref> reference(const Mat& P, const std::map<std::string, Targets>& table) {
  std::map<std::string, Ref> out;
  for (const auto& [kind, queries] : table) {
    double s = 0, b = 0;
    for (const auto& [i, targets] : queries) {
      for (int j : targets) s += P(i, j);
      b += static_cast<double>(targets.size()) / (i + 1);
    }
    out[kind] = Ref{static_cast<float>(s / queries.size()), static_cast<float>(b / queries.size())};
  }
  return out;
}

// The rule, naively: highest score at least 2x its baseline, first listed on a tie.
std::string reference_label(const std::map<std::string, Ref>& r) {
  std::string label = "mixed";
  float best = -1;
  for (const char* k : kHeadKinds) {
    auto it = r.find(k);
    if (it != r.end() && it->second.score >= 2 * it->second.baseline && it->second.score > best + kScoresTol)
      best = it->second.score, label = k;
  }
  return label;
}

HeadSlot measure(const ScoreSample& s, const Mat& P) {
  HeadScoreSums sums;
  add_head_scores(s, 0, P, sums);
  HeadSlot slot;
  finish_head_slot(sums, slot);
  return slot;
}

void check_against_reference(const HeadSlot& slot, const Mat& P) {
  const auto ref = reference(P, hand_targets());
  REQUIRE(slot.scores.size() == ref.size());  // every kind but induction has a query here
  for (size_t k = 0; k < slot.scores.size(); ++k) {
    CAPTURE(slot.scores[k].first);
    const Ref& r = ref.at(slot.scores[k].first);
    CHECK(slot.scores[k].second == doctest::Approx(r.score).epsilon(kScoresTol));
    CHECK(slot.baselines[k].second == doctest::Approx(r.baseline).epsilon(kScoresTol));
  }
  CHECK(slot.label == reference_label(ref));
}

// Row i: weight spread evenly over `targets(i)`, or all on itself when empty.
template <class F>
Mat head_from(F targets) {
  Mat P = Mat::Zero(kScoresL, kScoresL);
  for (int i = 0; i < kScoresL; ++i) {
    const std::vector<int> t = targets(i);
    if (t.empty()) P(i, i) = 1;
    for (int j : t) P(i, j) += 1.f / static_cast<float>(t.size());
  }
  return P;
}

float score_of(const HeadSlot& s, const std::string& kind) {
  for (const auto& [k, v] : s.scores)
    if (k == kind) return v;
  return -1;
}

}  // namespace

TEST_CASE("head scores: a previous-token head scores previous 1.0 and labels itself previous") {
  const TextCorpus c = tagged_corpus();
  ScoreSample s;
  text_score_sample(c, {0}, kScoresL, s);
  const Mat P = head_from([](int i) { return i > 0 ? std::vector<int>{i - 1} : std::vector<int>{}; });
  const HeadSlot slot = measure(s, P);
  check_against_reference(slot, P);
  CHECK(score_of(slot, "previous") == 1.0f);
  CHECK(slot.label == "previous");
  CHECK(slot.label_score == 1.0f);
  // the baseline by hand: mean over i = 1..9 of 1 / (i + 1) = (H_10 - 1) / 9
  double h10 = 0;
  for (int n = 1; n <= 10; ++n) h10 += 1.0 / n;
  CHECK(slot.baselines[0].first == "previous");
  CHECK(slot.baselines[0].second == doctest::Approx((h10 - 1) / 9).epsilon(kScoresTol));
  // determiner-noun's by hand: (2/3 + 1/6) / 2 = 5/12
  for (const auto& [k, v] : slot.baselines)
    if (k == "determiner-noun") CHECK(v == doctest::Approx(5.0 / 12).epsilon(kScoresTol));
}

TEST_CASE("head scores: a uniform head scores its baseline everywhere and labels itself mixed") {
  const TextCorpus c = tagged_corpus();
  ScoreSample s;
  text_score_sample(c, {0}, kScoresL, s);
  Mat P = Mat::Zero(kScoresL, kScoresL);
  for (int i = 0; i < kScoresL; ++i)
    for (int j = 0; j <= i; ++j) P(i, j) = 1.f / static_cast<float>(i + 1);
  const HeadSlot slot = measure(s, P);
  check_against_reference(slot, P);
  for (size_t k = 0; k < slot.scores.size(); ++k)
    CHECK(slot.scores[k].second == doctest::Approx(slot.baselines[k].second).epsilon(kScoresTol));
  CHECK(slot.label == "mixed");
}

TEST_CASE("head scores: each tag relation scores 1.0 and labels a head built to follow it") {
  const TextCorpus c = tagged_corpus();
  ScoreSample s;
  text_score_sample(c, {0}, kScoresL, s);
  const auto table = hand_targets();
  for (const char* kind : {"determiner-noun", "verb-subject", "pronoun-noun", "punctuation", "start", "duplicate"}) {
    CAPTURE(kind);
    const Targets& t = table.at(kind);
    const Mat P = head_from([&](int i) { return t.count(i) ? t.at(i) : std::vector<int>{}; });
    const HeadSlot slot = measure(s, P);
    check_against_reference(slot, P);
    CHECK(score_of(slot, kind) == doctest::Approx(1.0f).epsilon(kScoresTol));
    CHECK(slot.label == kind);
  }
}

TEST_CASE("head scores: induction on random repeats; a head looking a fixed distance back does not pass") {
  const int L = 32, V = 500, windows = 256;
  std::vector<int> ids;
  ScoreSample s;
  induction_score_sample(V, L, windows, 12345, ids, s);
  REQUIRE(s.windows() == windows);
  REQUIRE(ids.size() == static_cast<size_t>(windows * L));
  std::map<int, int> periods;
  for (int w = 0; w < windows; ++w) {
    const int* x = ids.data() + w * L;
    // The induction head, by a naive search: query i attends to the token after
    // the earlier copy of its own token (or to itself when there is none).
    Mat ind = Mat::Zero(L, L);
    for (int i = 0; i < L; ++i) {
      int j = i - 1;
      while (j >= 0 && x[j] != x[i]) --j;
      ind(i, j >= 0 ? j + 1 : i) = 1;
    }
    HeadScoreSums sums;
    add_head_scores(s, w, ind, sums);
    const ScoreQuery& first = s.queries[s.window_begin[w]];
    const int period = first.query - s.targets[first.first] + 1;
    CHECK(sums.count[kKindInduction] == std::min(kInductionQueries, period));  // distinct positions of the repeat
    CHECK(sums.weight[kKindInduction] == sums.count[kKindInduction]);       // every query found its target
    // each query's target is one after the earlier copy of its token
    for (int q = s.window_begin[w]; q < s.window_begin[w + 1]; ++q) {
      const ScoreQuery& e = s.queries[q];
      const int t = s.targets[e.first];
      CHECK(x[t - 1] == x[e.query]);
      ++periods[e.query - t + 1];
    }
  }
  CHECK(periods.begin()->first == kInductionMinPeriod);
  CHECK(periods.rbegin()->first == L / 2);
  CHECK(periods.size() == static_cast<size_t>(L / 2 - kInductionMinPeriod + 1));
  // a head that looks d back (or at the first token when i < d), for every d
  for (int d = 1; d < L; ++d) {
    CAPTURE(d);
    Mat P = Mat::Zero(L, L);
    for (int i = 0; i < L; ++i) P(i, i >= d ? i - d : 0) = 1;
    HeadScoreSums sums;
    for (int w = 0; w < windows; ++w) add_head_scores(s, w, P, sums);
    HeadSlot slot;
    finish_head_slot(sums, slot);
    REQUIRE(slot.scores.size() == 1);
    CHECK(slot.scores[0].second < kLabelRatio * slot.baselines[0].second);
    CHECK(slot.scores[0].second < 0.4f);
    CHECK(slot.label == "mixed");
  }
}
