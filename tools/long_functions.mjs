// long_functions.mjs: every function in src/ and web/ longer than a limit,
// longest first, so a note's "functions under N lines" has a command.
//
//   node tools/long_functions.mjs [--limit 80] [folders...]   (default: src web)
//
// Does: read each .cpp/.h/.mjs/.js file, drop comments and string literals,
// and count the lines of every braced body whose header ends like a
// function's (C++: `) const {`, `) -> T {`, `] (...) {` lambdas; JS:
// `function f(...) {`, `(...) => {`, methods), from the header's first line
// to the closing brace. Nested functions (lambdas, closures) are listed too,
// inside their parent's count. Prints "lines file:line name" and exits 0.
// Does not: parse C++ or JS (a header split by a `;` inside default
// arguments could be missed), or judge: it lists, the reader decides.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
let limit = 80;
const li = args.indexOf('--limit');
if (li >= 0) { limit = Number(args[li + 1]); args.splice(li, 2); }
const roots = args.length ? args : ['src', 'web'];

function files(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p);
    return /\.(cpp|h|mjs|js)$/.test(e.name) ? [p] : [];
  });
}

// The text with comments and literals blanked (newlines kept, so offsets
// still give line numbers).
function blank(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/R"([^(\s]*)\([\s\S]*?\)\1"/g, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/(["'`])(?:\\[\s\S]|(?!\1)[^\\\n])*\1/g, (m) => ' '.repeat(m.length))
    .replace(/\/\/[^\n]*/g, (m) => ' '.repeat(m.length));
}

const NOT_FUNCTIONS = /^\s*(if|for|while|switch|catch|else|do|namespace|struct|class|enum|union|extern)\b/;
const FUNCTION_END = /(\)|=>)\s*((const|noexcept|override|final|mutable|async)\s*|->\s*[\w:<>,\s*&]+)*$/;

function longFunctions(file) {
  const text = blank(fs.readFileSync(file, 'utf8'));
  const lineOf = (i) => text.slice(0, i).split('\n').length;
  const found = [];
  const stack = [];  // per open brace: {fn: {start, name} | null}
  let headerStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') {
      const header = text.slice(headerStart, i).replace(/\s+/g, ' ').trim();
      const isFn = FUNCTION_END.test(header) && !NOT_FUNCTIONS.test(header.replace(/^[}\s]*/, ''));
      const name = isFn ? (header.match(/([\w:~]+|\])\s*\(/) || [, '(lambda)'])[1] : '';
      stack.push(isFn ? { start: headerStart + (text.slice(headerStart, i).length - text.slice(headerStart, i).trimStart().length), name } : null);
      headerStart = i + 1;
    } else if (c === '}') {
      const open = stack.pop();
      if (open) {
        const lines = lineOf(i) - lineOf(open.start) + 1;
        if (lines > limit) found.push({ lines, file, line: lineOf(open.start), name: open.name });
      }
      headerStart = i + 1;
    } else if (c === ';') {
      headerStart = i + 1;
    }
  }
  return found;
}

const all = roots.flatMap(files).flatMap(longFunctions).sort((a, b) => b.lines - a.lines);
for (const f of all) console.log(`${String(f.lines).padStart(4)} ${f.file}:${f.line} ${f.name}`);
console.log(`${all.length} function(s) over ${limit} lines in ${roots.join(', ')}`);
