// fuzz_json.cpp: libFuzzer target for the JSON writers (app/wire/json_write.h)
// that every getState(), train.state() and snapshot goes through.
//
// Does: write one object from the input: the whole input as a string field,
// its bytes read as floats (4 at a time, every bit pattern: NaN, infinities,
// -0, subnormals), as 64-bit integers and as bools, plus a nested object and
// an empty array; then parse it with tests/app/json_read.h, a strict RFC 8259
// reader that is not the writer, and check each value came back:
// - the document parses, and its strings are well-formed UTF-8;
// - a string of well-formed UTF-8 comes back byte for byte; an ill-formed one
//   comes back with U+FFFD in place of what was ill-formed and every
//   well-formed sequence kept, in order (checked against this file's own
//   validator, Unicode's Table 3-7);
// - a finite float comes back as the same float (9 significant digits); NaN
//   and infinities as null; an integer as the same integer (read from its
//   digits, not through a double).
// Does not: run in the normal build (see fuzz.cmake).
//
// Run: ./build.sh fuzz   (or build/native-asan/fuzz_json <corpus dirs>)
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "../app/json_read.h"
#include "app/wire/json_write.h"

#define FUZZ_CHECK(cond) \
  do {                   \
    if (!(cond)) __builtin_trap(); \
  } while (0)

using namespace headroom::app;

namespace {

// Length of the well-formed UTF-8 sequence at s[i] (Unicode 15, Table 3-7),
// or 0 when none starts there.
size_t well_formed_at(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0x100u; };
  const unsigned c = b(0);
  auto in = [](unsigned v, unsigned lo, unsigned hi) { return v >= lo && v <= hi; };
  if (c <= 0x7F) return 1;
  if (in(c, 0xC2, 0xDF)) return in(b(1), 0x80, 0xBF) ? 2 : 0;
  if (c == 0xE0) return in(b(1), 0xA0, 0xBF) && in(b(2), 0x80, 0xBF) ? 3 : 0;
  if (in(c, 0xE1, 0xEC) || in(c, 0xEE, 0xEF)) return in(b(1), 0x80, 0xBF) && in(b(2), 0x80, 0xBF) ? 3 : 0;
  if (c == 0xED) return in(b(1), 0x80, 0x9F) && in(b(2), 0x80, 0xBF) ? 3 : 0;
  if (c == 0xF0) return in(b(1), 0x90, 0xBF) && in(b(2), 0x80, 0xBF) && in(b(3), 0x80, 0xBF) ? 4 : 0;
  if (in(c, 0xF1, 0xF3)) return in(b(1), 0x80, 0xBF) && in(b(2), 0x80, 0xBF) && in(b(3), 0x80, 0xBF) ? 4 : 0;
  if (c == 0xF4) return in(b(1), 0x80, 0x8F) && in(b(2), 0x80, 0xBF) && in(b(3), 0x80, 0xBF) ? 4 : 0;
  return 0;
}

bool well_formed(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const size_t n = well_formed_at(s, i);
    if (!n) return false;
    i += n;
  }
  return true;
}

// The well-formed sequences of s, in order, with every U+FFFD removed.
std::string kept_without_replacement(std::string_view s) {
  static constexpr std::string_view kFffd = "\xEF\xBF\xBD";
  std::string out;
  for (size_t i = 0; i < s.size();) {
    const size_t n = well_formed_at(s, i);
    if (!n) { ++i; continue; }
    if (s.substr(i, n) != kFffd) out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  std::vector<float> floats(size / 4);
  if (!floats.empty()) std::memcpy(floats.data(), data, floats.size() * 4);
  std::vector<long long> ints(size / 8);
  if (!ints.empty()) std::memcpy(ints.data(), data, ints.size() * 8);

  std::string doc;
  {
    JsonObject o(doc);
    o.field("s", bytes);
    o.key("f");
    append_values(doc, floats);
    o.key("i");
    append_values(doc, ints);
    o.field("b", size % 2 == 0);
    o.string_or_null("n", size % 3 == 0 ? std::string_view() : bytes.substr(0, size / 2));
    o.key("nested");
    {
      JsonObject inner(doc);
      inner.field("half", bytes.substr(size / 2));
      inner.key("empty");
      append_values(doc, std::vector<int>{});
    }
  }

  jsonr::Value v;
  FUZZ_CHECK(jsonr::parse(doc, v));
  FUZZ_CHECK(well_formed(doc));

  // strings
  const std::string& s = v["s"].str;
  FUZZ_CHECK(v["s"].kind == jsonr::Value::String);
  if (well_formed(bytes)) {
    FUZZ_CHECK(s == bytes);
  } else {
    FUZZ_CHECK(s.find("\xEF\xBF\xBD") != std::string::npos);
    FUZZ_CHECK(kept_without_replacement(s) == kept_without_replacement(bytes));
  }
  const std::string_view half = bytes.substr(size / 2);
  if (well_formed(half)) FUZZ_CHECK(v["nested"]["half"].str == half);
  FUZZ_CHECK(v["nested"]["empty"].kind == jsonr::Value::Array && v["nested"]["empty"].size() == 0);
  // string_or_null: null for an empty string, else the string
  if (size % 3 == 0 || size / 2 == 0) FUZZ_CHECK(v["n"].kind == jsonr::Value::Null);
  else FUZZ_CHECK(v["n"].kind == jsonr::Value::String);
  FUZZ_CHECK(v["b"].kind == jsonr::Value::Bool && v["b"].b == (size % 2 == 0));

  // floats: same float back, or null for NaN and infinities
  const jsonr::Value& f = v["f"];
  FUZZ_CHECK(f.kind == jsonr::Value::Array && f.size() == floats.size());
  for (size_t k = 0; k < floats.size(); ++k) {
    if (!std::isfinite(floats[k])) {
      FUZZ_CHECK(f[k].kind == jsonr::Value::Null);
      continue;
    }
    FUZZ_CHECK(f[k].kind == jsonr::Value::Number);
    const float back = static_cast<float>(f[k].num);
    FUZZ_CHECK(back == floats[k]);
    FUZZ_CHECK(std::signbit(back) == std::signbit(floats[k]));  // -0 stays -0
  }

  // integers: the written digits are the integer (strtoll, not a double)
  const jsonr::Value& in = v["i"];
  FUZZ_CHECK(in.kind == jsonr::Value::Array && in.size() == ints.size());
  std::string one;
  for (size_t k = 0; k < ints.size(); ++k) {
    one.clear();
    append_int(one, ints[k]);
    FUZZ_CHECK(std::strtoll(one.c_str(), nullptr, 10) == ints[k]);
    FUZZ_CHECK(doc.find(one) != std::string::npos);
    FUZZ_CHECK(in[k].kind == jsonr::Value::Number && in[k].num == static_cast<double>(ints[k]));
  }
  return 0;
}
