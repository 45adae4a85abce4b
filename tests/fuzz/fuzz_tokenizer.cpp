// fuzz_tokenizer.cpp: libFuzzer target for headroom::tokenize.
//
// Does: feed arbitrary bytes to tokenize() and check what every caller relies
// on: tokens are non-empty, in order, inside the input, never overlapping; a
// token's text is its source bytes (or U+FFFD where the bytes were invalid).
// Then give the same bytes to Scene::set_sentence when short enough, which
// must either accept them or refuse with a message.
// Does not: run in the normal build; build.sh configures it with clang
// (-fsanitize=fuzzer,address,undefined) in build/native-asan.
//
// Run: ./build.sh fuzz   (or build/native-asan/fuzz_tokenizer <corpus dirs>)
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "engine/lesson/scene.h"
#include "engine/lesson/tokenizer.h"

#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) __builtin_trap(); \
  } while (0)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::vector<headroom::Token> tokens = headroom::tokenize(text);
  size_t last_end = 0;
  for (const headroom::Token& t : tokens) {
    FUZZ_CHECK(!t.text.empty());
    FUZZ_CHECK(t.begin < t.end);
    FUZZ_CHECK(t.end <= size);
    FUZZ_CHECK(t.begin >= last_end);
    if (t.text.size() == t.end - t.begin && t.text.find("\xEF\xBF\xBD") == std::string::npos)
      FUZZ_CHECK(text.substr(t.begin, t.end - t.begin) == t.text);
    last_end = t.end;
  }
  // decode_utf8 always advances and stays in range.
  for (size_t i = 0; i < size;) {
    const size_t before = i;
    const char32_t c = headroom::decode_utf8(text, i);
    FUZZ_CHECK(i > before && i <= size);
    FUZZ_CHECK(c <= 0x10FFFF);
  }
  if (size <= 512) {
    static headroom::Scene scene;
    const size_t before = scene.tokens().size();
    const headroom::Status s = scene.set_sentence(text);
    if (!s) FUZZ_CHECK(scene.tokens().size() == before && !s.error.empty());
    FUZZ_CHECK(!scene.tokens().empty() && scene.tokens().size() <= headroom::SceneConfig::kMaxTokens);
    FUZZ_CHECK(scene.query() >= 0 && scene.query() < static_cast<int>(scene.tokens().size()));
  }
  return 0;
}
