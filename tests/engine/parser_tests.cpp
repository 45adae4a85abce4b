// parser_tests.cpp: the word-role parser on its own (parser.h), no Scene.
//
// Expected targets are read off the sentences by hand (token indices written
// under each sentence); properties: every target is a token, upper case
// parses as lower case, and a perturbation (removing the relative pronoun)
// moves the verb's subject.
#include <doctest/doctest.h>

#include <string>

#include "engine/lesson/lexicon.h"
#include "engine/lesson/parser.h"

using namespace headroom;

namespace {

Parse parse_text(const char* s) { return parse_sentence(tokenize(s)); }
int target(const Parse& p, int token, Relation r) { return p.targets[static_cast<size_t>(token)][static_cast<size_t>(r)]; }
bool has(const Parse& p, int token, unsigned bit) { return (p.roles[static_cast<size_t>(token)] & bit) != 0; }

}  // namespace

TEST_CASE("parser: the lesson sentence's roles and default targets, by hand") {
  // 0 The 1 researcher 2 who 3 wrote 4 the 5 paper 6 said 7 it 8 was 9 wrong 10 .
  const Parse p = parse_text("The researcher who wrote the paper said it was wrong.");
  REQUIRE(p.roles.size() == 11u);
  CHECK(p.query == 6);
  CHECK(target(p, 6, Relation::Subject) == 1);     // across the relative clause
  CHECK(target(p, 6, Relation::Complement) == 7);
  CHECK(target(p, 6, Relation::Object) == 7);      // no object (a clause follows): the nearest word right
  CHECK(target(p, 3, Relation::Subject) == 1);     // the clause's verb: the head noun
  CHECK(target(p, 3, Relation::Object) == 5);
  CHECK(target(p, 2, Relation::Antecedent) == 1);  // "who" -> researcher
  CHECK(target(p, 7, Relation::Antecedent) == 5);  // nearest noun to the left (the default)
  CHECK(target(p, 8, Relation::Subject) == 7);     // "was": nearest noun-like outside a clause
  CHECK(target(p, 9, Relation::Subject) == 8);     // an adjective has none: the nearest word left
  CHECK(p.fits[6] == (relation_bit(Relation::Subject) | relation_bit(Relation::Complement)));
  CHECK(p.fits[7] == relation_bit(Relation::Antecedent));  // a pronoun: its antecedent only
  CHECK(p.fits[1] == 0u);                                  // a noun: none of the pointers
  CHECK(target(p, 1, Relation::Subject) == 2);             // ...and never itself: "who"
  CHECK(target(p, 0, Relation::Previous) == 0);
  CHECK(target(p, 10, Relation::Next) == 10);
  CHECK(target(p, 4, Relation::Self) == 4);
  CHECK(target(p, 9, Relation::Start) == 0);
  for (int i = 2; i <= 5; ++i) CHECK(has(p, i, kInClause));
  for (int i : {0, 1, 6, 7, 8, 9, 10}) CHECK_FALSE(has(p, i, kInClause));
  CHECK(has(p, 1, kSubject));
  CHECK(has(p, 0, kFirst));
  CHECK(p.roles[2] == (kRelative | kInClause));  // "who" is only a relative here
  CHECK(has(p, 10, kPunctuation));
}

TEST_CASE("parser: 'that' opens a clause only after a noun") {
  // 0 She 1 said 2 that 3 the 4 book 5 which 6 he 7 read 8 yesterday 9 was 10 good 11 .
  const Parse p = parse_text("She said that the book which he read yesterday was good.");
  CHECK_FALSE(has(p, 2, kRelative));
  CHECK(has(p, 5, kRelative));
  for (int i = 5; i <= 8; ++i) CHECK(has(p, i, kInClause));
  CHECK_FALSE(has(p, 9, kInClause));
  CHECK(target(p, 7, Relation::Subject) == 6);  // read -> he (the noun inside an object clause)
  CHECK(target(p, 9, Relation::Subject) == 4);  // was -> book, skipping the clause
  CHECK(p.query == 9);                          // the verb right after the clause
  // 0 That 1 is 2 wrong
  const Parse q = parse_text("That is wrong");
  CHECK_FALSE(has(q, 0, kRelative));
  CHECK(target(q, 1, Relation::Subject) == 0);
}

