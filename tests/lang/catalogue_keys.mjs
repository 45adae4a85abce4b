// catalogue_keys.mjs: every catalogue (src/app/lang/<code>.po) holds exactly
// the strings the code asks for.
//
// Does: extract every catalogue key used in src/ (every refusal table's
// templates, X(code, "...") rows in */refusals.h; the first string literal
// of tr("..."), trf("...", phrase("..."), N_("..."), and the keywords help_marker("..."),
// section_title("..." and open_view(demo, "...", "...", which translate their
// text), read each shipped catalogue's
// msgid/msgstr entries (app/lang/lang.h's format), and fail when a language other
// than English lacks a key, has a key no code uses, leaves a placeholder
// ({0}, {1}) out or adds one, lacks an @-entry, or (with a decimal comma)
// writes a pair of numbers "({0}, {1})" with a comma; fail when a word of
// the page around the canvas (web/) is no key, or a help text's first four
// words hold a formula. With --list, prints the
// keys (one per line, as PO msgids) for a course author's new file.
// Also fails when the page's JavaScript names a refusal code no table has.
// Does not: judge a translation (a person does), or run the app (the browser
// suite tests/browser/lang.test.mjs renders every language).
// Run: node tests/lang/catalogue_keys.mjs [--list]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const META = ['@name', '@decimal', '@lesson', '@lesson-query', '@lesson-subject', '@lesson-complement'];

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(cpp|h)$/.test(name)) yield p;
  }
}

// A C++ string literal's value (the escapes the sources use, \xHH as UTF-8 bytes).
function unescapeC(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') {
      const c = s[++i];
      if (c === 'x') { bytes.push(parseInt(s.slice(i + 1, i + 3), 16)); i += 2; }
      else bytes.push(...Buffer.from({ n: '\n', t: '\t' }[c] ?? c));
    } else {
      bytes.push(...Buffer.from(s[i]));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
// Adjacent literals ("a" "b") are one string, as in C++.
const literals = (s) => [...s.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => unescapeC(m[1])).join('');

// One C++ string argument: adjacent literals, caught whole.
const LIT = String.raw`((?:"(?:[^"\\]|\\.)*"\s*)+)`;

export function usedKeys() {
  const keys = new Map();  // key -> first file using it
  const lit = LIT;
  const re = new RegExp(String.raw`\b(?:tr|trf|phrase|N_|help_marker|section_title|open_view)\(\s*(?:demo,\s*)?(?:[^";{}]*?\?\s*)?` + lit + String.raw`(?:[:,]\s*` + lit + ')?', 'g');
  for (const f of files(join(root, 'src'))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(re)) {
      for (const k of [m[1], m[2]]) if (k !== undefined && !keys.has(literals(k))) keys.set(literals(k), f);
    }
    // A refusal table (engine/core/refusals.h and the like): each row
    // X(code, "English template") is a key, its template.
    if (/refusals\.h$/.test(f)) {
      for (const m of text.matchAll(new RegExp(String.raw`^\s*X\(\s*\w+,\s*` + lit + String.raw`\)`, 'gm'))) {
        if (!keys.has(literals(m[1]))) keys.set(literals(m[1]), f);
      }
    }
  }
  return keys;
}

// PO: msgid "..." / msgstr "..." with continuation lines.
export function readCatalogue(path) {
  const entries = new Map();
  let id = null, field = null, cur = null;
  const unq = (s) => JSON.parse(s);
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line.startsWith('msgid ')) { cur = { id: unq(line.slice(6)), str: '' }; field = 'id'; entries.set(Symbol(), cur); }
    else if (line.startsWith('msgstr ')) { cur.str = unq(line.slice(7)); field = 'str'; }
    else if (line.startsWith('"')) cur[field] += unq(line);
    else throw new Error(`${path}: cannot read ${line}`);
  }
  const out = new Map();
  for (const e of entries.values()) if (e.id) out.set(e.id, e.str);
  return out;
}

const placeholders = (s) => [...new Set(s.match(/\{\d\}/g) ?? [])].sort().join(',');

const keys = usedKeys();
if (process.argv.includes('--list')) {
  for (const k of keys.keys()) console.log(`msgid ${JSON.stringify(k)}\nmsgstr ""\n`);
  process.exit(0);
}
const dir = join(root, 'src', 'app', 'lang');
let failures = 0;
const fail = (msg) => { console.log(`FAIL ${msg}`); failures++; };

