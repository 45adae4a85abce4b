// parser.cpp: roles, clauses and default targets. See parser.h.
#include "parser.h"

namespace headroom {

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

namespace {

// Default query: the main verb after a relative clause, else the first verb,
// else the middle token.
int default_query(const std::vector<unsigned>& roles) {
  const int L = static_cast<int>(roles.size());
  for (int i = 1; i < L; ++i)
    if ((roles[static_cast<size_t>(i)] & kVerb) && !(roles[static_cast<size_t>(i)] & kInClause) &&
        (roles[static_cast<size_t>(i - 1)] & kInClause))
      return i;
  for (int i = 0; i < L; ++i)
    if ((roles[static_cast<size_t>(i)] & kVerb) && !(roles[static_cast<size_t>(i)] & kInClause)) return i;
  return L / 2;
}

bool is_word(const std::vector<unsigned>& roles, int i) { return !(roles[static_cast<size_t>(i)] & kPunctuation); }

// The word nearest token i: on the `left_first` side, then the other; skips
// `avoid` unless it is the only word; i itself when there is no other word.
int nearest_word(const std::vector<unsigned>& roles, int i, bool left_first, int avoid) {
  const int L = static_cast<int>(roles.size());
  int only = i;
  for (int pass = 0; pass < 2; ++pass) {
    const int step = (pass == 0) == left_first ? -1 : 1;
    for (int j = i + step; j >= 0 && j < L; j += step) {
      if (!is_word(roles, j)) continue;
      if (j != avoid) return j;
      only = j;
    }
  }
  return only;
}

// Outside the lesson's grammar: see parse_sentence in parser.h.
void guess_targets(Parse& p) {
  const std::vector<unsigned>& roles = p.roles;
  const int L = static_cast<int>(roles.size());
  p.guessed = true;
  for (int d = 0; d < L; ++d) {  // the word nearest the parser's query, right first
    if (p.query + d < L && is_word(roles, p.query + d)) { p.query += d; break; }
    if (p.query - d >= 0 && is_word(roles, p.query - d)) { p.query -= d; break; }
  }
  for (int i = 0; i < L; ++i) {
    std::array<int, kRelations>& t = p.targets[static_cast<size_t>(i)];
    auto sensible = [&](Relation r) { return t[static_cast<size_t>(r)] != i && is_word(roles, t[static_cast<size_t>(r)]); };
    auto fix = [&](Relation r, bool left_first, int avoid) {
      if (!sensible(r)) t[static_cast<size_t>(r)] = nearest_word(roles, i, left_first, avoid);
    };
    const int comp = sensible(Relation::Complement) ? t[static_cast<size_t>(Relation::Complement)] : -1;
    fix(Relation::Subject, true, comp);
    fix(Relation::Complement, false, t[static_cast<size_t>(Relation::Subject)]);
    fix(Relation::Antecedent, true, -1);
    fix(Relation::Object, false, -1);
  }
}

}  // namespace

// Finds the lesson's shape: NOUN [who|which|that] VERB ... MAIN-VERB COMPLEMENT.
Parse parse_sentence(const std::vector<Token>& tokens) {
  Parse p;
  std::vector<unsigned>& roles = p.roles;
  const int L = static_cast<int>(tokens.size());
  roles.assign(static_cast<size_t>(L), 0u);
  for (int i = 0; i < L; ++i) roles[static_cast<size_t>(i)] = lexical_roles(tokens[static_cast<size_t>(i)].text);
  auto has = [&](int i, unsigned bit) { return i >= 0 && i < L && (roles[static_cast<size_t>(i)] & bit); };
  auto nounlike = [&](int i) { return has(i, kNoun) || (has(i, kPronoun) && !has(i, kDeterminer | kRelative)); };

  // Relative pronouns directly after a noun open a clause; "that" elsewhere is
  // a determiner/pronoun. The clause runs to just before the next verb that
  // follows a non-verb token after the clause's own verb (the main verb).
  std::vector<int> clause_head(static_cast<size_t>(L), -1);  // head noun of the clause a token is in
  auto is_that = [&](int i) { return ascii_lower(tokens[static_cast<size_t>(i)].text) == "that"; };
  if (L > 0 && is_that(0)) roles[0] &= ~static_cast<unsigned>(kRelative);
  for (int r = 1; r < L; ++r) {
    if (!has(r, kRelative) || !has(r - 1, kNoun)) {
      if (is_that(r)) roles[static_cast<size_t>(r)] &= ~static_cast<unsigned>(kRelative);
      continue;
    }
    roles[static_cast<size_t>(r)] = kRelative;
    bool seen_verb = false;
    int k = r + 1;
    for (; k < L; ++k) {
      if (has(k, kPunctuation)) break;
      if (has(k, kVerb)) {
        if (seen_verb && !has(k - 1, kVerb)) break;
        seen_verb = true;
      }
    }
    for (int j = r; j < k; ++j) {
      roles[static_cast<size_t>(j)] |= kInClause;
      clause_head[static_cast<size_t>(j)] = r - 1;
    }
    r = k - 1;
  }
  if (L > 0) roles[0] |= kFirst;

  std::vector<std::array<int, kRelations>>& targets = p.targets;
  targets.assign(static_cast<size_t>(L), {});
  auto nearest_left = [&](int i, auto pred) {
    for (int j = i - 1; j >= 0; --j)
      if (pred(j)) return j;
    return -1;
  };
  auto nearest_right = [&](int i, auto pred) {
    for (int j = i + 1; j < L; ++j)
      if (pred(j)) return j;
    return -1;
  };
  auto or_self = [](int t, int i) { return t >= 0 ? t : i; };

  for (int i = 0; i < L; ++i) {
    auto& t = targets[static_cast<size_t>(i)];
    const bool verb = has(i, kVerb);
    const bool in_clause = clause_head[static_cast<size_t>(i)] >= 0;
    // subject: a verb in a relative clause -> the clause's head noun; a verb
    // outside -> the nearest noun-like token to its left outside any clause;
    // anything else -> the subject of the nearest verb to its left.
    int subj = -1;
    if (verb && in_clause) {
      subj = clause_head[static_cast<size_t>(i)];
    } else if (verb) {
      subj = nearest_left(i, [&](int j) { return nounlike(j) && clause_head[static_cast<size_t>(j)] < 0; });
    } else {
      const int v = nearest_left(i, [&](int j) { return has(j, kVerb); });
      if (v >= 0) subj = targets[static_cast<size_t>(v)][static_cast<int>(Relation::Subject)];
    }
    if (subj >= 0 && clause_head[static_cast<size_t>(i)] < 0 && verb)
      roles[static_cast<size_t>(subj)] |= kSubject;
    t[static_cast<int>(Relation::Subject)] = or_self(subj, i);
    // complement: the first non-punctuation token after a verb (after the
    // verb group: "has said it" -> it); for other tokens the next token.
    int comp = nearest_right(i, [&](int j) { return !has(j, kPunctuation) && !(verb && has(j, kVerb) && j == i + 1); });
    if (!verb) comp = i + 1 < L ? i + 1 : -1;
    t[static_cast<int>(Relation::Complement)] = or_self(comp, i);
    t[static_cast<int>(Relation::Previous)] = i > 0 ? i - 1 : i;
    t[static_cast<int>(Relation::Next)] = i + 1 < L ? i + 1 : i;
    // antecedent: pronouns and relative pronouns -> nearest noun to the left
    int ante = -1;
    if (has(i, kRelative) && in_clause) ante = clause_head[static_cast<size_t>(i)];
    else if (has(i, kPronoun) && !has(i, kDeterminer)) ante = nearest_left(i, [&](int j) { return has(j, kNoun); });
    t[static_cast<int>(Relation::Antecedent)] = or_self(ante, i);
    // object: a verb's first noun-like token before the next verb
    int obj = -1;
    if (verb)
      for (int j = i + 1; j < L && !has(j, kVerb | kPunctuation); ++j)
        if (nounlike(j)) { obj = j; break; }
    t[static_cast<int>(Relation::Object)] = or_self(obj, i);
    t[static_cast<int>(Relation::Self)] = i;
    t[static_cast<int>(Relation::Start)] = 0;
  }
  p.query = default_query(roles);
  // The lesson's shape: the query is a verb whose subject and complement are
  // other words. Anything else is outside the grammar.
  const int q = p.query;
  auto other_word = [&](Relation r) {
    const int t = L > 0 ? targets[static_cast<size_t>(q)][static_cast<size_t>(r)] : q;
    return t != q && !has(t, kPunctuation);
  };
  if (!(has(q, kVerb) && other_word(Relation::Subject) && other_word(Relation::Complement))) guess_targets(p);
  return p;
}

}  // namespace headroom
