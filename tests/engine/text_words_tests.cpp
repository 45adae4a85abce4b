// text_words_tests.cpp: typed sentences as corpus word ids (text_words.h).
// Does: check on a small vocabulary, spelled as the Brown corpus spells its
// tokens (lower case, punctuation and quotes as tokens, abbreviations with
// their period, contractions whole), that a sentence typed the ordinary
// way splits into the corpus' tokens, the words as typed, numbers as
// <num>, the rest <unk> and marked unknown; and corpus_is_number on
// tools/corpus.mjs isNumber's own cases.
// Does not: read brown.bin (tests/corpus/decode.test.mjs reads the corpus).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/train/text_words.h"

using namespace headroom;

namespace {

const std::vector<std::string>& vocab() {
  static const std::vector<std::string> v = {"<unk>", "<num>", "the", ",", ".", "``", "''", "said", "it",
                                             "was", "wrong", "mr.", "don't", "'em", "(", ")", "--", "?",
                                             "'", "researcher", "long-range", ";", "!", ":"};
  return v;
}

int id_of(const std::string& w) {
  for (size_t i = 0; i < vocab().size(); ++i)
    if (vocab()[i] == w) return static_cast<int>(i);
  FAIL("not in the test vocabulary: " << w);
  return -1;
}

struct WordsRow {
  const char* typed;
  std::vector<std::string> words;   // as typed
  std::vector<std::string> tokens;  // as the corpus spells them ("<unk>", "<num>" for those)
};

}  // namespace

TEST_CASE("corpus_ids: the corpus' tokens, the words as typed, <num> and <unk>") {
  const std::vector<WordsRow> rows = {
      {"The researcher said it was wrong.",
       {"The", "researcher", "said", "it", "was", "wrong", "."},
       {"the", "researcher", "said", "it", "was", "wrong", "."}},
      {"  Mr. Smith said, \"Don't!\"  ",
       {"Mr.", "Smith", "said", ",", "\"", "Don't", "!", "\""},
       {"mr.", "<unk>", "said", ",", "``", "don't", "!", "''"}},
      {"It was 1960's (in 3.5 days)--wrong?",
       {"It", "was", "1960's", "(", "in", "3.5", "days", ")", "--", "wrong", "?"},
       {"it", "was", "<num>", "(", "<unk>", "<num>", "<unk>", ")", "--", "wrong", "?"}},
      {"\xe2\x80\x9c" "Don\xe2\x80\x99t\xe2\x80\x9d \xe2\x80\x94 said 'em; the end...",
       {"\xe2\x80\x9c", "Don\xe2\x80\x99t", "\xe2\x80\x9d", "\xe2\x80\x94", "said", "'em", ";", "the", "end", ".", ".", "."},
       {"``", "don't", "''", "--", "said", "'em", ";", "the", "<unk>", ".", ".", "."}},
      {"'the' LONG-RANGE: 20th <unk>",
       {"'", "the", "'", "LONG-RANGE", ":", "20th", "<unk>"},
       {"'", "the", "'", "long-range", ":", "<num>", "<unk>"}},
      {"Mr.", {"Mr."}, {"mr."}},
      {"wrong.", {"wrong", "."}, {"wrong", "."}},
      {"' . ,", {"'", ".", ","}, {"'", ".", ","}},
      {"", {}, {}},
      {" \t\n", {}, {}},
  };
  for (const WordsRow& r : rows) {
    CAPTURE(std::string(r.typed));
    std::vector<std::string> words = {"stale"};
    std::vector<bool> unknown = {true, true};
    const std::vector<int> ids = corpus_ids(vocab(), r.typed, words, unknown);
    CHECK(words == r.words);
    REQUIRE(ids.size() == r.tokens.size());
    REQUIRE(unknown.size() == r.tokens.size());
    for (size_t i = 0; i < ids.size(); ++i) {
      CAPTURE(i);
      CHECK(ids[i] == id_of(r.tokens[i]));
      CHECK(unknown[i] == (r.tokens[i] == "<unk>"));
    }
  }
}

TEST_CASE("corpus_is_number: tools/corpus.mjs isNumber's cases") {
  for (const char* yes : {"1", "1,000", "3.5", "1960-61", "$5", "1960's", "1920s", "20th", "1st", "2nd", "3rd"})
    CHECK_MESSAGE(corpus_is_number(yes), yes);
  for (const char* no : {"", "a1", "one", "th", "20x", "1960'ss", "s", "-", "<num>"}) CHECK_MESSAGE(!corpus_is_number(no), no);
}
