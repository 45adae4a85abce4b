// targets_table_tests.cpp: the relationships each query word gets, scored
// over a table of short English sentences.
//
// The expected relationships were written by hand from English grammar
// (parser.h states the rules the program follows; the table follows the
// grammar, not the program's output): a verb's subject and its complement
// (a clause, what follows "be", a preposition's noun) or object (a noun
// phrase), a pronoun's antecedent, a preposition's object; a noun,
// determiner or adjective has none of these ("" below). A row is right when
//   1. the pointer relationships that fit the query's word (Scene::fits),
//      in relation order, are exactly the expected ones with the expected
//      target words, and
//   2. no head, at one and at two heads, targets a determiner or
//      punctuation (words listed here, not the lexicon's), nor the query
//      itself unless its relationship does not fit the word (an idle head
//      looks at the query: Scene::looks_at).
// The table must score at least 90%; every miss is printed.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/lesson/scene.h"
#include "../common/scene_lookup.h"

using namespace headroom;
using headroom::testing::index_of;

namespace {

struct TargetRow {
  const char* sentence;
  const char* query;  // the query word (its first occurrence)
  const char* expected;  // "relation=word ..." in relation order, "" for none
};

// clang-format off
const TargetRow kTable[] = {
    {"The researcher who wrote the paper said it was wrong.", "said", "subject=researcher complement=it"},
    {"The researcher who wrote the paper said it was wrong.", "it", "antecedent=paper"},
    {"The researcher who wrote the paper said it was wrong.", "researcher", ""},
    {"The researcher who wrote the paper said it was wrong.", "wrote", "subject=researcher object=paper"},
    {"The researcher who wrote the paper said it was wrong.", "who", "antecedent=researcher"},
    {"The researcher who wrote the paper said it was wrong.", "was", "subject=it complement=wrong"},
    {"The cat sat.", "sat", "subject=cat"},
    {"The cat sat.", "cat", ""},
    {"The cat sat.", "The", ""},
    {"The cat sat on the mat.", "sat", "subject=cat complement=mat"},
    {"The cat sat on the mat.", "on", "object=mat"},
    {"The dog bit the man.", "bit", "subject=dog object=man"},
    {"She said that he left.", "said", "subject=She complement=he"},
    {"The man in the hat ran.", "ran", "subject=man"},
    {"The children who saw the movie liked it.", "liked", "subject=children object=it"},
    {"The children who saw the movie liked it.", "it", "antecedent=movie"},
    {"My brother bought a new car.", "bought", "subject=brother object=car"},
    {"The book which he read was good.", "read", "subject=he"},
    {"The book which he read was good.", "was", "subject=book complement=good"},
    {"The cat that the dog chased was fast.", "chased", "subject=dog"},
    {"The cat that the dog chased was fast.", "was", "subject=cat complement=fast"},
    {"They know the answer.", "know", "subject=They object=answer"},
    {"The students said they were tired.", "they", "antecedent=students"},
    {"The students said they were tired.", "were", "subject=they complement=tired"},
    {"The woman gave him a book.", "gave", "subject=woman object=him"},
    {"John thinks Mary is right.", "thinks", "subject=John complement=Mary"},
    {"John thinks Mary is right.", "is", "subject=Mary complement=right"},
    {"The old man sleeps.", "sleeps", "subject=man"},
    {"The dogs bark at the mailman.", "bark", "subject=dogs complement=mailman"},
    {"A bird sang in the garden.", "sang", "subject=bird complement=garden"},
    {"The teacher is a doctor.", "is", "subject=teacher complement=doctor"},
    {"The boy kicked the ball.", "kicked", "subject=boy object=ball"},
    {"The girl who won the race was happy.", "won", "subject=girl object=race"},
    {"The girl who won the race was happy.", "was", "subject=girl complement=happy"},
    {"We saw the film.", "saw", "subject=We object=film"},
    {"The letter that she wrote was long.", "wrote", "subject=she"},
    {"The phone rang.", "rang", "subject=phone"},
    {"The farmer who owns the horse said it was sick.", "said", "subject=farmer complement=it"},
    {"The farmer who owns the horse said it was sick.", "it", "antecedent=horse"},
    {"Her sister likes the cake.", "likes", "subject=sister object=cake"},
    {"The man told her the truth.", "told", "subject=man object=her"},
    {"The keys are on the table.", "are", "subject=keys complement=table"},
    {"Someone stole my bike.", "stole", "subject=Someone object=bike"},
    {"The baby cried because it was hungry.", "it", "antecedent=baby"},
    {"The baby cried because it was hungry.", "cried", "subject=baby"},
    {"Birds fly.", "fly", "subject=Birds"},
    {"The river flows to the sea.", "flows", "subject=river complement=sea"},
    {"The cat chased the mouse.", "mouse", ""},
};
// clang-format on

// Determiners and punctuation as this test knows them (not the lexicon's
// lists; only words that are determiners in every row: "her" is not).
bool determiner_or_mark(const std::string& w) {
  for (const char* d : {"the", "The", "a", "A", "an", "my", "My", ".", ",", "!", "?"})
    if (w == d) return true;
  return false;
}


// The query's leading fitting pointer relationships, as "relation=word ...".
std::string fitting_targets(const Scene& s, int q) {
  std::string out;
  for (int k = 0; k < kRelations; ++k) {
    const Relation r = static_cast<Relation>(k);
    if (!relation_reassignable(r) || !s.fits(q, r)) continue;
    out += (out.empty() ? "" : " ") + std::string(relation_name(r)) + "=" +
           s.tokens()[static_cast<size_t>(s.target(q, r))].text;
  }
  return out;
}

// Every head's target at one and two heads; "" when each is a content word
// (or, for a relationship the query's word does not have, the query itself:
// an idle head looks there), else what is wrong.
std::string bad_targets(Scene& s, int q) {
  std::string bad;
  for (int H : {1, 2}) {
    if (!s.set_heads(H).is_ok()) return "heads refused";
    for (const HeadReadout& r : s.readout())
      for (size_t k = 0; k < r.targets.size(); ++k) {
        const int t = r.targets[k];
        const std::string& w = s.tokens()[static_cast<size_t>(t)].text;
        const bool idle = t == q && !s.fits(q, r.relations[k]);
        if ((t == q && !idle) || (!idle && determiner_or_mark(w)))
          bad += std::string(bad.empty() ? "" : ", ") + std::to_string(H) + " head(s): " + relation_name(r.relations[k]) +
                 " -> " + w;
      }
  }
  return bad;
}

}  // namespace

