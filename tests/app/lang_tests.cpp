// lang_tests.cpp: the interface in the course's language (app/lang/lang.h).
// The expected lesson words are written here from the contract (the
// query and the two targets each language names), not read back from the
// catalogues; the numbers are formatted here from the engine's own values.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <regex>
#include <string>

#include "app/state/demo.h"
#include "app/tour/tour.h"
#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/lang/refusals.h"
#include "app/state/tables.h"
#include "app/state/url_state.h"
#include "../common/text_bits.h"

using namespace headroom;
using headroom::testing::has;

namespace {
// Back to English after each case: the shown language is global, like ImGui's context.
struct English {
  ~English() { (void)app::set_language("en"); }
};
const std::string& token(Scene& s, int i) { return s.tokens()[static_cast<size_t>(i)].text; }

// Runs `body` once per shipped language other than English, with a Demo showing it.
template <typename F>
void in_every_translation(F&& body) {
  for (const app::Language& lang : app::languages()) {
    if (lang.code == "en") continue;
    CAPTURE(lang.code);
    app::Demo d;
    REQUIRE(d.set_language(lang.code));
    body(d);
  }
}

struct LessonWords {
  const char *code, *query, *subject, *complement, *pronoun, *antecedent;
};
constexpr LessonWords kLessons[] = {{"en", "said", "researcher", "it", "it", "paper"},
                                    {"es", "dijo", "investigadora", "este", "este", "artículo"},
                                    {"fr", "dit", "chercheuse", "qu'il", "qu'il", "l'article"},
                                    {"de", "sagte", "Forscherin", "er", "er", "Artikel"},
                                    {"zh", "说", "人", "它", "它", "文"}};
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

TEST_CASE("the code list (read without parsing) names the parsed catalogues, in their order") {
  const std::vector<std::string>& codes = app::language_code_list();
  REQUIRE(codes.size() == app::languages().size());
  for (size_t i = 0; i < codes.size(); ++i) CHECK(codes[i] == app::languages()[i].code);
  CHECK(codes[0] == "en");
  CHECK(std::is_sorted(codes.begin() + 1, codes.end()));
  // set_language finds a language by that list, and the shown one is parsed.
  REQUIRE(app::set_language("fr"));
  CHECK(app::language().code == "fr");
  CHECK(!app::language().strings.empty());
  REQUIRE(app::set_language("en"));
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
    // Four heads, one model: the pronoun's antecedent head looks at the
    // antecedent the catalogue names, the previous-token head at the token
    // before the query (no parser guess in either).
    REQUIRE(d.set_heads(4));
    int pronoun = -1;
    for (int i = 0; i < static_cast<int>(s.tokens().size()); ++i)
      if (token(s, i) == l.pronoun) pronoun = i;
    REQUIRE(pronoun >= 0);
    CHECK(token(s, s.looks_at(pronoun, Relation::Antecedent)) == l.antecedent);
    Eigen::Index top = 0;
    s.trace().heads[3].weights.row(pronoun).maxCoeff(&top);
    CHECK(token(s, static_cast<int>(top)) == l.antecedent);
    s.trace().heads[2].weights.row(q).maxCoeff(&top);
    CHECK(static_cast<int>(top) == q - 1);
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

TEST_CASE("a number that rounds to zero carries no minus sign, in any decimal mark") {
  English back;
  app::Demo d;
  CHECK(app::num(-0.001, 2) == "0.00");
  CHECK(app::num(-0.004, 0) == "0");
  CHECK(app::num(-0.01, 2) == "-0.01");
  CHECK(app::num(-std::numeric_limits<double>::infinity(), 2) == "-inf");
  REQUIRE(d.set_language("es"));
  CHECK(app::num(-0.001, 2) == "0,00");
  CHECK(app::num(-0.25, 2) == "-0,25");
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

TEST_CASE("a list inside a refusal is joined in the language's word for or; a quoted value is kept as given") {
  English back;
  app::Demo d;
  // The joiners as each catalogue writes them (read from the files, not the code).
  for (const app::Language& l : app::languages()) {
    if (l.code == "en") continue;
    CAPTURE(l.code);
    const auto found = l.strings.find(std::string_view(" or "));
    REQUIRE(found != l.strings.end());
    const std::string orw = found->second;
    REQUIRE(d.set_language(l.code));
    CHECK_FALSE(d.apply_hash("#lang=xx"));  // the shipped codes, "en, de, es, fr or zh"
    CAPTURE(d.error);
    CHECK(has(d.error, "es, fr" + orw + "zh"));
    CHECK_FALSE(has(d.error, " or "));
    CHECK_FALSE(d.apply_hash("#r=3"));  // the task's r, "2 or 4"
    CAPTURE(d.error);
    CHECK(has(d.error, "2" + orw + "4"));
    CHECK_FALSE(has(d.error, " or "));
    // The user's own value, quoted, keeps its words.
    CHECK_FALSE(d.apply_hash("#lang=a%20or%20b"));
    CAPTURE(d.error);
    CHECK(has(d.error, "\"a or b\""));  // kept
  }
  REQUIRE(d.set_language("en"));
  CHECK_FALSE(d.apply_hash("#r=3"));
  CHECK(has(d.error, "2 or 4"));
}

TEST_CASE("the link's, the engine's and the JS API's refusals are translated whole in every language") {
  English back;
  in_every_translation([](app::Demo& d) {
    // The link: unknown key, malformed escape, a word for a number, a value twice, an unknown view, focus above 1.
    CHECK_FALSE(d.apply_hash("#bogus=1&sentence=%ZZ&query=3&heads=two&tab=a&tab=b&view=nope&focus=7"));
    CAPTURE(d.error);
    // The engine: a refused head count, token and sentence.
    CHECK_FALSE(d.set_heads(3));
    CHECK_FALSE(d.select_token(99));
    CHECK_FALSE(d.set_sentence("   "));
    CHECK_FALSE(d.apply_hash("#sentence=%20"));
    // The JS API's own type check, recorded through reject (its code and the value it quotes).
    d.reject(app::js_refusal("js_heads", {"\"two\""}));
    CHECK(app::missing_strings() == 0);
    for (const std::string& k : app::missing_keys()) MESSAGE(k);
  });
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

TEST_CASE("the refusals of knockout, tie, targets, weights and training are translated whole in every language") {
  English back;
  in_every_translation([](app::Demo& d) {
    std::vector<std::string> said;  // each refusal as shown: none may stay English
    const auto refused = [&](bool ok) {
      CHECK_FALSE(ok);
      said.push_back(d.error);
    };
    REQUIRE(d.set_heads(2));
    refused(d.set_knockout({5}));             // a head the scene lacks
    refused(d.set_knockout({0, 0}));          // listed twice
    refused(d.set_target(Relation::Previous, 0));  // fixed by position
    refused(d.set_weights("nope"));           // not a weights choice
    refused(d.train_reset(-1, 2, 1e-3f));     // seed out of range
    refused(d.train_reset(1, 3, 1e-3f));      // r neither 2 nor 4
    refused(d.train_reset(1, 2, 100.f));      // lr out of range
    refused(d.train_step(0));                 // n out of range
    refused(d.train_set_speed(0));            // steps per frame
    refused(d.request_download(8));           // no run has 8 heads
    // The JS API's own checks of the same verbs, recorded through reject.
    d.reject(app::js_refusal("js_knockout", {"\"x\""}));
    said.push_back(d.error);
    d.reject(app::js_refusal("js_tie", {"1"}));
    said.push_back(d.error);
    d.train_reject(app::js_refusal("js_lr", {"\"fast\""}));
    said.push_back(d.error);
    for (const std::string& k : app::missing_keys()) MESSAGE(k);
    CHECK(app::missing_strings() == 0);
    // Independent of the catalogue: none of them is the English sentence,
    // whose words these are.
    for (const std::string& s : said) {
      CAPTURE(s);
      CHECK_FALSE(has(s, " does not exist"));
      CHECK_FALSE(has(s, "listed twice"));
      CHECK_FALSE(has(s, "cannot be reassigned"));
      CHECK_FALSE(has(s, "must be"));
      CHECK_FALSE(has(s, "takes"));
      CHECK_FALSE(has(s, "no training run"));
    }
  });
}

TEST_CASE("a diverged run's message is translated with its reason inside; the weights' notes too") {
  English back;
  const Status stopped = Status::fail(
      refusals::run_stopped, 12, StatusArg::number("5"),
      StatusArg::refusal(Status::fail(refusals::loss_reached, StatusArg::number("1e+09"), StatusArg::number("100"))), 11);
  REQUIRE(stopped.error ==
          "stopped at step 12 with lr 5: the training loss reached 1e+09 (limit 100); the weights are those of step 11. "
          "Lower the learning rate and reset.");
  const Status note = Status::fail(refusals::note_no_run, 8, StatusArg::list({"1", "2", "4"}, " and "));
  REQUIRE(note.error == "no training run has 8 heads (the runs have 1, 2 and 4): the views show the built weights");
  for (const app::Language& lang : app::languages()) {
    if (lang.code == "en") continue;
    CAPTURE(lang.code);
    REQUIRE(app::set_language(lang.code));
    const std::string s = app::tr_status(stopped);
    CAPTURE(s);
    CHECK_FALSE(has(s, "stopped at"));
    CHECK_FALSE(has(s, "the training loss"));  // the reason inside is the language's too
    CHECK(has(s, "12"));
    CHECK(has(s, "e+09"));
    CHECK(has(s, "11"));
    const std::string n = app::tr_status(note);
    CAPTURE(n);
    CHECK_FALSE(has(n, "the views show"));
    CHECK(has(n, "8"));
    CHECK(app::missing_strings() == 0);
  }
}

TEST_CASE("the page's own words (page_words) are in every catalogue and come back translated") {
  English back;
  REQUIRE(app::page_words().size() >= 5u);
  app::Demo d;
  REQUIRE(d.set_language("de"));
  // Hand-known German for two of them: what headroom.translate hands the page.
  CHECK(std::string(app::tr("Sentence")) == "Satz");
  CHECK(std::string(app::tr("Refused: {0}")) == "Abgelehnt: {0}");
  for (const app::Language& l : app::languages()) {
    if (l.code == "en") continue;
    CAPTURE(l.code);
    for (const char* w : app::page_words()) {
      CAPTURE(w);
      CHECK(l.strings.count(std::string(w)) == 1);
    }
  }
  CHECK(app::missing_strings() == 0);
}

TEST_CASE("a tour reveal made in English reads in the language chosen after it, its numbers too") {
  English back;
  app::Demo d;
  REQUIRE(d.tour_go(1));
  app::Prediction p;
  p.kind = app::AnswerKind::Point;
  p.xy = {0.f, 0.f};
  REQUIRE(d.tour_predict(p));
  REQUIRE(d.tour_reveal());
  std::vector<std::string> en;
  for (const app::Phrase& l : d.tour.record(1).result) en.push_back(l.str());
  const std::string en_feedback = d.tour.record(1).feedback.str();
  REQUIRE(!en.empty());
  CHECK(has(en[0], "output lands"));
  CHECK(has(en_feedback, "Your marker was"));
  REQUIRE(d.set_language("de"));
  const std::string de = d.tour.record(1).result.front().str(), de_feedback = d.tour.record(1).feedback.str();
  CAPTURE(en[0]);
  CAPTURE(de);
  CHECK(has(de, "landet"));
  CHECK_FALSE(has(de, "output lands"));
  CHECK_FALSE(has(de_feedback, "Your marker"));
  CHECK(has(d.tour_state_json(), "landet"));
  // Every number of the English line is in the German one with a decimal comma.
  const std::regex number("[0-9]+\\.[0-9]+");
  int numbers = 0;
  for (std::sregex_iterator it(en[0].begin(), en[0].end(), number), end; it != end; ++it, ++numbers) {
    std::string n = it->str();
    n[n.find('.')] = ',';
    CHECK(has(de, n));
  }
  CHECK(numbers >= 2);
  CHECK(app::missing_strings() == 0);
  // And back: the same lines as first measured.
  REQUIRE(d.set_language("en"));
  for (size_t i = 0; i < en.size(); ++i) CHECK(d.tour.record(1).result[i].str() == en[i]);
}

// Tagged convergence: the reveals include the training step's, 250 steps of
// three runs, so under the sanitizers it is left out (CMakeLists.txt).
TEST_CASE("the tour's texts and the views' words are the language's; English keys name the engine's words" *
          doctest::test_suite("convergence")) {
  English back;
  for (int r = 0; r < kRelations; ++r)
    CHECK(std::string(app::relation_help_word(static_cast<Relation>(r))) == relation_help(static_cast<Relation>(r)));
  app::Demo d;
  for (int i = 0; i < static_cast<int>(d.scene.tokens().size()); ++i)
    CHECK(app::role_words(d.scene, i) == d.scene.roles(i));
  // One demo through every language: the training step's runs train to
  // their step once (the first language's reveal) and are measured in each.
  app::Demo e;
  for (const app::Language& lang : app::languages()) {
    if (lang.code == "en") continue;
    CAPTURE(lang.code);
    REQUIRE(e.set_language(lang.code));
    for (const app::TourStepInfo& s : app::tour_steps()) {
      CHECK(std::string(app::tr(s.title)) != s.title);
      CHECK(std::string(app::tr(s.text)) != s.text);
      CHECK(std::string(app::tr(s.question)) != s.question);
      for (const app::TourChoice& c : s.choices) (void)app::tr(c.label);
    }
    // Every reveal, measured in the language: its lines name the language's lesson words.
    for (int n = 1; n <= app::kTourSteps; ++n) {
      REQUIRE(e.tour_go(n));
      REQUIRE(e.tour_reveal());
    }
    for (int i = 0; i < static_cast<int>(e.scene.tokens().size()); ++i) (void)app::role_words(e.scene, i);
    for (const std::string& k : app::missing_keys()) MESSAGE(k);
    CHECK(app::missing_strings() == 0);
    const std::string first = e.tour.record(1).result.front().str();
    CAPTURE(first);
    CHECK_FALSE(has(first, "output lands"));
  }
}
