// relation.cpp: names and help lines of the relationships. See relation.h.
#include "relation.h"

namespace headroom {

const char* relation_name(Relation r) {
  switch (r) {
    case Relation::Subject: return "subject";
    case Relation::Complement: return "complement";
    case Relation::Previous: return "previous token";
    case Relation::Antecedent: return "antecedent";
    case Relation::Next: return "next token";
    case Relation::Object: return "object";
    case Relation::Self: return "self";
    case Relation::Start: return "first token";
    default: return "?";
  }
}

const char* relation_help(Relation r) {
  switch (r) {
    case Relation::Subject: return "a verb looks back to its subject, across a relative clause";
    case Relation::Complement: return "a verb looks ahead to the first token of what it says/claims";
    case Relation::Previous: return "every token looks at the token before it (local context)";
    case Relation::Antecedent: return "a pronoun looks back to the noun it refers to (coreference)";
    case Relation::Next: return "every token looks at the token after it";
    case Relation::Object: return "a verb looks at its object noun";
    case Relation::Self: return "every token looks at itself";
    case Relation::Start: return "every token looks at the first token (an attention sink)";
    default: return "";
  }
}

bool relation_reassignable(Relation r) {
  switch (r) {
    case Relation::Subject:
    case Relation::Complement:
    case Relation::Antecedent:
    case Relation::Object: return true;
    default: return false;
  }
}

}  // namespace headroom
