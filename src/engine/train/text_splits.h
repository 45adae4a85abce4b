// text_splits.h: the lesson's midpoint found in held-out text: queries where
// the one-head text model splits its weight between two tokens that two
// different heads of the many-head model (4 heads) take one each.
//
// Does:
// - split_sentences: a fixed sample of held-out SENTENCES (each from a
//   sentence start, TextCorpus::sentence_start, to the next start or its
//   document's end; kSplitMinTokens .. L tokens), evenly spaced over the
//   held-out documents' sentences. Positions count from 0 at the sentence
//   start, so a learner who types the sentence gets the very computation the
//   finder measured (text_sentence_forward; causal: nothing before the
//   sentence is read). Kept only when the round trip is exact: the words
//   joined by spaces, read back by corpus_ids (text_words.h), give the same
//   ids. That leaves out every sentence with <unk> or <num> (their words are
//   lost) and any whose spelling reads back otherwise.
// - find_text_splits: per sentence, text_sentence_forward of both models;
//   in the FIRST layer, for every query i >= 1 (query 0 reads only itself),
//   with P1 the one-head weights and P_h those of head h of the other model:
//     a < b the two tokens P1(i, .) weighs most (positions <= i, either may
//       be i itself), each P1(i, a), P1(i, b) >= kSplitShare;
//     a head hA with P_hA(i, a) >= kSplitTake and P_hA(i, b) < kSplitShare,
//     a head hB with P_hB(i, b) >= kSplitTake and P_hB(i, a) < kSplitShare
//     (so hA != hB; where several heads qualify, the heaviest on its token).
//   Cases where neither token is the query itself come first (the lesson's
//   shape: "said" between "researcher" and "it"; a trained model's heads
//   often read their own token, and a split with itself is a weaker
//   picture), then those whose query and two tokens are all words (a letter
//   or a digit: Brown's quote marks `` and '' make a poor example), then by
//   the smallest of the four weights (ties: the earlier
//   sentence, then the earlier query); the best `keep` are kept. For each
//   it also gives the value-space measure the lesson's readout uses
//   (cosines): the one-head output o = (P1 V)[i] against the values V[a],
//   V[b] and their midpoint (V[a] + V[b]) / 2, and each taking head's
//   output against its own token's value.
// Does not: compute attention (text_sentence_forward does), choose when to
// run (text_trainer.h runs it at each held-out point), know the lesson's
// sentence, or keep state: the same parameters and sample give the same
// cases on every build.
//
// Shape letters as in text_model.h (L tokens, D, H heads, dh = D / H), and
// n <= L a sentence's tokens.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"
#include "text_corpus.h"
#include "text_model.h"

namespace headroom {

// A split is two tokens that each keep at least a quarter of the one head's
// weight: well above an even spread over a typical held-out sentence's
// ~20 tokens (0.05), and the lesson's own 0.5 / 0.5 passes with room.
constexpr float kSplitShare = 0.25f;
// A head "takes" a token when it puts at least half its weight there: the
// token is then its majority, not one of many, and with the other token
// under kSplitShare the two heads are separate in fact.
constexpr float kSplitTake = 0.5f;
constexpr int kSplitOneHeads = 1, kSplitManyHeads = 4;  // the runs compared
constexpr int kSplitSentences = 64;  // the sample (about 1,300 queries)
constexpr int kSplitKeep = 8;        // cases kept, best first
constexpr int kSplitMinTokens = 3;   // a query with two earlier tokens to split between

// One held-out sentence of the sample.
struct SplitSentence {
  int start = 0;                   // its first token in the corpus
  std::vector<int> ids;            // n word ids
  std::vector<std::string> words;  // n, the vocabulary's words (what to type, joined by spaces)
};

// One query found splitting; positions 0-based in the sentence, heads 0-based.
struct TextSplit {
  int64_t step = 0;                 // the held-out point it was measured at
  int sentence = 0;                 // index in the sample
  std::vector<int> ids;
  std::vector<std::string> words;
  int query = 0, a = 0, b = 0;      // a < b <= query
  float one_a = 0, one_b = 0;       // P1(query, a), P1(query, b)
  int head_a = 0, head_b = 0;       // the many-head model's heads taking a and b
  float many_a = 0, many_b = 0;     // P_headA(query, a), P_headB(query, b)
  // cos(o, V[a]), cos(o, V[b]), cos(o, (V[a] + V[b]) / 2): the one head's
  // output against the two values and their midpoint.
  float cos_a = 0, cos_b = 0, cos_mid = 0;
  // each taking head's output against its own token's value.
  float many_cos_a = 0, many_cos_b = 0;
};

// The words of `ids`, joined by single spaces (what corpus_ids reads back).
std::string split_text(const std::vector<std::string>& words);

// Up to `count` sentences of the held-out documents of c, at most L tokens
// each, as described above (fewer when the corpus has fewer).
void split_sentences(const TextCorpus& c, int L, int count, std::vector<SplitSentence>& out);

// The cases of `one` (1 head) against `many` (2 .. 8 heads) on `sample`,
// best first, at most `keep`, each dated `step`. Refused (out unchanged)
// when `one` does not have 1 head, `many` has fewer than 2, their vocabulary
// or context differ, or a sentence does not fit them.
Status find_text_splits(const TextParams& one, const TextParams& many, const std::vector<SplitSentence>& sample,
                        int keep, int64_t step, std::vector<TextSplit>& out);

}  // namespace headroom
