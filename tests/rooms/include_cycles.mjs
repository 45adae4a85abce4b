// include_cycles.mjs: fails when the files of one source folder include each
// other in a circle (CTest ui_include_cycles, app_include_cycles).
//
//   node tests/rooms/include_cycles.mjs <folder> <prefix> [--group NAME=GLOB-PREFIX ...]
//
// Does: read every quoted #include of <folder>'s .h and .cpp files that names
// a header of the same folder ("<prefix>x.h", or "x.h" beside the file), and
// join files into modules: x.h and x.cpp are module x; `--group views=view_`
// puts every view_*.cpp without a header of its own into module views (the
// file that implements one of views.h's declarations). Module a uses b when
// a file of a includes b's header. Prints every cycle it finds (as
// a -> b -> a, with the include that makes each step) and exits 1 on one;
// prints the modules in an order where each uses only those before it and
// exits 0 otherwise.
// Does not: read angle-bracket includes or headers of other folders (the
// rooms' walls, tests/rooms/*.cmake, see those).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [folder, prefix, ...rest] = process.argv.slice(2);
if (!folder || prefix === undefined) {
  console.error('usage: include_cycles.mjs <folder> <prefix, like ui/> [--group NAME=PREFIX ...]');
  process.exit(2);
}
const groups = [];
for (let i = 0; i < rest.length; i += 2) {
  if (rest[i] !== '--group' || !/^[\w-]+=[\w-]+$/.test(rest[i + 1] || '')) {
    console.error(`include_cycles.mjs: expected --group NAME=PREFIX, got ${rest[i]} ${rest[i + 1] ?? ''}`);
    process.exit(2);
  }
  const [name, start] = rest[i + 1].split('=');
  groups.push({ name, start });
}

const files = readdirSync(folder).filter((f) => /\.(h|cpp)$/.test(f)).sort();
const headers = new Set(files.filter((f) => f.endsWith('.h')).map((f) => f.slice(0, -2)));
const moduleOf = (file) => {
  const stem = file.replace(/\.(h|cpp)$/, '');
  if (file.endsWith('.h') || headers.has(stem)) return stem;
  const g = groups.find((x) => stem.startsWith(x.start) && headers.has(x.name));
  return g ? g.name : stem;
};

// uses: module -> Map(used module -> "file includes header")
const uses = new Map();
for (const file of files) {
  const from = moduleOf(file);
  if (!uses.has(from)) uses.set(from, new Map());
  const text = readFileSync(path.join(folder, file), 'utf8');
  for (const m of text.matchAll(/^[ \t]*#[ \t]*include[ \t]*"([^"]+)"/gm)) {
    let inc = m[1];
    if (prefix && inc.startsWith(prefix)) inc = inc.slice(prefix.length);
    else if (inc.includes('/')) continue;  // another folder's header
    if (!inc.endsWith('.h') || !headers.has(inc.slice(0, -2))) continue;
    const to = moduleOf(inc);
    if (to !== from && !uses.get(from).has(to)) uses.get(from).set(to, `${file} includes ${m[1]}`);
  }
}

// Depth-first search; a back edge closes a cycle.
const state = new Map();  // module -> 'open' | 'done'
const order = [];
const cycles = [];
const stack = [];
function visit(mod) {
  state.set(mod, 'open');
  stack.push(mod);
  for (const [to, why] of uses.get(mod) || []) {
    if (state.get(to) === 'open') {
      const loop = stack.slice(stack.indexOf(to));
      cycles.push([...loop, to].map((x, i, a) => (i + 1 < a.length ? `${x} (${uses.get(x).get(a[i + 1])})` : x)).join(' -> '));
    } else if (!state.has(to)) {
      visit(to);
    }
  }
  stack.pop();
  state.set(mod, 'done');
  order.push(mod);
}
for (const mod of [...uses.keys()].sort()) if (!state.has(mod)) visit(mod);

if (cycles.length) {
  console.error(`${folder}: ${cycles.length} include cycle(s) between modules:`);
  for (const c of cycles) console.error(`  ${c}`);
  process.exit(1);
}
console.log(`${folder}: ${uses.size} modules, no include cycle; bottom to top:\n  ${order.join(' ')}`);
