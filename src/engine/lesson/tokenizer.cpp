// tokenizer.cpp: a small Unicode-aware word/punctuation splitter.
// See tokenizer.h for what counts as a token. Character classes are ranges
// of code points, enough for Latin, Greek, Cyrillic, Hebrew, Arabic, Indic,
// CJK and emoji text; anything unknown above ASCII is treated as a letter.
#include "tokenizer.h"

namespace headroom {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

enum class Kind { Space, Letter, Punct, Ideograph, Emoji, Joiner, Extender };

bool in(char32_t c, char32_t lo, char32_t hi) { return c >= lo && c <= hi; }

Kind classify(char32_t c) {
  if (c < 0x80) {
    if (c <= 0x20 || c == 0x7F) return Kind::Space;  // whitespace and C0 controls
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')
      return Kind::Letter;
    return Kind::Punct;
  }
  if (in(c, 0x80, 0xA0) || c == 0x1680 || in(c, 0x2000, 0x200B) || in(c, 0x2028, 0x202F) ||
      c == 0x205F || c == 0x3000 || c == 0xFEFF || in(c, 0x2060, 0x2064))
    return Kind::Space;  // C1 controls, NBSP, typographic spaces, BOM
  if (c == 0x200D) return Kind::Joiner;  // ZWJ glues emoji sequences
  if (in(c, 0x0300, 0x036F) || in(c, 0x0483, 0x0489) || in(c, 0x0591, 0x05BD) ||
      in(c, 0x0610, 0x061A) || in(c, 0x064B, 0x065F) || in(c, 0x0900, 0x0903) ||
      in(c, 0x093A, 0x094F) || in(c, 0x1AB0, 0x1AFF) || in(c, 0x1DC0, 0x1DFF) ||
      in(c, 0x20D0, 0x20FF) || in(c, 0xFE00, 0xFE0F) || in(c, 0xFE20, 0xFE2F) ||
      in(c, 0x1F3FB, 0x1F3FF) || in(c, 0xE0020, 0xE007F) || in(c, 0xE0100, 0xE01EF) ||
      c == 0x20E3 || in(c, 0x3099, 0x309A))
    return Kind::Extender;  // combining marks, variation selectors, skin tones, tags
  if (in(c, 0x1F000, 0x1FAFF) || in(c, 0x2600, 0x27BF) || in(c, 0x2B00, 0x2BFF) ||
      in(c, 0x2300, 0x23FF) || c == 0x00A9 || c == 0x00AE || c == 0x203C || c == 0x2049 ||
      c == 0x2122 || c == 0x2139 || in(c, 0x2194, 0x21AA) || c == 0x3030 || c == 0x303D)
    return Kind::Emoji;
  if (in(c, 0x3400, 0x4DBF) || in(c, 0x4E00, 0x9FFF) || in(c, 0xF900, 0xFAFF) ||
      in(c, 0x20000, 0x3FFFF) || in(c, 0x3040, 0x30FF) || in(c, 0x31F0, 0x31FF))
    return Kind::Ideograph;  // no spaces between words: one token per character
  if (in(c, 0xA1, 0xBF) || c == 0xD7 || c == 0xF7 || in(c, 0x2010, 0x2027) ||
      in(c, 0x2030, 0x205E) || in(c, 0x3001, 0x303F) || in(c, 0xFF01, 0xFF0F) ||
      in(c, 0xFF1A, 0xFF20) || in(c, 0xFF3B, 0xFF40) || in(c, 0xFF5B, 0xFF65) ||
      c == 0x037E || c == 0x0387 || in(c, 0x055A, 0x055F) || c == 0x0589 || c == 0x05BE ||
      c == 0x05C0 || c == 0x05C3 || c == 0x05C6 || in(c, 0x05F3, 0x05F4) || c == 0x060C ||
      c == 0x061B || c == 0x061F || in(c, 0x066A, 0x066D) || c == 0x06D4 || in(c, 0x0964, 0x0965) ||
      in(c, 0x2E00, 0x2E7F) || c == kReplacement)
    return Kind::Punct;
  if (in(c, 0xD800, 0xDFFF)) return Kind::Punct;  // a surrogate cannot be decoded; never reached
  if (in(c, 0x1F1E6, 0x1F1FF)) return Kind::Emoji;  // regional indicators (flags)
  return Kind::Letter;
}

bool is_inner_joiner(char32_t c) { return c == '\'' || c == 0x2019 || c == '-'; }

}  // namespace

