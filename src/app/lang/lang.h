// lang.h: the interface in the course's language: one string catalogue per
// language, built in or added when the page has fetched it, and the one
// language shown.
//
// Does: read the catalogues compiled in from src/app/lang/<code>.po (one
// file per language; the format is in the README, "Languages": gettext's
// msgid / msgstr pairs keyed by the English text, with numbered
// placeholders {0}, {1} for composed sentences, and @-entries for the
// language's name, decimal mark and lesson sentence with its query and two
// targets named); look a string up in the shown language (tr, trf), falling
// back to English and counting each missing string once (missing_strings);
// make a refusal's sentence from its code and arguments (tr_status; the
// codes: engine/core/refusals.h, app/lang/refusals.h: the engine's, the
// app's and the page's JavaScript's); write numbers with the language's
// decimal mark (num). Nothing is matched back from English: every sentence
// starts as a key or a code.
// Does not: touch the Scene (Demo::set_language switches the lesson), draw
// (the UI calls tr on every label; the font for scripts outside Latin-1 is
// the UI's, ui.cpp setup_fonts), or parse full PO (no plural forms, no
// msgctxt, no fuzzy flags).
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <functional>
#include <map>
#include <vector>

#include "engine/core/status.h"
#include "engine/lesson/scene.h"

namespace headroom::app {

#include "app/lang/lang_mark.h"  // N_: a key marked where it is written, translated later

struct Lesson {
  std::string sentence;
  Scene::LessonTargets targets;  // token indices, resolved from the @lesson-* words
};

struct Language {
  std::string code;  // "en", "de", ...: the file's name and the hash's lang=
  std::string name;  // in the language itself: "Deutsch"
  char decimal = '.';
  Lesson lesson;
  // English -> translation; std::less<> finds a string_view key without
  // building a std::string (tr() runs for every label, every frame).
  std::map<std::string, std::string, std::less<>> strings;
  std::string text;  // every translated string, joined: the glyphs the UI's fonts need
};

// Every built-in language's code, English first, then in the order of the
// codes ("en", "de", ...); nothing is parsed.
const std::vector<std::string>& language_code_list();
// Every built-in language, in that order, each catalogue parsed (the tests
// read them all; the page parses only the languages it shows).
const std::vector<Language>& languages();
// The shown language (English until set_language).
const Language& language();
// Shows `code` ("de"); refuses an unknown code and keeps the language
// (language_status), and refuses a known one whose catalogue is not here
// yet (lang_not_here: the Demo fetches it first, Demo::set_language).
Status set_language(std::string_view code);
// Whether `code`'s catalogue is here: compiled in (every one natively and
// in the tests; English alone in the site's wasm, app/lang/catalogues/)
// or added.
bool catalogue_here(std::string_view code);
// Adds the catalogue of a known language the page fetched (the text of
// its .po file); refuses an unknown code (language_status) or a malformed
// file (parse_catalogue's refusal), and keeps one already here.
Status add_catalogue(std::string_view code, std::string_view po);
// "en, de, es, fr or zh": the codes, for messages.
std::string language_codes();
// The refusal of an unknown code (not_a_language, app/lang/refusals.h):
// `lang="xx" is not a language of this page (en, de, es, fr or zh)` in English.
Status language_status(std::string_view code);

// A raw value as it may appear in a message: printable ASCII only (anything
// else becomes '?'), at most 24 characters, in quotes. Messages end up in
// ImGui or textContent, so this is about readability, not escaping.
std::string shown_value(std::string_view raw);

// Ok when `value` is one of the n names of `list`; else
// `key="value" is not a <key> (a, b or c)` (the refusals of the hash's and
// the API's named values).
Status check_choice(const char* key, const char* const* list, size_t n, std::string_view value);
template <size_t N>
Status check_choice(const char* key, const std::array<const char*, N>& list, std::string_view value) {
  return check_choice(key, list.data(), N, value);
}

// The shown language's text for `english` (English when it is shown, or when
// the catalogue lacks it: then counted once in missing_strings()). The
// pointer stays valid for the program's life.
const char* tr(const char* english);
// tr(english) with {0}, {1}, ... replaced by args (already in the language:
// numbers through num, words as they are).
std::string trf(const char* english, const std::vector<std::string>& args);
// A sentence kept as its catalogue key and arguments and put into words
// only when read (str()), in the language shown then: a tour reveal made in
// English reads in German once German is chosen. An argument is a word kept
// as given (a token of the sentence, a count), a number (written with the
// reading language's decimal mark) or a phrase itself (a catalogue key with
// arguments of its own).
class Phrase {
 public:
  Phrase() = default;
  // A word, kept as given (implicit: a token's text passes as it is; a
  // string literal does not, so a key is never taken for a word by mistake).
  Phrase(std::string word) : text_(std::move(word)) {}  // NOLINT(google-explicit-constructor)
  static Phrase number(double v, int decimals);
  // `english` (a catalogue key, N_-marked or an engine name the catalogue
  // carries) with {0}, {1}, ... filled by `args`.
  static Phrase key(const char* english, std::vector<Phrase> args = {});
  std::string str() const;
  bool empty() const { return kind_ == Kind::Word && text_.empty(); }

 private:
  enum class Kind { Word, Number, Key };
  Kind kind_ = Kind::Word;
  std::string text_;
  const char* key_ = nullptr;
  double value_ = 0;
  int decimals_ = 0;
  std::vector<Phrase> args_;
};
// Phrase::key, for call sites that read like trf (catalogue_keys.mjs finds
// its first literal as a key, as it does trf's).
inline Phrase phrase(const char* english, std::vector<Phrase> args = {}) {
  return Phrase::key(english, std::move(args));
}
// A refusal in language `l` (the shown one by default), made from its code:
// the catalogue's entry for the code's English template, filled with the
// arguments as the language writes them (the decimal mark in numbers, the
// last joiner of a list, a phrase or a refusal inside it translated whole,
// a value kept as given). "" when ok. A template the language lacks stays
// English (counted missing in the shown language).
std::string tr_status(const Status& s, const Language& l);
std::string tr_status(const Status& s);
// The page's own words around the canvas (web/index.html and
// headroom-loader.mjs: the title, the sentence field's label and button, the
// prefixes of a refusal shown under the field). The page asks for each
// through headroom.translate once the wasm runs and whenever the language
// changes; the tests check every language carries them. While the wasm
// loads, the page is in English. (The canvas's accessible name is the
// wasm's own: platform/page_glue.cpp writes it with the state in words.)
const std::vector<const char*>& page_words();
// `v` with `decimals` digits after the language's decimal mark ("0,49").
std::string num(double v, int decimals);
// `v` in scientific notation (C's %.{decimals}e) with the language's decimal mark ("1,0e-02").
std::string num_sci(double v, int decimals);
// Strings the shown language lacked since it was chosen (each counted once).
int missing_strings();
// The English keys counted by missing_strings (tests name them).
std::vector<std::string> missing_keys();

// Parses one catalogue (tests check the shipped ones; set_language uses the
// built-in ones). Fails with the line of the first malformed entry.
Status parse_catalogue(std::string_view code, std::string_view po, Language& out);

}  // namespace headroom::app
