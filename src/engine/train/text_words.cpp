// text_words.cpp: a typed sentence as corpus word ids (see text_words.h).
#include "text_words.h"

#include <unordered_map>
#include <utility>

#include "text_corpus.h"

namespace headroom {

namespace {

constexpr std::string_view kLeftDouble = "\xe2\x80\x9c", kRightDouble = "\xe2\x80\x9d";
constexpr std::string_view kLeftSingle = "\xe2\x80\x98", kRightSingle = "\xe2\x80\x99";
constexpr std::string_view kEmDash = "\xe2\x80\x94", kEnDash = "\xe2\x80\x93";

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends(std::string_view s, std::string_view p) { return s.size() >= p.size() && s.substr(s.size() - p.size()) == p; }

// The token as the corpus spells it: curly apostrophes straight, ASCII lower case.
std::string normal(std::string_view typed) {
  std::string out;
  for (size_t i = 0; i < typed.size();) {
    if (starts(typed.substr(i), kLeftSingle) || starts(typed.substr(i), kRightSingle)) {
      out += '\'';
      i += 3;
      continue;
    }
    const char c = typed[i++];
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

// The length of a dash at the start of s ("--", an em or en dash), or 0.
size_t dash_at(std::string_view s) {
  if (starts(s, "--")) return 2;
  if (starts(s, kEmDash) || starts(s, kEnDash)) return 3;
  return 0;
}

class Splitter {
 public:
  explicit Splitter(const std::vector<std::string>& vocab) {
    for (size_t i = 2; i < vocab.size(); ++i) index_.emplace(vocab[i], static_cast<int>(i));  // specials are no word
  }

  // One whitespace-free chunk: its dashes split it, each piece peeled.
  void chunk(std::string_view c) {
    size_t from = 0;
    for (size_t i = 0; i < c.size();) {
      if (const size_t d = dash_at(c.substr(i))) {
        piece(c.substr(from, i - from));
        emit(c.substr(i, d), "--");
        i += d;
        from = i;
      } else {
        ++i;
      }
    }
    piece(c.substr(from));
  }

  void emit(std::string_view typed, std::string token) {
    words.emplace_back(typed);
    int id = kCorpusUnknown;
    if (corpus_is_number(token)) {
      id = kCorpusNumber;
    } else if (auto it = index_.find(token); it != index_.end()) {
      id = it->second;
    }
    ids.push_back(id);
    unknown.push_back(id == kCorpusUnknown);
  }

  std::vector<int> ids;
  std::vector<std::string> words;
  std::vector<bool> unknown;

 private:
  bool known(std::string_view core) const { return index_.count(normal(core)) != 0; }

  // Leading and trailing punctuation off `p`, each its own token; the core between.
  void piece(std::string_view p) {
    if (p.empty()) return;
    // 1. leading brackets and double quotes (never part of a word)
    for (;;) {
      if (starts(p, "``")) {
        emit(p.substr(0, 2), "``");
        p.remove_prefix(2);
      } else if (!p.empty() && p[0] == '"') {
        emit(p.substr(0, 1), "``");
        p.remove_prefix(1);
      } else if (starts(p, kLeftDouble) || starts(p, kRightDouble)) {
        emit(p.substr(0, 3), "``");
        p.remove_prefix(3);
      } else if (!p.empty() && (p[0] == '(' || p[0] == '[' || p[0] == '{')) {
        emit(p.substr(0, 1), std::string(1, p[0]));
        p.remove_prefix(1);
      } else {
        break;
      }
    }
    // 2. trailing: marks, brackets, closing quotes; a final "." or "'" unless
    //    the word with it is in the vocabulary (mr., o', ...)
    std::vector<std::pair<std::string_view, std::string>> tail;  // last first
    for (;;) {
      if (p.empty()) break;
      const char c = p.back();
      size_t n = 0;
      std::string token;
      if (c == ',' || c == ';' || c == ':' || c == '?' || c == '!' || c == ')' || c == ']' || c == '}') {
        n = 1;
        token.assign(1, c);
      } else if (ends(p, "''") && !known(p)) {
        n = 2;
        token = "''";
      } else if (c == '"') {
        n = 1;
        token = "''";
      } else if (ends(p, kLeftDouble) || ends(p, kRightDouble)) {
        n = 3;
        token = "''";
      } else if ((c == '.' || c == '\'') && p.size() > 1 && !known(p)) {
        n = 1;
        token.assign(1, c);
      } else if (ends(p, kRightSingle) && p.size() > 3 && !known(p)) {
        n = 3;
        token = "'";
      } else {
        break;
      }
      tail.emplace_back(p.substr(p.size() - n), std::move(token));
      p.remove_suffix(n);
    }
    // 3. a leading "'" unless the word with it is in the vocabulary ('em)
    for (;;) {
      size_t n = 0;
      if (p.size() > 1 && p[0] == '\'') n = 1;
      else if (p.size() > 3 && (starts(p, kLeftSingle) || starts(p, kRightSingle))) n = 3;
      if (n == 0 || known(p)) break;
      emit(p.substr(0, n), "'");
      p.remove_prefix(n);
    }
    if (!p.empty()) emit(p, normal(p));
    for (auto it = tail.rbegin(); it != tail.rend(); ++it) emit(it->first, std::move(it->second));
  }

  std::unordered_map<std::string, int> index_;
};

}  // namespace

bool corpus_is_number(std::string_view lower) {
  bool digit = false, letter = false;
  for (char c : lower) {
    digit = digit || (c >= '0' && c <= '9');
    letter = letter || (c >= 'a' && c <= 'z');
  }
  if (digit && !letter) return true;
  // ^[0-9]+('?s|st|nd|rd|th)$
  size_t i = 0;
  while (i < lower.size() && lower[i] >= '0' && lower[i] <= '9') ++i;
  if (i == 0) return false;
  const std::string_view rest = lower.substr(i);
  return rest == "s" || rest == "'s" || rest == "st" || rest == "nd" || rest == "rd" || rest == "th";
}

std::vector<int> corpus_ids(const std::vector<std::string>& vocab, std::string_view sentence,
                            std::vector<std::string>& words, std::vector<bool>& unknown) {
  Splitter s(vocab);
  for (size_t i = 0; i < sentence.size();) {
    while (i < sentence.size() && is_space(sentence[i])) ++i;
    const size_t from = i;
    while (i < sentence.size() && !is_space(sentence[i])) ++i;
    if (i > from) s.chunk(sentence.substr(from, i - from));
  }
  words = std::move(s.words);
  unknown = std::move(s.unknown);
  return std::move(s.ids);
}

}  // namespace headroom
