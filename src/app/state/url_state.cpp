// url_state.cpp: parse, apply and write the URL hash (see url_state.h).
//
// Index of this file
//   [SECTION] helpers: showing a value in a message, UTF-8 check, numbers
//   [SECTION] percent-encoding
//   [SECTION] the keys: one table drives parsing, messages and writing
//   [SECTION] parse
//   [SECTION] apply and serialise
//
// Does not: trust anything in the hash. Every byte sequence either parses or
// yields a message; nothing it contains is ever interpreted as markup or code.
#include "app/state/url_state.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "engine/common/words.h"
#include "engine/lesson/tokenizer.h"
#include "app/lang/lang.h"
#include "app/lang/refusals.h"
#include "app/tour/tour.h"
#include "engine/train/trainer.h"

namespace headroom::app {

//-----------------------------------------------------------------------------
// [SECTION] helpers: showing a value in a message, UTF-8 check, numbers
//-----------------------------------------------------------------------------
namespace {

std::string shown(std::string_view raw) { return shown_value(raw); }

}  // namespace

namespace {

// Strict UTF-8 through the tokenizer's decoder (engine/lesson/tokenizer.h), which
// turns every invalid sequence (bad bytes, truncation, overlongs, surrogates,
// above U+10FFFF) into U+FFFD: a U+FFFD not spelled EF BF BD is invalid
// input. Also refuses C0/C1 controls and DEL, except \t \n \r when
// `allow_whitespace`. On failure sets `why` (about the value of `key`).
bool check_utf8(std::string_view key, std::string_view s, bool allow_whitespace, Status& why) {
  for (size_t i = 0; i < s.size();) {
    const size_t begin = i;
    const char32_t c = decode_utf8(s, i);
    const std::string_view bytes = s.substr(begin, i - begin);
    if (c == 0xFFFD && bytes != "\xEF\xBF\xBD") {
      // ED A0..BF xx is the only 3-byte pattern the decoder takes whole and
      // refuses that starts with ED: an encoded UTF-16 surrogate.
      why = Status::fail(bytes.size() == 3 && static_cast<unsigned char>(bytes[0]) == 0xED ? refusals::value_lone_surrogate
                                                                                             : refusals::value_not_utf8,
                         std::string(key));
      return false;
    }
    const bool whitespace = c == '\t' || c == '\n' || c == '\r';
    if ((c < 0x20 && !(allow_whitespace && whitespace)) || (c >= 0x7F && c <= 0x9F)) {
      why = Status::fail(c == 0 ? refusals::value_nul : refusals::value_control, std::string(key));
      return false;
    }
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

std::string text_of(int v) { return std::to_string(v); }

// "a, b or c", its joiner in the language shown
template <typename T, size_t N>
StatusArg list_text(const std::array<T, N>& list) {
  std::vector<std::string> items;
  for (const T& v : list) items.push_back(text_of(v));
  return StatusArg::list(std::move(items), " or ");
}

std::string format_focus(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", static_cast<double>(f));
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s.empty() ? "0" : s;
}


}  // namespace

Status check_export(std::string_view view, std::string_view format) {
  if (Status s = check_choice("view", kViews, view); !s) return s;
  return check_choice("format", kExportFormats, format);
}

//-----------------------------------------------------------------------------
// [SECTION] percent-encoding
//-----------------------------------------------------------------------------
bool percent_decode(std::string_view key, std::string_view in, bool allow_whitespace, std::string& out, Status& why) {
  out.clear();
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      const int hi = i + 1 < in.size() ? hex_value(in[i + 1]) : -1;
      const int lo = i + 2 < in.size() ? hex_value(in[i + 2]) : -1;
      if (hi < 0 || lo < 0) {
        why = Status::fail(refusals::value_bad_escape, std::string(key), shown(in.substr(i, 3)));
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
  return check_utf8(key, out, allow_whitespace, why);
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
// [SECTION] the keys: one table drives parsing, messages and writing
//-----------------------------------------------------------------------------
namespace {

// One row per key the hash may carry, in the order to_url_hash writes them.
// `read` takes the percent-decoded value: on refusal it returns false with
// `why`, the reason inside "the link's <why>; the current value of <key> is
// kept" (refusals::link_kept); it may set `note` for a value it accepted
// after changing it. `write` appends the
// field's encoded value and returns true when the field is set.
struct Key {
  const char* name;
  bool whitespace;  // the decoded value may hold \t \n \r
  bool (*read)(std::string value, UrlState& s, Status& why, Status& note);
  bool (*write)(const UrlState& s, std::string& out);
};

bool read_whole(std::string_view key, const std::string& value, const StatusArg& expected, std::optional<int>& field,
                Status& why) {
  int n = 0;
  if (!parse_digits(value, n)) {
    why = Status::fail(refusals::value_not_digits, std::string(key), shown(value), expected);
    return false;
  }
  field = n;
  return true;
}

// A whole number that must be one of `list`; `not_listed` says what the list is.
template <size_t N>
bool read_listed(const char* key, const std::string& value, const std::array<int, N>& list, const Refusal& not_listed,
                 std::optional<int>& field, Status& why) {
  std::optional<int> n;
  if (!read_whole(key, value, list_text(list), n, why)) return false;
  if (std::find(list.begin(), list.end(), *n) == list.end()) {
    why = Status::fail(not_listed, shown(value), list_text(list));
    return false;
  }
  field = n;
  return true;
}

template <size_t N>
bool read_choice(const char* key, const std::array<const char*, N>& list, std::string value,
                 std::optional<std::string>& field, Status& why) {
  why = check_choice(key, list, value);
  if (!why) return false;
  field = std::move(value);
  return true;
}

bool write_text(const std::optional<std::string>& field, std::string& out) {
  if (field) out += percent_encode(*field);
  return field.has_value();
}

// A whole-number field (heads, query, seed, r) in decimal digits.
template <class T>
bool write_whole(const std::optional<T>& field, std::string& out) {
  if (field) out += std::to_string(*field);
  return field.has_value();
}

const std::array<Key, 16> kKeys = {{
    {"heads", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_whole("heads", v, list_text(kHeadCounts), s.heads, why);
     },
     [](const UrlState& s, std::string& out) { return write_whole(s.heads, out); }},
    {"query", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_whole("query", v, StatusArg::phrase(N_("a token index: 0, 1, 2, ...")), s.query, why);
     },
     [](const UrlState& s, std::string& out) { return write_whole(s.query, out); }},
    {"focus", false,
     [](std::string v, UrlState& s, Status& why, Status& note) {
       double f = 0;
       if (!parse_decimal(v, f)) {
         why = Status::fail(refusals::link_focus, shown(v));
         return false;
       }
       if (f > 1) {
         note = Status::fail(refusals::link_focus_above, shown(v));
         f = 1;
       }
       s.focus = static_cast<float>(f);
       return true;
     },
     [](const UrlState& s, std::string& out) {
       if (s.focus) out += format_focus(*s.focus);
       return s.focus.has_value();
     }},
    {"view", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_choice("view", kViews, std::move(v), s.view, why);
     },
     [](const UrlState& s, std::string& out) { return write_text(s.view, out); }},
    {"theme", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_choice("theme", kThemes, std::move(v), s.theme, why);
     },
     [](const UrlState& s, std::string& out) { return write_text(s.theme, out); }},
    {"lang", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       for (const std::string& code : language_code_list())
         if (code == v) {
           s.lang = std::move(v);
           return true;
         }
       why = language_status(v);
       return false;
     },
     [](const UrlState& s, std::string& out) { return write_text(s.lang, out); }},
    {"tab", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_choice("tab", kTabs, std::move(v), s.tab, why);
     },
     [](const UrlState& s, std::string& out) { return write_text(s.tab, out); }},
    {"seed", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       // Up to 10 digits: 0 .. kMaxSeed = 2^32 - 1.
       int64_t n = 0;
       bool digits = !v.empty() && v.size() <= 10;
       for (char c : v) digits = digits && c >= '0' && c <= '9';
       if (digits)
         for (char c : v) n = n * 10 + (c - '0');
       if (!digits || n > kMaxSeed) {
         why = Status::fail(refusals::link_seed, shown(v), kMaxSeed);
         return false;
       }
       s.seed = n;
       return true;
     },
     [](const UrlState& s, std::string& out) { return write_whole(s.seed, out); }},
    {"r", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_listed("r", v, kTrainRelations, refusals::link_r, s.r, why);
     },
     [](const UrlState& s, std::string& out) { return write_whole(s.r, out); }},
    {"task", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_choice("task", kTrainTasks, std::move(v), s.task, why);
     },
     [](const UrlState& s, std::string& out) { return write_text(s.task, out); }},
    {"layers", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_listed("layers", v, kTextLayers, refusals::link_layers, s.layers, why);
     },
     [](const UrlState& s, std::string& out) { return write_whole(s.layers, out); }},
    {"weights", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       return read_choice("weights", kWeightChoices, std::move(v), s.weights, why);
     },
     [](const UrlState& s, std::string& out) { return write_text(s.weights, out); }},
    {"knockout", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       // 1-based head numbers in digits, separated by commas: "2" or "1,2".
       std::vector<int> heads;
       size_t start = 0;
       while (start <= v.size()) {
         size_t end = v.find(',', start);
         if (end == std::string::npos) end = v.size();
         int n = 0;
         if (!parse_digits(std::string_view(v).substr(start, end - start), n) || n < 1 ||
             heads.size() == kMaxKnockout) {
           why = Status::fail(refusals::link_knockout, shown(v));
           return false;
         }
         heads.push_back(n - 1);
         start = end + 1;
       }
       std::sort(heads.begin(), heads.end());
       s.knockout = std::move(heads);
       return true;
     },
     [](const UrlState& s, std::string& out) {
       if (!s.knockout || s.knockout->empty()) return false;
       for (size_t i = 0; i < s.knockout->size(); ++i) out += (i ? "," : "") + std::to_string((*s.knockout)[i] + 1);
       return true;
     }},
    {"tieqk", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       if (v != "0" && v != "1") {
         why = Status::fail(refusals::link_tieqk, shown(v));
         return false;
       }
       s.tie_qk = v == "1";
       return true;
     },
     [](const UrlState& s, std::string& out) {
       if (s.tie_qk) out += *s.tie_qk ? "1" : "0";
       return s.tie_qk.has_value();
     }},
    {"tour", false,
     [](std::string v, UrlState& s, Status& why, Status&) {
       // "N" (1..8) or "N-M" (1 <= N <= M <= 8)
       const size_t dash = v.find('-');
       int first = 0, last = 0;
       const bool ok = dash == std::string::npos
                           ? parse_digits(v, first) && (last = kTourSteps, true)
                           : parse_digits(std::string_view(v).substr(0, dash), first) &&
                                 parse_digits(std::string_view(v).substr(dash + 1), last);
       if (!ok || first < 1 || last > kTourSteps || first > last) {
         why = Status::fail(refusals::link_tour, shown(v), kTourSteps);
         return false;
       }
       s.tour = dash == std::string::npos ? std::array<int, 3>{1, kTourSteps, first} : std::array<int, 3>{first, last, first};
       return true;
     },
     [](const UrlState& s, std::string& out) {
       if (!s.tour) return false;
       const auto [first, last, step] = *s.tour;
       out += first == 1 && last == kTourSteps ? std::to_string(step) : std::to_string(first) + "-" + std::to_string(last);
       return true;
     }},
    {"sentence", true,
     [](std::string v, UrlState& s, Status&, Status&) {
       s.sentence = std::move(v);  // the engine judges it when applied
       return true;
     },
     [](const UrlState& s, std::string& out) { return write_text(s.sentence, out); }},
}};

