// relation.h: the named relationships a head can hold, and their words.
//
// Does: list the relationships ("my subject", "the previous token", ...),
// name each, give each one line of help for tooltips, and say which are
// pointers the user may retarget (the rest are fixed by position).
// Does not: find targets (parser.h does) or turn a relationship into weights
// (scene.cpp does).
#pragma once

namespace headroom {

enum class Relation : int {
  Subject = 0,    // a verb's subject noun (across a relative clause)
  Complement,     // the first token of what follows a verb
  Previous,       // the token before
  Antecedent,     // what a pronoun refers to
  Next,           // the token after
  Object,         // a verb's object noun
  Self,           // the token itself
  Start,          // the first token (an "attention sink")
  Count
};
constexpr int kRelations = static_cast<int>(Relation::Count);
const char* relation_name(Relation r);         // "subject", "previous token", ...
const char* relation_help(Relation r);         // one line: what it attends to
// Subject, complement, antecedent and object are pointers (the embedding
// carries p(target) for them) and can be retargeted; the others are
// positional.
bool relation_reassignable(Relation r);

}  // namespace headroom
