// url_state.cpp: parse, apply and write the URL hash (see url_state.h).
//
// Index of this file
//   [SECTION] helpers: showing a value in a message, UTF-8 check
//   [SECTION] percent-encoding
//   [SECTION] parse
//   [SECTION] apply and serialise
//
// Does not: trust anything in the hash. Every byte sequence either parses or
// yields a message; nothing it contains is ever interpreted as markup or code.
#include "app/url_state.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace headroom::app {

//-----------------------------------------------------------------------------
// [SECTION] helpers: showing a value in a message, UTF-8 check
//-----------------------------------------------------------------------------
namespace {

// A raw value as it may appear in a message: printable ASCII only (anything
// else becomes '?'), at most 24 characters, in quotes. Messages end up in
// ImGui or textContent, so this is about readability, not escaping.
std::string shown(std::string_view raw) {
  std::string out = "\"";
  const size_t n = std::min<size_t>(raw.size(), 24);
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = static_cast<unsigned char>(raw[i]);
    out += (c >= 0x20 && c < 0x7F && c != '"') ? static_cast<char>(c) : '?';
  }
  if (raw.size() > n) out += "...";
  out += '"';
  return out;
}

// Strict UTF-8: no overlongs, no surrogates (U+D800..DFFF), nothing above
// U+10FFFF. Also refuses C0/C1 controls and DEL, except \t \n \r when
// `allow_whitespace`. On failure sets `why`.
bool check_utf8(std::string_view s, bool allow_whitespace, std::string& why) {
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char b0 = static_cast<unsigned char>(s[i]);
    char32_t c = 0;
    size_t len = 0;
    if (b0 < 0x80) {
      c = b0;
      len = 1;
    } else if (b0 >= 0xC2 && b0 <= 0xDF) {
      c = b0 & 0x1Fu;
      len = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      c = b0 & 0x0Fu;
      len = 3;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      c = b0 & 0x07u;
      len = 4;
    } else {
      why = "is not valid UTF-8 text";
      return false;
    }
    if (i + len > s.size()) {
      why = "is not valid UTF-8 text (it ends inside a character)";
      return false;
    }
    for (size_t k = 1; k < len; ++k) {
      const unsigned char b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0u) != 0x80u) {
        why = "is not valid UTF-8 text";
        return false;
      }
      c = (c << 6) | (b & 0x3Fu);
    }
    if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10FFFF))) {
      why = "is not valid UTF-8 text (overlong or out of range)";
      return false;
    }
    if (c >= 0xD800 && c <= 0xDFFF) {
      why = "contains a lone surrogate (half of a UTF-16 pair), which is not text";
      return false;
    }
    const bool whitespace = c == '\t' || c == '\n' || c == '\r';
    if ((c < 0x20 && !(allow_whitespace && whitespace)) || (c >= 0x7F && c <= 0x9F)) {
      why = c == 0 ? "contains a NUL character (%00)" : "contains a control character";
      return false;
    }
    i += len;
  }
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whole number in plain decimal digits, 1..9 of them (fits an int).
bool parse_digits(std::string_view s, int& out) {
  if (s.empty() || s.size() > 9) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  out = v;
  return true;
}

// Plain decimal: digits, optionally '.' and digits ("0.5", ".5", "1", "1.").
// No sign, exponent, hex, inf or nan. At most 12 characters.
bool parse_decimal(std::string_view s, double& out) {
  if (s.empty() || s.size() > 12) return false;
  double v = 0, scale = 1;
  bool point = false, digit = false;
  for (char c : s) {
    if (c == '.' && !point) {
      point = true;
    } else if (c >= '0' && c <= '9') {
      digit = true;
      if (point) {
        scale /= 10;
        v += (c - '0') * scale;
      } else {
        v = v * 10 + (c - '0');
      }
    } else {
      return false;
    }
  }
  if (!digit) return false;
  out = v;
  return true;
}

template <size_t N>
bool one_of(const std::array<const char*, N>& list, std::string_view v) {
  return std::any_of(list.begin(), list.end(), [&](const char* s) { return v == s; });
}

