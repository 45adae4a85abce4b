// tokenizer.h: split UTF-8 text into words and punctuation.
//
// Does: words (letters, digits, inner apostrophes and hyphens), one token per
// punctuation mark, one token per CJK ideograph or kana, one token per emoji
// (ZWJ sequences, skin tones, flags and variation selectors kept together);
// combining marks stay on the character they modify. Whitespace and control
// characters separate tokens and are dropped. Invalid UTF-8 bytes become
// U+FFFD so no byte sequence can make it fail or loop.
// Does not: lower-case, normalise, or enforce a length cap (Scene does).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

struct Token {
  std::string text;     // UTF-8, exactly the bytes of the source (U+FFFD for invalid bytes)
  size_t begin = 0;     // byte offset in the source
  size_t end = 0;       // one past the last byte
};

std::vector<Token> tokenize(std::string_view utf8);

// Decodes one code point at s[i], advancing i; invalid bytes give U+FFFD and
// advance by one. Exposed for tests and the scene's lexicon.
char32_t decode_utf8(std::string_view s, size_t& i);

// Whether the tokenizer splits code point c off as punctuation (one token per
// mark: ASCII and Unicode punctuation such as "，" "。" "،", and U+FFFD).
// Exposed for the lexicon.
bool is_punctuation(char32_t c);

}  // namespace headroom
