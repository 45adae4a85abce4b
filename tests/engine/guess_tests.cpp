// guess_tests.cpp: sentences outside the lesson's English grammar get a word
// as the query and targets that are other words, and say they were guessed;
// the English lesson sentences keep their exact targets.
//
// Punctuation is checked against marks listed here, not the lexicon's
// classes, and the expected queries and targets are read off the sentences
// by hand from the rules in parser.h.
#include <doctest/doctest.h>

#include <array>
#include <string>

#include "engine/lesson/scene.h"

using namespace headroom;

namespace {

constexpr Relation kPointers[] = {Relation::Subject, Relation::Complement, Relation::Antecedent, Relation::Object};

bool is_mark(const std::string& t) {
  for (const char* m : {".", ",", "!", "?", "\xE3\x80\x82" /* 。 */, "\xEF\xBC\x8C" /* ， */, "\xD8\x8C" /* ، */})
    if (t == m) return true;
  return false;
}

const std::string& text(const Scene& s, int i) { return s.tokens()[static_cast<size_t>(i)].text; }

// For every token as the query: a word, and each pointer target is another word.
void check_every_query(Scene& s) {
  const int L = static_cast<int>(s.tokens().size());
  for (int q = 0; q < L; ++q) {
    for (Relation r : kPointers) {
      const int t = s.target(q, r);
      CAPTURE(q);
      CAPTURE(relation_name(r));
      CHECK(t != q);
      CHECK_FALSE(is_mark(text(s, t)));
    }
  }
}

// Loads `sentence` (L tokens); checks the query's text and its subject's and
// complement's, and that every query's targets are other words.
void check_sentence(Scene& s, const char* sentence, size_t L, const char* query, const char* subject,
                    const char* complement) {
  REQUIRE(s.set_sentence(sentence).is_ok());
  REQUIRE(s.tokens().size() == L);
  CHECK(s.targets_guessed());
  CHECK(text(s, s.query()) == query);
  CHECK(text(s, s.target(s.query(), Relation::Subject)) == subject);
  CHECK(text(s, s.target(s.query(), Relation::Complement)) == complement);
  check_every_query(s);
}

}  // namespace

TEST_CASE("German: the query is a word, not the comma in the middle") {
  Scene s;
  // 0 Die 1 Forscherin 2 , 3 die 4 das 5 Papier 6 schrieb 7 , 8 sagte 9 , 10 es 11 sei 12 falsch 13 .
  // the middle token is a comma: the next word right; subject: the nearest
  // word left; complement: the nearest word right
  check_sentence(s, "Die Forscherin, die das Papier schrieb, sagte, es sei falsch.", 14, "sagte", "schrieb", "es");
}

TEST_CASE("Chinese: no token is its own subject, and 。 is punctuation") {
  Scene s;
  // 0 研 1 究 2 者 3 说 4 它 5 错 6 了 7 。
  check_sentence(s, "研究者说它错了。", 8, "它", "说", "错");
  CHECK(s.roles(7) == "punctuation");
  // 了: its complement would be 。; the nearest word right is none, so left,
  // past its subject 错, to 它
  CHECK(text(s, s.target(6, Relation::Complement)) == "它");
}

TEST_CASE("Arabic: targets are neighbouring words, in token order") {
  Scene s;
  // 0 الباحث 1 الذي 2 كتب 3 الورقة 4 قال 5 إنها 6 خاطئة 7 .
  check_sentence(s, "الباحث الذي كتب الورقة قال إنها خاطئة.", 8, "قال", "الورقة", "إنها");
  // Arabic punctuation is punctuation too
  REQUIRE(s.set_sentence("قال، خاطئة").is_ok());
  CHECK(s.roles(1) == "punctuation");
  CHECK(s.target(0, Relation::Complement) == 2);
}

TEST_CASE("one word: the word is the query and its only possible target") {
  Scene s;
  for (const char* one : {"Hello", "Hello!", "!Hello"}) {
    CAPTURE(one);
    REQUIRE(s.set_sentence(one).is_ok());
    CHECK(s.targets_guessed());
    CHECK(text(s, s.query()) == "Hello");
    for (Relation r : kPointers) CHECK(s.target(s.query(), r) == s.query());
  }
  REQUIRE(s.set_sentence("Hello world").is_ok());  // two words: each targets the other
  CHECK(s.target(0, Relation::Subject) == 1);
  CHECK(s.target(1, Relation::Subject) == 0);
  CHECK(s.target(1, Relation::Complement) == 0);
}