TEST_CASE("targets table: each query gets the relationships that fit its word (at least 90% of the table)") {
  const int n = static_cast<int>(sizeof kTable / sizeof kTable[0]);
  REQUIRE(n >= 30);
  int right = 0;
  std::string misses;
  for (const TargetRow& row : kTable) {
    Scene s;
    REQUIRE(s.set_sentence(row.sentence).is_ok());
    const int q = index_of(s, row.query);
    REQUIRE_MESSAGE(q >= 0, row.sentence, " has no token ", row.query);
    REQUIRE(s.set_query(q).is_ok());
    const std::string got = fitting_targets(s, q);
    const std::string bad = bad_targets(s, q);
    if (got == row.expected && bad.empty()) {
      ++right;
      continue;
    }
    misses += std::string("\n  MISS \"") + row.sentence + "\" query " + row.query + ": expected [" + row.expected +
              "], got [" + got + "]" + (bad.empty() ? "" : "; heads on a bad target: " + bad);
  }
  const double score = static_cast<double>(right) / n;
  MESSAGE("targets table: ", right, " of ", n, " right (", static_cast<int>(score * 100.0 + 0.5), "%)",
          misses.empty() ? std::string("; no misses") : misses);
  CHECK(score >= 0.9);
}

TEST_CASE("targets table: the lesson's findings, one by one") {
  Scene s;
  const int it = index_of(s, "it"), paper = index_of(s, "paper"), said = index_of(s, "said"),
            researcher = index_of(s, "researcher");
  // One model for every row: head 4 holds the antecedent at four heads,
  // and from "it" it looks at "paper".
  REQUIRE(s.set_heads(4).is_ok());
  REQUIRE(s.set_query(it).is_ok());
  CHECK(s.readout()[3].relations[0] == Relation::Antecedent);
  CHECK(s.readout()[3].targets[0] == paper);
  CHECK(s.trace().heads[3].weights(it, paper) >= 0.9f);  // the head really attends there
  // "it" has no subject and no complement: heads 1 and 2 look at "it" itself.
  for (int h : {0, 1}) CHECK(s.trace().heads[static_cast<size_t>(h)].weights(it, it) >= 0.9f);
  // "researcher" is never its own subject, nor the target of a relationship
  // it does not have.
  REQUIRE(s.set_query(researcher).is_ok());
  for (int H : kHeadCounts) {
    REQUIRE(s.set_heads(H).is_ok());
    CHECK(s.target(researcher, Relation::Subject) != researcher);
    CHECK(s.looks_at(researcher, Relation::Subject) == researcher);  // idle: itself
  }
  // At four heads "said": subject, complement, the previous word, and no
  // antecedent (head 4 looks at "said" itself).
  REQUIRE(s.set_query(said).is_ok());
  REQUIRE(s.set_heads(4).is_ok());
  const std::vector<HeadReadout> r4 = s.readout();
  CHECK(r4[0].targets[0] == researcher);
  CHECK(r4[1].targets[0] == it);
  CHECK(r4[2].relations[0] == Relation::Previous);
  CHECK(r4[2].targets[0] == paper);
  CHECK(r4[3].relations[0] == Relation::Antecedent);
  CHECK(r4[3].targets[0] == said);
  CHECK(s.trace().heads[3].weights(said, said) >= 0.9f);
  // "The cat sat.": sat = cat, and no determiner.
  REQUIRE(s.set_sentence("The cat sat.").is_ok());
  REQUIRE(s.set_heads(1).is_ok());
  const HeadReadout one = s.readout()[0];
  REQUIRE(one.targets.size() == 1u);
  CHECK(s.tokens()[static_cast<size_t>(one.targets[0])].text == "cat");
}
