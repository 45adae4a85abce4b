// refusal_tests.cpp: refusals as codes (engine/core/status.h,
// engine/core/refusals.h, app/lang/refusals.h: the engine's, the app's and
// the page's JavaScript's) made into sentences by app::tr_status.
// Does: check every code of every refusal table has a message in every
// shipped catalogue with the template's placeholders and is found by its
// code, that a message is filled with its arguments the language's way,
// that a refusal made through the real paths (a bad link, an out-of-range
// setter, a JS type check) reads in German as de.po words it, and that a
// code no catalogue knows and an ok Status are handled. (No code can fail
// with an English sentence alone: Status::fail takes a table's Refusal, so
// such a call does not compile.)
// Does not: check the wording of a translation (a person does).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "app/lang/lang.h"
#include "app/lang/refusals.h"
#include "app/state/demo.h"
#include "app/state/tables.h"
#include "json_read.h"

using namespace headroom;

namespace {
struct RefusalRow {
  const char* code;
  const char* english;
};
// Every table's rows, in one list.
const std::vector<RefusalRow>& table_rows() {
#define HEADROOM_REFUSAL_ROW(code, english) {#code, english},
  static const std::vector<RefusalRow> rows = {HEADROOM_ENGINE_REFUSALS(HEADROOM_REFUSAL_ROW) HEADROOM_APP_REFUSALS(
      HEADROOM_REFUSAL_ROW) HEADROOM_JS_REFUSALS(HEADROOM_REFUSAL_ROW)};
#undef HEADROOM_REFUSAL_ROW
  return rows;
}

// The placeholders {0}..{9} a text holds.
std::set<char> placeholders(const std::string& s) {
  std::set<char> out;
  for (size_t i = 0; i + 2 < s.size(); ++i)
    if (s[i] == '{' && s[i + 2] == '}' && s[i + 1] >= '0' && s[i + 1] <= '9') out.insert(s[i + 1]);
  return out;
}

const app::Language& language_of(const std::string& code) {
  for (const app::Language& l : app::languages())
    if (l.code == code) return l;
  FAIL("no language " << code);
  return app::languages().front();
}
}  // namespace

TEST_CASE("every refusal code has a message in every catalogue, with its placeholders") {
  std::set<std::string> codes;
  for (const RefusalRow& r : table_rows()) {
    CAPTURE(r.code);
    CHECK(codes.insert(r.code).second);  // a code names one refusal
    const Refusal* found = app::find_refusal(r.code);  // how a code from the wire or JS is read
    REQUIRE(found != nullptr);
    CHECK(std::string(found->english) == r.english);
    for (const app::Language& l : app::languages()) {
      if (l.code == "en") continue;
      CAPTURE(l.code);
      const auto it = l.strings.find(std::string_view(r.english));
      REQUIRE_MESSAGE(it != l.strings.end(), "no message for \"" << std::string(r.english) << "\"");
      CHECK(placeholders(it->second) == placeholders(r.english));
    }
  }
  CHECK(codes.size() > 150);
  CHECK(codes.count("js_heads") == 1);     // the JS table is covered
  CHECK(codes.count("link_kept") == 1);    // the link's
  CHECK(codes.count("run_stopped") == 1);  // the engine's training
  CHECK(app::find_refusal("no_such_code") == nullptr);
}

TEST_CASE("a refusal's English is its template filled; the code names it") {
  const Status s = Status::fail(refusals::token_missing, 9, 6);
  CHECK_FALSE(s.is_ok());
  CHECK(std::string(s.code()) == "token_missing");
  CHECK(s.error == "token 9 does not exist; tokens are 0..6");
  CHECK(app::tr_status(s, language_of("en")) == s.error);
  CHECK(app::tr_status(Status::ok()).empty());
  CHECK(std::string(Status::ok().code()).empty());
}

