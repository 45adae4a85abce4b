// lang.h: the interface in the course's language: one string catalogue per
// language, built in, and the one language shown.
//
// Does: read the catalogues compiled in from src/app/lang/<code>.po (one
// file per language; the format is in the README, "Languages": gettext's
// msgid / msgstr pairs keyed by the English text, with numbered
// placeholders {0}, {1} for composed sentences, and @-entries for the
// language's name, decimal mark and lesson sentence with its query and two
// targets named); look a string up in the shown language (tr, trf), falling
// back to English and counting each missing string once (missing_strings);
// translate a composed English message (a refusal) by matching it against
// the catalogue's placeholder entries (tr_message); write numbers with the
// language's decimal mark (num).
// Does not: touch the Scene (Demo::set_language switches the lesson), draw
// (the UI calls tr on every label; the font for scripts outside Latin-1 is
// the UI's, ui.cpp setup_fonts), or parse full PO (no plural forms, no
// msgctxt, no fuzzy flags).
#pragma once
#include <string>
#include <string_view>
#include <functional>
#include <map>
#include <vector>

#include "engine/core/status.h"
#include "engine/lesson/scene.h"

namespace headroom::app {

#include "app/lang_mark.h"  // N_: a key marked where it is written, translated later

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
  // The entries with placeholders, longest first: tr_message's patterns.
  std::vector<std::pair<std::string, std::string>> patterns;
  std::string text;  // every translated string, joined: the glyphs the UI's fonts need
};

// Every built-in language, English first, then in the order of their codes.
const std::vector<Language>& languages();
// The shown language (English until set_language).
const Language& language();
// Shows `code` ("de"); refuses an unknown code and keeps the language
// (language_refusal).
Status set_language(std::string_view code);
// "en, de, es, fr or zh": the codes, for messages.
std::string language_codes();
// The refusal of an unknown code, in English like every refusal (the
// caller shows it through tr_message): `lang="xx" is not a language of
// this page (en, de, es, fr or zh)`.
std::string language_refusal(std::string_view code);

// The shown language's text for `english` (English when it is shown, or when
// the catalogue lacks it: then counted once in missing_strings()). The
// pointer stays valid for the program's life.
const char* tr(const char* english);
// tr(english) with {0}, {1}, ... replaced by args (already in the language:
// numbers through num, words as they are).
std::string trf(const char* english, const std::vector<std::string>& args);
// A composed English message (an engine refusal, a link's message) in the
// shown language: the catalogue entry that equals it, else the first
// placeholder entry whose literal parts match it, with the captured parts
// translated in turn when they are sentences (contain a space) and kept as
// they are otherwise (keys, values, lists). A message nothing matches stays
// English and is counted missing.
std::string tr_message(std::string_view english);
// The English refusals composed outside the catalogue's reach (the link's
// messages, the engine's setters, the JS API's type checks) as the
// placeholder patterns tr_message matches, so the catalogues carry them.
// The tests trigger each kind and check it is translated whole.
const std::vector<const char*>& refusal_patterns();
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
