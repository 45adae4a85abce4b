// refusal_tests.cpp: refusals as codes (engine/core/status.h,
// engine/core/refusals.h, app/lang/refusals.h) made into sentences by app::tr_status.
// Does: check every code of every refusal table has a message in every
// shipped catalogue with the template's placeholders, that a message is
// filled with its arguments the language's way, and that a code no
// catalogue knows and an ok Status are handled.
// Does not: check the wording of a translation (a person does).
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

#include "app/lang/lang.h"
#include "app/lang/refusals.h"

using namespace headroom;

namespace {
struct Row {
  const char* code;
  const char* english;
};
// Every table's rows, in one list.
const std::vector<Row>& table_rows() {
#define HEADROOM_REFUSAL_ROW(code, english) {#code, english},
  static const std::vector<Row> rows = {HEADROOM_ENGINE_REFUSALS(HEADROOM_REFUSAL_ROW) HEADROOM_APP_REFUSALS(HEADROOM_REFUSAL_ROW)};
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
  for (const Row& r : table_rows()) {
    CAPTURE(r.code);
    CHECK(codes.insert(r.code).second);  // a code names one refusal
    for (const app::Language& l : app::languages()) {
      if (l.code == "en") continue;
      CAPTURE(l.code);
      const auto it = l.strings.find(std::string_view(r.english));
      REQUIRE_MESSAGE(it != l.strings.end(), "no message for \"" << std::string(r.english) << "\"");
      CHECK(placeholders(it->second) == placeholders(r.english));
    }
  }
  CHECK(codes.size() > 50);
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
