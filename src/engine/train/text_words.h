// text_words.h: a sentence someone typed as the text model's word ids.
//
// Does: split the text the way the Brown corpus was tokenised (its tokens
// are what tools/corpus.mjs turned into ids when it built brown.bin) and
// map each token as tools/corpus.mjs wordId does:
//   - whitespace separates words; punctuation is a token of its own:
//     , ; : ? ! ( ) [ ] { } and "--" (a dash, also between two words; an
//     em or en dash reads as "--"); a straight or curly double quote is
//     the corpus' `` at a word's start and '' at its end; a single quote
//     at either end is ' (inside a word it stays: don't, o'clock, 'em when
//     the vocabulary has it), curly apostrophes read as ';
//   - a word's final "." is kept when the word with it is in the
//     vocabulary (mr. u.s. etc.), else it is a token of its own ("end.");
//     "..." is three "." tokens;
//   - the token lower-cased (ASCII) is a number (corpus.mjs isNumber: a
//     digit and no letter, or digits with 's, s, st, nd, rd or th) -> <num>
//     (id 1); else its id in the vocabulary; else <unk> (id 0) and marked
//     unknown. The specials' own spellings ("<unk>") are no word.
// words[i] is token i as typed (for display); unknown[i] whether it fell
// to <unk>.
// Does not: truncate to the model's context (the caller does), or know the
// model.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace headroom {

// The ids of `sentence`'s tokens in `vocab` (id -> word, <unk> and <num>
// first, as TextCorpus::words); words and unknown get one entry per id.
std::vector<int> corpus_ids(const std::vector<std::string>& vocab, std::string_view sentence,
                            std::vector<std::string>& words, std::vector<bool>& unknown);

// tools/corpus.mjs isNumber, on an ASCII-lower-cased token.
bool corpus_is_number(std::string_view lower);

}  // namespace headroom
