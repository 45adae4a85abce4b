// lang.cpp: the catalogues and the shown language (see lang.h).
//
// Index of this file
//   [SECTION] parsing a catalogue (msgid / msgstr, @-entries)
//   [SECTION] the built-in languages and the shown one
//   [SECTION] lookups: tr, trf, tr_status, num
#include "app/lang/lang.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <set>

#include "engine/common/words.h"
#include "engine/lesson/tokenizer.h"
#include "app/lang/catalogues/catalogues.h"  // every language; the texts compiled in
#include "app/lang/refusals.h"

namespace headroom::app {

//-----------------------------------------------------------------------------
// [SECTION] parsing a catalogue (msgid / msgstr, @-entries)
//-----------------------------------------------------------------------------
namespace {

// "..." with \" \\ \n \t escapes; false when `line` is not one quoted string.
bool unquote(std::string_view line, std::string& out) {
  if (line.size() < 2 || line.front() != '"' || line.back() != '"') return false;
  for (size_t i = 1; i + 1 < line.size(); ++i) {
    char c = line[i];
    if (c == '\\' && i + 2 < line.size()) {
      c = line[++i];
      out += c == 'n' ? '\n' : c == 't' ? '\t' : c;
    } else if (c == '"') {
      return false;
    } else {
      out += c;
    }
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// The token index of `word` in `tokens` ("word#2": its second occurrence).
int find_word(const std::vector<Token>& tokens, std::string_view word) {
  int nth = 1;
  if (const size_t hash = word.rfind('#'); hash != std::string_view::npos && hash + 1 < word.size()) {
    nth = std::atoi(std::string(word.substr(hash + 1)).c_str());
    word = word.substr(0, hash);
  }
  for (size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].text == word && --nth == 0) return static_cast<int>(i);
  return -1;
}

}  // namespace

Status parse_catalogue(std::string_view code, std::string_view po, Language& out) {
  out = Language{};
  out.code = std::string(code);
  std::vector<std::pair<std::string, std::string>> entries;
  std::string* field = nullptr;  // the msgid or msgstr continuation lines extend
  int line_no = 0;
  size_t start = 0;
  while (start <= po.size()) {
    size_t end = po.find('\n', start);
    if (end == std::string_view::npos) end = po.size();
    const std::string_view line = trim(po.substr(start, end - start));
    start = end + 1;
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const auto fail = [&] { return Status::fail(refusals::po_malformed, out.code, line_no); };
    bool ok = true;
    if (line.rfind("msgid ", 0) == 0) {
      entries.emplace_back();
      field = &entries.back().first;
      ok = unquote(trim(line.substr(6)), *field);
    } else if (line.rfind("msgstr ", 0) == 0 && !entries.empty() && field == &entries.back().first) {
      field = &entries.back().second;
      ok = unquote(trim(line.substr(7)), *field);
    } else if (line.front() == '"' && field) {
      ok = unquote(line, *field);
    } else {
      ok = false;
    }
    if (!ok) return fail();
  }
  std::string query, subject, complement, previous, pronoun, antecedent;
  for (auto& [id, str] : entries) {
    if (id.empty() || str.empty()) continue;  // the PO header; an untranslated entry
    if (id == "@name") out.name = str;
    else if (id == "@decimal") out.decimal = str[0];
    else if (id == "@lesson") out.lesson.sentence = str;
    else if (id == "@lesson-query") query = str;
    else if (id == "@lesson-subject") subject = str;
    else if (id == "@lesson-complement") complement = str;
    else if (id == "@lesson-previous") previous = str;
    else if (id == "@lesson-pronoun") pronoun = str;
    else if (id == "@lesson-antecedent") antecedent = str;
    else {
      out.text += str;
      out.strings[id] = std::move(str);
    }
  }
  out.text += out.lesson.sentence;
  const std::vector<Token> tokens = tokenize(out.lesson.sentence);
  Scene::LessonTargets& t = out.lesson.targets;
  t = {find_word(tokens, query), find_word(tokens, subject), find_word(tokens, complement)};
  if (out.name.empty() || tokens.empty() || t.query < 0 || t.subject < 0 || t.complement < 0)
    return Status::fail(refusals::po_lesson, out.code);
  // The previous token is named by hand as a check of the tokens (it is
  // positional: the token before the query); the pronoun and its
  // antecedent, where the sentence has them, give the tour's coreference.
  if (!previous.empty() && find_word(tokens, previous) != t.query - 1)
    return Status::fail(refusals::po_previous, out.code, previous);
  if (!pronoun.empty() || !antecedent.empty()) {
    t.pronoun = find_word(tokens, pronoun);
    t.antecedent = find_word(tokens, antecedent);
    if (t.pronoun < 0 || t.antecedent < 0 || t.pronoun == t.antecedent)
      return Status::fail(refusals::po_pronoun, out.code);
  }
  return Status::ok();
}

//-----------------------------------------------------------------------------
// [SECTION] the built-in languages and the shown one
//-----------------------------------------------------------------------------
namespace {

// `pattern` with {0}, {1}, ... replaced by args (no lookup).
std::string fill(std::string_view pattern, const std::vector<std::string>& args) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{' && i + 2 < pattern.size() && pattern[i + 2] == '}' && pattern[i + 1] >= '0' &&
        pattern[i + 1] <= '9' && static_cast<size_t>(pattern[i + 1] - '0') < args.size()) {
      out += args[static_cast<size_t>(pattern[i + 1] - '0')];
      i += 2;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

struct Shown {
  size_t index = 0;              // into language_code_list()
  std::set<std::string, std::less<>> missed;  // English keys the shown language lacked
};
Shown& shown_language() {
  static Shown s;
  return s;
}

}  // namespace

namespace {

// The shipped catalogues in the page's order, English first, then by code:
// indices into lang_files::compiled_in(). Nothing is parsed here.
const std::vector<size_t>& catalogue_order() {
  static const std::vector<size_t> order = [] {
    const lang_files::Table t = lang_files::compiled_in();
    std::vector<size_t> out;
    for (size_t i = 0; i < t.size; ++i) out.push_back(i);
    const auto code = [&](size_t i) { return std::string_view(t.files[i].code); };
    std::stable_sort(out.begin(), out.end(), [&](size_t a, size_t b) {
      return (code(a) == "en") > (code(b) == "en") || ((code(a) == "en") == (code(b) == "en") && code(a) < code(b));
    });
    return out;
  }();
  return order;
}

const lang_files::File& file_at(size_t i) { return lang_files::compiled_in().files[catalogue_order()[i]]; }

// One Language per catalogue, in that order; filled by language_at or
// add_catalogue. The vector never grows, so references to its elements last.
struct Store {
  std::vector<Language> languages;
  std::vector<bool> parsed;  // language i holds its catalogue (compiled in and parsed, or added)
};
Store& store() {
  static Store s{std::vector<Language>(catalogue_order().size()), std::vector<bool>(catalogue_order().size(), false)};
  return s;
}

// The English stand-in for a language whose catalogue is not here (a
// build that skipped the tests' parse of every file, or one the page has
// not fetched): its code, English words and lesson.
Language stand_in(size_t i);

// Catalogue i, parsed the first time it is asked for: the page parses only
// the languages it shows (parsing all five took about 30 ms of main() in a
// profile of the page's start). One not compiled in and not added yet is
// its stand-in, parsed once it is added.
const Language& language_at(size_t i) {
  Store& s = store();
  Language& l = s.languages[i];
  if (s.parsed[i]) return l;
  const lang_files::File& f = file_at(i);
  if (!f.text) {
    if (l.code.empty()) l = stand_in(i);
    return l;
  }
  s.parsed[i] = true;
  if (const Status st = parse_catalogue(f.code, f.text, l); !st) {
    // The tests parse every shipped file, so only a build that skipped them
    // gets here: say so, and show the code with English words and lesson.
    std::fprintf(stderr, "headroom: %s\n", st.error.c_str());
    l = stand_in(i);
  }
  return l;
}

Language stand_in(size_t i) {
  Language l;
  l.code = file_at(i).code;
  l.name = l.code;
  if (i != 0) l.lesson = language_at(0).lesson;
  return l;
}

// The index of `code` in language_code_list(), or -1.
int index_of(std::string_view code) {
  const std::vector<std::string>& codes = language_code_list();
  for (size_t i = 0; i < codes.size(); ++i)
    if (codes[i] == code) return static_cast<int>(i);
  return -1;
}

}  // namespace

const std::vector<std::string>& language_code_list() {
  static const std::vector<std::string> codes = [] {
    std::vector<std::string> out;
    for (size_t i = 0; i < catalogue_order().size(); ++i) out.emplace_back(file_at(i).code);
    return out;
  }();
  return codes;
}

const std::vector<Language>& languages() {
  for (size_t i = 0; i < catalogue_order().size(); ++i) language_at(i);
  return store().languages;
}

const Language& language() { return language_at(shown_language().index); }

std::string language_codes() { return join_words(language_code_list(), " or "); }

Status language_status(std::string_view code) {
  return Status::fail(refusals::not_a_language, shown_value(code), StatusArg::list(language_code_list(), " or "));
}

bool catalogue_here(std::string_view code) {
  const int i = index_of(code);
  if (i < 0) return false;
  language_at(static_cast<size_t>(i));
  return store().parsed[static_cast<size_t>(i)];
}

Status add_catalogue(std::string_view code, std::string_view po) {
  const int i = index_of(code);
  if (i < 0) return language_status(code);
  if (catalogue_here(code)) return Status::ok();  // compiled in, or added before: kept as it is
  Language l;
  if (Status s = parse_catalogue(code, po, l); !s) return s;
  store().languages[static_cast<size_t>(i)] = std::move(l);
  store().parsed[static_cast<size_t>(i)] = true;
  return Status::ok();
}

Status set_language(std::string_view code) {
  const int i = index_of(code);
  if (i < 0) return language_status(code);
  if (!catalogue_here(code)) return Status::fail(refusals::lang_not_here, shown_value(code));
  if (static_cast<size_t>(i) != shown_language().index) shown_language() = Shown{static_cast<size_t>(i), {}};
  return Status::ok();
}

int missing_strings() { return static_cast<int>(shown_language().missed.size()); }

std::vector<std::string> missing_keys() {
  const auto& m = shown_language().missed;
  return {m.begin(), m.end()};
}

//-----------------------------------------------------------------------------
// [SECTION] lookups: tr, trf, tr_status, num
//-----------------------------------------------------------------------------
namespace {

// The translation of `english`, or nullptr (counted missing when `count`)
// when the shown language is not English and lacks it.
const std::string* lookup(std::string_view english, bool count) {
  const Language& l = language();
  if (l.code == "en") return nullptr;
  const auto it = l.strings.find(english);
  if (it != l.strings.end()) return &it->second;
  if (count) {
    std::set<std::string, std::less<>>& missed = shown_language().missed;
    if (missed.find(english) == missed.end()) missed.emplace(english);
  }
  return nullptr;
}

}  // namespace

const char* tr(const char* english) {
  const std::string* t = lookup(english, true);
  return t ? t->c_str() : english;
}

std::string trf(const char* english, const std::vector<std::string>& args) { return fill(tr(english), args); }

Phrase Phrase::number(double v, int decimals) {
  Phrase p;
  p.kind_ = Kind::Number;
  p.value_ = v;
  p.decimals_ = decimals;
  return p;
}

Phrase Phrase::key(const char* english, std::vector<Phrase> args) {
  Phrase p;
  p.kind_ = Kind::Key;
  p.key_ = english;
  p.args_ = std::move(args);
  return p;
}

std::string Phrase::str() const {
  switch (kind_) {
    case Kind::Number: return num(value_, decimals_);
    case Kind::Key: {
      std::vector<std::string> args;
      args.reserve(args_.size());
      for (const Phrase& a : args_) args.push_back(a.str());
      return trf(key_, args);
    }
    default: return text_;
  }
}

std::string shown_value(std::string_view raw) {
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

Status check_choice(const char* key, const char* const* list, size_t n, std::string_view value) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    if (value == list[i]) return Status::ok();
    names.emplace_back(list[i]);
  }
  return Status::fail(refusals::not_a_choice, key, shown_value(value), key, StatusArg::list(std::move(names), " or "));
}

namespace {
// `english` in `l`: its catalogue entry, else English (counted missing when
// `l` is the shown language).
std::string in_language(const Language& l, std::string_view english) {
  if (l.code == "en") return std::string(english);
  const auto it = l.strings.find(english);
  if (it != l.strings.end()) return it->second;
  if (&l == &language()) shown_language().missed.emplace(english);
  return std::string(english);
}

// The joiners a list argument names (StatusArg::list), catalogue keys.
constexpr const char* kJoiners[] = {N_(" or "), N_(" and ")};

std::string arg_in_language(const StatusArg& a, const Language& l) {
  switch (a.kind) {
    case StatusArg::Kind::Number: {
      std::string s = a.text;
      std::replace(s.begin(), s.end(), '.', l.decimal);
      return s;
    }
    case StatusArg::Kind::List: {
      const bool known = std::find(std::begin(kJoiners), std::end(kJoiners), a.text) != std::end(kJoiners);
      return join_words(a.items, known ? in_language(l, a.text) : a.text);
    }
    case StatusArg::Kind::Phrase: return in_language(l, a.text);
    case StatusArg::Kind::Refusal: return tr_status(*a.nested, l);
    default: return a.text;
  }
}
}  // namespace

std::string tr_status(const Status& s, const Language& l) {
  if (s.is_ok()) return {};
  std::vector<std::string> parts;
  parts.reserve(s.args.size());
  for (const StatusArg& a : s.args) parts.push_back(arg_in_language(a, l));
  return fill(in_language(l, s.refusal->english), parts);
}

std::string tr_status(const Status& s) { return tr_status(s, language()); }

const Refusal* find_refusal(std::string_view code) {
#define HEADROOM_REFUSAL_POINTER(name, english) &refusals::name,
  static const Refusal* const kAll[] = {HEADROOM_ENGINE_REFUSALS(HEADROOM_REFUSAL_POINTER) HEADROOM_APP_REFUSALS(
      HEADROOM_REFUSAL_POINTER) HEADROOM_JS_REFUSALS(HEADROOM_REFUSAL_POINTER)};
#undef HEADROOM_REFUSAL_POINTER
  for (const Refusal* r : kAll)
    if (code == r->code) return r;
  return nullptr;
}

const std::vector<const char*>& page_words() {
  static const std::vector<const char*> words = {
      N_("Headroom: why attention has more than one head"),  // index.html's title
      N_("Sentence"),                                        // the field's label
      N_("Apply"),                                           // its button
      N_("Refused: {0}"),                                    // a sentence refused, under the field
      N_("Link: {0}"),                                       // a link's setting refused
  };
  return words;
}

namespace {
std::string with_decimal_mark(const char* format, int decimals, double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, decimals, v);
  std::string s = buf;
  std::replace(s.begin(), s.end(), '.', language().decimal);
  return s;
}
}  // namespace

// A value that rounds to zero at `decimals` is written without a sign: "-0.00"
// tells the reader of a sign the number shown does not have.
std::string num(double v, int decimals) {
  std::string s = with_decimal_mark("%.*f", decimals, v);
  if (s.size() > 1 && s[0] == '-' && s.find_first_not_of(std::string("0") + language().decimal, 1) == std::string::npos)
    s.erase(0, 1);
  return s;
}

std::string num_sci(double v, int decimals) { return with_decimal_mark("%.*e", decimals, v); }

}  // namespace headroom::app
