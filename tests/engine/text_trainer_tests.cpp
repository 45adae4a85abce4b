// text_trainer_tests.cpp: the corpus reader (text_corpus.h) on a file
// written here from the format's description, and the text trainer
// (text_trainer.h) on small made-up corpora: it learns within a fixed
// budget of steps (never a clock), is deterministic, keeps one head slot
// per head of every layer, refuses bad settings and stops a diverging run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine/train/text_corpus.h"
#include "engine/train/text_trainer.h"

using namespace headroom;

namespace {

// A corpus file written from the format at the top of tools/corpus.mjs.
struct FileWriter {
  std::vector<uint8_t> b;
  void u8(uint8_t v) { b.push_back(v); }
  void u16(uint16_t v) { u8(v & 0xff), u8(v >> 8); }
  void u32(uint32_t v) { u16(v & 0xffff), u16(v >> 16); }
  void str(const std::string& s) { b.insert(b.end(), s.begin(), s.end()), u8(0); }
  void pad() { while (b.size() % 4) u8(0); }
  void put32(size_t at, uint32_t v) { for (int k = 0; k < 4; ++k) b[at + k] = (v >> (8 * k)) & 0xff; }
};

uint32_t fnv(const uint8_t* p, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 16777619u;
  return h;
}

// Two documents (the second held out): "the cat sat ." / "a dog 3 zebra ."
std::vector<uint8_t> tiny_file() {
  FileWriter w;
  const char magic[] = "HRCORPUS";
  for (int i = 0; i < 8; ++i) w.u8(static_cast<uint8_t>(magic[i]));
  const std::vector<std::string> words = {"<unk>", "<num>", "the", "cat", "sat", ".", "a", "dog"};
  const std::vector<std::string> tags = {".", "at", "cd", "nn", "vbd"};
  w.u32(1), w.u32(64), w.u32(8), w.u32(2), w.u32(5), w.u32(1), w.u32(2), w.u32(9), w.u32(4), w.u32(5);
  const double ppl = 12.5;
  uint8_t d[8];
  std::memcpy(d, &ppl, 8);
  for (uint8_t x : d) w.u8(x);
  w.u32(0), w.u32(0);  // size and checksum, filled below
  for (const auto& s : words) w.str(s);
  for (const auto& s : tags) w.str(s);
  w.str("news");
  w.str("ca01"), w.str("ca02");
  w.pad();
  w.u32(0), w.u32(4), w.u16(0), w.u8(0), w.u8(0);
  w.u32(4), w.u32(5), w.u16(0), w.u8(1), w.u8(0);
  const uint16_t ids[] = {2 | 0x8000, 3, 4, 5, 6 | 0x8000, 7, 1, 0, 5};
  for (uint16_t v : ids) w.u16(v);
  w.pad();
  const uint8_t tg[] = {1, 3, 4, 0, 1, 3, 2, 3, 0};
  for (uint8_t v : tg) w.u8(v);
  w.pad();
  w.put32(56, static_cast<uint32_t>(w.b.size()));
  w.put32(60, fnv(w.b.data() + 64, w.b.size() - 64));
  return w.b;
}

// A made-up language a causal attention model can learn: documents of
// "sentences" w_a w_b ... where each word mostly follows from the one
// before (w -> w + 1 mod K) and sometimes repeats the sentence's first word.
std::shared_ptr<TextCorpus> toy_corpus(int docs, int per_doc) {
  const int K = 12;
  std::vector<std::string> words = {"<unk>", "<num>"};
  for (int k = 0; k < K; ++k) words.push_back("w" + std::to_string(k));
  std::vector<uint16_t> ids;
  std::vector<CorpusDocument> documents;
  uint64_t s = 12345;
  auto rnd = [&s](int n) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;
    return static_cast<int>(s % static_cast<uint64_t>(n));
  };
  for (int d = 0; d < docs; ++d) {
    CorpusDocument doc;
    doc.first = static_cast<int>(ids.size());
    doc.count = per_doc;
    doc.held_out = d % 5 == 4;
    int w = rnd(K);
    for (int i = 0; i < per_doc; ++i) {
      ids.push_back(static_cast<uint16_t>(2 + w));
      w = rnd(10) < 8 ? (w + 1) % K : rnd(K);
    }
    documents.push_back(doc);
  }
  auto c = std::make_shared<TextCorpus>();
  REQUIRE(make_text_corpus(words, ids, documents, *c).is_ok());
  return c;
}

TextTrainConfig toy_config(int layers) {
  TextTrainConfig cfg;
  cfg.layers = layers;
  cfg.seed = 7;
  cfg.lr = 1e-2f;
  cfg.heads = {1, 2};
  cfg.d_model = 16;
  cfg.tokens = 8;
  cfg.batch = 8;
  cfg.held_out_windows = 16;
  return cfg;
}

}  // namespace

