// url_state_tests.cpp: the URL hash parser refuses every hostile input with a
// message and keeps the previous state; good links round-trip.
#include <doctest/doctest.h>

#include <string>

#include "app/state/url_state.h"
#include "app/lang/refusals.h"

using namespace headroom;
using namespace headroom::app;

namespace {

// Applies `hash` to a fresh scene and returns the messages (parse + apply).
struct Applied {
  Scene scene;
  std::vector<std::string> messages;
};
Applied apply(std::string_view hash) {
  Applied a;
  UrlParse p = parse_url_hash(hash);
  for (const Status& m : p.messages) a.messages.push_back(m.error);
  for (const Status& m : apply_url_state(a.scene, p.state)) a.messages.push_back(m.error);
  return a;
}

bool any_contains(const std::vector<std::string>& ms, std::string_view needle) {
  for (const std::string& m : ms)
    if (m.find(needle) != std::string::npos) return true;
  return false;
}
bool any_contains(const std::vector<Status>& ms, std::string_view needle) {
  for (const Status& m : ms)
    if (m.error.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("a good link sets every field") {
  UrlParse p = parse_url_hash("#heads=2&sentence=The%20cat%20sat.&query=1&focus=0.25&view=values&theme=light");
  CHECK(p.messages.empty());
  CHECK(p.state.heads == 2);
  CHECK(p.state.sentence == std::string("The cat sat."));
  CHECK(p.state.query == 1);
  CHECK(p.state.focus == 0.25f);
  CHECK(p.state.view == std::string("values"));
  CHECK(p.state.theme == std::string("light"));

  Applied a = apply("heads=2&sentence=The+cat+sat.&query=1");
  CHECK(a.messages.empty());
  CHECK(a.scene.heads() == 2);
  CHECK(a.scene.tokens().size() == 4);
  CHECK(a.scene.query() == 1);
}

TEST_CASE("an empty hash and a bare # change nothing and say nothing") {
  for (const char* h : {"", "#", "&&", "#&"}) {
    UrlParse p = parse_url_hash(h);
    CHECK(p.messages.empty());
    CHECK(p.state == UrlState{});
  }
}

TEST_CASE("hostile heads: each refused with a message, previous heads kept") {
  for (const char* v : {"0", "-1", "3.5", "NaN", "1e309", "0x10", "999999", "3", "+2", " 2", "2 ", "", "Infinity",
                        "99999999999999999999", "%32%00"}) {
    CAPTURE(v);
    Applied a = apply(std::string("heads=") + v);
    CHECK(a.scene.heads() == 1);
    REQUIRE(a.messages.size() == 1);
    CHECK(a.messages[0].find("heads") != std::string::npos);
    CHECK(a.messages[0].find("kept") != std::string::npos);
  }
  // Given twice, even with the same valid value: unclear which one was meant.
  Applied twice = apply("heads=2&heads=4");
  CHECK(twice.scene.heads() == 1);
  CHECK(twice.messages.size() == 1);
  CHECK(any_contains(twice.messages, "gives heads 2 times"));
  CHECK(apply("heads=2&heads=2").scene.heads() == 1);
}

TEST_CASE("hostile query and focus") {
  for (const char* v : {"-1", "1.5", "NaN", "0x1", "1e3", "999999"}) {
    CAPTURE(v);
    Applied a = apply(std::string("query=") + v);
    CHECK(a.scene.query() == Scene().query());
    CHECK(a.messages.size() == 1);
  }
  for (const char* v : {"-0.1", "NaN", "1e309", "0x1", "inf", ".", "0.5.5", "1,5"}) {
    CAPTURE(v);
    Applied a = apply(std::string("focus=") + v);
    CHECK(a.scene.focus() == 0.5f);
    CHECK(a.messages.size() == 1);
  }
  // Above 1 is clamped, with a note.
  Applied a = apply("focus=7");
  CHECK(a.scene.focus() == 1.f);
  CHECK(any_contains(a.messages, "using 1"));
  CHECK(apply("focus=.25").scene.focus() == 0.25f);
  CHECK(apply("focus=0").scene.focus() == 0.f);
}

TEST_CASE("malformed percent-encoding, NUL, controls and surrogates are refused") {
  const Scene fresh;
  for (const char* v : {"a%ZZb", "a%", "a%4", "%00", "a%00b", "%01%02%03", "%7F", "%C2%85", "%ED%A0%80",
                        "%ED%BF%BF", "%C0%AF", "%FF", "%E2%82", "%F4%90%80%80"}) {
    CAPTURE(v);
    Applied a = apply(std::string("sentence=") + v);
    CHECK(a.scene.tokens().size() == fresh.tokens().size());
    REQUIRE(a.messages.size() == 1);
    CHECK(a.messages[0].find("sentence") != std::string::npos);
  }
  CHECK(any_contains(apply("sentence=%ZZ").messages, "malformed %-escape"));
  CHECK(any_contains(apply("sentence=%00").messages, "NUL"));
  CHECK(any_contains(apply("sentence=%ED%A0%80").messages, "lone surrogate"));
  // A query given with a refused sentence is skipped, not applied to the old one.
  Applied q = apply("sentence=%ZZ&query=0");
  CHECK(q.scene.query() == fresh.query());
  CHECK(any_contains(q.messages, "query was skipped"));
}

TEST_CASE("sentences the engine refuses keep the previous sentence, with the cap stated") {
  const Scene fresh;
  CHECK(any_contains(apply("sentence=%20%20%09").messages, "no words"));
  CHECK(apply("sentence=...").messages.empty());  // punctuation marks are tokens: accepted
  std::string many = "sentence=";
  for (int i = 0; i < 40; ++i) many += "w+";
  Applied a = apply(many);
  CHECK(a.scene.tokens().size() == fresh.tokens().size());
  CHECK(any_contains(a.messages, "the cap is 32"));
  std::string big = "sentence=" + std::string(5000, 'a');
  CHECK(any_contains(apply(big).messages, "the cap is 4096 bytes"));
}

TEST_CASE("a 100 KB hash is refused whole") {
  std::string h = "#heads=2&sentence=" + std::string(100 * 1024, 'a');
  UrlParse p = parse_url_hash(h);
  CHECK(p.state == UrlState{});
  REQUIRE(p.messages.size() == 1);
  CHECK(p.messages[0].error.find("the cap is 16384 bytes") != std::string::npos);
}

TEST_CASE("unknown keys are ignored and reported; markup is only text") {
  UrlParse p = parse_url_hash("heads=2&bogus=1&__proto__=x&constructor=y&heads2=3&HEADS=4");
  CHECK(p.state.heads == 2);
  CHECK(p.messages.size() == 5);
  CHECK(any_contains(p.messages, "\"__proto__\""));

  // Markup in the view/theme fields is not a whitelisted value.
  CHECK(parse_url_hash("view=%3Cscript%3E").messages.size() == 1);
  CHECK(parse_url_hash("theme=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E").messages.size() == 1);
  // Markup in the sentence is a sentence: its characters become tokens, verbatim.
  Applied a = apply("sentence=%3Cb%3Ehi%3C%2Fb%3E%20%3Cscript%3Ealert(1)%3C%2Fscript%3E");
  CHECK(a.messages.empty());
  bool has_lt = false;
  for (const Token& t : a.scene.tokens()) has_lt |= t.text == "<";
  CHECK(has_lt);
  // A message quotes a hostile key only as printable ASCII, shortened.
  UrlParse m = parse_url_hash("%3Cscript%3E%E2%80%AE" + std::string(100, 'k') + "=1");
  REQUIRE(m.messages.size() == 1);
  // (as long as the message for a one-letter key, plus at most the 24 quoted characters and "...")
  CHECK(m.messages[0].error.size() <= parse_url_hash("k=1").messages.at(0).error.size() + 26);
}

TEST_CASE("text that must work: one token, emoji, combining marks, RTL, accents, CJK") {
  for (const char* s : {"Hello", "I%20%E2%9D%A4%EF%B8%8F%20%F0%9F%91%A9%E2%80%8D%F0%9F%92%BB", "e%CC%81t%C3%A9",
                        "%D7%A9%D7%9C%D7%95%D7%9D%20%D7%A2%D7%95%D7%9C%D7%9D", "c'%C3%A9tait+d%C3%A9j%C3%A0",
                        "%E6%88%91%E7%88%B1%E4%BD%A0", "line%0Abreak%09tab"}) {
    CAPTURE(s);
    Applied a = apply(std::string("sentence=") + s);
    CHECK(a.messages.empty());
  }
  CHECK(apply("sentence=Hello").scene.tokens().size() == 1);
  // U+FFFD written as itself is text; only invalid bytes decode to it.
  CHECK(apply("sentence=a%EF%BF%BDb").messages.empty());
  CHECK(apply("sentence=a%EF%BF%BEb").messages.empty());  // U+FFFE: a noncharacter, still valid UTF-8
  CHECK(any_contains(apply("sentence=a%EF%BFb").messages, "not valid UTF-8"));
}

TEST_CASE("state round-trips through the hash") {
  Scene scene;
  REQUIRE(scene.set_sentence("Ünïcødé <b> & = % + # words, 我 😀."));
  REQUIRE(scene.set_heads(4));
  REQUIRE(scene.set_query(2));
  REQUIRE(scene.set_focus(0.125f));
  UrlState s = url_state_of(scene, "Ünïcødé <b> & = % + # words, 我 😀.", "steps", "dark");
  const std::string hash = to_url_hash(s);
  CHECK(hash.find('#') == std::string::npos);
  CHECK(hash.find(' ') == std::string::npos);
  UrlParse p = parse_url_hash("#" + hash);
  CHECK(p.messages.empty());
  CHECK(p.state == s);

  Scene copy;
  CHECK(apply_url_state(copy, p.state).empty());
  CHECK(copy.heads() == 4);
  CHECK(copy.query() == 2);
  CHECK(copy.focus() == 0.125f);
  CHECK(copy.tokens().size() == scene.tokens().size());

  // The default state is a short link.
  Scene plain;
  CHECK(to_url_hash(url_state_of(plain, Scene::lesson_sentence(), "lesson", "light")) ==
        "heads=1&query=" + std::to_string(plain.query()));
}

TEST_CASE("messages are joined and capped") {
  std::vector<Status> ms(20, Status::fail(refusals::link_query_skipped));
  const std::string x = ms[0].error;
  CHECK(join_messages(ms) == x + "; " + x + "; " + x + "; " + x + "; " + x + "; " + x + "; " + x + "; " + x + "; and 12 more");
  CHECK(join_messages({}) == "");
}

TEST_CASE("training keys: view=train, seed, r and weights parse, refuse bad values and round-trip") {
  UrlParse p = parse_url_hash("#view=train&seed=4294967295&r=4&weights=trained");
  CHECK(p.messages.empty());
  CHECK(p.state.view == std::string("train"));
  CHECK(p.state.seed == int64_t{4294967295});
  CHECK(p.state.r == 4);
  CHECK(p.state.weights == std::string("trained"));
  UrlParse again = parse_url_hash(to_url_hash(p.state));
  CHECK(again.messages.empty());
  CHECK(again.state == p.state);

  const char* bad[] = {"seed=4294967296", "seed=-1", "seed=1e3", "seed=0x10", "seed=", "seed=12345678901",
                       "r=3", "r=0", "r=2.0", "r=four", "weights=learned", "weights=Trained", "view=training"};
  for (const char* h : bad) {
    CAPTURE(h);
    UrlParse b = parse_url_hash(h);
    REQUIRE(b.messages.size() == 1);
    CHECK(b.messages[0].error.find("kept") != std::string::npos);
    CHECK_FALSE(b.state.seed);
    CHECK_FALSE(b.state.r);
    CHECK_FALSE(b.state.weights);
    CHECK_FALSE(b.state.view);
  }
  CHECK(parse_url_hash("seed=0").state.seed == int64_t{0});
  CHECK(parse_url_hash("seed=007").state.seed == int64_t{7});
}

TEST_CASE("lesson-control keys: knockout (1-based) and tieqk parse, refuse bad values, apply and round-trip") {
  UrlParse p = parse_url_hash("#heads=4&knockout=3,1&tieqk=1");
  CHECK(p.messages.empty());
  CHECK(p.state.knockout == std::vector<int>{0, 2});  // 0-based, ascending
  CHECK(p.state.tie_qk == true);
  Scene scene;
  CHECK(apply_url_state(scene, p.state).empty());
  CHECK(scene.heads() == 4);
  CHECK(scene.knockout() == std::vector<int>{0, 2});
  CHECK(scene.tie_qk());
  const std::string hash = to_url_hash(url_state_of(scene, Scene::lesson_sentence(), "lesson", "light"));
  CHECK(hash.find("knockout=1,3") != std::string::npos);
  CHECK(hash.find("tieqk=1") != std::string::npos);
  CHECK(parse_url_hash(hash).state == url_state_of(scene, Scene::lesson_sentence(), "lesson", "light"));
  CHECK(parse_url_hash("tieqk=0").state.tie_qk == false);

  const char* bad[] = {"knockout=0", "knockout=", "knockout=1,", "knockout=,1", "knockout=-1", "knockout=1;2",
                       "knockout=1.5", "knockout=1,2,3,4,5,6,7,8,1", "tieqk=2", "tieqk=true", "tieqk=", "tieqk=01"};
  for (const char* h : bad) {
    CAPTURE(h);
    UrlParse b = parse_url_hash(h);
    REQUIRE(b.messages.size() == 1);
    CHECK(b.messages[0].error.find("kept") != std::string::npos);
    CHECK_FALSE(b.state.knockout);
    CHECK_FALSE(b.state.tie_qk);
  }
  // a head the scene does not have: the engine refuses, the knockout is kept
  Applied a = apply("heads=2&knockout=3");
  CHECK(a.scene.knockout().empty());
  CHECK(any_contains(a.messages, "knockout setting was refused"));
}
