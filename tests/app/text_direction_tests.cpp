// text_direction_tests.cpp: the paragraph rule (app/lang/text_direction.h) on
// sentences whose first strong character is known by reading them: neutral
// and weak characters before it (digits, punctuation, emoji, spaces) never
// decide, and a sentence with no strong character reads left to right.
#include <doctest/doctest.h>

#include "app/lang/text_direction.h"

using headroom::app::paragraph_rtl;

TEST_CASE("paragraph_rtl: the first strong character decides") {
  // Arabic and Hebrew first: right to left, whatever follows.
  CHECK(paragraph_rtl("\xd9\x82\xd8\xa7\xd9\x84\xd8\xaa \xd8\xa7\xd9\x84\xd8\xa8\xd8\xa7\xd8\xad\xd8\xab\xd8\xa9 OK"));
  CHECK(paragraph_rtl("\xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d world"));
  // Latin, CJK, Cyrillic first: left to right, whatever follows.
  CHECK_FALSE(paragraph_rtl("OK \xd9\x82\xd8\xa7\xd9\x84\xd8\xaa"));
  CHECK_FALSE(paragraph_rtl("\xe7\xa0\x94\xe7\xa9\xb6\xe8\x80\x85\xe8\xaf\xb4\xe5\xae\x83\xe9\x94\x99\xe4\xba\x86\xe3\x80\x82"));
  CHECK_FALSE(paragraph_rtl("\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82 \xd9\x82"));
}

TEST_CASE("paragraph_rtl: digits, punctuation, emoji and spaces before it do not decide") {
  CHECK(paragraph_rtl("2026, \xf0\x9f\x98\x80 \"\xd9\x82\xd8\xa7\xd9\x84\xd8\xaa\""));  // 2026, 😀 "قالت"
  CHECK_FALSE(paragraph_rtl("2026, \xf0\x9f\x98\x80 \"said\""));
  CHECK_FALSE(paragraph_rtl("\xe2\x80\x94 \xc3\x97 it"));  // — × it
}

TEST_CASE("paragraph_rtl: no strong character, or invalid bytes only, read left to right") {
  CHECK_FALSE(paragraph_rtl(""));
  CHECK_FALSE(paragraph_rtl("12 + 3 = 15 !"));
  CHECK_FALSE(paragraph_rtl("\xf0\x9f\x98\x80\xf0\x9f\x8e\x89"));
  CHECK_FALSE(paragraph_rtl("\xff\xfe"));
  // An invalid byte is neutral: the Arabic after it still decides.
  CHECK(paragraph_rtl("\xff \xd9\x82"));
}
