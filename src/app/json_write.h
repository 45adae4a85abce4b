// json_write.h: the few JSON writers every state serialiser in src/app shares
// (getState in state_json.cpp, the training state and snapshot in
// training_json.cpp).
//
// Does: append numbers, strings, keys and arrays to a std::string. Floats are
// written with 9 significant digits (a float round-trips) and a NaN or an
// infinity as null, so no non-finite number can reach JSON; strings are
// escaped, with invalid UTF-8 replaced by U+FFFD.
// Does not: parse JSON, or build a document tree (the shapes are small and
// fixed, so each serialiser writes its object in order).
#pragma once
#include <string>
#include <string_view>

namespace headroom::app {

// `s` as a JSON string literal (quotes, escapes, invalid UTF-8 -> U+FFFD).
void append_json_string(std::string& out, std::string_view s);
// %.9g, or null when `v` is NaN or infinite.
void append_float(std::string& out, double v);
void append_int(std::string& out, long long v);
// "key": with a leading comma unless `first`.
void json_key(std::string& out, const char* k, bool first = false);

// [each(item), ...] over any range.
template <class T, class F>
void append_array(std::string& out, const T& items, F&& each) {
  out += '[';
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ',';
    first = false;
    each(item);
  }
  out += ']';
}

}  // namespace headroom::app
