// wasm_size.mjs: where a wasm's bytes go, so a note can say what bounds the
// page's download (issue 18's "at most 250 KB gzip before ready").
//
// Does: read <wasm> and print JSON lines:
//   {"variant":"wasm-sections", "file", "raw", "gzip", "sections": {name: [raw, gzip]}}
//     every section's bytes (custom sections by their own name), alone and
//     gzip -9, and the whole file's
//   {"variant":"wasm-code-by-origin", "functions", "codeBytes", "origins": {origin: bytes},
//    "largest": [[bytes, name], ...]}
//     only when the file has a name section (a relink with --profiling-funcs,
//     below): each function body's size summed by where its name says it
//     comes from (ImGui and stb, Eigen, the engine, src/ui, src/app, the
//     platform, the C and C++ libraries, the rest), and the largest bodies
// Does not: guess names a wasm lacks (without a name section the second line
// is left out), or count imports (they have no bodies).
//
// Run: node tools/wasm_size.mjs build/web/headroom.wasm [largest=15]
// Names: relink the page's program from build/wasm-web's objects with
// `--profiling-funcs` (the link line: ninja -C build/wasm-web -t commands
// headroom | tail -1, with -o pointing elsewhere) and pass that wasm.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const [file, largestArg = '15'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node tools/wasm_size.mjs <file.wasm> [largest=15]');
  process.exit(2);
}
const bytes = readFileSync(file);
if (bytes.readUInt32LE(0) !== 0x6d736100) throw new Error(`${file} is not a wasm module`);

// An unsigned LEB128 at `at`: [value, the offset after it].
function leb(at) {
  let value = 0, shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}
const text = (at) => { const [n, from] = leb(at); return [bytes.toString('utf8', from, from + n), from + n]; };

const NAMES = ['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start', 'element',
  'code', 'data', 'datacount', 'tag'];
const sections = [];
for (let at = 8; at < bytes.length;) {
  const id = bytes[at];
  const [size, body] = leb(at + 1);
  const name = id === 0 ? `custom:${text(body)[0]}` : NAMES[id] || `section ${id}`;
  sections.push({ id, name, body, end: body + size });
  at = body + size;
}

const gz = (b) => gzipSync(b, { level: 9 }).length;
const bySection = {};
for (const s of sections) {
  const b = bytes.subarray(s.body, s.end);
  const prev = bySection[s.name] || [0, 0];
  bySection[s.name] = [prev[0] + b.length, prev[1] + gz(b)];
}
console.log(JSON.stringify({ variant: 'wasm-sections', file, raw: bytes.length, gzip: gz(bytes), sections: bySection }));

// Imported functions come first in the function index space.
let importedFunctions = 0;
const imports = sections.find((s) => s.name === 'import');
if (imports) {
  let [count, at] = leb(imports.body);
  for (; count > 0; --count) {
    at = text(text(at)[1])[1];  // module, field
    const kind = bytes[at++];
    if (kind === 0) { importedFunctions++; at = leb(at)[1]; }                                 // type index
    else if (kind === 1) { at += 1; const [flags, a] = leb(at); at = leb(a)[1]; if (flags & 1) at = leb(at)[1]; }  // table
    else if (kind === 2) { const [flags, a] = leb(at); at = leb(a)[1]; if (flags & 1) at = leb(at)[1]; }          // memory
    else if (kind === 3) at += 2;                                                             // global
    else if (kind === 4) at = leb(at + 1)[1];                                                 // tag
    else throw new Error(`import kind ${kind} is not read here`);
  }
}

// Function names: the name section's subsection 1.
const names = new Map();
const nameSection = sections.find((s) => s.name === 'custom:name');
if (nameSection) {
  let at = text(nameSection.body)[1];
  while (at < nameSection.end) {
    const kind = bytes[at];
    const [size, body] = leb(at + 1);
    if (kind === 1) {
      let [count, p] = leb(body);
      for (; count > 0; --count) {
        const [index, q] = leb(p);
        const [name, r] = text(q);
        names.set(index, name);
        p = r;
      }
    }
    at = body + size;
  }
}
if (names.size === 0) process.exit(0);

const ORIGINS = [
  ['imgui+stb', /ImGui|^Im[A-Z]|stbtt|stb_|STB/],
  ['eigen', /Eigen/],
  ['src/ui', /headroom::ui/],
  ['src/app', /headroom::app/],
  ['platform', /headroom::platform|^headroom_|^\(anonymous namespace\)/],
  ['engine', /headroom/],
  ['libc/libc++', /std::|^__|^_?[a-z_]+$/],
];
const origins = {}, bodies = [];
const code = sections.find((s) => s.name === 'code');
let [count, at] = leb(code.body);
for (let i = 0; i < count; ++i) {
  const [size, body] = leb(at);
  const name = names.get(importedFunctions + i) || `(function ${importedFunctions + i})`;
  const origin = (ORIGINS.find(([, re]) => re.test(name)) || ['other'])[0];
  origins[origin] = (origins[origin] || 0) + size;
  bodies.push([size, name]);
  at = body + size;
}
bodies.sort((a, b) => b[0] - a[0]);
console.log(JSON.stringify({ variant: 'wasm-code-by-origin', functions: count, codeBytes: bodies.reduce((a, b) => a + b[0], 0),
  origins, largest: bodies.slice(0, Number(largestArg)).map(([size, name]) => [size, name.slice(0, 100)]) }));
