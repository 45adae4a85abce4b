// fuzz_url_state.cpp: libFuzzer target for the URL hash parser (app/state/url_state.h).
//
// Does: parse arbitrary bytes as a hash and check: a refused hash yields
// messages, never a crash; whatever was accepted serialises to a hash that
// parses back to the same state with no messages (focus to 4 decimals);
// applying it to a Scene leaves a valid Scene (heads in kHeadCounts, 1..32 tokens,
// query in range, focus in [0, 1]).
// Does not: run in the normal build (see fuzz_tokenizer.cpp for how it is built).
//
// Run: ./build.sh fuzz   (or build/native-asan/fuzz_url_state <corpus dirs>)
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "app/state/url_state.h"

#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) __builtin_trap(); \
  } while (0)

using namespace headroom;
using namespace headroom::app;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view hash(reinterpret_cast<const char*>(data), size);
  const UrlParse p = parse_url_hash(hash);
  for (const headroom::Status& m : p.messages) FUZZ_CHECK(!m.error.empty() && m.error.size() < 400);
  if (p.state.focus) FUZZ_CHECK(*p.state.focus >= 0.f && *p.state.focus <= 1.f);

  // Round trip: what was accepted is written back and read again unchanged.
  const UrlParse again = parse_url_hash(to_url_hash(p.state));
  FUZZ_CHECK(again.messages.empty());
  UrlState expect = p.state;
  if (expect.focus) {
    // Written with 4 decimals: off by at most half a unit in the 4th
    // decimal, plus the float spacing near 1 (focus=.80025 is 0.80024999 as
    // a float and comes back as 0.8002: 5.0008e-5 away).
    constexpr float kFocusRoundTrip = 0.5e-4f + 1e-6f;
    FUZZ_CHECK(again.state.focus && std::fabs(*again.state.focus - *expect.focus) <= kFocusRoundTrip);
    expect.focus = again.state.focus;
  }
  FUZZ_CHECK(again.state == expect);

  static Scene scene;
  apply_url_state(scene, p.state);
  const int h = scene.heads();
  FUZZ_CHECK(std::find(kHeadCounts.begin(), kHeadCounts.end(), h) != kHeadCounts.end());
  const int L = static_cast<int>(scene.tokens().size());
  FUZZ_CHECK(L >= 1 && L <= SceneConfig::kMaxTokens);
  FUZZ_CHECK(scene.query() >= 0 && scene.query() < L);
  FUZZ_CHECK(scene.focus() >= 0.f && scene.focus() <= 1.f);
  return 0;
}
