// bench_text.cpp: time one training step of the text model per
// backend, and (natively) train it on the real corpus for a held-out curve.
//
// Does, timing mode (default): for layers 1 and 2 and H = 1, 2, 4, 8 at the
// text trainer's shape (B = 32 windows of L = 32 tokens, D = 64, V = 3002:
// 3,000 words + <unk> + <num>) and each variant of this platform
//   wasm:   text-wasm-scalar (Backend::Scalar), text-wasm-simd128 (Backend::Simd)
//   native: text-native (Backend::Simd: kernels/generic/), text-native-eigen
// one step = text_loss with gradients (embeddings, causal layers,
// unembedding, cross-entropy) + AdamList, on windows of a corpus of random
// ids (the step's arithmetic does not depend on which words they are);
// warm-up and median of samples as bench_common.h; one JSON line each:
//   {"B":32,"L":32,"D":64,"V":3002,"H":4,"layers":1,"variant":"text-native",
//    "ms":9.1,"tokensPerS":112000,"gflops":20.1}
// tokens/s = B L / step time; FLOPs = 3 x the forward's 2 B L D V
// (unembedding) + per layer 8 B L D^2 + 4 B L^2 D (the causal half of the
// scores is computed and masked, so it is counted).
// Curve mode (native): --curve brown.bin [--steps N] [--heads 1,4]
// [--layers 1] [--seed S] [--lr R] trains a TextTrainer on the corpus and
// prints each run's held-out points as JSON lines
//   {"seed":1,"layers":1,"H":4,"step":500,"loss":5.1,"ppl":164,"s":41.2}
// with the wall seconds since the start (all runs train in turn, as in the
// page), and the corpus' bigram perplexity first; at the end each run's
// parameter and loss checksums and each head's measured label and scores.
// With runs of 1 and 4 heads it also prints, at each held-out point, the
// midpoint cases found in held-out text (text_splits.h) and the best one
//   {"splitsStep":51,"cases":3,"best":"... [said] ...","query":6,"a":1,"b":7,...}
// and at the end the finder's own time on the final weights (median of 5):
//   {"splitsMs":1.2,"sentences":64,"queries":1290}
// --only H,layers times that configuration only; --steps N times exactly N
// steps after two warm-up steps (one sample), so an outside timer
// (`/usr/bin/time`: CPU seconds) can divide by a known count when the shared
// machine is too loaded for wall-clock medians.
// Does not: print a table, pin threads, or check gradients (the tests do).
//
// Usage: bench_text --platform wasm|native [--min-samples N] [--variant NAME]
//                   [--only H,layers] [--steps N]
//        bench_text --curve build/web/brown.bin [--steps N] [--heads 1,4] ...
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "bench_common.h"
#include "engine/core/adam.h"
#include "engine/train/text_trainer.h"

using namespace headroom;

namespace {

struct Variant { const char* name; Backend backend; };
const Variant kWasm[] = {{"text-wasm-scalar", Backend::Scalar}, {"text-wasm-simd128", Backend::Simd}};
const Variant kNative[] = {{"text-native", Backend::Simd}, {"text-native-eigen", Backend::Eigen}};
constexpr int kVocab = 3002;

struct Model {
  TextParams p;
  TextGrads g;
  TextWork work;
  AdamList adam{AdamConfig{kTextDefaultLr, 0.9f, 0.999f, 1e-8f}};
  std::vector<int> ids, targets;
  double loss = 0;
};

Model make_model(int H, int layers) {
  Model m;
  const TextShape s{kVocab, kTextDModel, kTextTokens, H, layers};
  m.p = initial_text_params(s, 1, kTextInitPurpose);
  const int n = kTextBatch * kTextTokens;
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i <= n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    m.ids.push_back(static_cast<int>(x % kVocab));
  }
  m.targets.assign(m.ids.begin() + 1, m.ids.end());
  m.ids.pop_back();
  return m;
}

void train_step(Model& m, Backend b) {
  CrossEntropy ce;
  if (Status s = text_loss(m.p, m.ids, m.targets, kTextBatch, b, m.work, ce, &m.g); !s) {
    std::fprintf(stderr, "bench_text: %s\n", s.error.c_str());
    std::exit(1);
  }
  m.adam.step(text_param_list(m.p), text_grad_list(m.g));
  m.loss = ce.loss;
}