bool is_punctuation(char32_t c) { return classify(c) == Kind::Punct; }

char32_t decode_utf8(std::string_view s, size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) { ++i; return b0; }
  int n = 0;
  char32_t c = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) { n = 1; c = b0 & 0x1F; }
  else if (b0 >= 0xE0 && b0 <= 0xEF) { n = 2; c = b0 & 0x0F; }
  else if (b0 >= 0xF0 && b0 <= 0xF4) { n = 3; c = b0 & 0x07; }
  else { ++i; return kReplacement; }
  if (i + static_cast<size_t>(n) >= s.size()) { ++i; return kReplacement; }  // truncated
  for (int k = 1; k <= n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
    if ((b & 0xC0) != 0x80) { ++i; return kReplacement; }
    c = (c << 6) | (b & 0x3F);
  }
  // Overlong forms, surrogates (lone or paired, CESU-8) and > U+10FFFF are
  // well-formed byte patterns with invalid values: one U+FFFD for the lot.
  if ((n == 2 && c < 0x800) || (n == 3 && (c < 0x10000 || c > 0x10FFFF)) ||
      (c >= 0xD800 && c <= 0xDFFF)) {
    i += static_cast<size_t>(n) + 1;
    return kReplacement;
  }
  i += static_cast<size_t>(n) + 1;
  return c;
}

std::vector<Token> tokenize(std::string_view s) {
  struct Cp { char32_t c; size_t begin, end; Kind k; };
  std::vector<Cp> cps;
  cps.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const size_t b = i;
    const char32_t c = decode_utf8(s, i);
    cps.push_back({c, b, i, classify(c)});
  }

  std::vector<Token> out;
  auto emit = [&](size_t from, size_t to) {  // code points [from, to)
    Token t;
    t.begin = cps[from].begin;
    t.end = cps[to - 1].end;
    for (size_t k = from; k < to; ++k) {
      if (cps[k].c == kReplacement)
        t.text += "\xEF\xBF\xBD";  // invalid bytes become U+FFFD, never raw bytes
      else
        t.text.append(s.substr(cps[k].begin, cps[k].end - cps[k].begin));
    }
    out.push_back(std::move(t));
  };
  // Extenders (combining marks, ...) and joiners stay with what precedes them.
  auto extend = [&](size_t k) {
    while (k < cps.size() && cps[k].k == Kind::Extender) ++k;
    return k;
  };

  for (size_t i = 0; i < cps.size();) {
    const Kind k = cps[i].k;
    if (k == Kind::Space) { ++i; continue; }
    size_t j = extend(i + 1);
    if (k == Kind::Letter) {
      for (;;) {
        if (j < cps.size() && cps[j].k == Kind::Letter) { j = extend(j + 1); continue; }
        // don't, well-known: an apostrophe or hyphen between letters stays inside
        if (j + 1 < cps.size() && is_inner_joiner(cps[j].c) && cps[j + 1].k == Kind::Letter) {
          j = extend(j + 2);
          continue;
        }
        break;
      }
    } else if (k == Kind::Emoji) {
      // regional indicator pairs are one flag; ZWJ chains are one emoji
      if (in(cps[i].c, 0x1F1E6, 0x1F1FF) && j < cps.size() && in(cps[j].c, 0x1F1E6, 0x1F1FF))
        j = extend(j + 1);
      while (j + 1 < cps.size() && cps[j].k == Kind::Joiner && cps[j + 1].k == Kind::Emoji)
        j = extend(j + 2);
    } else if (k == Kind::Extender || k == Kind::Joiner) {
      // a mark with nothing before it: its own token (kept, not dropped)
    }
    if (j < cps.size() && cps[j].k == Kind::Joiner && k != Kind::Emoji) ++j;  // trailing ZWJ
    emit(i, j);
    i = j;
  }
  return out;
}

}  // namespace headroom
