// lexicon.h: word classes for the lesson's tiny parser (parser.h).
//
// Does: look a lower-cased English word up in small closed-class lists
// (determiners, pronouns, relative pronouns, prepositions, auxiliaries,
// conjunctions, common adjectives and verbs) plus the "-ed" rule; a token
// that starts with punctuation (tokenizer.h's classes, any script) is
// punctuation.
// Does not: tag open-class words reliably; anything unknown is a noun.
// The parser only needs to find the lesson's shape (noun, relative clause,
// verb, complement); targets can always be reassigned by the user.
#pragma once
#include <string>
#include <string_view>

#include "engine/common/roles.h"

namespace headroom {


std::string ascii_lower(std::string_view s);
// Lexical class of one token (no context): a combination of roles.h's Role bits.
unsigned lexical_roles(std::string_view token);

}  // namespace headroom
