// soak_native.cpp: a long run of the app with no browser: live training for
// N steps with random verbs in between, to show that nothing leaks and the
// heap stays flat.
//
// Does: drive one Demo (src/app/demo.h) until its training has taken N steps
// (argument 1, default 5000), a few steps at a time through train_step and
// tick, and between them make random calls from a fixed seed: sentences in
// several scripts (and random bytes), heads, queries, focus, hashes, views,
// themes, weights built/trained, learning rates (some that diverge, then a
// reset), getState(), the hash, train.state() and a snapshot now and then.
// Prints the heap in use at 20 checkpoints (bytes the allocator holds for the
// program: ASan's own count under ASan, mallinfo2 otherwise) and fails (exit
// 1) when the last checkpoint holds more than kAllowedGrowth bytes above the
// most the heap held once warmed up (after the first 10% of the steps), or
// when any state JSON has a non-finite number. Under ASan, LeakSanitizer
// checks for leaks at exit.
// Does not: run by default for long: CTest runs 100 steps (soak_native_short);
// ./build.sh soak runs 5000 under ASan.
//
// Run: build/native-asan/soak_native 5000   (or build/native/soak_native)
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HEADROOM_SOAK_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define HEADROOM_SOAK_ASAN 1
#endif
#ifdef HEADROOM_SOAK_ASAN
#include <sanitizer/allocator_interface.h>
#else
#include <malloc.h>
#endif

#include "../app/json_read.h"
#include "app/state/demo.h"
#include "app/state/url_state.h"

using namespace headroom;
using namespace headroom::app;

