// json_write.h: the few JSON writers every state serialiser in src/app shares
// (getState in state_json.cpp, the training state and snapshot in
// live_training_json.cpp).
//
// Does: append numbers, strings, keys, arrays and objects (JsonObject: one
// field(key, value) call per field) to a std::string. Floats are
// written with 9 significant digits (a float round-trips) and a NaN or an
// infinity as null, so no non-finite number can reach JSON; strings are
// escaped, with invalid UTF-8 replaced by U+FFFD.
// Does not: parse JSON, or build a document tree (the shapes are small and
// fixed, so each serialiser writes its object in order).
#pragma once
#include <string>
#include <string_view>
#include <type_traits>

namespace headroom::app {

// `s` as a JSON string literal (quotes, escapes, invalid UTF-8 -> U+FFFD).
void append_json_string(std::string& out, std::string_view s);
// %.9g, or null when `v` is NaN or infinite.
void append_float(std::string& out, double v);
void append_int(std::string& out, long long v);
// `v` with `digits` decimals (%.*f: a pixel position to 0.1 px), or null
// when it is NaN or infinite.
void append_fixed(std::string& out, double v, int digits);
// "key": with a leading comma unless `first`.
void json_key(std::string& out, const char* k, bool first = false);

// true/false, an integer, a float (append_float) or a string, by v's type.
template <class V>
void append_value(std::string& out, const V& v) {
  if constexpr (std::is_same_v<V, bool>) {
    out += v ? "true" : "false";
  } else if constexpr (std::is_integral_v<V>) {
    append_int(out, v);
  } else if constexpr (std::is_floating_point_v<V>) {
    append_float(out, v);
  } else {
    append_json_string(out, std::string_view(v));
  }
}

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

// [each(0), ..., each(n - 1)]: for what is indexed rather than iterated
// (a matrix row, a raw buffer).
template <class F>
void append_array_n(std::string& out, long long n, F&& each) {
  out += '[';
  for (long long i = 0; i < n; ++i) {
    if (i) out += ',';
    each(i);
  }
  out += ']';
}

// [v, ...] of a range of numbers, each by append_value.
template <class T>
void append_values(std::string& out, const T& items) {
  append_array(out, items, [&](const auto& v) { append_value(out, v); });
}

// One JSON object, written in order: '{' now, '}' when it goes out of scope.
//   { JsonObject o(out); o.field("heads", 2); o.key("weights"); append_values(out, w); }
class JsonObject {
 public:
  explicit JsonObject(std::string& out) : out_(out) { out_ += '{'; }
  ~JsonObject() { out_ += '}'; }
  JsonObject(const JsonObject&) = delete;
  JsonObject& operator=(const JsonObject&) = delete;

  // "key": (comma as needed); the caller appends the value to the string returned.
  std::string& key(const char* k) {
    json_key(out_, k, first_);
    first_ = false;
    return out_;
  }
  // "key": value, the value written by append_value.
  template <class V>
  JsonObject& field(const char* k, const V& v) {
    append_value(key(k), v);
    return *this;
  }
  // "key": the string, or null when it is empty (no error, no note).
  JsonObject& string_or_null(const char* k, std::string_view s) {
    if (s.empty()) {
      key(k) += "null";
    } else {
      append_json_string(key(k), s);
    }
    return *this;
  }

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace headroom::app
