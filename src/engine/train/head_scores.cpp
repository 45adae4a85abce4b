// head_scores.cpp: the head behaviour scores and labels. See head_scores.h
// for the kinds, the formulas and the tag classes.
//
// Index of this file
//   [SECTION] tag classes
//   [SECTION] the corpus' queries
//   [SECTION] the induction windows
//   [SECTION] sums and labels
#include "head_scores.h"

#include <algorithm>

#include "engine/common/random.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] tag classes
//-----------------------------------------------------------------------------
namespace {

enum TagClass : uint8_t { kNoun = 1, kPronoun = 2, kVerb = 4, kDeterminer = 8, kAdjective = 16, kPunct = 32 };

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

uint8_t tag_class(const std::string& full) {
  const std::string t = full.substr(0, full.find('+'));
  const bool possessive = t.find('$') != std::string::npos;
  uint8_t c = 0;
  if (starts(t, "nn") || starts(t, "np")) c |= kNoun;
  if (starts(t, "pp") && !possessive) c |= kPronoun;
  if (starts(t, "vb") || starts(t, "be") || starts(t, "hv") || starts(t, "do") || t == "md") c |= kVerb;
  for (const char* d : {"at", "ap", "abn", "abx", "dt", "dti", "dts", "dtx", "pp$"})
    if (t == d) c |= kDeterminer;
  if (starts(t, "jj")) c |= kAdjective;
  for (const char* p : {".", ",", ":", "(", ")", "--", "``", "''", "'"})
    if (t == p) c |= kPunct;
  return c;
}

// One window's view of the corpus: tag classes, ids and sentence starts by position.
struct Window {
  std::vector<uint8_t> cls, first;  // first: 1 where a sentence begins
  std::vector<int> ids;
};

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] the corpus' queries
//-----------------------------------------------------------------------------
namespace {

// The targets of kind k for query i (appended to t).
void kind_targets(const Window& w, int i, int k, std::vector<int>& t) {
  const uint8_t q = w.cls[static_cast<size_t>(i)];
  auto same_sentence = [&](int j) {  // j < i, no sentence begins in j+1 .. i
    for (int x = j + 1; x <= i; ++x)
      if (w.first[static_cast<size_t>(x)]) return false;
    return true;
  };
  auto nearest = [&](uint8_t want, bool in_sentence) {
    for (int j = i - 1; j >= 0; --j) {
      if (in_sentence && !same_sentence(j)) return;
      if (w.cls[static_cast<size_t>(j)] & want) return t.push_back(j);
    }
  };
  switch (k) {
    case kKindPrevious: t.push_back(i - 1); break;
    case kKindSelf: t.push_back(i); break;
    case kKindStart:
      for (int j = i; j >= 0; --j)
        if (w.first[static_cast<size_t>(j)]) {
          if (j < i) t.push_back(j);
          break;
        }
      break;
    case kKindDuplicate:
      if (w.ids[static_cast<size_t>(i)] == kCorpusUnknown || w.ids[static_cast<size_t>(i)] == kCorpusNumber) break;
      for (int j = 0; j < i; ++j)
        if (w.ids[static_cast<size_t>(j)] == w.ids[static_cast<size_t>(i)]) t.push_back(j);
      break;
    case kKindDeterminerNoun:
      if (!(q & kNoun)) break;
      for (int j = i - 1; j >= 0 && same_sentence(j); --j) {
        const uint8_t c = w.cls[static_cast<size_t>(j)];
        if (c & (kDeterminer | kAdjective)) t.push_back(j);
        if ((c & kDeterminer) || !(c & (kAdjective | kNoun))) break;
      }
      break;
    case kKindVerbSubject:
      if (q & kVerb) nearest(kNoun | kPronoun, true);
      break;
    case kKindPronounNoun:
      if (q & kPronoun) nearest(kNoun, false);
      break;
    case kKindPunctuation:
      for (int j = 0; j < i; ++j)
        if (w.cls[static_cast<size_t>(j)] & kPunct) t.push_back(j);
      break;
    default: break;
  }
}

}  // namespace