namespace {

constexpr long long kAllowedGrowth = 2 << 20;  // 2 MiB

long long heap_in_use() {
#ifdef HEADROOM_SOAK_ASAN
  return static_cast<long long>(__sanitizer_get_current_allocated_bytes());
#else
  return static_cast<long long>(mallinfo2().uordblks);
#endif
}

// splitmix64: the soak's own random calls (the engine's generator is not
// what is being tested here).
struct Rand {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
};

const char* const kSentences[] = {
    "The researcher who wrote the paper said it was wrong.",
    "The dog that chased the cat knew it was late.",
    "研究者说它错了。",
    "قالت الباحثة إن الورقة خاطئة.",
    "Der Forscher, der das Papier schrieb, sagte, es sei falsch.",
    "The 🐱 said 🎉 was 👍🏽 wrong.",
    "Исследователь сказал, что это неверно.",
    "The cat sat.",
};

// Parses a state strictly (tests/app/json_read.h) and looks for a null where
// a number belongs: the writers turn a NaN or an infinity into null, so that
// is what a non-finite number reaching the state looks like. The keys that
// may be null by design (a message, a note, "no such token") are listed.
bool finite_json(const std::string& json, std::string* why = nullptr) {
  jsonr::Value v;
  if (!jsonr::parse(json, v)) {
    if (why) *why = "not JSON";
    return false;
  }
  // by the last key, or by parent.key
  // (the training state's corpus is null until one is loaded, layers on the
  // roles task, knockout until a text head is knocked out, splits on the
  // roles task; langLoading while no language is being fetched; a text
  // head's scores, label, labelScore and baselines are measured when its run
  // is reset, so a null there is a bug like any other)
  const std::vector<std::string> nullable = {"error", "note", "notice", "message", "nearest", "outputInPlane",
                                            "modelWeights.step", "corpus", "layers", "knockout", "splits",
                                            "langLoading"};
  bool ok = true;
  auto walk = [&](auto&& self, const jsonr::Value& x, const std::string& parent, const std::string& key) -> void {
    const std::string path = parent + "." + key;
    if (x.kind == jsonr::Value::Null && std::find(nullable.begin(), nullable.end(), key) == nullable.end() &&
        std::find(nullable.begin(), nullable.end(), path) == nullable.end()) {
      ok = false;
      if (why) *why = "null at " + path;
    }
    for (const auto& item : x.items) self(self, item, parent, key);
    for (const auto& [k, f] : x.fields) self(self, f, key, k);
  };
  walk(walk, v, "", "");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const long long target = argc > 1 ? std::atoll(argv[1]) : 5000;
  if (target < 10) {
    std::fprintf(stderr, "usage: soak_native [steps >= 10]\n");
    return 2;
  }
  Demo demo;
  Rand rnd{20261201};
  long long calls = 0, refused = 0, warm_max = 0;
  bool ok = true;
  std::vector<std::pair<long long, long long>> curve;  // (step, heap bytes)
  auto step_count = [&] { return static_cast<long long>(demo.training.trainer().step_count()); };
  long long steps_before_reset = 0;
  long long next_mark = 0;

  while (steps_before_reset + step_count() < target) {
    // a few steps, by the verb or by frame ticks
    if (rnd.below(2)) {
      demo.train_step(1 + rnd.below(4));
    } else {
      demo.train_play();
      for (int f = 0; f < 4; ++f) demo.tick();
      demo.train_pause();
    }
    // random calls between them
    for (int c = 0, n = 1 + rnd.below(4); c < n; ++c, ++calls) {
      bool accepted = true;
      switch (rnd.below(12)) {
        case 0: accepted = demo.set_sentence(kSentences[rnd.below(8)]); break;
        case 1: {
          std::string bytes(static_cast<size_t>(rnd.below(60)), '\0');
          for (char& b : bytes) b = static_cast<char>(rnd.next());
          accepted = demo.set_sentence(bytes);
          break;
        }
        case 2: accepted = demo.set_heads(kHeadCounts[static_cast<size_t>(rnd.below(4))] * (rnd.below(8) ? 1 : 3)); break;
        case 3: accepted = demo.select_token(rnd.below(14) - 1); break;
        case 4: accepted = demo.set_focus(static_cast<float>(rnd.below(1300)) / 1000.f); break;
        case 5: accepted = demo.apply_hash("heads=" + std::to_string(1 << rnd.below(4)) + "&query=" + std::to_string(rnd.below(9)) +
                                           (rnd.below(3) ? "" : "&view=bogus")); break;
        case 6: accepted = demo.set_view(kViews[static_cast<size_t>(rnd.below(static_cast<int>(kViews.size())))]); break;
        case 7: accepted = demo.set_theme(kThemes[static_cast<size_t>(rnd.below(2))]); break;
        case 8: accepted = demo.set_weights(rnd.below(2) ? "built" : "trained"); break;
        case 9: {
          // now and then a rate that diverges, and the reset that recovers
          if (rnd.below(40) == 0) {
            demo.train_set_lr(10.f);
            demo.train_step(3);
            steps_before_reset += step_count();
            accepted = demo.train_reset(1 + rnd.below(5), rnd.below(2) ? 2 : 4, 1e-2f);
          } else {
            accepted = demo.train_set_lr(rnd.below(2) ? 1e-2f : 3e-3f);
          }
          break;
        }
        case 10: {
          std::string snap;
          accepted = demo.training.snapshot_json(1 << rnd.below(3), snap).is_ok();
          if (!finite_json(snap)) ok = false;
          break;
        }
        default: {
          const std::string s = state_json(demo), t = demo.training.state_json(), h = demo.hash();
          std::string why;
          if (!finite_json(s, &why) || !finite_json(t, &why)) {
            std::fprintf(stderr, "non-finite number in a state at step %lld: %s\n", steps_before_reset + step_count(), why.c_str());
            ok = false;
          }
          if (h.size() > 8192) ok = false;
        }
      }
      if (!accepted) ++refused;
    }
    const long long done = steps_before_reset + step_count();
    if (done >= next_mark) {
      const long long heap = heap_in_use();
      curve.emplace_back(done, heap);
      if (done >= target / 10) warm_max = std::max(warm_max, heap);
      next_mark += std::max(1LL, target / 20);
    }
  }
  const long long final_heap = heap_in_use();
  curve.emplace_back(steps_before_reset + step_count(), final_heap);

  std::printf("soak_native: %lld training steps, %lld random calls (%lld refused)\n",
              steps_before_reset + step_count(), calls, refused);
  std::printf("heap in use (bytes) by step:");
  for (const auto& [s, b] : curve) std::printf(" %lld:%lld", s, b);
  std::printf("\n");
  if (warm_max == 0) warm_max = final_heap;
  const long long growth = final_heap - warm_max;
  std::printf("growth after warm-up: %lld bytes (allowed %lld)\n", growth, kAllowedGrowth);
  if (growth > kAllowedGrowth) ok = false;
  std::printf("%s\n", ok ? "soak_native: ok" : "soak_native: FAILED");
  return ok ? 0 : 1;
}
