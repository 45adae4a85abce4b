// parser.h: the lesson's tiny English word-role parser.
//
// Does: tag each token with its word classes (lexicon.h) and find the
// lesson's shape, NOUN [who|which|that] VERB ... MAIN-VERB COMPLEMENT: which
// tokens sit in a relative clause, which noun is a verb's subject. From that
// it picks a default target for every token and relationship, and a default
// query (the main verb). Outside that grammar (another language, a fragment)
// it says so and guesses: the query is a word, never punctuation, and no
// pointer target of any token is that token itself or punctuation (unless the
// sentence has no other word).
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

struct Parse {
  std::vector<unsigned> roles;                       // per token: Role | ParsedRole bits
  std::vector<std::array<int, kRelations>> targets;  // per token, per relationship
  int query = 0;                                     // default query
  // The lesson's shape was not found (the query is no verb with a subject and
  // a complement that are other words): query and targets are guesses.
  bool guessed = false;
};

// Default targets: a relationship without a sensible target points at the
// token itself; Previous/Next/Self/Start follow position. Default query: the
// main verb after a relative clause, else the first verb outside a clause,
// else the middle token. When guessed: the query is the word nearest that
// token (to the right first); a pointer target (subject, complement,
// antecedent, object) that is the token itself or punctuation becomes the
// nearest other word, subject and antecedent looking left first, complement
// and object right first, subject and complement on different words when
// there are two.
Parse parse_sentence(const std::vector<Token>& tokens);

}  // namespace headroom
