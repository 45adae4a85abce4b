// parser.cpp: roles, clauses, the relationships that fit each word, and
// default targets. See parser.h.
//
// Index of this file
//   [SECTION] role names
//   [SECTION] helpers
//   [SECTION] pass 1: word classes in context
//   [SECTION] pass 2: relative clauses
//   [SECTION] pass 3: the relationships that fit each word
//   [SECTION] pass 4: fallbacks and guesses
#include "parser.h"

namespace headroom {

//-----------------------------------------------------------------------------
// [SECTION] role names
//-----------------------------------------------------------------------------
const char* role_name(int bit) {
  static const char* names[kRoleCount] = {
      "noun", "verb", "pronoun", "determiner", "relative", "preposition", "punctuation",
      "adjective", "auxiliary", "conjunction", "number", "subject", "in clause", "first"};
  return bit >= 0 && bit < kRoleCount ? names[bit] : "?";
}

std::string role_names(unsigned bits) {
  std::string out;
  for (int b = 0; b < kRoleCount; ++b)
    if (bits & (1u << b)) {
      if (!out.empty()) out += ", ";
      out += role_name(b);
    }
  return out;
}

unsigned relation_bit(Relation r) { return 1u << static_cast<int>(r); }

namespace {

//-----------------------------------------------------------------------------
// [SECTION] helpers
//-----------------------------------------------------------------------------
// The sentence being parsed: tokens' lower-case words and role bits, with
// the questions the passes ask of them.
struct Words {
  std::vector<std::string> lower;
  std::vector<unsigned>& roles;
  int L = 0;