void text_score_sample(const TextCorpus& c, const std::vector<int>& starts, int L, ScoreSample& out) {
  std::vector<uint8_t> classes(c.tags.size());
  for (size_t t = 0; t < c.tags.size(); ++t) classes[t] = tag_class(c.tags[t]);
  ScoreSample s;
  s.tokens = L;
  s.window_begin.push_back(0);
  Window w;
  std::vector<int> t;
  for (int start : starts) {
    w.cls.assign(static_cast<size_t>(L), 0);
    w.first.assign(static_cast<size_t>(L), 0);
    w.ids.assign(static_cast<size_t>(L), 0);
    for (int i = 0; i < L; ++i) {
      const size_t at = static_cast<size_t>(start + i);
      const size_t tag = c.tag.empty() ? 0 : c.tag[at];
      w.cls[static_cast<size_t>(i)] = tag < classes.size() ? classes[tag] : 0;
      w.first[static_cast<size_t>(i)] = c.sentence_start.empty() ? 0 : c.sentence_start[at];
      w.ids[static_cast<size_t>(i)] = c.ids[at];
    }
    for (int i = 1; i < L; ++i)
      for (int k = 0; k < kHeadKindCount; ++k) {
        if (k == kKindInduction) continue;
        t.clear();
        kind_targets(w, i, k, t);
        if (t.empty()) continue;
        s.queries.push_back(ScoreQuery{i, k, static_cast<int>(s.targets.size()), static_cast<int>(t.size())});
        s.targets.insert(s.targets.end(), t.begin(), t.end());
      }
    s.window_begin.push_back(static_cast<int>(s.queries.size()));
  }
  out = std::move(s);
}

//-----------------------------------------------------------------------------
// [SECTION] the induction windows
//-----------------------------------------------------------------------------
void induction_score_sample(int vocab, int L, int windows, uint64_t seed, std::vector<int>& ids, ScoreSample& out) {
  ScoreSample s;
  s.tokens = L;
  ids.clear();
  const int words = vocab - 2, max_period = L / 2;
  if (max_period < kInductionMinPeriod || words < L || windows < 1) {
    out = std::move(s);
    return;
  }
  prng::Rng rng{seed};
  s.window_begin.push_back(0);
  std::vector<int> w(static_cast<size_t>(L)), picks;
  for (int b = 0; b < windows; ++b) {
    // pass 1: L distinct words (rejection: L is far below the vocabulary)
    for (int i = 0; i < L; ++i) {
      int id = 0;
      do id = 2 + rng.below(words);
      while (std::find(w.begin(), w.begin() + i, id) != w.begin() + i);
      w[static_cast<size_t>(i)] = id;
    }
    // pass 2: positions a .. a+P-1 repeated at a+P .. a+2P-1
    const int P = kInductionMinPeriod + rng.below(max_period - kInductionMinPeriod + 1);
    const int a = rng.below(L - 2 * P + 1);
    for (int k = 0; k < P; ++k) w[static_cast<size_t>(a + P + k)] = w[static_cast<size_t>(a + k)];
    ids.insert(ids.end(), w.begin(), w.end());
    // pass 3: distinct repeat positions k, query a+P+k, target a+k+1
    picks.clear();
    while (static_cast<int>(picks.size()) < std::min(kInductionQueries, P)) {
      const int k = rng.below(P);
      if (std::find(picks.begin(), picks.end(), k) == picks.end()) picks.push_back(k);
    }
    std::sort(picks.begin(), picks.end());
    for (int k : picks) {
      s.queries.push_back(ScoreQuery{a + P + k, kKindInduction, static_cast<int>(s.targets.size()), 1});
      s.targets.push_back(a + k + 1);
    }
    s.window_begin.push_back(static_cast<int>(s.queries.size()));
  }
  out = std::move(s);
}

//-----------------------------------------------------------------------------
// [SECTION] sums and labels
//-----------------------------------------------------------------------------
void add_head_scores(const ScoreSample& s, int w, const Eigen::Ref<const Mat>& P, HeadScoreSums& sums) {
  for (int q = s.window_begin[static_cast<size_t>(w)]; q < s.window_begin[static_cast<size_t>(w) + 1]; ++q) {
    const ScoreQuery& e = s.queries[static_cast<size_t>(q)];
    double on = 0;
    for (int t = e.first; t < e.first + e.count; ++t) on += P(e.query, s.targets[static_cast<size_t>(t)]);
    sums.weight[static_cast<size_t>(e.kind)] += on;
    sums.baseline[static_cast<size_t>(e.kind)] += static_cast<double>(e.count) / (e.query + 1);
    ++sums.count[static_cast<size_t>(e.kind)];
  }
}

void finish_head_slot(const HeadScoreSums& sums, HeadSlot& slot) {
  slot.scores.clear();
  slot.baselines.clear();
  slot.label = "mixed";
  slot.label_score = 0.f;
  float best = -1.f, highest = 0.f;
  for (int k = 0; k < kHeadKindCount; ++k) {
    const size_t i = static_cast<size_t>(k);
    if (sums.count[i] == 0) continue;
    const float score = static_cast<float>(sums.weight[i] / static_cast<double>(sums.count[i]));
    const float base = static_cast<float>(sums.baseline[i] / static_cast<double>(sums.count[i]));
    slot.scores.emplace_back(kHeadKinds[i], score);
    slot.baselines.emplace_back(kHeadKinds[i], base);
    highest = std::max(highest, score);
    if (score >= kLabelRatio * base && score > best) {
      best = score;
      slot.label = kHeadKinds[i];
    }
  }
  slot.label_score = best >= 0.f ? best : highest;
}

}  // namespace headroom
