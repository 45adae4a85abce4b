// text_snapshot.cpp: write a text-model snapshot (app/wire/text_json.h) for the
// PyTorch cross-check (tests/torch/text_torch_check.py).
//
// Does: read brown.bin, reset a TextTrainer (one run of H heads, `layers`
// layers, seed), train it `steps` steps, and write the snapshot of its next
// batch (parameters, ids, targets, loss, every gradient) as JSON to `out`.
// Does not: check anything itself (the Python script does).
//
// Usage: text_snapshot brown.bin out.json [--heads H] [--layers 1|2]
//        [--steps N] [--seed S]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

#include "app/wire/text_json.h"

using namespace headroom;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s brown.bin out.json [--heads H] [--layers 1|2] [--steps N] [--seed S]\n", argv[0]);
    return 2;
  }
  int heads = 4, layers = 2, steps = 20;
  int64_t seed = 1;
  for (int i = 3; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--heads")) heads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--layers")) layers = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--seed")) seed = std::atoll(argv[i + 1]);
  }
  std::ifstream f(argv[1], std::ios::binary);
  const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto corpus = std::make_shared<TextCorpus>();
  if (Status s = read_text_corpus(bytes.data(), bytes.size(), *corpus); !s) {
    std::fprintf(stderr, "text_snapshot: %s\n", s.error.c_str());
    return 1;
  }
  TextTrainConfig cfg;
  cfg.heads = {heads};
  cfg.layers = layers;
  cfg.seed = seed;
  TextTrainer t;
  TextSnapshot snap;
  Status s = t.reset(corpus, cfg);
  if (s && steps > 0) s = t.step(steps);
  if (s) s = t.snapshot(heads, snap);
  if (!s) {
    std::fprintf(stderr, "text_snapshot: %s\n", s.error.c_str());
    return 1;
  }
  std::ofstream(argv[2]) << app::text_snapshot_json(snap);
  std::printf("text_snapshot: H = %d, layers = %d, step %lld, loss %.6f -> %s\n", heads, layers,
              static_cast<long long>(snap.step), snap.loss, argv[2]);
  return 0;
}