template <size_t N>
std::string list_text(const std::array<const char*, N>& list) {
  std::string out;
  for (size_t i = 0; i < N; ++i) {
    if (i) out += i + 1 == N ? " or " : ", ";
    out += list[i];
  }
  return out;
}

}  // namespace

template <size_t N>
Status check_choice(const char* key, const std::array<const char*, N>& list, std::string_view value) {
  if (one_of(list, value)) return Status::ok();
  return Status::fail(std::string(key) + "=" + shown(value) + " is not a " + key + " (" + list_text(list) + ")");
}
template Status check_choice(const char*, const decltype(kViews)&, std::string_view);
template Status check_choice(const char*, const decltype(kThemes)&, std::string_view);

namespace {

std::string format_focus(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", static_cast<double>(f));
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s.empty() ? "0" : s;
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] percent-encoding
//-----------------------------------------------------------------------------
bool percent_decode(std::string_view in, bool allow_whitespace, std::string& out, std::string& why) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      const int hi = i + 1 < in.size() ? hex_value(in[i + 1]) : -1;
      const int lo = i + 2 < in.size() ? hex_value(in[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        why = "has a malformed %-escape " + shown(in.substr(i, 3)) + " (a % must be followed by two hex digits)";
        return false;
      }
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else if (c == '+') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return check_utf8(out, allow_whitespace, why);
}

std::string percent_encode(std::string_view in) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  out.reserve(in.size() * 3);
  for (char ch : in) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

//-----------------------------------------------------------------------------
// [SECTION] parse
//-----------------------------------------------------------------------------
namespace {

constexpr std::array<const char*, 6> kKeys = {"heads", "sentence", "query", "focus", "view", "theme"};

struct Item {
  std::string_view key, value;
  bool has_value = false;
};

}  // namespace

UrlParse parse_url_hash(std::string_view hash) {
  UrlParse r;
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  if (hash.size() > kMaxHashBytes) {
    r.messages.push_back("the link's settings (after #) are " + std::to_string(hash.size()) +
                         " bytes; the cap is " + std::to_string(kMaxHashBytes) + " bytes, so they were ignored");
    return r;
  }

  // Split on '&' into key[=value] items; empty items ("a&&b") are skipped.
  std::vector<Item> items;
  size_t start = 0;
  while (start <= hash.size()) {
    size_t end = hash.find('&', start);
    if (end == std::string_view::npos) end = hash.size();
    const std::string_view part = hash.substr(start, end - start);
    if (!part.empty()) {
      Item it;
      const size_t eq = part.find('=');
      it.key = part.substr(0, eq);
      if (eq != std::string_view::npos) {
        it.value = part.substr(eq + 1);
        it.has_value = true;
      }
      items.push_back(it);
    }
    start = end + 1;
  }

  std::array<int, kKeys.size()> count{};
  for (const Item& it : items)
    for (size_t k = 0; k < kKeys.size(); ++k)
      if (it.key == kKeys[k]) ++count[k];

  std::array<bool, kKeys.size()> reported_twice{};
  for (const Item& it : items) {
    const std::string_view key = it.key;
    const size_t ki = static_cast<size_t>(std::find(kKeys.begin(), kKeys.end(), key) - kKeys.begin());
    if (ki == kKeys.size()) {
      r.messages.push_back("ignored the unknown link setting " + shown(key) +
                           " (known: heads, sentence, query, focus, view, theme)");
      continue;
    }
    const std::string k(key);
    if (count[ki] > 1) {
      if (!reported_twice[ki]) {
        reported_twice[ki] = true;
        r.messages.push_back("the link gives " + k + " " + std::to_string(count[ki]) +
                             " times; which one was meant is unclear, so the current " + k + " is kept");
      }
      continue;
    }
    if (!it.has_value || it.value.empty()) {
      r.messages.push_back("the link setting " + k + " has no value; the current " + k + " is kept");
      continue;
    }
    std::string value, why;
    if (!percent_decode(it.value, key == "sentence", value, why)) {
      r.messages.push_back("the link's " + k + " " + why + "; the current " + k + " is kept");
      continue;
    }

    if (key == "heads" || key == "query") {
      int n = 0;
      if (!parse_digits(value, n)) {
        r.messages.push_back("the link's " + k + "=" + shown(value) + " is not a whole number written in digits" +
                             (key == "heads" ? " (1, 2, 4 or 8)" : " (a token index: 0, 1, 2, ...)") +
                             "; the current " + k + " is kept");
        continue;
      }
      (key == "heads" ? r.state.heads : r.state.query) = n;
    } else if (key == "focus") {
      double f = 0;
      if (!parse_decimal(value, f)) {
        r.messages.push_back("the link's focus=" + shown(value) +
                             " is not a plain number from 0 to 1 (like 0.5); the current focus is kept");
        continue;
      }
      if (f > 1) {
        r.messages.push_back("the link's focus=" + shown(value) + " is above 1; using 1 (focus runs from 0 to 1)");
        f = 1;
      }
      r.state.focus = static_cast<float>(f);
    } else if (key == "sentence") {
      r.state.sentence = std::move(value);
    } else if (key == "view" || key == "theme") {
      const Status s = key == "view" ? check_choice("view", kViews, value) : check_choice("theme", kThemes, value);
      if (!s) {
        r.messages.push_back("the link's " + s.error + "; the current " + k + " is kept");
        continue;
      }
      (key == "view" ? r.state.view : r.state.theme) = std::move(value);
    }
  }
  // A token index only means something for the sentence it was written for.
  if (count[1] > 0 && !r.state.sentence && r.state.query) {
    r.state.query.reset();
    r.messages.push_back("the link's query was skipped because its sentence was refused");
  }
  return r;
}

//-----------------------------------------------------------------------------
// [SECTION] apply and serialise
//-----------------------------------------------------------------------------
std::vector<std::string> apply_url_state(Scene& scene, const UrlState& s) {
  std::vector<std::string> out;
  auto refused = [&](const char* key, const Status& st) {
    if (!st) out.push_back(std::string("the link's ") + key + " was refused: " + st.error + "; the current " + key +
                           " is kept");
    return !st;
  };
  bool sentence_refused = false;
  if (s.sentence) sentence_refused = refused("sentence", scene.set_sentence(*s.sentence));
  if (s.query) {
    if (sentence_refused)
      out.push_back("the link's query was skipped because its sentence was refused");
    else
      refused("query", scene.set_query(*s.query));
  }
  if (s.heads) refused("heads", scene.set_heads(*s.heads));
  if (s.focus) refused("focus", scene.set_focus(*s.focus));
  return out;
}

std::string to_url_hash(const UrlState& s) {
  std::string out;
  auto add = [&](const char* key, const std::string& value) {
    if (!out.empty()) out += '&';
    out += key;
    out += '=';
    out += value;
  };
  if (s.heads) add("heads", std::to_string(*s.heads));
  if (s.query) add("query", std::to_string(*s.query));
  if (s.focus) add("focus", format_focus(*s.focus));
  if (s.view) add("view", percent_encode(*s.view));
  if (s.theme) add("theme", percent_encode(*s.theme));
  if (s.sentence) add("sentence", percent_encode(*s.sentence));
  return out;
}

UrlState url_state_of(const Scene& scene, std::string_view sentence, std::string_view view,
                      std::string_view theme) {
  UrlState s;
  s.heads = scene.heads();
  s.query = scene.query();
  if (scene.focus() != 0.5f) s.focus = scene.focus();
  if (sentence != Scene::lesson_sentence()) s.sentence = std::string(sentence);
  if (!view.empty() && view != kViews[0]) s.view = std::string(view);
  if (!theme.empty() && theme != kThemes[0]) s.theme = std::string(theme);
  return s;
}

std::string join_messages(const std::vector<std::string>& messages) {
  std::string out;
  const size_t n = std::min(messages.size(), kMaxHashMessages);
  for (size_t i = 0; i < n; ++i) {
    if (i) out += "; ";
    out += messages[i];
  }
  if (messages.size() > n) out += "; and " + std::to_string(messages.size() - n) + " more";
  return out;
}

}  // namespace headroom::app
