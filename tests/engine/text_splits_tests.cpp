// text_splits_tests.cpp: the finder of the one head's splits (text_splits.h)
// on models built by hand, whose weights follow from their matrices by a
// line of algebra: a 1-head model that splits query 3's weight 0.5 / 0.5
// between tokens 0 and 2, and a 4-head model whose heads 2 and 3 (1-based)
// take one each. Perturbing a matrix moves or removes the case; every
// reported weight is recomputed in double precision by a naive loop here;
// the sample of held-out sentences is checked against a corpus written by
// hand; the trainer's splits equal the finder's on its own runs.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "engine/train/text_splits.h"
#include "engine/train/text_trainer.h"
#include "engine/train/text_words.h"

using namespace headroom;

namespace {

constexpr int kD = 8, kV = 8, kL = 6;
constexpr float kSharp = 40.f;   // a score gap of 40: e^-40 of the weight leaks elsewhere
constexpr double kTol = 1e-5;    // float forward against the double formula
// The sentence: ids 2 3 4 5 (rows e_0 .. e_3 of the embedding), query 3.
const std::vector<int> kIds = {2, 3, 4, 5};
constexpr int kQuery = 3, kA = 0, kB = 2;

// E_tok[id] = e_{id - 2} (ids 2 .. 7), E_pos = 0: row j of X_0 is e_j.
TextParams blank(int heads) {
  TextParams p;
  p.shape = TextShape{kV, kD, kL, heads, 1};
  p.tok = Mat::Zero(kV, kD);
  for (int id = 2; id < kV; ++id) p.tok(id, id - 2) = 1.f;
  p.pos = Mat::Zero(kL, kD);
  AttentionWeights w;
  w.d_model = kD;
  w.heads = heads;
  const int dh = kD / heads;
  for (int h = 0; h < heads; ++h) {
    w.wq.push_back(Mat::Zero(kD, dh));
    w.wk.push_back(Mat::Zero(kD, dh));
    Mat v = Mat::Zero(kD, dh);  // token 0's value along column 0, token 2's along column 1
    v(kA, 0) = 1.f, v(kB, 1) = 1.f;
    w.wv.push_back(v);
  }
  w.wo = Mat::Identity(kD, kD);
  p.layers.push_back(w);
  p.unembed = Mat::Zero(kD, kV);
  p.bias = Mat::Zero(1, kV);
  return p;
}

// Head h's query `query` scores `targets` at kSharp, everything else at 0:
// q_query = s e_0 (column 0 of W_Q's row `query`), k_j = e_0 for j in targets.
void point(TextParams& p, int h, int query, const std::vector<int>& targets) {
  AttentionWeights& w = p.layers[0];
  const double dh = static_cast<double>(kD / w.heads);
  w.wq[static_cast<size_t>(h)].setZero();
  w.wk[static_cast<size_t>(h)].setZero();
  w.wq[static_cast<size_t>(h)](query, 0) = static_cast<float>(kSharp * std::sqrt(dh));
  for (int t : targets) w.wk[static_cast<size_t>(h)](t, 0) = 1.f;
}

TextParams one_head_split() {
  TextParams p = blank(1);
  point(p, 0, kQuery, {kA, kB});
  return p;
}

// Heads 2 and 3 (0-based 1 and 2) take tokens 0 and 2; heads 1 and 4 read evenly.
TextParams four_heads_apart() {
  TextParams p = blank(4);
  point(p, 1, kQuery, {kA});
  point(p, 2, kQuery, {kB});
  return p;
}

// The naive double formula: softmax_j<=i (x_i W_Q^h . x_j W_K^h / sqrt(dh)) for the sentence.
double naive_weight(const TextParams& p, int h, int i, int j) {
  const AttentionWeights& w = p.layers[0];
  const int dh = kD / w.heads;
  auto x = [&](int t, int d) { return static_cast<double>(p.tok(kIds[static_cast<size_t>(t)], d)) + p.pos(t, d); };
  auto score = [&](int jj) {
    double s = 0;
    for (int c = 0; c < dh; ++c) {
      double q = 0, k = 0;
      for (int d = 0; d < kD; ++d) {
        q += x(i, d) * w.wq[static_cast<size_t>(h)](d, c);
        k += x(jj, d) * w.wk[static_cast<size_t>(h)](d, c);
      }
      s += q * k;
    }
    return s / std::sqrt(static_cast<double>(dh));
  };
  double z = 0;
  for (int jj = 0; jj <= i; ++jj) z += std::exp(score(jj));
  return std::exp(score(j)) / z;
}

std::vector<SplitSentence> one_sentence() {
  SplitSentence s;
  s.ids = kIds;
  s.words = {"w2", "w3", "w4", "w5"};
  return {s};
}

std::vector<TextSplit> find(const TextParams& one, const TextParams& many) {
  std::vector<TextSplit> out;
  REQUIRE(find_text_splits(one, many, one_sentence(), kSplitKeep, 7, out).is_ok());
  return out;
}

}  // namespace

