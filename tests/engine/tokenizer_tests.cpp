// tokenizer_tests.cpp: words, punctuation and whole grapheme-like clusters.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/lesson/tokenizer.h"

using namespace headroom;

namespace {
std::vector<std::string> texts(std::string_view s) {
  std::vector<std::string> out;
  for (const Token& t : tokenize(s)) out.push_back(t.text);
  return out;
}
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("words and punctuation") {
  CHECK(texts("The researcher who wrote the paper said it was wrong.") ==
        V{"The", "researcher", "who", "wrote", "the", "paper", "said", "it", "was", "wrong", "."});
  CHECK(texts("don't stop, well-known!") == V{"don't", "stop", ",", "well-known", "!"});
  CHECK(texts("  a\t\nb  ") == V{"a", "b"});
  CHECK(texts("'quoted' -dash-") == V{"'", "quoted", "'", "-", "dash", "-"});
}

TEST_CASE("accents, combining marks, right-to-left and CJK stay intact") {
  CHECK(texts("c'était déjà") == V{"c'était", "déjà"});
  CHECK(texts("e\xCC\x81t\xC3\xA9") == V{"e\xCC\x81t\xC3\xA9"});  // e + U+0301 stays one word
  CHECK(texts("\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D \xD7\xA2\xD7\x95\xD7\x9C\xD7\x9D").size() == 2u);  // Hebrew
  CHECK(texts("\xD9\x85\xD8\xB1\xD8\xAD\xD8\xA8\xD8\xA7\xD8\x8C \xD8\xB9\xD8\xA7\xD9\x84\xD9\x85").size() == 3u);  // Arabic word, comma, word
  CHECK(texts("我爱你。") == V{"我", "爱", "你", "。"});
  CHECK(texts("こんにちは") .size() == 5u);
}

TEST_CASE("emoji clusters are single tokens") {
  CHECK(texts("hi 😀!") == V{"hi", "😀", "!"});
  CHECK(texts("👍🏽") == V{"👍🏽"});                        // skin tone
  CHECK(texts("👨‍👩‍👧") == V{"👨‍👩‍👧"});                     // ZWJ family
  CHECK(texts("🇫🇷🇩🇪") == V{"🇫🇷", "🇩🇪"});                  // two flags
  CHECK(texts("❤️ ok") == V{"❤️", "ok"});                  // variation selector
  CHECK(texts("😀😀") == V{"😀", "😀"});
}

TEST_CASE("byte offsets point at the token's bytes") {
  const std::string s = "Ça va? 😀 我们 well-known";
  for (const Token& t : tokenize(s)) {
    CAPTURE(t.text);
    CHECK(s.substr(t.begin, t.end - t.begin) == t.text);
  }
}

TEST_CASE("invalid UTF-8 and controls never crash and never leak raw bytes") {
  CHECK(texts("").empty());
  CHECK(texts("\x01\x02\x1b\x7f").empty());
  const V bad = texts("a\xFF" "b \xED\xA0\x80 \xC3");  // stray byte, CESU surrogate, truncated
  for (const std::string& t : bad) {
    size_t i = 0;
    while (i < t.size()) CHECK(decode_utf8(t, i) != 0u);  // re-decodes cleanly
  }
  CHECK(bad == V{"a", "\xEF\xBF\xBD", "b", "\xEF\xBF\xBD", "\xEF\xBF\xBD"});
  // every byte value, alone and in pairs: terminates, each token non-empty
  for (int b = 0; b < 256; ++b)
    for (int c : {0x41, 0x80, 0xBF, 0xC3, 0xE2}) {
      const std::string s{static_cast<char>(b), static_cast<char>(c)};
      for (const Token& t : tokenize(s)) CHECK_FALSE(t.text.empty());
    }
}
