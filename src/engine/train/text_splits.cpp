// text_splits.cpp: the one head's splits found in held-out sentences. See
// text_splits.h for the sample, the conditions and the ranking.
//
// Index of this file
//   [SECTION] the sample of held-out sentences
//   [SECTION] one query, both models
//   [SECTION] the finder
#include "text_splits.h"

#include <algorithm>
#include <cctype>

#include "engine/core/refusals.h"
#include "text_words.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] the sample of held-out sentences
//-----------------------------------------------------------------------------
std::string split_text(const std::vector<std::string>& words) {
  std::string s;
  for (const std::string& w : words) s += (s.empty() ? "" : " ") + w;
  return s;
}

namespace {

// The held-out sentences of c (first token, count) of kSplitMinTokens .. L
// tokens with no <unk> or <num>, in corpus order.
std::vector<std::pair<int, int>> candidates(const TextCorpus& c, int L) {
  std::vector<std::pair<int, int>> out;
  for (const CorpusDocument& d : c.documents) {
    if (!d.held_out) continue;
    const int end = d.first + d.count;
    for (int s = d.first; s < end;) {
      int e = s + 1;
      while (e < end && !c.sentence_start[static_cast<size_t>(e)]) ++e;
      const int n = e - s;
      bool known = n >= kSplitMinTokens && n <= L;
      for (int t = s; known && t < e; ++t) known = c.ids[static_cast<size_t>(t)] > kCorpusNumber;
      if (known) out.emplace_back(s, n);
      s = e;
    }
  }
  return out;
}

// The sentence at (first, n), when typing its words gives its ids back.
bool round_trip(const TextCorpus& c, int first, int n, SplitSentence& out) {
  SplitSentence s;
  s.start = first;
  for (int t = first; t < first + n; ++t) {
    s.ids.push_back(c.ids[static_cast<size_t>(t)]);
    s.words.push_back(c.words[static_cast<size_t>(s.ids.back())]);
  }
  std::vector<std::string> typed;
  std::vector<bool> unknown;
  if (corpus_ids(c.words, split_text(s.words), typed, unknown) != s.ids) return false;
  out = std::move(s);
  return true;
}

}  // namespace