int timing(const std::string& platform, int min_samples, const std::string& only, int only_h, int only_layers,
           int fixed_steps) {
  const Variant* begin;
  const Variant* end;
  if (platform == "wasm") begin = std::begin(kWasm), end = std::end(kWasm);
  else if (platform == "native") begin = std::begin(kNative), end = std::end(kNative);
  else { std::fprintf(stderr, "bench_text: --platform must be wasm or native\n"); return 2; }
  const double B = kTextBatch, L = kTextTokens, D = kTextDModel, V = kVocab;
  for (int layers : {1, 2})
    for (int H : kTextHeads) {
      const double flops = 3.0 * (2 * B * L * D * V + layers * (8 * B * L * D * D + 4 * B * L * L * D));
      for (const Variant* v = begin; v != end; ++v) {
        if (!only.empty() && only != v->name) continue;
        if (only_h && (H != only_h || layers != only_layers)) continue;
        Model m = make_model(H, layers);
        double s = 0;
        if (fixed_steps > 0) {
          train_step(m, v->backend);
          train_step(m, v->backend);
          const double t0 = bench::now_s();
          for (int i = 0; i < fixed_steps; ++i) train_step(m, v->backend);
          s = (bench::now_s() - t0) / fixed_steps;
        } else {
          s = bench::median_seconds([&] { train_step(m, v->backend); }, min_samples, 0.2);
        }
        std::printf("{\"B\":%d,\"L\":%d,\"D\":%d,\"V\":%d,\"H\":%d,\"layers\":%d,\"variant\":\"%s\",\"ms\":%.4g,"
                    "\"tokensPerS\":%.0f,\"gflops\":%.3g}\n",
                    kTextBatch, kTextTokens, kTextDModel, kVocab, H, layers, v->name, s * 1e3, B * L / s,
                    flops / s * 1e-9);
        std::fflush(stdout);
        std::fprintf(stderr, "  (%s: loss after the timed steps %.4g)\n", v->name, m.loss);
      }
    }
  return 0;
}

// After the curve: per run, FNV-1a of every parameter's bytes and of the
// history's losses (two builds trained alike print the same), then each
// head's label and scores as measured at the last held-out point.
void report_end(const TextTrainer& t) {
  auto fnv = [](uint32_t h, const void* p, size_t n) {
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(p)[i]) * 16777619u;
    return h;
  };
  for (const TextRun& run : t.runs()) {
    TextParams p = *t.params(run.heads);
    uint32_t hp = 2166136261u, hl = 2166136261u;
    for (const Mat* m : text_param_list(p)) hp = fnv(hp, m->data(), sizeof(float) * static_cast<size_t>(m->size()));
    for (const TextEvalPoint& e : run.history) hl = fnv(hl, &e.loss, sizeof e.loss);
    std::printf("{\"H\":%d,\"steps\":%lld,\"paramsFnv\":\"%08x\",\"lossesFnv\":\"%08x\"}\n", run.heads,
                static_cast<long long>(run.steps), hp, hl);
    for (const HeadSlot& h : run.per_head) {
      std::printf("{\"H\":%d,\"layer\":%d,\"head\":%d,\"label\":\"%s\",\"labelScore\":%.3f,\"scores\":{", run.heads,
                  h.layer + 1, h.head + 1, h.label.c_str(), h.label_score);
      for (size_t k = 0; k < h.scores.size(); ++k)
        std::printf("%s\"%s\":%.3f", k ? "," : "", h.scores[k].first.c_str(), h.scores[k].second);
      std::printf("}}\n");
    }
  }
}

