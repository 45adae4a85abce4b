// tied_self.mjs: why the tied query/key runs of R = 2 learn so little (the
// question of the tour's query-key step): trains the roles task's runs,
// tied and untied, in the training program (build/web/headroom-train.wasm
// under node), then from each run's train.snapshot (its batch X, W_Q, W_K,
// mask) recomputes in double every query row's scores and softmax, and
// prints per run: the held-out loss, the mean weight a query puts on itself,
// how often its own score is the row's largest, and its own score against
// the best other one.
// Does not: change the runs (the snapshot is read only) or train in a Worker.
// Run: node tests/bench/tied_self.mjs [seed] [steps]   (after ./build.sh build)
import { readFileSync } from 'node:fs';
const src = readFileSync(new URL('../../build/web/headroom-train.js', import.meta.url), 'utf8');
const create = new Function(src + '\nreturn createHeadroomTrainModule;')();
const m = await create({ wasmBinary: readFileSync(new URL('../../build/web/headroom-train.wasm', import.meta.url)), print: () => {}, printErr: () => {} });
const state = () => JSON.parse(m.UTF8ToString(m._headroom_train_state_json()));
const seed = Number(process.argv[2] || 1), steps = Number(process.argv[3] || 1000);
if (!m._headroom_train_reset(seed, 2, 1e-2, 1)) throw new Error(state().error);
for (let done = 0; done < steps; done += 500) m._headroom_train_step(Math.min(500, steps - done));
const out = [];
for (const heads of [1, 2, 4]) for (const tied of [0, 1]) {
  const snap = JSON.parse(m.UTF8ToString(m._headroom_train_snapshot_json(heads, tied)));
  const [B, L, D] = snap.X.shape, dh = D / heads;
  const X = snap.X.data, WQ = snap.W_Q.data, WK = tied ? WQ : snap.W_K.data, mask = snap.mask.data;
  let self = 0, selfTop = 0, rows = 0, selfScore = 0, otherMax = 0;
  for (let b = 0; b < B; ++b) for (let h = 0; h < heads; ++h) {
    const q = [], k = [];
    for (let i = 0; i < L; ++i) {
      const qi = new Float64Array(dh), ki = new Float64Array(dh);
      for (let c = 0; c < dh; ++c) for (let d = 0; d < D; ++d) {
        const x = X[(b * L + i) * D + d];
        qi[c] += x * WQ[d * D + h * dh + c]; ki[c] += x * WK[d * D + h * dh + c];
      }
      q.push(qi); k.push(ki);
    }
    for (let i = 0; i < L; ++i) {
      if (!mask[b * L + i]) continue;
      const s = k.map((kj) => kj.reduce((a, v, c) => a + v * q[i][c], 0) / Math.sqrt(dh));
      const mx = Math.max(...s), e = s.map((v) => Math.exp(v - mx)), z = e.reduce((a, v) => a + v, 0);
      self += e[i] / z; rows++;
      if (s[i] === mx) selfTop++;
      selfScore += s[i]; otherMax += Math.max(...s.filter((_, j) => j !== i));
    }
  }
  out.push(`${heads}${tied ? ' tied' : ''}: loss ${state().runs.find((r) => r.heads === heads && !!r.tieQK === !!tied).loss.toFixed(3)}, weight on itself ${(self / rows).toFixed(2)}, itself the top score in ${(100 * selfTop / rows).toFixed(0)}% of rows, mean self score ${(selfScore / rows).toFixed(1)} vs best other ${(otherMax / rows).toFixed(1)}`);
}
console.log(`seed ${seed}, step ${state().step}, R 2, chance 1/${12}`);
console.log(out.join('\n'));