TEST_CASE("read_text_corpus reads a file written from the format, and refuses broken ones") {
  const std::vector<uint8_t> f = tiny_file();
  TextCorpus c;
  REQUIRE(read_text_corpus(f.data(), f.size(), c).is_ok());
  CHECK(c.vocab() == 8);
  CHECK(c.words[2] == "the");
  CHECK(c.tokens() == 9);
  CHECK(c.ids == std::vector<uint16_t>{2, 3, 4, 5, 6, 7, 1, 0, 5});
  CHECK(c.sentence_start == std::vector<uint8_t>{1, 0, 0, 0, 1, 0, 0, 0, 0});
  CHECK(c.tags[c.tag[6]] == "cd");
  REQUIRE(c.documents.size() == 2);
  CHECK(c.documents[1].name == "ca02");
  CHECK(c.documents[1].held_out);
  CHECK(c.train_tokens == 4);
  CHECK(c.held_out_tokens == 5);
  CHECK(c.bigram_perplexity == 12.5);

  TextCorpus keep = c;
  std::vector<uint8_t> bad = f;
  bad[bad.size() - 13] ^= 1;  // one bit of the ids
  Status s = read_text_corpus(bad.data(), bad.size(), c);
  CHECK(s.error.find("checksum") != std::string::npos);
  s = read_text_corpus(f.data(), f.size() - 4, c);
  CHECK(s.error.find("truncated") != std::string::npos);
  bad = f;
  bad[0] = 'X';
  CHECK_FALSE(read_text_corpus(bad.data(), bad.size(), c).is_ok());
  CHECK_FALSE(read_text_corpus(f.data(), 10, c).is_ok());
  CHECK_FALSE(read_text_corpus(nullptr, 0, c).is_ok());
  CHECK(c.ids == keep.ids);  // unchanged by every refusal
}

TEST_CASE("text trainer: the held-out loss falls within a fixed budget of steps, one and two layers") {
  const auto corpus = toy_corpus(40, 60);
  for (int layers : {1, 2}) {
    CAPTURE(layers);
    TextTrainer t;
    REQUIRE(t.reset(corpus, toy_config(layers)).is_ok());
    const float start = t.runs()[0].loss();
    CHECK(start == doctest::Approx(t.runs()[1].loss()).epsilon(0.2));  // both start near chance
    REQUIRE(t.step(150).is_ok());
    for (const TextRun& r : t.runs()) {
      CAPTURE(r.heads);
      CHECK_FALSE(r.diverged);
      CHECK(r.steps == 150);
      // the next word is w + 1 with probability 0.8 + 0.2/12, else any of the
      // other 11: an entropy of 0.92 nats; chance is ln 14 = 2.64
      CHECK(r.loss() < 0.6f * r.history.front().loss);
      CHECK(r.history.front().step == 0);
      CHECK(r.history.back().step <= 150);
    }
  }
}

TEST_CASE("text trainer: same seed, same curves bit for bit, however the steps are chunked") {
  const auto corpus = toy_corpus(20, 40);
  TextTrainer a, b;
  REQUIRE(a.reset(corpus, toy_config(2)).is_ok());
  REQUIRE(b.reset(corpus, toy_config(2)).is_ok());
  REQUIRE(a.step(30).is_ok());
  int steps = 0;
  while (steps < 30)
    if (b.run_unit()) ++steps;
  CHECK(a.step_count() == b.step_count());
  for (size_t r = 0; r < a.runs().size(); ++r) {
    REQUIRE(a.runs()[r].history.size() == b.runs()[r].history.size());
    for (size_t k = 0; k < a.runs()[r].history.size(); ++k) CHECK(a.runs()[r].history[k].loss == b.runs()[r].history[k].loss);
  }
  CHECK(a.params(2)->unembed == b.params(2)->unembed);
  // the batches do not depend on the head count or the run: same windows
  std::vector<int> w1, w2;
  a.train_windows(5, w1);
  b.train_windows(5, w2);
  CHECK(w1 == w2);
  // another seed, other windows
  TextTrainConfig other = toy_config(2);
  other.seed = 8;
  REQUIRE(b.reset(corpus, other).is_ok());
  b.train_windows(5, w2);
  CHECK(w1 != w2);
}

