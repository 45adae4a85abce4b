// lang_tests.cpp: the interface in the course's language (app/lang.h).
// The expected lesson words are written here from the contract (the
// query and the two targets each language names), not read back from the
// catalogues; the numbers are formatted here from the engine's own values.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include "app/demo.h"
#include "app/describe.h"
#include "app/lang.h"
#include "app/url_state.h"

using namespace headroom;

namespace {
// Back to English after each case: the shown language is global, like ImGui's context.
struct English {
  ~English() { (void)app::set_language("en"); }
};
const std::string& token(Scene& s, int i) { return s.tokens()[static_cast<size_t>(i)].text; }
bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

struct LessonWords {
  const char *code, *query, *subject, *complement;
};
constexpr LessonWords kLessons[] = {{"en", "said", "researcher", "it"},
                                    {"es", "dijo", "investigadora", "era"},
                                    {"fr", "dit", "chercheuse", "était"},
                                    {"de", "sagte", "Forscherin", "er"},
                                    {"zh", "说", "人", "它"}};
}  // namespace

TEST_CASE("the five shipped languages parse, English first") {
  REQUIRE(app::languages().size() == 5);
  CHECK(app::languages()[0].code == "en");
  for (const LessonWords& l : kLessons) {
    bool found = false;
    for (const app::Language& lang : app::languages()) found = found || lang.code == l.code;
    CHECK_MESSAGE(found, l.code);
  }
  CHECK(app::language().code == "en");
}

TEST_CASE("each language opens on its own lesson with the query and both targets as named, not guessed") {
  English back;
  for (const LessonWords& l : kLessons) {
    CAPTURE(l.code);
    app::Demo d;
    REQUIRE(d.set_language(l.code));
    Scene& s = d.scene;
    const int q = s.query();
    CHECK(token(s, q) == l.query);
    CHECK(token(s, s.target(q, Relation::Subject)) == l.subject);
    CHECK(token(s, s.target(q, Relation::Complement)) == l.complement);
    CHECK_FALSE(s.targets_guessed());
    // One head splits between exactly those two (the lesson's midpoint), two heads read one each.
    const std::vector<int> lesson = s.lesson_targets();
    REQUIRE(lesson.size() == 2);
    CHECK(token(s, lesson[0]) == l.subject);
    CHECK(token(s, lesson[1]) == l.complement);
    REQUIRE(d.set_heads(2));
    const std::string two = app::readout_sentence(s);
    CAPTURE(two);
    CHECK(has(two, l.subject));
    CHECK(has(two, l.complement));
    // Everything the readout and the description say came from the catalogue.
    (void)app::describe_state(s);
    CHECK(app::missing_strings() == 0);
    // reset_targets keeps the named targets (they are the sentence's defaults).
    d.reset_targets();
    CHECK(token(s, s.target(s.query(), Relation::Subject)) == l.subject);
  }
}

TEST_CASE("numbers use the language's decimal mark") {
  English back;
  app::Demo d;
  const Mat& w = d.scene.trace().heads[0].weights;
  const int q = d.scene.query();
  const float a = w(q, d.scene.target(q, Relation::Subject));
  char dot[16];
  std::snprintf(dot, sizeof dot, "%.2f", static_cast<double>(a));
  CHECK(has(app::readout_sentence(d.scene), dot));
  REQUIRE(d.set_language("de"));
  const Mat& wd = d.scene.trace().heads[0].weights;
  const int qd = d.scene.query();
  std::snprintf(dot, sizeof dot, "%.2f", static_cast<double>(wd(qd, d.scene.target(qd, Relation::Subject))));
  std::string comma = dot;
  comma[comma.find('.')] = ',';
  const std::string de = app::readout_sentence(d.scene);
  CAPTURE(de);
  CHECK(has(de, "1 Kopf: sagte = " + comma + " Forscherin"));
  CHECK(app::num(0.5, 2) == "0,50");
  REQUIRE(d.set_language("zh"));
  CHECK(app::num(0.5, 2) == "0.50");
}

