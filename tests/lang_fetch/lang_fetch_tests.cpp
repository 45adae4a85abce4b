// lang_fetch_tests.cpp: the languages as the site's wasm has them: English's
// catalogue compiled in, every other one added when the page has fetched it
// (app/lang/lang.h add_catalogue, app::Demo::set_language, language_arrived,
// language_failed). This program is linked as the site is
// (HEADROOM_FETCHED_CATALOGUES, CMakeLists.txt), so the catalogues it adds
// are read from src/app/lang/ here, as the page fetches them; the lesson
// words expected are written here from the contract, not read back.
// Does not: fetch anything (the browser suite lang.test.mjs does), or test
// the catalogues' words (tests/app/lang_tests.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "app/lang/lang.h"
#include "app/state/demo.h"

using namespace headroom;

namespace {
std::string po_file(const std::string& code) {
  std::ifstream in(std::string(HEADROOM_SOURCE_DIR) + "/src/app/lang/" + code + ".po", std::ios::binary);
  REQUIRE(in.good());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
const std::string& query_word(const app::Demo& d) { return d.scene.tokens()[static_cast<size_t>(d.scene.query())].text; }
}  // namespace

// One case: the shown language and the added catalogues are the program's,
// so the order of these steps is the test.
TEST_CASE("a language not compiled in is waited for, shown when its catalogue comes, refused when it does not") {
  for (const char* code : {"de", "es", "fr", "zh"}) CHECK_MESSAGE(!app::catalogue_here(code), code);
  CHECK(app::catalogue_here("en"));
  CHECK(app::language_code_list().size() == 5);  // every language is known, here or not

  app::Demo d;
  // Chosen before its file is here: accepted, waited for, English still shown.
  REQUIRE(d.set_language("de"));
  CHECK(d.lang_loading == "de");
  CHECK(app::language().code == "en");
  CHECK(query_word(d) == "said");
  CHECK(app::state_json(d).find("\"langLoading\":\"de\"") != std::string::npos);
  // An unknown code is refused as before and the wait goes on.
  CHECK_FALSE(d.set_language("xx"));
  CHECK(d.error_code == "not_a_language");
  CHECK(d.lang_loading == "de");
  // Its catalogue comes: German is shown with its own lesson.
  CHECK(d.language_arrived("de", po_file("de")));
  CHECK(d.lang_loading.empty());
  CHECK(app::language().code == "de");
  CHECK(query_word(d) == "sagte");
  CHECK(d.error.empty());
  CHECK(app::state_json(d).find("\"langLoading\":null") != std::string::npos);

  // A fetch that failed: the language shown stays, the refusal is in it.
  REQUIRE(d.set_language("fr"));
  CHECK(d.lang_loading == "fr");
  d.language_failed("fr", "HTTP 404");
  CHECK(d.lang_loading.empty());
  CHECK(app::language().code == "de");
  CHECK(d.error_code == "lang_unfetched");
  CHECK(d.error.find("HTTP 404") != std::string::npos);
  CHECK(d.error.find("\"fr\"") != std::string::npos);
  CHECK(d.error.find("could not be fetched") == std::string::npos);  // worded in German, not English
  CHECK_FALSE(app::catalogue_here("fr"));

  // A file that does not parse: refused the same way, with the parser's reason.
  REQUIRE(d.set_language("es"));
  CHECK_FALSE(d.language_arrived("es", "msgid \"x\"\nthis is not po\n"));
  CHECK(d.error_code == "lang_unreadable");
  CHECK(app::language().code == "de");
  CHECK_FALSE(app::catalogue_here("es"));

  // A choice made meanwhile replaces the wait: a late file is kept, not shown.
  REQUIRE(d.set_language("zh"));
  REQUIRE(d.set_language("en"));
  CHECK(d.lang_loading.empty());
  CHECK(app::language().code == "en");
  CHECK_FALSE(d.language_arrived("zh", po_file("zh")));
  CHECK(app::language().code == "en");
  CHECK(app::catalogue_here("zh"));
  // ... and once here it is shown at once, no wait.
  REQUIRE(d.set_language("zh"));
  CHECK(d.lang_loading.empty());
  CHECK(app::language().code == "zh");
  CHECK(query_word(d) == "说");
  // A catalogue for a code that is no language of the page is refused.
  CHECK_FALSE(app::add_catalogue("xx", po_file("de")));
  (void)app::set_language("en");
}