TEST_CASE("text trainer: knockout measures the held-out loss with and without a head, and leaves training untouched") {
  const auto corpus = toy_corpus(20, 40);
  TextTrainer a, b;
  REQUIRE(a.reset(corpus, toy_config(2)).is_ok());
  REQUIRE(b.reset(corpus, toy_config(2)).is_ok());
  TextKnockout k;
  // at step 0 the "before" is the held-out point the reset measured, bit for bit
  REQUIRE(a.knockout(2, 0, 1, k).is_ok());
  const TextRun& r0 = *a.run(2);
  CHECK(k.loss_before == r0.history.back().loss);
  REQUIRE(k.before.size() == r0.per_head.size());
  for (size_t i = 0; i < k.before.size(); ++i) CHECK(k.before[i].scores == r0.per_head[i].scores);
  REQUIRE(a.step(30).is_ok());  // trained, so a head is worth something
  // training with knockouts between steps and units gives the same curves as without
  for (int i = 0; i < 7; ++i) {
    REQUIRE(a.knockout(1 + i % 2, i % 2, 0, k).is_ok());
    (void)a.run_unit();
  }
  while (a.mid_step()) (void)a.run_unit();
  REQUIRE(b.step(static_cast<int>(a.step_count())).is_ok());
  for (size_t r = 0; r < a.runs().size(); ++r) {
    REQUIRE(a.runs()[r].history.size() == b.runs()[r].history.size());
    for (size_t i = 0; i < a.runs()[r].history.size(); ++i) CHECK(a.runs()[r].history[i].loss == b.runs()[r].history[i].loss);
  }
  CHECK(a.params(2)->unembed == b.params(2)->unembed);
  CHECK(a.params(2)->layers[0].wo == b.params(2)->layers[0].wo);
  // a layer-0 head of the two-layer, two-head run
  REQUIRE(a.knockout(2, 0, 1, k).is_ok());
  CHECK(k.heads == 2);
  CHECK(k.layer == 0);
  CHECK(k.head == 1);
  CHECK(k.step == a.run(2)->steps);
  CHECK(std::isfinite(k.loss_before));
  CHECK(std::isfinite(k.loss_after));
  CHECK(k.loss_after != k.loss_before);
  REQUIRE(k.after.size() == 4);
  // layer 0's heads (the knocked one too: its weights stand, only its output is gone) measure the same
  for (size_t i = 0; i < 2; ++i) CHECK(k.after[i].scores == k.before[i].scores);
  // layer 1 reads a residual stream without that head: its scores move
  bool moved = false;
  for (size_t i = 2; i < 4; ++i) moved = moved || k.after[i].scores != k.before[i].scores;
  CHECK(moved);
  // equals the loss of the knocked-out parameters over the held-out sample, summed here
  TextParams q = *a.params(2);
  REQUIRE(knock_out_head(q, 0, 1).is_ok());
  std::vector<int> ids, targets;
  text_window_batch(*corpus, a.held_out_windows(), toy_config(2).tokens, ids, targets);
  TextWork work;
  CrossEntropy ce;
  REQUIRE(text_loss(q, ids, targets, static_cast<int>(a.held_out_windows().size()), Backend::Scalar, work, ce, nullptr).is_ok());
  CHECK(k.loss_after == doctest::Approx(ce.loss).epsilon(1e-5));
  // refusals keep `out`
  const TextKnockout kept = k;
  CHECK_FALSE(a.knockout(4, 0, 0, k).is_ok());
  CHECK_FALSE(a.knockout(2, 2, 0, k).is_ok());
  CHECK_FALSE(a.knockout(2, -1, 0, k).is_ok());
  CHECK_FALSE(a.knockout(2, 0, 2, k).is_ok());
  CHECK_FALSE(a.knockout(2, 0, -1, k).is_ok());
  CHECK(k.loss_after == kept.loss_after);
  CHECK(k.head == kept.head);
  TextTrainer none;
  CHECK_FALSE(none.knockout(1, 0, 0, k).is_ok());
}

TEST_CASE("text trainer: windows stay inside training documents; the held-out sample inside held-out ones") {
  const auto corpus = toy_corpus(20, 40);
  TextTrainer t;
  const TextTrainConfig cfg = toy_config(1);
  REQUIRE(t.reset(corpus, cfg).is_ok());
  auto doc_of = [&](int tok) {
    for (const CorpusDocument& d : corpus->documents)
      if (tok >= d.first && tok < d.first + d.count) return &d;
    return static_cast<const CorpusDocument*>(nullptr);
  };
  for (int64_t s = 0; s < 20; ++s) {
    std::vector<int> starts;
    t.train_windows(s, starts);
    CHECK(starts.size() == static_cast<size_t>(cfg.batch));
    for (int p : starts) {
      const CorpusDocument* d = doc_of(p);
      REQUIRE(d);
      CHECK_FALSE(d->held_out);
      CHECK(p + cfg.tokens < d->first + d->count);  // L + 1 tokens inside the document
    }
  }
  CHECK(t.held_out_windows().size() == static_cast<size_t>(cfg.held_out_windows));
  for (int p : t.held_out_windows()) {
    const CorpusDocument* d = doc_of(p);
    REQUIRE(d);
    CHECK(d->held_out);
    CHECK(p + cfg.tokens < d->first + d->count);
  }
}