// Every help text written at its call (a help marker's, a section's; the views'
// own are in app/state/view_rows.h, checked by view_rows_tests) starts in
// words a first-week student knows: its first four words hold no formula
// (no "_", "^", "=" or "sum"); symbols may follow.
let helpTexts = 0;
{
  const help = new RegExp(String.raw`\b(?:help_marker\(\s*|(?:section_title|open_view)\(\s*(?:demo,\s*)?"(?:[^"\\]|\\.)*",\s*)` + LIT, 'g');
  for (const f of files(join(root, 'src'))) {
    for (const m of readFileSync(f, 'utf8').matchAll(help)) {
      const text = literals(m[1]);
      ++helpTexts;
      const first = text.split(/\s+/).slice(0, 4).join(' ');  // its first four words
      if (/[_^=]|\bsum\b/.test(first)) fail(`${f.slice(root.length + 1)}: a help text starts with symbols: ${JSON.stringify(text.slice(0, 80))}`);
    }
  }
  if (helpTexts < 5) fail(`found only ${helpTexts} help texts in src/ (the pattern no longer matches the code)`);
}

// The page's own words (web/: the text of elements marked data-tr, every
// aria-label, the loader's say('...')) are translated through the wasm
// (headroom.translate): each must be a key the code lists (app/lang/lang.cpp
// page_words), or the page would show it in English and count it missing.
const web = join(root, 'web');
let pageWords = 0;
for (const name of readdirSync(web).filter((n) => /\.(html|js|mjs)$/.test(n))) {
  const text = readFileSync(join(web, name), 'utf8');
  const found = [
    ...[...text.matchAll(/<(\w+)[^>]*\bdata-tr\b[^>]*>([^<]*)<\/\1>/g)].map((m) => m[2]),
    ...[...text.matchAll(/\baria-label="([^"]*)"/g)].map((m) => m[1]),
    ...[...text.matchAll(/\bsay\('((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]),
  ];
  for (const w of found) {
    ++pageWords;
    if (!keys.has(w)) fail(`web/${name}: the page's word ${JSON.stringify(w)} is no key in src/ (add it to page_words)`);
  }
}
if (pageWords < 5) fail(`found only ${pageWords} of the page's words in web/ (the patterns above no longer match the pages)`);

// Every refusal the page's JavaScript makes names a code of a refusal table
// (refusal('js_heads', ...) in web/: C++ words it from the code; an unknown
// code would be shown as "the page refused this input").
const codes = new Set();
for (const f of files(join(root, 'src'))) {
  if (!/refusals\.h$/.test(f)) continue;
  for (const m of readFileSync(f, 'utf8').matchAll(/^\s*X\(\s*(\w+),/gm)) codes.add(m[1]);
}
let jsRefusals = 0;
for (const name of readdirSync(web).filter((n) => /\.(js|mjs)$/.test(n))) {
  for (const m of readFileSync(join(web, name), 'utf8').matchAll(/\brefusal\('(\w+)'/g)) {
    ++jsRefusals;
    if (!codes.has(m[1])) fail(`web/${name}: refusal('${m[1]}') names no code of a refusals.h table`);
  }
}
if (jsRefusals < 20) fail(`found only ${jsRefusals} refusals in web/ (the pattern no longer matches the page's code)`);
for (const name of readdirSync(dir).filter((n) => n.endsWith('.po'))) {
  const code = name.slice(0, -3);
  const cat = readCatalogue(join(dir, name));
  for (const m of META) if (!cat.get(m)) fail(`${name}: no ${m}`);
  for (const [id, str] of cat) {
    if (id.startsWith('@')) continue;
    if (!keys.has(id)) fail(`${name}: ${JSON.stringify(id)} is used by no code in src/`);
    else if (placeholders(id) !== placeholders(str) && str) fail(`${name}: ${JSON.stringify(id)} has placeholders {${placeholders(str)}}`);
  }
  // A language that writes 0,34 for 0.34 cannot also separate a pair of
  // numbers with a comma: "(0,34, 0,47)" reads as three or four numbers.
  if (cat.get('@decimal') === ',') {
    for (const [id, str] of cat) {
      if (/\(\{\d\}, \{\d\}\)/.test(id) && /\{\d\}\s*,\s*\{\d\}/.test(str.match(/\([^()]*\)/g)?.join(' ') ?? ''))
        fail(`${name}: ${JSON.stringify(str)} separates a pair of numbers with the decimal mark; use ";"`);
    }
  }
  if (code === 'en') continue;  // English is the source text
  for (const [k, f] of keys) if (!cat.get(k)) fail(`${name}: lacks ${JSON.stringify(k)} (${f.slice(root.length + 1)})`);
  console.log(`${name}: ${cat.size} entries`);
}
console.log(`${keys.size} keys in src/; ${failures ? `${failures} failures` : 'every shipped catalogue holds exactly them'}`);
process.exit(failures ? 1 : 0);