void split_sentences(const TextCorpus& c, int L, int count, std::vector<SplitSentence>& out) {
  out.clear();
  const std::vector<std::pair<int, int>> all = candidates(c, L);
  const int64_t n = static_cast<int64_t>(all.size());
  // pick k: the first candidate from the middle of the k-th of `count`
  // equal stretches that reads back exactly, before the next stretch's
  // middle; every candidate when there are no more than `count`
  const bool all_of_them = n <= count;
  for (int64_t k = 0; k < (all_of_them ? n : count); ++k) {
    const int64_t from = all_of_them ? k : (2 * k + 1) * n / (2 * static_cast<int64_t>(count));
    const int64_t to = all_of_them ? k + 1 : std::min(n, (2 * k + 3) * n / (2 * static_cast<int64_t>(count)));
    SplitSentence s;
    for (int64_t i = from; i < to; ++i)
      if (round_trip(c, all[static_cast<size_t>(i)].first, all[static_cast<size_t>(i)].second, s)) {
        out.push_back(std::move(s));
        break;
      }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] one query, both models
//-----------------------------------------------------------------------------
namespace {

float cosine_of(const Eigen::Ref<const Vec>& x, const Eigen::Ref<const Vec>& y) {
  const double nx = x.cast<double>().norm(), ny = y.cast<double>().norm();
  return nx > 0 && ny > 0 ? static_cast<float>(x.cast<double>().dot(y.cast<double>()) / (nx * ny)) : 0.f;
}

// The head of `many` taking token t from u at query i: weight >= kSplitTake
// on t and < kSplitShare on u (the heaviest on t), or -1.
int taking_head(const Trace& many, int i, int t, int u) {
  int best = -1;
  for (int h = 0; h < static_cast<int>(many.heads.size()); ++h) {
    const Mat& P = many.heads[static_cast<size_t>(h)].weights;
    if (P(i, t) >= kSplitTake && P(i, u) < kSplitShare && (best < 0 || P(i, t) > many.heads[static_cast<size_t>(best)].weights(i, t)))
      best = h;
  }
  return best;
}

// Query i of the first layers `one` and `many`: a case (its positions,
// heads, weights and cosines) or false.
bool query_case(const Trace& one, const Trace& many, int i, TextSplit& c) {
  const HeadTrace& h1 = one.heads[0];
  int first = 0, second = -1;
  for (int j = 1; j <= i; ++j)
    if (h1.weights(i, j) > h1.weights(i, first)) first = j;
  for (int j = 0; j <= i; ++j)
    if (j != first && (second < 0 || h1.weights(i, j) > h1.weights(i, second))) second = j;
  if (second < 0 || h1.weights(i, second) < kSplitShare) return false;
  const int a = std::min(first, second), b = std::max(first, second);
  const int ha = taking_head(many, i, a, b), hb = taking_head(many, i, b, a);
  if (ha < 0 || hb < 0) return false;
  const HeadTrace &ta = many.heads[static_cast<size_t>(ha)], &tb = many.heads[static_cast<size_t>(hb)];
  c.query = i, c.a = a, c.b = b;
  c.one_a = h1.weights(i, a), c.one_b = h1.weights(i, b);
  c.head_a = ha, c.head_b = hb;
  c.many_a = ta.weights(i, a), c.many_b = tb.weights(i, b);
  const Vec mid = (h1.v.row(a) + h1.v.row(b)) * 0.5f;
  c.cos_a = cosine_of(h1.out.row(i), h1.v.row(a));
  c.cos_b = cosine_of(h1.out.row(i), h1.v.row(b));
  c.cos_mid = cosine_of(h1.out.row(i), mid);
  c.many_cos_a = cosine_of(ta.out.row(i), ta.v.row(a));
  c.many_cos_b = cosine_of(tb.out.row(i), tb.v.row(b));
  return true;
}

float rank_of(const TextSplit& c) { return std::min(std::min(c.one_a, c.one_b), std::min(c.many_a, c.many_b)); }

// Whether the query and its two tokens are words, not punctuation or quote
// marks (Brown's `` and '' read poorly as an example): a letter or a digit.
bool all_words(const TextSplit& c) {
  const auto word = [&](int t) {
    const std::string& w = c.words[static_cast<size_t>(t)];
    return std::any_of(w.begin(), w.end(), [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; });
  };
  return word(c.query) && word(c.a) && word(c.b);
}

// x before y: a case that leaves the query out first, then one of words,
// then the larger rank, then the earlier sentence and query (a total order,
// so the result does not depend on the sort).
bool better(const TextSplit& x, const TextSplit& y) {
  const bool x_apart = x.b != x.query, y_apart = y.b != y.query;  // a < b <= query: only b can be the query
  if (x_apart != y_apart) return x_apart;
  const bool x_words = all_words(x), y_words = all_words(y);
  if (x_words != y_words) return x_words;
  const float rx = rank_of(x), ry = rank_of(y);
  if (rx != ry) return rx > ry;
  if (x.sentence != y.sentence) return x.sentence < y.sentence;
  return x.query < y.query;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] the finder
//-----------------------------------------------------------------------------
Status find_text_splits(const TextParams& one, const TextParams& many, const std::vector<SplitSentence>& sample,
                        int keep, int64_t step, std::vector<TextSplit>& out) {
  const TextShape &s1 = one.shape, &sm = many.shape;
  if (s1.heads != 1 || sm.heads < 2 || sm.heads > 8 || s1.vocab != sm.vocab || s1.tokens != sm.tokens ||
      one.layers.empty() || many.layers.empty())
    return Status::fail(refusals::split_models);
  std::vector<TextSplit> found;
  TextSentenceTrace t1, tm;
  for (size_t s = 0; s < sample.size(); ++s) {
    const SplitSentence& sentence = sample[s];
    // pass 1: both models on the sentence (refused: an id or a length that does not fit)
    if (Status st = text_sentence_forward(one, sentence.ids, t1); !st) return st;
    if (Status st = text_sentence_forward(many, sentence.ids, tm); !st) return st;
    // pass 2: every query of the first layer
    for (int i = 1; i < static_cast<int>(sentence.ids.size()); ++i) {
      TextSplit c;
      if (!query_case(t1.layers[0], tm.layers[0], i, c)) continue;
      c.step = step;
      c.sentence = static_cast<int>(s);
      c.words = sentence.words;  // (ranking reads them)
      found.push_back(std::move(c));
    }
  }
  // pass 3: best first; equal ranks keep sentence and query order. (Not
  // stable_sort: its temporary buffer trips ASan's new/free mismatch check
  // with clang and libstdc++ 12.)
  std::sort(found.begin(), found.end(), better);
  if (static_cast<int>(found.size()) > std::max(0, keep)) found.resize(static_cast<size_t>(std::max(0, keep)));
  for (TextSplit& c : found) {
    c.ids = sample[static_cast<size_t>(c.sentence)].ids;
    c.words = sample[static_cast<size_t>(c.sentence)].words;
  }
  out = std::move(found);
  return Status::ok();
}

}  // namespace headroom
