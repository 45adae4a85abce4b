// parser.h: the lesson's tiny English word-role parser.
//
// Does: tag each token with its word classes (lexicon.h, then in context:
// "her book" vs "told her", "the cat sleeps"), find relative clauses, and
// decide which pointer relationships FIT each word, with their targets:
//   a verb:         subject (the noun before it, across a relative clause and
//                   past a prepositional phrase; in an object relative clause
//                   "the cat that the dog chased" the noun inside), and
//                   either a complement (a clause: "said IT was wrong"; what
//                   follows a form of "be": "was WRONG"; a preposition's
//                   noun: "sat on the MAT"; the verb after an auxiliary) or
//                   an object (a noun phrase's noun: "bit the MAN");
//   a pronoun:      its antecedent (it/he/she/they...: the nearest noun
//                   before it; they/them: the nearest plural noun); "who",
//                   "which", "that": the noun its clause is about;
//   a preposition:  its object ("on the MAT");
//   a noun, an adjective, a determiner, punctuation: none of these (a noun
//                   relates to its neighbours: scene.h deals it the previous
//                   and next words by position, skipping determiners and
//                   punctuation).
// A target is never the word itself, a determiner or punctuation. A pointer
// relationship that does not fit still gets a target (its pointer block in X
// needs one): the nearest content word, never dealt before the fitting ones.
// Outside the lesson's shape, NOUN [who|which|that] VERB ... MAIN-VERB
// COMPLEMENT, it says so (guessed); for a sentence the lexicon knows no word
// of (another language) the nearest words stand in for subject and
// complement.
// Does not: parse English in general (anything unknown is a noun; the user
// can retarget any pointer relationship), build embeddings or weights
// (scene.cpp does), or keep state: the same tokens give the same Parse.
#pragma once
#include <array>
#include <string>
#include <vector>

#include "lexicon.h"
#include "relation.h"
#include "tokenizer.h"

namespace headroom {

const char* role_name(int bit);       // "noun", "verb", ..., "in clause", "first"
std::string role_names(unsigned bits);  // "noun, subject": the set bits' names
unsigned relation_bit(Relation r);      // 1 << r, for Parse::fits

struct Parse {
  std::vector<unsigned> roles;                       // per token: Role | ParsedRole bits
  std::vector<std::array<int, kRelations>> targets;  // per token, per relationship
  // Per token, the pointer relationships that fit its word (relation_bit):
  // their targets were found by the grammar above; the others' are fallbacks.
  std::vector<unsigned> fits;
  int query = 0;                                     // default query
  // The lesson's shape was not found (the query is no verb with a subject and
  // a complement that are other words): query and targets are guesses.
  bool guessed = false;
};

// Targets: the fitting ones above; Previous/Next/Self/Start follow position;
// a pointer relationship that does not fit points at the nearest content
// word (not the token itself, a determiner or punctuation; else the nearest
// word; else the token itself when it is the only word), subject and
// antecedent looking left first, complement and object right first, subject
// and complement on different words when there are two. Default query: the
// main verb after a relative clause, else the first verb outside a clause,
// else the middle token; when guessed, the word nearest that token (to the
// right first).
Parse parse_sentence(const std::vector<Token>& tokens);

}  // namespace headroom
