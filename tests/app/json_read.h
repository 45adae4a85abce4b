// json_read.h: a strict little JSON reader for the app tests, so they check
// what a host page would parse (JSON.parse), not the writer's own idea of it.
//
// Does: parse RFC 8259 JSON into a tree (objects keep key order); refuse
// anything else, including NaN, Infinity and trailing commas, by returning
// false with the offset of the problem. \uXXXX escapes are decoded to UTF-8,
// a surrogate pair to one code point; a lone surrogate is refused (JSON.parse
// would take it, but no writer of ours may emit one).
// Does not: aim for speed, or live in src/ (the app only writes JSON).
#pragma once
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jsonr {

struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Value> items;                            // Array
  std::vector<std::pair<std::string, Value>> fields;   // Object

  // Member `k` of an object, or nullptr.
  const Value* get(std::string_view k) const {
    for (const auto& f : fields)
      if (f.first == k) return &f.second;
    return nullptr;
  }
  const Value& operator[](std::string_view k) const {
    static const Value none;
    const Value* v = get(k);
    return v ? *v : none;
  }
  const Value& operator[](size_t i) const { return items.at(i); }
  size_t size() const { return kind == Array ? items.size() : fields.size(); }
};

class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}
  bool parse(Value& out) {
    ws();
    if (!value(out)) return false;
    ws();
    return i_ == s_.size() || fail();
  }
  size_t where() const { return i_; }

 private:
  bool fail() { return false; }
  void ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool lit(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool value(Value& v) {
    if (i_ >= s_.size()) return false;
    const char c = s_[i_];
    if (c == '{') return object(v);
    if (c == '[') return array(v);
    if (c == '"') { v.kind = Value::String; return string(v.str); }
    if (lit("null")) { v.kind = Value::Null; return true; }
    if (lit("true")) { v.kind = Value::Bool; v.b = true; return true; }
    if (lit("false")) { v.kind = Value::Bool; v.b = false; return true; }
    return number(v);
  }
  bool number(Value& v) {
    const size_t start = i_;
    auto digits = [&] {
      const size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > d;
    };
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    if (i_ < s_.size() && s_[i_] == '0') ++i_;
    else if (!digits()) return false;
    if (i_ < s_.size() && s_[i_] == '.') { ++i_; if (!digits()) return false; }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) return false;
    }
    v.kind = Value::Number;
    v.num = std::strtod(std::string(s_.substr(start, i_ - start)).c_str(), nullptr);
    return true;
  }
  bool string(std::string& out) {
    ++i_;  // opening quote
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') { out += c; continue; }
      if (i_ >= s_.size()) return false;
      const char e = s_[i_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned u = 0;
          if (!hex4(u)) return false;
          if (u >= 0xDC00 && u <= 0xDFFF) return false;  // a low surrogate first
          if (u >= 0xD800 && u <= 0xDBFF) {
            unsigned lo = 0;
            if (!lit("\\u") || !hex4(lo) || lo < 0xDC00 || lo > 0xDFFF) return false;
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
          }
          utf8(out, u);
          break;
        }
        default: return false;
      }
    }
    return false;
  }
  bool hex4(unsigned& u) {
    if (i_ + 4 > s_.size()) return false;
    u = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      const int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (d < 0) return false;
      u = u * 16 + static_cast<unsigned>(d);
    }
    return true;
  }
  static void utf8(std::string& out, unsigned u) {
    if (u < 0x80) {
      out += static_cast<char>(u);
    } else if (u < 0x800) {
      out += static_cast<char>(0xC0 | (u >> 6));
      out += static_cast<char>(0x80 | (u & 0x3F));
    } else if (u < 0x10000) {
      out += static_cast<char>(0xE0 | (u >> 12));
      out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (u & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (u >> 18));
      out += static_cast<char>(0x80 | ((u >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((u >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (u & 0x3F));
    }
  }
  bool array(Value& v) {
    v.kind = Value::Array;
    ++i_;
    ws();
    if (i_ < s_.size() && s_[i_] == ']') { ++i_; return true; }
    while (true) {
      ws();
      v.items.emplace_back();
      if (!value(v.items.back())) return false;
      ws();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == ',') { ++i_; continue; }
      if (s_[i_] == ']') { ++i_; return true; }
      return false;
    }
  }
  bool object(Value& v) {
    v.kind = Value::Object;
    ++i_;
    ws();
    if (i_ < s_.size() && s_[i_] == '}') { ++i_; return true; }
    while (true) {
      ws();
      if (i_ >= s_.size() || s_[i_] != '"') return false;
      std::string k;
      if (!string(k)) return false;
      ws();
      if (i_ >= s_.size() || s_[i_] != ':') return false;
      ++i_;
      ws();
      v.fields.emplace_back(std::move(k), Value{});
      if (!value(v.fields.back().second)) return false;
      ws();
      if (i_ >= s_.size()) return false;
      if (s_[i_] == ',') { ++i_; continue; }
      if (s_[i_] == '}') { ++i_; return true; }
      return false;
    }
  }

  std::string_view s_;
  size_t i_ = 0;
};

// Parses `s` into `out`; false (with `where` set) when it is not JSON.
inline bool parse(std::string_view s, Value& out, size_t* where = nullptr) {
  Reader r(s);
  const bool ok = r.parse(out);
  if (where) *where = r.where();
  return ok;
}

}  // namespace jsonr
