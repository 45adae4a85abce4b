// words_tests.cpp: join_words (engine/common/words.h) on lists of 0 to 4
// items, against phrases written by hand.
#include <doctest/doctest.h>

#include "engine/common/words.h"

using headroom::join_words;

TEST_CASE("join_words: commas between items, the last joiner before the final one") {
  CHECK(join_words({}, " or ") == "");
  CHECK(join_words({"1"}, " or ") == "1");
  CHECK(join_words({"1", "2"}, " and ") == "1 and 2");
  CHECK(join_words({"1", "2", "4"}, " or ") == "1, 2 or 4");
  CHECK(join_words({"a", "b", "c", "d"}, " and ") == "a, b, c and d");
}
