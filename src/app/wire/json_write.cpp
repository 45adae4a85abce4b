// json_write.cpp: the JSON writers (see json_write.h).
#include "app/wire/json_write.h"

#include <cmath>
#include <cstdio>

#include "engine/lesson/tokenizer.h"

namespace headroom::app {

namespace {

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace

void append_float(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  out += buf;
}

void append_int(std::string& out, long long v) { out += std::to_string(v); }

void append_fixed(std::string& out, double v, int digits) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  char buf[352];  // %.*f of DBL_MAX is 309 digits before the point
  std::snprintf(buf, sizeof buf, "%.*f", digits < 0 ? 0 : digits > 17 ? 17 : digits, v);
  out += buf;
}

void json_key(std::string& out, const char* k, bool first) {
  if (!first) out += ',';
  out += '"';
  out += k;
  out += "\":";
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    char32_t c = decode_utf8(s, i);
    if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = 0xFFFD;  // never emit CESU-8
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x2028 || c == 0x2029) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          append_utf8(out, c);
        }
    }
  }
  out += '"';
}

}  // namespace headroom::app
