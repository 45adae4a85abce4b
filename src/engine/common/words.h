// words.h: a list of words as one phrase, for every message and sentence
// that names several things ("1, 2 or 4", "heads 1 and 3").
//
// Does: join items with ", " and put `last` (" or ", " and ") before the
// final one.
// Does not: quote, translate or format numbers (callers pass text).
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

// {} -> "", {"a"} -> "a", {"a", "b"} -> "a or b", {"a", "b", "c"} -> "a, b or c"
inline std::string join_words(const std::vector<std::string>& items, std::string_view last) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += i + 1 == items.size() ? last : std::string_view(", ");
    out += items[i];
  }
  return out;
}

}  // namespace headroom