TEST_CASE("text trainer: one head slot per head of every layer, layer by layer; snapshot; refusals") {
  const auto corpus = toy_corpus(20, 40);
  TextTrainer t;
  CHECK_FALSE(t.step(1).is_ok());  // no corpus yet
  TextTrainConfig cfg = toy_config(2);
  cfg.heads = {1, 2, 4, 8};
  REQUIRE(t.reset(corpus, cfg).is_ok());
  for (const TextRun& r : t.runs()) {
    REQUIRE(r.per_head.size() == static_cast<size_t>(2 * r.heads));
    for (size_t k = 0; k < r.per_head.size(); ++k) {
      CHECK(r.per_head[k].layer == static_cast<int>(k) / r.heads);
      CHECK(r.per_head[k].head == static_cast<int>(k) % r.heads);
      // measured at step 0: the positional kinds and induction (the toy corpus has no tags)
      const HeadSlot& slot = r.per_head[k];
      CHECK_FALSE(slot.label.empty());
      REQUIRE(slot.scores.size() == slot.baselines.size());
      std::vector<std::string> kinds;
      for (size_t j = 0; j < slot.scores.size(); ++j) {
        kinds.push_back(slot.scores[j].first);
        CHECK(slot.baselines[j].first == slot.scores[j].first);
        CHECK((slot.scores[j].second >= 0.f && slot.scores[j].second <= 1.0001f));
        CHECK((slot.baselines[j].second > 0.f && slot.baselines[j].second <= 1.f));
      }
      for (const char* want : {"previous", "self", "duplicate", "induction"})
        CHECK(std::find(kinds.begin(), kinds.end(), want) != kinds.end());
      CHECK(std::find(kinds.begin(), kinds.end(), "verb-subject") == kinds.end());
    }
  }
  REQUIRE(t.step(3).is_ok());
  TextSnapshot s;
  REQUIRE(t.snapshot(4, s).is_ok());
  CHECK(s.step == 3);
  CHECK(s.ids.size() == static_cast<size_t>(cfg.batch * cfg.tokens));
  CHECK(s.params.layers.size() == 2);
  CHECK(std::isfinite(s.loss));
  CHECK_FALSE(t.snapshot(3, s).is_ok());
  // refusals keep the state
  const int64_t at = t.step_count();
  using Edit = void (*)(TextTrainConfig&);
  for (Edit bad : std::initializer_list<Edit>{[](TextTrainConfig& c) { c.layers = 3; }, [](TextTrainConfig& c) { c.seed = -1; },
                   [](TextTrainConfig& c) { c.lr = 0.f; }, [](TextTrainConfig& c) { c.heads = {3}; },
                   [](TextTrainConfig& c) { c.heads = {2, 2}; }, [](TextTrainConfig& c) { c.held_out_windows = 12; },
                   [](TextTrainConfig& c) { c.tokens = 100; }}) {
    TextTrainConfig c = cfg;
    bad(c);
    CHECK_FALSE(t.reset(corpus, c).is_ok());
  }
  CHECK_FALSE(t.reset(nullptr, cfg).is_ok());
  CHECK_FALSE(t.set_lr(100.f).is_ok());
  CHECK_FALSE(t.step(0).is_ok());
  CHECK(t.step_count() == at);
  CHECK(t.runs().size() == 4);
}

TEST_CASE("text trainer: an absurd learning rate is caught, nothing non-finite gets out, reset recovers") {
  const auto corpus = toy_corpus(20, 40);
  TextTrainer t;
  TextTrainConfig cfg = toy_config(1);
  cfg.lr = 10.f;
  REQUIRE(t.reset(corpus, cfg).is_ok());
  REQUIRE(t.step(40).is_ok());
  bool any = false;
  for (const TextRun& r : t.runs()) {
    for (const TextEvalPoint& p : r.history) CHECK(std::isfinite(p.loss));
    if (r.diverged) {
      any = true;
      CHECK(r.stopped.error.find("stopped at step") != std::string::npos);
      CHECK(r.steps < 40);
    }
  }
  CHECK(any);
  cfg.lr = 1e-2f;
  REQUIRE(t.reset(corpus, cfg).is_ok());
  REQUIRE(t.step(5).is_ok());
  for (const TextRun& r : t.runs()) CHECK_FALSE(r.diverged);
}