TEST_CASE("a refused code keeps the language and says why; a user's own sentence stays") {
  English back;
  app::Demo d;
  REQUIRE(d.set_language("fr"));
  CHECK_FALSE(d.set_language("xx"));
  CHECK(app::language().code == "fr");
  CHECK(has(d.error, "\"xx\""));
  CHECK(has(d.error, "n'est pas une langue"));  // said in the language shown
  REQUIRE(d.set_sentence("The cat sat on the mat."));
  REQUIRE(d.set_language("de"));
  CHECK(token(d.scene, 1) == "cat");
}

TEST_CASE("lang= in the hash: applied before the sentence, written back, refused codes reported") {
  English back;
  app::Demo d;
  CHECK(d.apply_hash("#lang=es&heads=2"));
  CHECK(app::language().code == "es");
  CHECK(token(d.scene, d.scene.query()) == "dijo");
  const std::string h = d.hash();
  CHECK(has(h, "lang=es"));
  CHECK_FALSE(has(h, "sentence="));  // the language's own lesson is left out
  app::Demo e;
  CHECK_FALSE(e.apply_hash("#lang=klingon"));
  CHECK(has(e.error, "lang=\"klingon\""));
  CHECK(app::language().code == "es");
  // A link's own sentence wins over the language's lesson.
  app::Demo f;
  CHECK(f.apply_hash("#lang=de&sentence=The%20dog%20barked."));
  CHECK(token(f.scene, 1) == "dog");
}

TEST_CASE("composed refusals are translated by pattern; a miss falls back to English and is counted once") {
  English back;
  app::Demo d;
  REQUIRE(d.set_language("de"));
  CHECK_FALSE(d.apply_hash("#lang=xx"));
  CAPTURE(d.error);
  CHECK(has(d.error, "ist keine Sprache dieser Seite"));
  const int before = app::missing_strings();
  CHECK(std::string(app::tr("no such string in any catalogue")) == "no such string in any catalogue");
  CHECK(std::string(app::tr("no such string in any catalogue")) == "no such string in any catalogue");
  CHECK(app::missing_strings() == before + 1);
  REQUIRE(d.set_language("en"));
  CHECK(app::missing_strings() == 0);
}

TEST_CASE("the link's, the engine's and the JS API's refusals are translated whole in every language") {
  English back;
  for (const app::Language& lang : app::languages()) {
    if (lang.code == "en") continue;
    CAPTURE(lang.code);
    app::Demo d;
    REQUIRE(d.set_language(lang.code));
    // The link: unknown key, malformed escape, a word for a number, a value twice, an unknown view, focus above 1.
    CHECK_FALSE(d.apply_hash("#bogus=1&sentence=%ZZ&query=3&heads=two&tab=a&tab=b&view=nope&focus=7"));
    CAPTURE(d.error);
    // The engine: a refused head count, token and sentence.
    CHECK_FALSE(d.set_heads(3));
    CHECK_FALSE(d.select_token(99));
    CHECK_FALSE(d.set_sentence("   "));
    CHECK_FALSE(d.apply_hash("#sentence=%20"));
    // The JS API's own type check, recorded through reject.
    d.reject("heads must be a whole number (1, 2, 4 or 8), not \"two\"");
    CHECK(app::missing_strings() == 0);
    for (const std::string& k : app::missing_keys()) MESSAGE(k);
  }
}

TEST_CASE("the relationship names the catalogue translates are the engine's") {
  for (int r = 0; r < kRelations; ++r)
    CHECK(std::string(app::relation_word(static_cast<Relation>(r))) == relation_name(static_cast<Relation>(r)));
}

TEST_CASE("a malformed catalogue is refused with its line") {
  app::Language l;
  const Status s = app::parse_catalogue("xx", "msgid \"a\"\nmsgstr b\n", l);
  CHECK_FALSE(s);
  CHECK(has(s.error, "line 2"));
  CHECK_FALSE(app::parse_catalogue("xx", "msgid \"@name\"\nmsgstr \"X\"\n", l));  // no lesson
}
