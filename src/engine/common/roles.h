// roles.h: the role bits of a token, as the embedding's role columns
// (embedding.h, columns [32, 48)) read them; shared by the lesson's parser,
// which derives them from words, and the training task, which draws them.
//
// Does: name each bit: the word classes (bits 0 .. kLexicalRoles - 1) and the
// roles derived from context above them.
// Does not: decide which word has which role (lesson/lexicon.h and
// lesson/parser.h do) nor name them for people (parser.h's role_name).
#pragma once

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

// Roles the parser derives from context, in the same bit set as the
// word classes (a token's roles = its classes | these).
enum ParsedRole : unsigned {
  kSubject = 1u << kLexicalRoles,         // subject of a verb outside a relative clause
  kInClause = 1u << (kLexicalRoles + 1),  // inside a relative clause
  kFirst = 1u << (kLexicalRoles + 2),     // first token of the sequence
};
constexpr int kRoleCount = kLexicalRoles + 3;

}  // namespace headroom
