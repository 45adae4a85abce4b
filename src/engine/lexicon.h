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

namespace headroom {

enum Role : unsigned {
  kNoun = 1u << 0,
  kVerb = 1u << 1,
  kPronoun = 1u << 2,
  kDeterminer = 1u << 3,
  kRelative = 1u << 4,
  kPreposition = 1u << 5,
  kPunctuation = 1u << 6,
  kAdjective = 1u << 7,
  kAuxiliary = 1u << 8,
  kConjunction = 1u << 9,
  kNumber = 1u << 10,
};
// Word classes use bits [0, kLexicalRoles); parser.h adds the roles it
// derives from context above them.
constexpr int kLexicalRoles = 11;

std::string ascii_lower(std::string_view s);
// Lexical class of one token (no context): a combination of the bits above.
unsigned lexical_roles(std::string_view token);

}  // namespace headroom