TEST_CASE("parser: removing the relative pronoun moves the verb's subject") {
  const Parse with = parse_text("The dog that chased the cat knew it was late.");
  const Parse without = parse_text("The dog chased the cat knew it was late.");
  CHECK(target(with, 6, Relation::Subject) == 1);   // knew -> dog
  CHECK(target(without, 5, Relation::Subject) == 4); // knew -> cat (no clause to skip)
}

TEST_CASE("parser: default query without a clause, without a verb, and with no tokens") {
  CHECK(parse_text("He thinks they know.").query == 1);  // the first verb
  CHECK(parse_text("Hello big world").query == 1);       // no verb: the middle token
  const Parse empty = parse_sentence({});
  CHECK(empty.roles.empty());
  CHECK(empty.targets.empty());
  CHECK(empty.query == 0);
}

TEST_CASE("parser: every target is a token, and case does not matter") {
  for (const char* s : {"The researcher who wrote the paper said it was wrong.", "Hello", ". , !",
                        "Die Forscherin, die das Papier schrieb, sagte, es sei falsch.", "研究者说它错了。",
                        "The cat 😺 sat on the mat and the dog barked."}) {
    CAPTURE(s);
    const Parse p = parse_text(s);
    const int L = static_cast<int>(p.roles.size());
    REQUIRE(p.targets.size() == static_cast<size_t>(L));
    CHECK((p.query >= 0 && p.query < L));
    for (const auto& t : p.targets)
      for (int j : t) CHECK((j >= 0 && j < L));
  }
  const Parse lower = parse_text("the researcher who wrote the paper said it was wrong.");
  const Parse upper = parse_text("THE RESEARCHER WHO WROTE THE PAPER SAID IT WAS WRONG.");
  CHECK(lower.roles == upper.roles);
  CHECK(lower.targets == upper.targets);
  CHECK(lower.query == upper.query);
}

TEST_CASE("role names: one per bit, in bit order") {
  CHECK(role_names(0) == "");
  CHECK(role_names(kNoun | kSubject) == "noun, subject");
  CHECK(role_names(kVerb | kAuxiliary | kInClause) == "verb, auxiliary, in clause");
  CHECK(std::string(role_name(kRoleCount)) == "?");
  CHECK(std::string(role_name(-1)) == "?");
}

TEST_CASE("roles: the word classes fill bits 0 .. kLexicalRoles - 1, the parser's roles sit above them") {
  const unsigned classes[] = {kNoun, kPronoun, kVerb, kDeterminer, kRelative, kPreposition,
                              kPunctuation, kAdjective, kAuxiliary, kConjunction, kNumber};
  const unsigned derived[] = {kSubject, kInClause, kFirst};
  unsigned all_classes = 0, all_derived = 0;
  for (unsigned c : classes) {
    CHECK((c & (c - 1)) == 0);         // one bit each
    CHECK((all_classes & c) == 0);     // no two classes share one
    all_classes |= c;
  }
  for (unsigned d : derived) {
    CHECK((d & (d - 1)) == 0);
    CHECK(((all_classes | all_derived) & d) == 0);  // a derived role is no word class
    all_derived |= d;
  }
  CHECK(all_classes == (1u << kLexicalRoles) - 1);  // a new class without kLexicalRoles + 1 fails here
  CHECK((all_classes | all_derived) == (1u << kRoleCount) - 1);
  // The lexicon sets word classes only; the derived roles are the parser's.
  for (const char* w : {"the", "researcher", "who", "wrote", "said", "it", "was", "wrong", ".", "in", "and", "7"})
    CHECK_MESSAGE((lexical_roles(w) & all_derived) == 0, w);
}
