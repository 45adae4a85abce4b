// behaviour_dump.cpp: prints the lesson's readouts and training loss curves
// as text, so a refactor can prove it changed no behaviour (diff two dumps).
//
// Does: for 11 sentences x H = 1, 2, 4, 8 x every query, print each head's
// readout (targets, weights, cosines, nearest, midpoint, max weight, entropy)
// and the scene's head relations; then train seeds 1..3 for R = 2 and 4 for
// 300 steps and print every run's held-out history (loss and weight on each
// slot). Every float at %.9g, enough digits to round-trip.
// Does not: check anything (a diff of two dumps does), nor run in the test
// suite (it takes about a minute natively).
//
// Usage: build/native/behaviour_dump > before.txt; (change); rebuild;
//        build/native/behaviour_dump > after.txt; cmp before.txt after.txt
#include <cstdio>
#include <string>
#include <vector>

#include "engine/lesson/scene.h"
#include "engine/train/trainer.h"

using namespace headroom;

namespace {

void print_floats(const char* name, const std::vector<float>& v) {
  std::printf(" %s=[", name);
  for (size_t i = 0; i < v.size(); ++i) std::printf(i ? ",%.9g" : "%.9g", v[i]);
  std::printf("]");
}

void dump_lesson() {
  const char* sentences[] = {
      "The researcher who wrote the paper said it was wrong.",
      "The senator who attacked the reporter admitted she was wrong.",
      "The dog that chased the cat knew it was late.",
      "The chef who cooked the meal for the critic claimed it was perfect.",
      "The cat sat.",
      "She said it was fine.",
      "The students who read the book thought it was long.",
      "A man saw the dog.",
      "The teacher said the answer was right.",
      "Birds fly south in winter.",
      "The engineer who built the bridge said it was safe.",
  };
  for (const char* s : sentences) {
    Scene scene;
    if (Status st = scene.set_sentence(s); !st.is_ok()) {
      std::printf("sentence %s refused: %s\n", s, st.error.c_str());
      continue;
    }
    const int tokens = static_cast<int>(scene.tokens().size());
    for (int heads : kHeadCounts) {
      scene.set_heads(heads);
      for (int q = 0; q < tokens; ++q) {
        scene.set_query(q);
        std::printf("%s | H=%d q=%d guessed=%d\n", s, heads, q, scene.targets_guessed() ? 1 : 0);
        const std::vector<HeadReadout>& rs = scene.readout();
        for (size_t h = 0; h < rs.size(); ++h) {
          const HeadReadout& r = rs[h];
          std::printf("  head %zu rel=[", h);
          for (size_t i = 0; i < r.relations.size(); ++i)
            std::printf(i ? ",%d" : "%d", static_cast<int>(r.relations[i]));
          std::printf("] targets=[");
          for (size_t i = 0; i < r.targets.size(); ++i) std::printf(i ? ",%d" : "%d", r.targets[i]);
          std::printf("]");
          print_floats("w", r.target_weight);
          print_floats("cos", r.target_cos);
          std::printf(" nearest=%d/%.9g mid=%.9g max=%.9g ent=%.9g\n", r.nearest, r.nearest_cos,
                      r.midpoint_cos, r.max_weight, r.entropy);
        }
      }
    }
  }
}

void dump_training() {
  for (int r : {2, 4}) {
    for (int64_t seed = 1; seed <= 3; ++seed) {
      Trainer trainer;
      if (Status st = trainer.reset(seed, r, kDefaultLr); !st.is_ok()) {
        std::printf("reset refused: %s\n", st.error.c_str());
        continue;
      }
      trainer.step(300);
      for (const TrainRun& run : trainer.runs()) {
        std::printf("train R=%d seed=%lld H=%d steps=%lld diverged=%d\n", r,
                    static_cast<long long>(seed), run.heads, static_cast<long long>(run.steps),
                    run.diverged ? 1 : 0);
        for (const EvalPoint& p : run.history) {
          std::printf("  step %lld loss=%.9g", static_cast<long long>(p.step), p.loss);
          print_floats("on", p.weight_on);
          std::printf("\n");
        }
      }
    }
  }
}

}  // namespace

int main() {
  dump_lesson();
  dump_training();
  return 0;
}
