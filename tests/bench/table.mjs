// table.mjs: reads bench_forward's JSON lines (files or stdin) and prints a
// readable table, each time also as a ratio to the wasm-eigen variant of the
// same (L, D, H) in the same run (> 1: faster than wasm Eigen), and the
// native kernels against native Eigen.
// Does not: run anything, or judge noise (this machine varies +-30%).
// Usage: node tests/bench/table.mjs bench-wasm.jsonl bench-native.jsonl
import { readFileSync } from 'node:fs';

const text = process.argv.length > 2
  ? process.argv.slice(2).map((f) => readFileSync(f, 'utf8')).join('\n')
  : readFileSync(0, 'utf8');
const rows = text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
const key = (r) => `${r.L},${r.D},${r.H}`;
const order = [];
const byConfig = new Map();
for (const r of rows) {
  if (!byConfig.has(key(r))) { byConfig.set(key(r), []); order.push(key(r)); }
  byConfig.get(key(r)).push(r);
}
const pad = (s, n) => String(s).padStart(n);
const fmtMs = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} us` : `${ms.toFixed(2)} ms`);
console.log(`${pad('L', 5)} ${pad('D', 4)} ${pad('H', 3)}  ${'variant'.padEnd(13)} ${pad('time', 11)} ${pad('GFLOP/s', 8)} ${pad('x wasm-eigen', 13)} ${pad('x native-eigen', 15)}`);
for (const k of order) {
  const list = byConfig.get(k);
  const eigen = list.find((r) => r.variant === 'wasm-eigen');
  const neigen = list.find((r) => r.variant === 'native-eigen');
  for (const r of list) {
    const ratio = eigen ? (eigen.ms / r.ms).toFixed(2) : '-';
    const nratio = neigen && r.variant.startsWith('native') ? (neigen.ms / r.ms).toFixed(2) : '';
    console.log(`${pad(r.L, 5)} ${pad(r.D, 4)} ${pad(r.H, 3)}  ${r.variant.padEnd(13)} ${pad(fmtMs(r.ms), 11)} ${pad(r.gflops.toFixed(1), 8)} ${pad(ratio, 13)} ${pad(nratio, 15)}`);
  }
}