TEST_CASE("a German refusal is filled with its arguments the German way") {
  const app::Language& de = language_of("de");
  // a number with a decimal mark
  const Status lr = Status::fail(refusals::adam_lr, StatusArg::number("-0.500000"));
  CHECK(lr.error == "the learning rate must be a finite number > 0, got -0.500000");
  CHECK(app::tr_status(lr, de) == "die Lernrate muss eine endliche Zahl > 0 sein; erhalten: -0,500000");
  // a list of words: its last joiner in German
  const Status r = Status::fail(refusals::r_choice, StatusArg::list({"2", "4"}, " or "), 3);
  CHECK(r.error == "r must be 2 or 4 related tokens, got 3");
  CHECK(app::tr_status(r, de) == "r muss 2 oder 4 verwandte Tokens sein; erhalten: 3");
  // a value kept as given
  const Status fixed = Status::fail(refusals::relation_fixed, "query");
  CHECK(app::tr_status(fixed, de) == "\u201e" "query" "\u201c liegt durch die Position fest und l\u00e4sst sich nicht neu zuweisen");
  // a refusal inside a refusal, translated whole
  const Status outer = Status::fail(refusals::corpus_unusable, StatusArg::refusal(Status::fail(refusals::no_corpus)));
  CHECK(outer.error == "the corpus file is not usable: no corpus: the text model needs one");
  CHECK(app::tr_status(outer, de) == "die Korpusdatei ist nicht brauchbar: kein Korpus: das Textmodell braucht eines");
}

TEST_CASE("a code no catalogue knows stays English and is counted missing") {
  static constexpr Refusal kUnknown{"no_such_code", "a refusal {0} no catalogue knows"};
  const Status s = Status::fail(kUnknown, 7);
  REQUIRE(app::set_language("de"));
  const int before = app::missing_strings();
  CHECK(app::tr_status(s) == "a refusal 7 no catalogue knows");
  CHECK(app::missing_strings() == before + 1);
  (void)app::set_language("en");
}

namespace {
// `tmpl` with {0}, {1}, ... replaced by `parts`: the test's own filling, so
// the expected sentence comes from the catalogue's text alone.
std::string filled(std::string tmpl, const std::vector<std::string>& parts) {
  for (size_t i = 0; i < parts.size(); ++i) {
    const std::string ph = "{" + std::to_string(i) + "}";
    for (size_t at = tmpl.find(ph); at != std::string::npos; at = tmpl.find(ph, at + parts[i].size()))
      tmpl.replace(at, ph.size(), parts[i]);
  }
  return tmpl;
}
// de.po's message for `english` (a template of a table).
std::string de(const char* english) {
  const app::Language& l = language_of("de");
  const auto it = l.strings.find(std::string_view(english));
  REQUIRE(it != l.strings.end());
  return it->second;
}
}  // namespace

TEST_CASE("a refusal made through the real paths reads in German as de.po words it, with its code") {
  app::Demo d;
  REQUIRE(d.set_language("de"));
  const int missing = app::missing_strings();

  // An out-of-range setter: the engine's refusal, worded from its code.
  const int last = static_cast<int>(d.scene.tokens().size()) - 1;
  CHECK_FALSE(d.select_token(99));
  CHECK(d.error == filled(de(refusals::token_missing.english), {"99", std::to_string(last)}));
  CHECK(d.error_code == "token_missing");
  CHECK(d.error != Status::fail(refusals::token_missing, 99, last).error);  // not the English

  // A bad link: the link's refusal with the value's own refusal inside, and
  // the list of head counts joined with German "oder".
  CHECK_FALSE(d.apply_hash("#heads=two"));
  const std::string inner = filled(de(refusals::value_not_digits.english), {"heads", "\"two\"", "1, 2, 4 oder 8"});
  CHECK(d.error == filled(de(refusals::link_kept.english), {inner, "heads"}));
  CHECK(d.error_code == "link_kept");

  // A JS type check: its code and the value JS quotes; the list from C++'s table.
  d.reject(app::js_refusal("js_heads", {"\"two\""}));
  CHECK(d.error == filled(de(refusals::js_heads.english), {"1, 2, 4 oder 8", "\"two\""}));
  CHECK(d.error_code == "js_heads");
  // A JS code no table has still says something, in German too.
  d.reject(app::js_refusal("js_no_such_check", {"1"}));
  CHECK(d.error == filled(de(refusals::js_unknown.english), {"\"js_no_such_check\""}));

  // getState() carries the sentence and its code; an accepted input clears both.
  jsonr::Value v;
  REQUIRE(jsonr::parse(app::state_json(d), v));
  CHECK(v["error"].str == d.error);
  CHECK(v["errorCode"].str == "js_unknown");
  REQUIRE(d.select_token(0));
  jsonr::Value after;
  REQUIRE(jsonr::parse(app::state_json(d), after));
  CHECK(after["error"].kind == jsonr::Value::Null);
  CHECK(after["errorCode"].str.empty());
  CHECK(app::missing_strings() == missing);  // every sentence came from the catalogue
  REQUIRE(d.set_language("en"));
}