TEST_CASE("text splits: a built 0.5 / 0.5 split that heads 2 and 3 take apart is found, with those heads") {
  const TextParams one = one_head_split(), many = four_heads_apart();
  const std::vector<TextSplit> found = find(one, many);
  REQUIRE(found.size() == 1);
  const TextSplit& c = found[0];
  CHECK(c.step == 7);
  CHECK(c.sentence == 0);
  CHECK(c.ids == kIds);
  CHECK(c.words[2] == "w4");
  CHECK(c.query == kQuery);
  CHECK(c.a == kA);
  CHECK(c.b == kB);
  CHECK(c.head_a == 1);
  CHECK(c.head_b == 2);
  // the weights, against the double formula (0.5 / 0.5 and ~1 by construction)
  CHECK(std::abs(c.one_a - naive_weight(one, 0, kQuery, kA)) < kTol);
  CHECK(std::abs(c.one_b - naive_weight(one, 0, kQuery, kB)) < kTol);
  CHECK(std::abs(c.many_a - naive_weight(many, 1, kQuery, kA)) < kTol);
  CHECK(std::abs(c.many_b - naive_weight(many, 2, kQuery, kB)) < kTol);
  CHECK(c.one_a == doctest::Approx(0.5).epsilon(1e-4));
  CHECK(c.many_a == doctest::Approx(1.0).epsilon(1e-4));
  // value space: V[0] = (1, 0, ...), V[2] = (0, 1, ...); the output is their
  // midpoint: cos 1/sqrt(2) with each, 1 with the midpoint; each taking head
  // outputs its own token's value
  CHECK(c.cos_a == doctest::Approx(1.0 / std::sqrt(2.0)).epsilon(1e-4));
  CHECK(c.cos_b == doctest::Approx(1.0 / std::sqrt(2.0)).epsilon(1e-4));
  CHECK(c.cos_mid == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(c.many_cos_a == doctest::Approx(1.0).epsilon(1e-4));
  CHECK(c.many_cos_b == doctest::Approx(1.0).epsilon(1e-4));
}

TEST_CASE("text splits: swapping the heads swaps the report; both on one head, or one head's weight all on one token, finds nothing") {
  const TextParams one = one_head_split();
  SUBCASE("heads swapped: head 4 takes token 0, head 1 token 2") {
    TextParams many = blank(4);
    point(many, 3, kQuery, {kA});
    point(many, 0, kQuery, {kB});
    const std::vector<TextSplit> found = find(one, many);
    REQUIRE(found.size() == 1);
    CHECK(found[0].head_a == 3);
    CHECK(found[0].head_b == 0);
  }
  SUBCASE("the 4-head model puts both tokens on one head") {
    TextParams many = blank(4);
    point(many, 1, kQuery, {kA, kB});
    CHECK(find(one, many).empty());
  }
  SUBCASE("one head takes token 0 and no head takes token 2") {
    TextParams many = blank(4);
    point(many, 1, kQuery, {kA});
    CHECK(find(one, many).empty());
  }
  SUBCASE("the 1-head model puts all on token 0") {
    TextParams all_on_one = blank(1);
    point(all_on_one, 0, kQuery, {kA});
    CHECK(find(all_on_one, four_heads_apart()).empty());
  }
  SUBCASE("keep 0 keeps none; models that are not 1 against many are refused") {
    std::vector<TextSplit> out(1);
    REQUIRE(find_text_splits(one, four_heads_apart(), one_sentence(), 0, 0, out).is_ok());
    CHECK(out.empty());
    out.resize(2);
    CHECK_FALSE(find_text_splits(four_heads_apart(), one, one_sentence(), 8, 0, out).is_ok());
    CHECK_FALSE(find_text_splits(one, one, one_sentence(), 8, 0, out).is_ok());
    CHECK(out.size() == 2);  // unchanged
  }
}

TEST_CASE("text splits: a split that leaves the query out ranks before one with the query itself") {
  // Query 2 splits between tokens 0 and 2 (itself), query 3 between 0 and 2;
  // both 0.5 / 0.5, and heads 2 and 3 take tokens 0 and 2 at both queries.
  TextParams one = one_head_split(), many = four_heads_apart();
  const double dh1 = kD, dh4 = kD / 4;
  one.layers[0].wq[0](2, 0) = static_cast<float>(kSharp * std::sqrt(dh1));
  for (int h : {1, 2}) many.layers[0].wq[static_cast<size_t>(h)](2, 0) = static_cast<float>(kSharp * std::sqrt(dh4));
  const std::vector<TextSplit> found = find(one, many);
  REQUIRE(found.size() == 2);
  CHECK(found[0].query == 3);  // equal weights: the earlier query would come first without the rule
  CHECK(found[1].query == 2);
  CHECK(found[1].b == 2);
  CHECK(std::abs(found[1].one_b - naive_weight(one, 0, 2, 2)) < kTol);
}

TEST_CASE("text splits: a case of words ranks before the same case among punctuation marks") {
  const TextParams one = one_head_split(), many = four_heads_apart();
  std::vector<SplitSentence> sample = one_sentence();
  SplitSentence marks = sample[0];
  for (std::string& w : marks.words) w = "``";
  sample.insert(sample.begin(), marks);  // the same ids (the same case), first but all quote marks
  std::vector<TextSplit> found;
  REQUIRE(find_text_splits(one, many, sample, kSplitKeep, 7, found).is_ok());
  REQUIRE(found.size() == 2);
  CHECK(found[0].sentence == 1);  // equal weights: without the rule the earlier sentence would come first
  CHECK(found[1].sentence == 0);
  CHECK(found[0].one_a == found[1].one_a);
}

TEST_CASE("text splits: the sample is held-out sentences of 3 .. L tokens that read back exactly") {
  // held out: "the dog ran ." | "a <unk> sat ." | "dog ran" | "the Cat sat ." | "a dog sat on the mat ." | "ran ."
  // training: "the dog ran ." (not held out)
  const std::vector<std::string> words = {"<unk>", "<num>", "the", "dog", "ran", ".", "a", "sat", "on", "mat", "Cat"};
  const std::vector<uint16_t> ids = {2, 3, 4, 5,  2, 3, 4, 5,  6, 0, 7, 5,  3, 4,  2, 10, 7, 5,  6, 3, 7, 8, 2, 9, 5,  4, 5};
  TextCorpus c;
  REQUIRE(make_text_corpus(words, ids, {CorpusDocument{"t", 0, 4, 0, false}, CorpusDocument{"h", 4, 23, 0, true}}, c).is_ok());
  c.sentence_start.assign(ids.size(), 0);
  for (int s : {0, 4, 8, 12, 14, 18, 25}) c.sentence_start[static_cast<size_t>(s)] = 1;
  std::vector<SplitSentence> sample;
  split_sentences(c, 6, 64, sample);
  // by hand: "the dog ran ." (held out, at 4) and nothing else: <unk>, too
  // short (2), "Cat" reads back as <unk>, 7 tokens > L = 6, too short
  REQUIRE(sample.size() == 1);
  CHECK(sample[0].start == 4);
  CHECK(sample[0].ids == std::vector<int>{2, 3, 4, 5});
  CHECK(split_text(sample[0].words) == "the dog ran .");
  // with L = 7 the long one comes too, and it reads back
  split_sentences(c, 7, 64, sample);
  REQUIRE(sample.size() == 2);
  CHECK(sample[1].start == 18);
  std::vector<std::string> typed;
  std::vector<bool> unknown;
  CHECK(corpus_ids(c.words, split_text(sample[1].words), typed, unknown) == sample[1].ids);
  // asking for one takes the one from the middle of the candidates
  split_sentences(c, 7, 1, sample);
  REQUIRE(sample.size() == 1);
  CHECK(sample[0].start == 18);
}

TEST_CASE("text splits: the trainer's splits are the finder's on its 1- and 4-head runs, at each held-out point") {
  // a toy language of 12 words, sentences of 6 words, 4 documents held out of 20
  std::vector<std::string> words = {"<unk>", "<num>"};
  for (int k = 0; k < 12; ++k) words.push_back("w" + std::to_string(k));
  std::vector<uint16_t> ids;
  std::vector<CorpusDocument> docs;
  uint64_t s = 99;
  for (int d = 0; d < 20; ++d) {
    docs.push_back(CorpusDocument{"d" + std::to_string(d), static_cast<int>(ids.size()), 48, 0, d % 5 == 4});
    for (int i = 0; i < 48; ++i) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      ids.push_back(static_cast<uint16_t>(2 + (i % 6 == 0 ? 0 : s % 12)));
    }
  }
  auto corpus = std::make_shared<TextCorpus>();
  REQUIRE(make_text_corpus(words, ids, docs, *corpus).is_ok());
  for (size_t i = 0; i < ids.size(); ++i) corpus->sentence_start[i] = (i % 6 == 0);
  TextTrainConfig cfg;
  cfg.seed = 3;
  cfg.heads = {1, 4};
  cfg.d_model = 16;
  cfg.tokens = 8;
  cfg.batch = 8;
  cfg.held_out_windows = 16;
  cfg.lr = 1e-2f;
  TextTrainer t;
  REQUIRE(t.reset(corpus, cfg).is_ok());
  CHECK(t.split_sample().size() == 32);  // 4 held-out documents of 8 sentences: all of them
  // held-out points at 0, 10, 51 and 97 (history.h's schedule)
  for (int n : {0, 10, 41, 46}) {
    if (n > 0) REQUIRE(t.step(n).is_ok());
    REQUIRE(t.runs()[0].history.back().step == t.step_count());
    std::vector<TextSplit> want;
    REQUIRE(find_text_splits(*t.params(1), *t.params(4), t.split_sample(), kSplitKeep, t.step_count(), want).is_ok());
    REQUIRE(t.splits().size() == want.size());
    for (size_t k = 0; k < want.size(); ++k) {
      CHECK(t.splits()[k].sentence == want[k].sentence);
      CHECK(t.splits()[k].query == want[k].query);
      CHECK(t.splits()[k].one_a == want[k].one_a);
      CHECK(t.splits()[k].head_b == want[k].head_b);
      CHECK(t.splits()[k].step == t.step_count());
      CHECK(t.splits()[k].one_b >= kSplitShare);
      CHECK(t.splits()[k].many_a >= kSplitTake);
    }
  }
}