TEST_CASE("two words the lexicon does not know: the other word is the subject, and nothing is the complement") {
  Scene s;
  // One other word cannot be both: it is the subject (left first); the
  // complement keeps a target (its block in X needs one) but does not fit.
  for (const char* two : {"Birds fly.", "V\xC3\xB6gel fliegen."}) {
    CAPTURE(two);
    REQUIRE(s.set_sentence(two).is_ok());
    const int q = 1, other = 0;
    REQUIRE(s.set_query(q).is_ok());
    CHECK(s.target(q, Relation::Subject) == other);
    CHECK(s.fits(q, Relation::Subject));
    CHECK_FALSE(s.fits(q, Relation::Complement));
  }
  // Three words: subject left, complement right, both fit.
  REQUIRE(s.set_sentence("Hunde jagen Katzen.").is_ok());
  REQUIRE(s.set_query(1).is_ok());
  CHECK(text(s, s.target(1, Relation::Subject)) == "Hunde");
  CHECK(text(s, s.target(1, Relation::Complement)) == "Katzen");
  CHECK(s.fits(1, Relation::Subject));
  CHECK(s.fits(1, Relation::Complement));
}

TEST_CASE("reassigning a target ends the guess for that query; reset brings it back") {
  Scene s;
  REQUIRE(s.set_sentence("研究者说它错了。").is_ok());
  REQUIRE(s.targets_guessed());
  REQUIRE(s.set_target(Relation::Subject, 0).is_ok());
  CHECK_FALSE(s.targets_guessed());
  REQUIRE(s.set_query(1).is_ok());  // another query's targets are still guesses
  CHECK(s.targets_guessed());
  s.reset_targets();
  REQUIRE(s.set_query(4).is_ok());
  CHECK(s.targets_guessed());
  CHECK(text(s, s.target(4, Relation::Subject)) == "说");
}

TEST_CASE("English lesson sentences keep their exact targets and are not guessed") {
  Scene s;
  CHECK_FALSE(s.targets_guessed());
  // The lesson sentence's whole table, per token: subject, complement,
  // previous, antecedent, next, object, self, start, by the rules in
  // parser.h: fitting targets from the grammar (wrote: researcher, paper;
  // said: researcher, it; it: paper; was: it, wrong; who: researcher), every
  // other pointer the nearest content word (no determiner, punctuation or
  // the token itself), subject and antecedent left first, complement and
  // object right first, complement avoiding the subject's word.
  // 0 The 1 researcher 2 who 3 wrote 4 the 5 paper 6 said 7 it 8 was 9 wrong 10 .
  const std::array<std::array<int, kRelations>, 11> table = {{
      {1, 2, 0, 1, 1, 1, 0, 0},  {2, 3, 0, 2, 2, 2, 1, 0},  {1, 3, 1, 1, 3, 3, 2, 0},
      {1, 5, 2, 2, 4, 5, 3, 0},  {3, 5, 3, 3, 5, 5, 4, 0},  {3, 6, 4, 3, 6, 6, 5, 0},
      {1, 7, 5, 5, 7, 7, 6, 0},  {6, 8, 6, 5, 8, 8, 7, 0},  {7, 9, 7, 7, 9, 9, 8, 0},
      {8, 7, 8, 8, 10, 8, 9, 0}, {9, 8, 9, 9, 10, 9, 10, 0}}};
  REQUIRE(s.tokens().size() == table.size());
  for (int i = 0; i < 11; ++i)
    for (int r = 0; r < kRelations; ++r) {
      CAPTURE(i);
      CAPTURE(r);
      CHECK(s.target(i, static_cast<Relation>(r)) == table[static_cast<size_t>(i)][static_cast<size_t>(r)]);
    }
  for (const char* lesson : {"The senator who attacked the reporter admitted she was wrong.",
                             "The dog that chased the cat knew it was late.",
                             "The chef who cooked the meal for the critic claimed it was perfect."}) {
    CAPTURE(lesson);
    REQUIRE(s.set_sentence(lesson).is_ok());
    CHECK_FALSE(s.targets_guessed());
  }
}