int curve(const char* path, int steps, const std::vector<int>& heads, int layers, int64_t seed, float lr) {
  std::ifstream f(path, std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto corpus = std::make_shared<TextCorpus>();
  if (Status s = read_text_corpus(bytes.data(), bytes.size(), *corpus); !s) {
    std::fprintf(stderr, "bench_text: %s: %s\n", path, s.error.c_str());
    return 1;
  }
  std::printf("{\"corpus\":\"%s\",\"vocab\":%d,\"trainWords\":%lld,\"heldOutWords\":%lld,\"bigramPpl\":%.4g}\n",
              path, corpus->vocab(), static_cast<long long>(corpus->train_tokens),
              static_cast<long long>(corpus->held_out_tokens), corpus->bigram_perplexity);
  TextTrainConfig cfg;
  cfg.layers = layers;
  cfg.seed = seed;
  cfg.lr = lr;
  cfg.heads = heads;
  TextTrainer t;
  if (Status s = t.reset(corpus, cfg); !s) {
    std::fprintf(stderr, "bench_text: %s\n", s.error.c_str());
    return 1;
  }
  const double t0 = bench::now_s();
  std::vector<size_t> printed(t.runs().size(), 0);
  auto report = [&] {
    for (size_t r = 0; r < t.runs().size(); ++r) {
      const TextRun& run = t.runs()[r];
      for (; printed[r] < run.history.size(); ++printed[r]) {
        const TextEvalPoint& p = run.history[printed[r]];
        std::printf("{\"seed\":%lld,\"layers\":%d,\"H\":%d,\"step\":%lld,\"loss\":%.4f,\"ppl\":%.1f,\"s\":%.2f%s}\n",
                    static_cast<long long>(seed), layers, run.heads, static_cast<long long>(p.step), p.loss,
                    std::exp(p.loss), bench::now_s() - t0, run.diverged ? ",\"diverged\":true" : "");
      }
    }
    std::fflush(stdout);
  };
  int64_t splits_printed = -1;
  auto report_splits = [&] {
    if (!t.run(kSplitOneHeads) || !t.run(kSplitManyHeads) || t.runs()[0].history.back().step == splits_printed) return;
    splits_printed = t.runs()[0].history.back().step;
    const std::vector<TextSplit>& cases = t.splits();
    std::printf("{\"splitsStep\":%lld,\"cases\":%zu", static_cast<long long>(splits_printed), cases.size());
    if (!cases.empty()) {
      const TextSplit& c = cases[0];
      std::string text;
      for (size_t i = 0; i < c.words.size(); ++i) {
        const bool mark = static_cast<int>(i) == c.query || static_cast<int>(i) == c.a || static_cast<int>(i) == c.b;
        text += (i ? " " : "") + (mark ? "[" + c.words[i] + "]" : c.words[i]);
      }
      std::printf(",\"best\":\"%s\",\"query\":%d,\"a\":%d,\"b\":%d,\"one\":[%.3f,%.3f],\"heads\":[%d,%d],"
                  "\"four\":[%.3f,%.3f],\"cos\":[%.3f,%.3f,%.3f]",
                  text.c_str(), c.query, c.a, c.b, c.one_a, c.one_b, c.head_a + 1, c.head_b + 1, c.many_a, c.many_b,
                  c.cos_a, c.cos_b, c.cos_mid);
    }
    std::printf("}\n");
  };
  report();
  report_splits();
  for (int s = 0; s < steps; ++s) {
    const Status st = t.step(1);
    (void)st;
    report();
    report_splits();
  }
  if (t.run(kSplitOneHeads) && t.run(kSplitManyHeads)) {
    std::vector<double> ms;
    std::vector<TextSplit> out;
    for (int k = 0; k < 5; ++k) {
      const double a = bench::now_s();
      const Status st = find_text_splits(*t.params(kSplitOneHeads), *t.params(kSplitManyHeads), t.split_sample(),
                                         kSplitKeep, t.step_count(), out);
      (void)st;
      ms.push_back((bench::now_s() - a) * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    size_t queries = 0;
    for (const SplitSentence& s : t.split_sample()) queries += s.ids.size() - 1;
    std::printf("{\"splitsMs\":%.3f,\"sentences\":%zu,\"queries\":%zu}\n", ms[2], t.split_sample().size(), queries);
  }
  report_end(t);
  return 0;
}

std::vector<int> parse_list(const char* s) {
  std::vector<int> v;
  for (const char* p = s; *p;) {
    v.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  std::string platform, only;
  int min_samples = 11, steps = 1000, layers = 1, only_h = 0, only_layers = 0, fixed_steps = 0;
  const char* corpus = nullptr;
  std::vector<int> heads = {1, 4};
  int64_t seed = 1;
  float lr = kTextDefaultLr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--platform") && i + 1 < argc) platform = argv[++i];
    else if (!std::strcmp(argv[i], "--min-samples") && i + 1 < argc) min_samples = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--variant") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--curve") && i + 1 < argc) corpus = argv[++i];
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      std::sscanf(argv[++i], "%d,%d", &only_h, &only_layers);
    else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) steps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--heads") && i + 1 < argc) heads = parse_list(argv[++i]);
    else if (!std::strcmp(argv[i], "--layers") && i + 1 < argc) layers = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) seed = std::atoll(argv[++i]);
    else if (!std::strcmp(argv[i], "--lr") && i + 1 < argc) lr = static_cast<float>(std::atof(argv[++i]));
    else {
      std::fprintf(stderr, "usage: %s --platform wasm|native [--min-samples N] [--variant NAME] [--only H,layers] [--steps N]\n"
                           "       %s --curve brown.bin [--steps N] [--heads 1,4] [--layers 1|2] [--seed S] [--lr R]\n",
                   argv[0], argv[0]);
      return 2;
    }
  }
  if (corpus) return curve(corpus, steps, heads, layers, seed, lr);
  // --steps without --curve: that many timed steps per configuration
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--steps")) fixed_steps = steps;
  return timing(platform, min_samples < 3 ? 3 : min_samples, only, only_h, only_layers, fixed_steps);
}
