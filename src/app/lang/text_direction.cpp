// text_direction.cpp: see text_direction.h.
#include "app/lang/text_direction.h"

#include "engine/lesson/tokenizer.h"  // decode_utf8

namespace headroom::app {

namespace {

bool strong_rtl(char32_t c) {
  return (c >= 0x0590 && c <= 0x08FF) ||    // Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, ...
         (c >= 0xFB1D && c <= 0xFDFF) ||    // Hebrew and Arabic presentation forms A
         (c >= 0xFE70 && c <= 0xFEFF) ||    // Arabic presentation forms B
         (c >= 0x10800 && c <= 0x10FFF) ||  // historic right-to-left scripts
         (c >= 0x1E800 && c <= 0x1EFFF);    // Adlam, Arabic mathematical symbols, ...
}

// Digits, punctuation, symbols, spaces, marks and emoji: weak or neutral.
bool not_strong(char32_t c) {
  if (c < 0x80) return !((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
  return (c >= 0x80 && c <= 0xBF) || c == 0xD7 || c == 0xF7 ||  // Latin-1 punctuation, signs, x and /
         (c >= 0x0300 && c <= 0x036F) ||                        // combining marks
         (c >= 0x2000 && c <= 0x2BFF) ||                        // punctuation, symbols, arrows, maths
         (c >= 0x3000 && c <= 0x303F) ||                        // CJK punctuation
         (c >= 0xFE00 && c <= 0xFE0F) ||                        // variation selectors
         (c >= 0xFF00 && c <= 0xFF20) ||                        // full-width punctuation and digits
         (c >= 0x1F000 && c <= 0x1FAFF) ||                      // emoji and pictographs
         c == 0xFFFD;
}

}  // namespace

bool paragraph_rtl(std::string_view utf8) {
  for (size_t i = 0; i < utf8.size();) {
    const char32_t c = decode_utf8(utf8, i);
    if (strong_rtl(c)) return true;
    if (!not_strong(c)) return false;
  }
  return false;
}

}  // namespace headroom::app