  bool has(int i, unsigned bit) const { return i >= 0 && i < L && (roles[static_cast<size_t>(i)] & bit); }
  bool is(int i, const char* w) const { return i >= 0 && i < L && lower[static_cast<size_t>(i)] == w; }
  bool word(int i) const { return i >= 0 && i < L && !has(i, kPunctuation); }
  // A noun, or a pronoun standing for one (not "this book", not "who").
  bool nounlike(int i) const { return has(i, kNoun) || (has(i, kPronoun) && !has(i, kDeterminer | kRelative)); }
  // Words that sit between a determiner and its noun.
  bool modifier(int i) const { return has(i, kDeterminer | kAdjective | kNumber) && !has(i, kVerb); }
  // A target a relationship may point at: a word, not a determiner.
  bool content(int i) const { return word(i) && !has(i, kDeterminer); }
};

bool one_of(const std::string& w, std::initializer_list<const char*> list) {
  for (const char* x : list)
    if (w == x) return true;
  return false;
}

// Default query: the main verb after a relative clause, else the first verb,
// else the middle token.
int default_query(const Words& s) {
  for (int i = 1; i < s.L; ++i)
    if (s.has(i, kVerb) && !s.has(i, kInClause) && s.has(i - 1, kInClause)) return i;
  for (int i = 0; i < s.L; ++i)
    if (s.has(i, kVerb) && !s.has(i, kInClause)) return i;
  return s.L / 2;
}

// The word nearest token i on the `left_first` side, then the other, that
// passes `ok`; skips `avoid` unless nothing else passes; -1 when none does.
template <class Ok>
int nearest(const Words& s, int i, bool left_first, int avoid, Ok ok) {
  int only = -1;
  for (int pass = 0; pass < 2; ++pass) {
    const int step = (pass == 0) == left_first ? -1 : 1;
    for (int j = i + step; j >= 0 && j < s.L; j += step) {
      if (!ok(j)) continue;
      if (j != avoid) return j;
      only = j;
    }
  }
  return only;
}

//-----------------------------------------------------------------------------
// [SECTION] pass 1: word classes in context
//-----------------------------------------------------------------------------
// 1a. "this", "her": a determiner before a noun or modifier, else a pronoun.
// 1b. An unknown word (tagged noun) right after its subject, in a stretch
//     with no verb yet, is a verb when it or the subject ends in "s" ("the
//     cat sleeps", "the dogs bark"), the subject is a pronoun ("she sings")
//     or only an ending, a determiner or a preposition follows ("the phone
//     rang.");
//     so is one ending in "s" right after a relative pronoun ("who owns").
void classes_in_context(Words& s) {
  for (int i = 0; i < s.L; ++i) {
    unsigned& r = s.roles[static_cast<size_t>(i)];
    if ((r & kDeterminer) && (r & kPronoun)) {
      if (s.has(i + 1, kNoun | kAdjective | kNumber) && !s.has(i + 1, kVerb)) r &= ~static_cast<unsigned>(kPronoun);
      else r &= ~static_cast<unsigned>(kDeterminer);
    }
  }
  static constexpr unsigned kBreak = kPunctuation | kConjunction | kRelative;
  bool verb_seen = false;
  for (int i = 0; i < s.L; ++i) {
    if (s.has(i, kBreak)) verb_seen = false;
    if (s.has(i, kVerb)) verb_seen = true;
    if (verb_seen || s.roles[static_cast<size_t>(i)] != kNoun || i == 0) continue;
    const std::string& w = s.lower[static_cast<size_t>(i)];
    const bool ends_s = w.size() > 2 && w.back() == 's';
    if (s.has(i - 1, kRelative) && s.has(i - 2, kNoun) && ends_s) {  // "the farmer who OWNS"
      s.roles[static_cast<size_t>(i)] = kVerb;
      verb_seen = true;
      continue;
    }
    if (!s.nounlike(i - 1)) continue;
    const std::string& prev = s.lower[static_cast<size_t>(i - 1)];
    const bool plural = !prev.empty() && prev.back() == 's' && s.has(i - 1, kNoun);
    const bool pronoun = s.has(i - 1, kPronoun);
    // "the phone RANG.": nothing but an ending, a determiner or a preposition follows
    const bool last = i + 1 >= s.L || s.has(i + 1, kPunctuation | kDeterminer | kPreposition);
    if (pronoun || plural || ends_s || last) {
      s.roles[static_cast<size_t>(i)] = kVerb;
      verb_seen = true;
    }
  }
}

//-----------------------------------------------------------------------------
// [SECTION] pass 2: relative clauses
//-----------------------------------------------------------------------------
// Relative pronouns directly after a noun open a clause; "that" elsewhere is
// a determiner/pronoun. The clause runs to just before the next verb that
// follows the clause's own verb, unless right after an auxiliary (the main
// verb).
// Returns, per token, the head noun of the clause it is in (-1: none).
std::vector<int> relative_clauses(Words& s) {
  std::vector<int> clause_head(static_cast<size_t>(s.L), -1);
  if (s.is(0, "that")) s.roles[0] &= ~static_cast<unsigned>(kRelative);
  for (int r = 1; r < s.L; ++r) {
    if (!s.has(r, kRelative) || !s.has(r - 1, kNoun)) {
      if (s.is(r, "that")) s.roles[static_cast<size_t>(r)] &= ~static_cast<unsigned>(kRelative);
      continue;
    }
    s.roles[static_cast<size_t>(r)] = kRelative;
    bool seen_verb = false;
    int k = r + 1;
    for (; k < s.L; ++k) {
      if (s.has(k, kPunctuation)) break;
      if (s.has(k, kVerb)) {
        // a verb group continues only after an auxiliary ("who has written");
        // "the book which he read WAS good" ends the clause at "was"
        if (seen_verb && !s.has(k - 1, kAuxiliary)) break;
        seen_verb = true;
      }
    }
    for (int j = r; j < k; ++j) {
      s.roles[static_cast<size_t>(j)] |= kInClause;
      clause_head[static_cast<size_t>(j)] = r - 1;
    }
    r = k - 1;
  }
  if (s.L > 0) s.roles[0] |= kFirst;
  return clause_head;
}

//-----------------------------------------------------------------------------
// [SECTION] pass 3: the relationships that fit each word
//-----------------------------------------------------------------------------
// The noun phrase starting at token k: skips determiners, adjectives and
// numbers; returns its noun (or pronoun), else its last adjective ("was
// wrong"), else -1.
int phrase_head(const Words& s, int k) {
  int adjective = -1;
  for (int j = k; j < s.L; ++j) {
    if (s.nounlike(j) && !s.has(j, kVerb)) return j;
    if (!s.modifier(j)) break;
    if (s.has(j, kAdjective)) adjective = j;
  }
  return adjective;
}

// Token j sits in a prepositional phrase ("the man in the HAT"): left of it,
// past modifiers and nouns, comes a preposition.
bool in_prepositional_phrase(const Words& s, int j) {
  for (int k = j - 1; k >= 0; --k) {
    if (s.has(k, kPreposition)) return true;
    if (!(s.modifier(k) || s.has(k, kNoun))) return false;
  }
  return false;
}

bool copula(const std::string& w) {
  return one_of(w, {"is", "was", "are", "were", "be", "been", "being", "am", "seems", "seemed", "became",
                    "become", "becomes"});
}

// The pointer relationships that fit token i, with their targets (see
// parser.h for the grammar in words). Writes t[r] for each one that fits
// and returns their bits.
unsigned fitting(const Words& s, const std::vector<int>& clause_head, int i, std::array<int, kRelations>& t) {
  unsigned fits = 0;
  auto set = [&](Relation r, int target) {
    if (target < 0 || target == i) return;
    t[static_cast<size_t>(r)] = target;
    fits |= relation_bit(r);
  };
  const int head = clause_head[static_cast<size_t>(i)];
  if (s.has(i, kVerb)) {
    // 3a. Subject. In a relative clause: a noun between the relative pronoun
    // and the verb ("the cat that the dog chased"), else the clause's head
    // noun. Outside: the nearest noun-like token to the left that is in no
    // clause and no prepositional phrase ("the man in the hat ran").
    int subj = -1;
    if (head >= 0) {
      for (int j = i - 1; j > head && s.has(j, kInClause) && !s.has(j, kRelative); --j)
        if (s.nounlike(j) && !s.has(j, kVerb)) { subj = j; break; }
      if (subj < 0) subj = head;
    } else {
      for (int j = i - 1; j >= 0 && subj < 0; --j)
        if (s.nounlike(j) && !s.has(j, kVerb) && clause_head[static_cast<size_t>(j)] < 0 && !in_prepositional_phrase(s, j))
          subj = j;
    }
    set(Relation::Subject, subj);
    // 3b. What follows the verb. An auxiliary before a verb: that verb
    // ("has eaten") is its complement. Otherwise skip the rest of the verb
    // group and a "that": a preposition's noun, a noun phrase followed by
    // a verb of the same clause (a clause: "said IT was wrong") or after a
    // form of "be" ("was WRONG", "is a DOCTOR") is the complement; any
    // other noun phrase is the object ("bit the MAN").
    if (s.has(i, kAuxiliary) && s.has(i + 1, kVerb)) {
      set(Relation::Complement, i + 1);
    } else if (!s.has(i + 1, kVerb)) {
      int k = i + 1;
      if (s.is(k, "that") && !s.has(k, kRelative)) ++k;
      if (s.has(k, kPreposition)) {
        set(Relation::Complement, phrase_head(s, k + 1));
      } else if (const int np = phrase_head(s, k); np >= 0) {
        int after = np + 1;
        while (after < s.L && s.has(after, kNoun) && !s.has(after, kVerb)) ++after;
        const bool same_clause = clause_head[static_cast<size_t>(std::min(after, s.L - 1))] == head;
        const bool clause = s.has(after, kVerb) && same_clause && s.nounlike(np);
        if (clause || copula(s.lower[static_cast<size_t>(i)]) || !s.nounlike(np)) set(Relation::Complement, np);
        else set(Relation::Object, np);
      }
    }
  } else if (s.has(i, kRelative) && head >= 0) {
    set(Relation::Antecedent, head);  // 3c. "who" -> the noun its clause is about
  } else if (s.has(i, kPronoun) && !s.has(i, kDeterminer)) {
    // 3d. Third-person pronouns refer back to the nearest noun (they/them:
    // the nearest plural one if there is one); I, you, we and indefinite
    // ones (someone) refer to nothing in the sentence.
    const std::string& w = s.lower[static_cast<size_t>(i)];
    if (one_of(w, {"it", "he", "she", "him", "her", "they", "them"})) {
      int ante = -1;
      if (one_of(w, {"they", "them"}))
        for (int j = i - 1; j >= 0 && ante < 0; --j)
          if (s.has(j, kNoun) && !s.lower[static_cast<size_t>(j)].empty() && s.lower[static_cast<size_t>(j)].back() == 's')
            ante = j;
      for (int j = i - 1; j >= 0 && ante < 0; --j)
        if (s.has(j, kNoun) && !s.has(j, kVerb)) ante = j;
      set(Relation::Antecedent, ante);
    }
  } else if (s.has(i, kPreposition)) {
    set(Relation::Object, phrase_head(s, i + 1));  // 3e. "on the MAT"
  }
  return fits;
}

//-----------------------------------------------------------------------------
// [SECTION] pass 4: fallbacks and guesses
//-----------------------------------------------------------------------------
// A pointer relationship that does not fit a token still needs a target
// (its pointer block in X): the nearest content word (not itself, not a
// determiner or punctuation), subject and antecedent looking left first,
// complement and object right first, subject and complement on different
// words when there are two; else the nearest word; else the token itself.
void fallbacks(const Words& s, int i, unsigned fits, std::array<int, kRelations>& t) {
  auto fix = [&](Relation r, bool left_first, int avoid) {
    if (fits & relation_bit(r)) return;
    int j = nearest(s, i, left_first, avoid, [&](int k) { return s.content(k); });
    if (j < 0) j = nearest(s, i, left_first, avoid, [&](int k) { return s.word(k); });
    t[static_cast<size_t>(r)] = j >= 0 ? j : i;
  };
  const int comp = (fits & relation_bit(Relation::Complement)) ? t[static_cast<size_t>(Relation::Complement)] : -1;
  fix(Relation::Subject, true, comp);
  fix(Relation::Complement, false, t[static_cast<size_t>(Relation::Subject)]);
  fix(Relation::Antecedent, true, -1);
  fix(Relation::Object, false, -1);
}

}  // namespace

Parse parse_sentence(const std::vector<Token>& tokens) {
  Parse p;
  const int L = static_cast<int>(tokens.size());
  p.roles.assign(static_cast<size_t>(L), 0u);
  Words s{{}, p.roles, L};
  for (int i = 0; i < L; ++i) {
    s.lower.push_back(ascii_lower(tokens[static_cast<size_t>(i)].text));
    p.roles[static_cast<size_t>(i)] = lexical_roles(tokens[static_cast<size_t>(i)].text);
  }
  // Does the lexicon know any word here? If not (another language), no
  // word's class is known and the subject/complement guesses stand in.
  bool english = false;
  for (unsigned r : p.roles) english = english || (r & ~static_cast<unsigned>(kNoun | kPunctuation | kNumber)) != 0;

  if (english) classes_in_context(s);                     // pass 1 (English rules only)
  const std::vector<int> clause_head = relative_clauses(s);  // pass 2
  p.targets.assign(static_cast<size_t>(L), {});
  p.fits.assign(static_cast<size_t>(L), 0u);
  for (int i = 0; i < L; ++i) {
    std::array<int, kRelations>& t = p.targets[static_cast<size_t>(i)];
    t[static_cast<size_t>(Relation::Previous)] = i > 0 ? i - 1 : i;
    t[static_cast<size_t>(Relation::Next)] = i + 1 < L ? i + 1 : i;
    t[static_cast<size_t>(Relation::Self)] = i;
    t[static_cast<size_t>(Relation::Start)] = 0;
    unsigned& fits = p.fits[static_cast<size_t>(i)];
    fits = fitting(s, clause_head, i, t);  // pass 3
    fallbacks(s, i, fits, t);              // pass 4
    if (!english && s.word(i)) {
      // another language: the guessed subject and complement are the best we
      // have; with one other word ("Birds fly."), that word is the subject
      // and there is no complement (one word cannot be both).
      const int subj = t[static_cast<size_t>(Relation::Subject)];
      const int comp = t[static_cast<size_t>(Relation::Complement)];
      if (subj != i && s.word(subj)) fits |= relation_bit(Relation::Subject);
      if (comp != i && comp != subj && s.word(comp)) fits |= relation_bit(Relation::Complement);
    }
    if ((fits & relation_bit(Relation::Subject)) && s.has(i, kVerb) && clause_head[static_cast<size_t>(i)] < 0)
      p.roles[static_cast<size_t>(t[static_cast<size_t>(Relation::Subject)])] |= kSubject;
  }
  p.query = default_query(s);
  // The lesson's shape: the query is a verb with a subject and a complement.
  // Anything else is outside the grammar: the query becomes the word nearest
  // the parser's choice (right first), and the targets are guesses.
  const int q = p.query;
  const unsigned lesson = relation_bit(Relation::Subject) | relation_bit(Relation::Complement);
  if (!(L > 0 && english && s.has(q, kVerb) && (p.fits[static_cast<size_t>(q)] & lesson) == lesson)) {
    p.guessed = true;
    for (int d = 0; d < L; ++d) {
      if (s.word(p.query + d)) { p.query += d; break; }
      if (s.word(p.query - d)) { p.query -= d; break; }
    }
  }
  return p;
}

}  // namespace headroom
