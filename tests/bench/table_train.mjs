// table_train.mjs: reads bench_train's JSON lines (files or stdin) and prints
// a table of training-step times with ratio columns against the reference
// figures of the training issue (measured there on the same model, one
// thread): TensorFlow.js 4.22 WASM (SIMD on) and native PyTorch 1.13 (AVX2,
// OpenBLAS), and a column that says whether the target holds:
//   train-wasm-simd128 >= 3x faster than TF.js WASM at its best at
//   (32,12,128,1|2|8) and (16,32,128,2), >= 1.5x at (8,128,256,8), and no more
//   than 3.5x slower than PyTorch at (32,12,128,2) and (16,32,128,2).
// Where the issue gives a range (29-55 ms), "x tfjs" divides its best (low)
// end by our time and "x pytorch" our time by each end of the range.
// Does not: run anything, or judge noise (this machine varies +-30%).
// Usage: node tests/bench/table_train.mjs train-wasm.jsonl train-native.jsonl
import { readFileSync } from 'node:fs';

const text = process.argv.length > 2
  ? process.argv.slice(2).map((f) => readFileSync(f, 'utf8')).join('\n')
  : readFileSync(0, 'utf8');
const rows = text.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l))
  .filter((r) => String(r.variant).startsWith('train-'));

// The reference figures in ms per step: [low, high].
const TFJS = { '32,12,128,1': [29, 55], '32,12,128,2': [29, 55], '8,128,256,8': [164, 520] };
const TORCH = { '32,12,128,1': [2.2, 2.9], '32,12,128,2': [2.2, 2.9], '32,12,128,8': [3.9, 3.9],
                '8,128,256,8': [28, 28] };
// Targets for train-wasm-simd128: minimum speed-up over TF.js's best, maximum
// slowdown against PyTorch. The TF.js best at (32,12,128,8) and (16,32,128,2)
// is not in the issue: the (32,12,128,1..2) best (29 ms) is used there.
const TFJS_BEST_FOR = { '32,12,128,8': 29, '16,32,128,2': 29 };
const SPEEDUP = { '32,12,128,1': 3, '32,12,128,2': 3, '32,12,128,8': 3, '16,32,128,2': 3,
                  '8,128,256,8': 1.5 };
const MAX_SLOWDOWN = { '32,12,128,2': 3.5, '16,32,128,2': 3.5 };

const key = (r) => `${r.B},${r.L},${r.D},${r.H}`;
const pad = (s, n) => String(s).padStart(n);
const fmtMs = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} us` : `${ms.toFixed(2)} ms`);
const range = ([a, b]) => (a === b ? `${a}` : `${a}-${b}`);

console.log(`${pad('B', 3)} ${pad('L', 4)} ${pad('D', 4)} ${pad('H', 3)}  ${'variant'.padEnd(19)} ${pad('time', 10)} ${pad('GFLOP/s', 8)} ${pad('tfjs ms', 8)} ${pad('x tfjs', 7)} ${pad('torch ms', 9)} ${pad('x torch', 10)}  target`);
for (const r of rows) {
  const k = key(r);
  const tf = TFJS[k];
  const tfBest = tf ? tf[0] : TFJS_BEST_FOR[k];
  const torch = TORCH[k];
  const xtf = tfBest ? (tfBest / r.ms).toFixed(2) : '-';
  const xtorch = torch
    ? (torch[0] === torch[1] ? (r.ms / torch[0]).toFixed(2)
      : `${(r.ms / torch[1]).toFixed(2)}-${(r.ms / torch[0]).toFixed(2)}`)
    : '-';
  const verdicts = [];
  if (r.variant === 'train-wasm-simd128') {
    if (SPEEDUP[k] && tfBest) {
      const want = tfBest / SPEEDUP[k];
      verdicts.push(`${r.ms <= want ? 'met' : 'MISSED'} <= ${want.toFixed(1)} ms (${SPEEDUP[k]}x tfjs)`);
    }
    if (MAX_SLOWDOWN[k]) {
      const ref = TORCH[k] ? TORCH[k][0] : null;
      if (ref) {
        const want = ref * MAX_SLOWDOWN[k];
        verdicts.push(`${r.ms <= want ? 'met' : 'MISSED'} <= ${want.toFixed(1)} ms (${MAX_SLOWDOWN[k]}x torch ${ref})`);
      } else {
        verdicts.push(`no torch figure (${MAX_SLOWDOWN[k]}x target)`);
      }
    }
  }
  console.log(`${pad(r.B, 3)} ${pad(r.L, 4)} ${pad(r.D, 4)} ${pad(r.H, 3)}  ${r.variant.padEnd(19)} ${pad(fmtMs(r.ms), 10)} ${pad(r.gflops.toFixed(1), 8)} ${pad(tf ? range(tf) : '-', 8)} ${pad(xtf, 7)} ${pad(torch ? range(torch) : '-', 9)} ${pad(xtorch, 10)}  ${verdicts.join('; ')}`);
}