size_t key_index(std::string_view name) {
  for (size_t k = 0; k < kKeys.size(); ++k)
    if (name == kKeys[k].name) return k;
  return kKeys.size();
}

std::string known_keys() {
  std::string out;
  for (const Key& k : kKeys) out += std::string(out.empty() ? "" : ", ") + k.name;
  return out;
}

struct Item {
  std::string_view key, value;
  bool has_value = false;
};

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] parse
//-----------------------------------------------------------------------------
UrlParse parse_url_hash(std::string_view hash) {
  UrlParse r;
  if (!hash.empty() && hash.front() == '#') hash.remove_prefix(1);
  if (hash.size() > kMaxHashBytes) {
    r.messages.push_back(Status::fail(refusals::link_too_long, hash.size(), kMaxHashBytes));
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
  for (const Item& it : items) {
    const size_t ki = key_index(it.key);
    if (ki < kKeys.size()) ++count[ki];
  }

  std::array<bool, kKeys.size()> reported_twice{};
  for (const Item& it : items) {
    const size_t ki = key_index(it.key);
    if (ki == kKeys.size()) {
      r.messages.push_back(Status::fail(refusals::link_unknown_key, shown(it.key), known_keys()));
      continue;
    }
    const Key& key = kKeys[ki];
    const std::string k = key.name;
    auto refuse = [&](const Status& why) {
      r.messages.push_back(Status::fail(refusals::link_kept, StatusArg::refusal(why), k));
    };
    if (count[ki] > 1) {
      if (!reported_twice[ki]) {
        reported_twice[ki] = true;
        r.messages.push_back(Status::fail(refusals::link_twice, k, count[ki]));
      }
      continue;
    }
    std::string value;
    Status why, note;
    if (!it.has_value || it.value.empty()) {
      refuse(Status::fail(refusals::value_missing, k));
    } else if (!percent_decode(k, it.value, key.whitespace, value, why)) {
      refuse(why);
    } else if (!key.read(std::move(value), r.state, why, note)) {
      refuse(why);
    } else if (!note.is_ok()) {
      r.messages.push_back(std::move(note));
    }
  }
  // A token index only means something for the sentence it was written for.
  if (count[key_index("sentence")] > 0 && !r.state.sentence && r.state.query) {
    r.state.query.reset();
    r.messages.push_back(Status::fail(refusals::link_query_skipped));
  }
  return r;
}

//-----------------------------------------------------------------------------
// [SECTION] apply and serialise
//-----------------------------------------------------------------------------
namespace {

// The Scene's fields, each applied through its validating setter; the rows
// say what, kApplyOrder says when. `apply` runs only for a given field.
struct SceneField {
  const char* key;
  bool (*given)(const UrlState& s);
  Status (*apply)(Scene& scene, const UrlState& s);
};
const std::array<SceneField, 6> kSceneFields = {{
    {"sentence", [](const UrlState& s) { return s.sentence.has_value(); },
     [](Scene& scene, const UrlState& s) { return scene.set_sentence(*s.sentence); }},
    {"query", [](const UrlState& s) { return s.query.has_value(); },
     [](Scene& scene, const UrlState& s) { return scene.set_query(*s.query); }},
    {"heads", [](const UrlState& s) { return s.heads.has_value(); },
     [](Scene& scene, const UrlState& s) { return scene.set_heads(*s.heads); }},
    {"focus", [](const UrlState& s) { return s.focus.has_value(); },
     [](Scene& scene, const UrlState& s) { return scene.set_focus(*s.focus); }},
    {"knockout", [](const UrlState& s) { return s.knockout.has_value(); },
     [](Scene& scene, const UrlState& s) { return scene.set_knockout(*s.knockout); }},
    {"tieqk", [](const UrlState& s) { return s.tie_qk.has_value(); },
     [](Scene& scene, const UrlState& s) { return scene.set_tie_qk(*s.tie_qk); }},
}};

}  // namespace

bool apply_scene_field(Scene& scene, const UrlState& s, std::string_view key, SceneApplyLog& log) {
  const auto row = std::find_if(kSceneFields.begin(), kSceneFields.end(),
                                [&](const SceneField& f) { return key == f.key; });
  if (row == kSceneFields.end()) return false;
  if (!row->given(s)) return true;
  // A token index only means something for the sentence it was written for.
  if (key == "query" && log.sentence_refused) {
    log.messages.push_back(Status::fail(refusals::link_query_skipped));
    return true;
  }
  const Status st = row->apply(scene, s);
  if (!st)
    log.messages.push_back(Status::fail(refusals::link_field_refused, row->key, StatusArg::refusal(st), row->key));
  if (key == "sentence") log.sentence_refused = !st;
  return true;
}

std::vector<Status> apply_url_state(Scene& scene, const UrlState& s) {
  SceneApplyLog log;
  for (const ApplyStep& step : kApplyOrder) (void)apply_scene_field(scene, s, step.key, log);
  return std::move(log.messages);
}

std::string to_url_hash(const UrlState& s) {
  std::string out;
  for (const Key& k : kKeys) {
    std::string value;
    if (!k.write(s, value)) continue;
    if (!out.empty()) out += '&';
    out += k.name;
    out += '=';
    out += value;
  }
  return out;
}

UrlState url_state_of(const Scene& scene, std::string_view sentence, std::string_view view,
                      std::string_view theme) {
  UrlState s;
  s.heads = scene.heads();
  s.query = scene.query();
  if (scene.focus() != 0.5f) s.focus = scene.focus();
  if (sentence != language().lesson.sentence) s.sentence = std::string(sentence);
  if (!view.empty() && view != kViews[0]) s.view = std::string(view);
  if (!theme.empty() && theme != kThemes[0]) s.theme = std::string(theme);
  if (language().code != language_code_list()[0]) s.lang = language().code;
  if (!scene.knockout().empty()) s.knockout = scene.knockout();
  if (scene.tie_qk()) s.tie_qk = true;
  return s;
}

std::string join_messages(const std::vector<Status>& messages) {
  std::string out;
  const size_t n = std::min(messages.size(), kMaxHashMessages);
  for (size_t i = 0; i < n; ++i) {
    if (i) out += "; ";
    out += tr_status(messages[i]);
  }
  if (messages.size() > n) out += "; " + trf("and {0} more", {std::to_string(messages.size() - n)});
  return out;
}

}  // namespace headroom::app
