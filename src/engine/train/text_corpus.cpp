// text_corpus.cpp: brown.bin -> TextCorpus. See text_corpus.h and the
// format at the top of tools/corpus.mjs.
#include "text_corpus.h"

#include <cstring>
#include "engine/core/refusals.h"

namespace headroom {

namespace {

constexpr char kMagic[8] = {'H', 'R', 'C', 'O', 'R', 'P', 'U', 'S'};
constexpr uint32_t kVersion = 1;
constexpr size_t kHeader = 64;

uint32_t u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

uint32_t fnv1a(const uint8_t* p, size_t n) {
  uint32_t h = 0x811c9dc5u;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x01000193u;
  return h;
}

size_t pad4(size_t n) { return (n + 3) & ~size_t(3); }

Status bad(const std::string& why) { return Status::fail(refusals::corpus_unusable, why); }

// Documents tile 0 .. N-1 in order, ids are inside the vocabulary.
Status check_consistent(const TextCorpus& c) {
  int64_t at = 0;
  for (const CorpusDocument& d : c.documents) {
    if (d.first != at || d.count < 0) return bad("document " + d.name + " does not start where the previous ends");
    at += d.count;
  }
  if (at != c.tokens()) return bad("the documents cover " + std::to_string(at) + " of " + std::to_string(c.tokens()) + " tokens");
  for (size_t i = 0; i < c.ids.size(); ++i)
    if (c.ids[i] >= c.words.size()) return bad("token " + std::to_string(i) + " has word id " + std::to_string(c.ids[i]) +
                                                 ", beyond the vocabulary of " + std::to_string(c.words.size()));
  if (c.words.size() < 3 || c.words[kCorpusUnknown] != "<unk>" || c.words[kCorpusNumber] != "<num>")
    return bad("the vocabulary does not start with <unk>, <num>");
  return Status::ok();
}

}  // namespace

Status read_text_corpus(const uint8_t* bytes, size_t size, TextCorpus& out) {
  if (!bytes || size < kHeader) return bad(std::to_string(size) + " bytes, shorter than its header");
  if (std::memcmp(bytes, kMagic, 8) != 0) return bad("it does not start with HRCORPUS");
  if (u32(bytes + 8) != kVersion) return bad("format version " + std::to_string(u32(bytes + 8)) + ", expected 1");
  if (u32(bytes + 12) != kHeader) return bad("unexpected header size");
  if (u32(bytes + 56) != size)
    return bad(std::to_string(size) + " bytes, the header says " + std::to_string(u32(bytes + 56)) + " (truncated?)");
  if (u32(bytes + 60) != fnv1a(bytes + kHeader, size - kHeader)) return bad("checksum mismatch (corrupt)");
  const uint32_t V = u32(bytes + 16), T = u32(bytes + 24), G = u32(bytes + 28), Dn = u32(bytes + 32),
                 N = u32(bytes + 36);
  if (V > 0x8000 || T > 256 || G > 0xffff || Dn > N + 1 || N > (1u << 28)) return bad("implausible counts");
  TextCorpus c;
  c.name = "Brown";
  c.train_tokens = u32(bytes + 40);
  c.held_out_tokens = u32(bytes + 44);
  std::memcpy(&c.bigram_perplexity, bytes + 48, 8);  // little-endian hosts (x86, wasm)

  // strings: V words, T tags, G genres, Dn document names
  size_t off = kHeader;
  std::vector<std::string> names;
  for (uint64_t k = 0; k < uint64_t(V) + T + G + Dn; ++k) {
    const void* end = off < size ? std::memchr(bytes + off, 0, size - off) : nullptr;
    if (!end) return bad("a string runs past the end");
    const size_t len = static_cast<const uint8_t*>(end) - (bytes + off);
    std::string s(reinterpret_cast<const char*>(bytes + off), len);
    off += len + 1;
    if (k < V) c.words.push_back(std::move(s));
    else if (k < uint64_t(V) + T) c.tags.push_back(std::move(s));
    else if (k < uint64_t(V) + T + G) c.genres.push_back(std::move(s));
    else names.push_back(std::move(s));
  }
  off = pad4(off);
  const size_t need = off + size_t(Dn) * 12 + pad4(size_t(N) * 2) + pad4(N);
  if (need != size) return bad("its sections take " + std::to_string(need) + " bytes, the file has " + std::to_string(size));
  for (uint32_t d = 0; d < Dn; ++d, off += 12) {
    CorpusDocument doc;
    doc.name = names[d];
    doc.first = static_cast<int>(u32(bytes + off));
    doc.count = static_cast<int>(u32(bytes + off + 4));
    doc.genre = bytes[off + 8] | bytes[off + 9] << 8;
    doc.held_out = bytes[off + 10] == 1;
    if (doc.genre >= static_cast<int>(G)) return bad("document " + doc.name + " has no genre");
    c.documents.push_back(std::move(doc));
  }
  c.ids.resize(N);
  c.sentence_start.resize(N);
  for (uint32_t i = 0; i < N; ++i) {
    const uint16_t v = static_cast<uint16_t>(bytes[off + 2 * i] | bytes[off + 2 * i + 1] << 8);
    c.ids[i] = v & 0x7fff;
    c.sentence_start[i] = v >> 15;
  }
  off += pad4(size_t(N) * 2);
  c.tag.assign(bytes + off, bytes + off + N);
  for (uint8_t t : c.tag)
    if (t >= T) return bad("a tag id is beyond the tag table");
  if (Status s = check_consistent(c); !s) return s;
  int64_t held = 0;
  for (const CorpusDocument& d : c.documents) held += d.held_out ? d.count : 0;
  if (held != c.held_out_tokens || c.train_tokens + held != N) return bad("the split's token counts disagree");
  out = std::move(c);
  return Status::ok();
}

Status make_text_corpus(std::vector<std::string> words, std::vector<uint16_t> ids,
                        std::vector<CorpusDocument> documents, TextCorpus& out) {
  TextCorpus c;
  c.name = "test corpus";
  c.words = std::move(words);
  c.ids = std::move(ids);
  c.documents = std::move(documents);
  c.tags = {"?"};
  c.genres = {"?"};
  c.tag.assign(c.ids.size(), 0);
  c.sentence_start.assign(c.ids.size(), 0);
  if (Status s = check_consistent(c); !s) return s;
  for (const CorpusDocument& d : c.documents) {
    if (d.count > 0) c.sentence_start[static_cast<size_t>(d.first)] = 1;
    (d.held_out ? c.held_out_tokens : c.train_tokens) += d.count;
  }
  out = std::move(c);
  return Status::ok();
}

}  // namespace headroom
