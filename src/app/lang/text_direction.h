// text_direction.h: which way a sentence reads, for laying its tokens out.
//
// Does: paragraph_rtl(text) applies Unicode's paragraph rule (UAX #9, P2 and
// P3): the first character of a strong direction decides; right-to-left when
// it is of class R or AL (Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan,
// Mandaic and their presentation forms), left-to-right when it is of class L
// or when there is no strong character at all (digits, punctuation, emoji).
// Does not: reorder text (the browser's bidi algorithm does, when it draws a
// string) or hold the full Unicode tables: a code point outside the R/AL
// blocks that is a letter counts as L; the neutral and weak blocks below are
// skipped.
#pragma once

#include <string_view>

namespace headroom::app {

bool paragraph_rtl(std::string_view utf8);

}  // namespace headroom::app
