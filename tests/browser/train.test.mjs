// train.test.mjs: the browser suite for live training's API, in
// Debian's Chromium via playwright-core, on build/web (HEADROOM_SITE
// overrides) served on 127.0.0.1.
//
// Does: check window.headroom.train through the real page: exactly the
// documented verbs; step(n) trains n steps of every run and returns state();
// out-of-range and wrongly typed seed, r, lr and n are refused with a message
// and the previous values kept; a seed in the URL hash reproduces the same
// loss curve in a fresh page (and another seed does not); weights=trained
// (hash and setWeights) changes the attention weights getState() shows, and a
// head count with no run says so; snapshot(heads)'s loss is recomputed here
// from its own X, target, mask and weights by plain loops; download() saves
// the snapshot as a JSON file (build/test-artifacts/train-snapshot.json);
// the query/key tie: train.reset({tieQK: true}) lists the runs untied 1, 2,
// 4 then tied 1, 2, 4 with tieQK on top and per run, ties the lesson too
// (getState().tieQK, hash tieqk=1: one key for both), a tied snapshot has
// W_K equal to W_Q, grads.W_Q and no grads.W_K and its loss recomputes; a
// link with tieqk=1 trains tied runs from the start, tieqk=2 is refused;
// setTieQK alone keeps the runs going until the next reset;
// while playing the app trains and draws, paused it draws no frame and trains
// no step (the app's own frame counter and requestAnimationFrame-independent
// waits). Prints the steps/s measured while playing ("train: N steps/s"), the
// renderer processes' CPU time per step (from /proc: the machine may be
// loaded, so wall time alone says little), and the step and time at which the
// chart first shows the 1-head / 2-head separation (figures, not assertions).
// Fails on any page or console error. Prints "ok"/"FAIL" per test and ends
// with "N passed, N failed" like run.mjs; exits non-zero on failure.
// Does not: build the site, download a browser, reach beyond 127.0.0.1, or
// test the train view's drawing (the views' own tests do).
//
// Run: node tests/browser/train.test.mjs    (after ./build.sh build)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';
const SUITE_TIMEOUT_MS = 300_000;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function open(browser, url, watch, label) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  watch(page, label);
  await page.goto(url);
  await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  await page.evaluate(() => window.headroom.ready);
  return { context, page };
}

// The documented model, by plain loops in double (README "Training snapshots").
function recomputeLoss(s) {
  const [B, L, D] = s.X.shape, T = s.target.shape[2], H = s.heads, dh = D / H;
  const X = s.X.data, WQ = s.W_Q.data, WK = s.W_K.data, WV = s.W_V.data, WO = s.W_O.data;
  let sum = 0, masked = 0;
  const q = new Float64Array(L * D), k = new Float64Array(L * D), v = new Float64Array(L * D);
  const o = new Float64Array(L * D), p = new Float64Array(L);
  for (let b = 0; b < B; ++b) {
    for (let i = 0; i < L; ++i) {
      for (let c = 0; c < D; ++c) {
        let aq = 0, ak = 0, av = 0;
        for (let e = 0; e < D; ++e) {
          const x = X[(b * L + i) * D + e];
          aq += x * WQ[e * D + c]; ak += x * WK[e * D + c]; av += x * WV[e * D + c];
        }
        q[i * D + c] = aq; k[i * D + c] = ak; v[i * D + c] = av;
      }
    }
    for (let h = 0; h < H; ++h) {
      for (let i = 0; i < L; ++i) {
        let mx = -Infinity;
        for (let j = 0; j < L; ++j) {
          let d = 0;
          for (let c = h * dh; c < (h + 1) * dh; ++c) d += q[i * D + c] * k[j * D + c];
          p[j] = d / Math.sqrt(dh);
          mx = Math.max(mx, p[j]);
        }
        let z = 0;
        for (let j = 0; j < L; ++j) z += (p[j] = Math.exp(p[j] - mx));
        for (let c = h * dh; c < (h + 1) * dh; ++c) {
          let a = 0;
          for (let j = 0; j < L; ++j) a += (p[j] / z) * v[j * D + c];
          o[i * D + c] = a;
        }
      }
    }
    for (let i = 0; i < L; ++i) {
      if (!s.mask.data[b * L + i]) continue;
      ++masked;
      for (let t = 0; t < T; ++t) {
        let y = 0;
        for (let c = 0; c < D; ++c) y += o[i * D + c] * WO[c * T + t];
        const e = y - s.target.data[(b * L + i) * T + t];
        sum += e * e;
      }
    }
  }
  return sum / (masked * T * s.lossScale);
}

// CPU time (user + system, ms) so far of the renderer processes of the
// browser this script launched (descendants of this node process: other
// people's browsers on the machine are left out), from /proc; null where
// there is no /proc.
function rendererCpuMs() {
  if (!existsSync('/proc/self/stat')) return null;
  const tick = 100;  // USER_HZ: clock ticks per second on Linux
  const procs = new Map();  // pid -> {ppid, ms, renderer}
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');  // fields from 3 (state) on
      const renderer = readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('--type=renderer');
      procs.set(Number(pid), { ppid: Number(f[1]), ms: (Number(f[11]) + Number(f[12])) * 1000 / tick, renderer });
    } catch { /* the process ended */ }
  }
  let ms = 0;
  for (const [, p] of procs) {
    if (!p.renderer) continue;
    let up = p.ppid;
    for (let depth = 0; depth < 8 && up > 1 && up !== process.pid; ++depth) up = procs.get(up)?.ppid ?? 0;
    if (up === process.pid) ms += p.ms;
  }
  return ms;
}

const curve = (st) => JSON.stringify(st.runs.map((r) => r.history));

async function trainTests({ browser, url, watch, artifacts }) {
  const { context, page } = await open(browser, url, watch, 'train');
  const train = (verb, ...args) => page.evaluate(([v, a]) => window.headroom.train[v](...a), [verb, args]);
  const state = () => page.evaluate(() => window.headroom.getState());

  try {
    await test('train: exactly reset, step, play, pause, state, snapshot (+ download, knockout); setWeights', async () => {
      const names = await page.evaluate(() => Object.keys(window.headroom.train).sort());
      assert(JSON.stringify(names) === JSON.stringify(['download', 'knockout', 'pause', 'play', 'reset', 'snapshot', 'state', 'step']),
        JSON.stringify(names));
      assert(await page.evaluate(() => typeof window.headroom.setWeights === 'function'), 'no setWeights');
    });

    await test('train.step(n) runs n steps of every run and returns state()', async () => {
      const s0 = await train('reset', { seed: 3, r: 2, lr: 0.01 });
      assert(s0.seed === 3 && s0.r === 2 && s0.step === 0 && s0.error === null, JSON.stringify(s0.error));
      const s = await train('step', 4);
      assert(s.step === 4 && s.running === false, `step ${s.step}`);
      assert(JSON.stringify(s.runs.map((r) => r.heads)) === '[1,2,4]', 'runs');
      for (const r of s.runs) {
        assert(Number.isFinite(r.loss) && r.history[0][0] === 0 && r.perHead.length === r.heads, JSON.stringify(r).slice(0, 200));
        assert(r.perHead.every((h) => h.weightOn.length === 2), 'weightOn has R numbers');
      }
      assert(JSON.stringify(s) === JSON.stringify(await train('state')), 'step(n) did not return state()');
      assert((await page.evaluate(() => window.headroom.hash())).includes('seed=3'), 'seed not in the hash');
    });

    await test('train: bad seed, r, lr and n are refused with a message; previous values kept', async () => {
      const before = await train('state');
      const bad = [['reset', { seed: -1 }], ['reset', { seed: 2 ** 32 }], ['reset', { seed: 1.5 }], ['reset', { seed: '7' }],
        ['reset', { r: 3 }], ['reset', { r: 'two' }], ['reset', { lr: 0 }], ['reset', { lr: 11 }], ['reset', { lr: NaN }],
        ['reset', { lr: '0.1' }], ['reset', 'seed=3'], ['step', 0], ['step', 10001], ['step', 2.5], ['step', '3'], ['step']];
      for (const [verb, arg] of bad) {
        const s = await (arg === undefined ? train(verb) : train(verb, arg));
        assert(typeof s.error === 'string' && s.error.length > 0, `${verb}(${JSON.stringify(arg)}): no error`);
        assert(s.seed === before.seed && s.r === before.r && s.lr === before.lr && s.step === before.step &&
          curve(s) === curve(before), `${verb}(${JSON.stringify(arg)}) changed the training`);
      }
      const g = await state();
      assert(g.error, 'getState().error is not set after a refused train verb');
      const w = await page.evaluate(() => window.headroom.setWeights('learned'));
      assert(w.error && w.modelWeights.choice === 'built', `setWeights('learned'): ${w.error}`);
      const thrown = await page.evaluate(async () => { try { await window.headroom.train.snapshot(8); return null; } catch (e) { return e.message; } });
      assert(thrown && thrown.includes('8'), `snapshot(8): ${thrown}`);
      const ok = await train('step', 1);
      assert(ok.error === null && ok.step === before.step + 1, `after refusals: ${ok.error}`);
    });

    await test('a seed in the URL hash reproduces the same loss curve in a fresh page; another seed does not', async () => {
      const run = async (hash, chunks) => {
        const p = await open(browser, `${url}#${hash}`, watch, `seed ${hash}`);
        let s;
        for (const n of chunks) s = await p.page.evaluate((k) => window.headroom.train.step(k), n);
        await p.context.close();
        return s;
      };
      const a = await run('view=train&seed=11', [6]);
      const b = await run('view=train&seed=11', [2, 4]);
      const c = await run('view=train&seed=12', [6]);
      assert(a.seed === 11 && b.seed === 11 && c.seed === 12, `seeds ${a.seed} ${b.seed} ${c.seed}`);
      assert(curve(a) === curve(b), 'the same seed gave another curve');
      assert(curve(a) !== curve(c), 'another seed gave the same curve');
      const r4 = await run('seed=11&r=4', [1]);
      assert(r4.r === 4 && r4.runs[0].perHead[0].weightOn.length === 4 && r4.runs[0].floor === 0.75, `r=4: ${r4.r}`);
    });

    await test('weights=trained changes the weights getState() shows; a head count with no run says so', async () => {
      await page.evaluate(() => window.headroom.setHeads(2));
      await train('reset', { seed: 3, r: 2, lr: 0.01 });
      await train('step', 3);
      const built = await page.evaluate(() => window.headroom.applyHash('weights=built'));
      await page.evaluate(() => window.headroom.applyHash('weights=trained'));
      // The runs train in a Worker: its weights come over in a message.
      const shownAt = (step) => page.waitForFunction((s) => window.headroom.getState().modelWeights.step === s, step, { timeout: 10_000 });
      await shownAt(3);
      const trained = await state();
      assert(trained.error === null && trained.modelWeights.shown === 'trained' && trained.modelWeights.step === 3,
        JSON.stringify(trained.modelWeights));
      assert(JSON.stringify(trained.weights) !== JSON.stringify(built.weights), 'the attention weights did not change');
      assert((await page.evaluate(() => window.headroom.hash())).includes('weights=trained'), 'weights not in the hash');
      // Training on moves what the views show.
      await train('step', 2);
      await shownAt(5);
      const later = await state();
      assert(later.modelWeights.step === 5 && JSON.stringify(later.weights) !== JSON.stringify(trained.weights),
        'the shown weights did not follow training');
      const eight = await page.evaluate(() => window.headroom.setHeads(8));
      assert(eight.modelWeights.shown === 'built' && /8 heads/.test(eight.modelWeights.note), JSON.stringify(eight.modelWeights));
      const back = await page.evaluate(() => window.headroom.setWeights('built'));
      assert(back.modelWeights.shown === 'built' && back.modelWeights.note === null, JSON.stringify(back.modelWeights));
      const bad = await page.evaluate(() => window.headroom.applyHash('weights=best'));
      assert(bad.error && bad.error.includes('weights') && bad.modelWeights.choice === 'built', bad.error);
      await page.evaluate(() => window.headroom.setHeads(2));
    });

    await test('snapshot(2): its loss recomputed from its own X, target, mask and weights; download saves it', async () => {
      const snap = await train('snapshot', 2);
      assert(snap.heads === 2 && snap.X.shape.length === 3 && snap.W_Q.shape.join() === `${snap.X.shape[2]},${snap.X.shape[2]}`,
        JSON.stringify({ heads: snap.heads, X: snap.X.shape, W_Q: snap.W_Q.shape }));
      assert(snap.grads && snap.grads.W_O && !('W_R' in snap), 'grads / W_R');
      const loss = recomputeLoss(snap);
      assert(Math.abs(loss - snap.loss) <= 1e-4 * Math.max(1, snap.loss), `recomputed ${loss}, snapshot says ${snap.loss}`);
      const [download] = await Promise.all([page.waitForEvent('download'), train('download', 2)]);
      const file = path.join(artifacts, 'train-snapshot.json');
      await download.saveAs(file);
      assert(/^headroom-snapshot-h2-seed3-r2-step\d+\.json$/.test(download.suggestedFilename()), download.suggestedFilename());
      const saved = JSON.parse(await readFile(file, 'utf8'));
      assert(saved.loss === snap.loss && saved.step === snap.step, 'the saved file is not snapshot(2)');
    });

    await test('tieQK: reset({tieQK: true}) adds tied runs; state, snapshot(heads, {tieQK: true}), one hash key tieqk', async () => {
      const names = (st) => st.runs.map((r) => `${r.heads}${r.tieQK ? 't' : ''}`).join();
      let s = await train('reset', { seed: 5, r: 4, lr: 0.01, tieQK: true });
      assert(s.error === null && s.tieQK === true && names(s) === '1,2,4,1t,2t,4t', `${s.error} ${names(s)}`);
      assert(s.runs.every((r) => r.perHead.length === r.heads && r.perHead.every((h) => h.weightOn.length === 4)), 'weightOn');
      assert((await state()).tieQK === true, 'the lesson is not tied after reset({tieQK: true})');
      assert((await page.evaluate(() => window.headroom.hash())).includes('tieqk=1'), 'tieqk=1 not in the hash');
      s = await train('step', 2);
      const tied = await train('snapshot', 2, { tieQK: true });
      assert(tied.tieQK === true && tied.heads === 2 && tied.step === 2, JSON.stringify({ t: tied.tieQK, h: tied.heads, s: tied.step }));
      assert(tied.W_K.data.length === tied.W_Q.data.length && tied.W_K.data.every((v, i) => v === tied.W_Q.data[i]), 'W_K is not W_Q');
      assert(tied.grads.W_Q && !('W_K' in tied.grads) && tied.grads.W_V && tied.grads.W_O, `grads: ${Object.keys(tied.grads)}`);
      const loss = recomputeLoss(tied);
      assert(Math.abs(loss - tied.loss) <= 1e-4 * Math.max(1, tied.loss), `tied: recomputed ${loss}, snapshot says ${tied.loss}`);
      const untied = await train('snapshot', 2);
      assert(untied.tieQK === false && 'W_K' in untied.grads && untied.W_K.data.some((v, i) => v !== untied.W_Q.data[i]), 'untied snapshot');
      // Refusals: a tieQK that is not a boolean; snapshot options of the wrong shape.
      const before = await train('state');
      s = await train('reset', { tieQK: 'yes' });
      assert(s.error && /tieQK/.test(s.error) && names(s) === names(before) && s.step === before.step, `reset({tieQK: 'yes'}): ${s.error}`);
      const thrown = await page.evaluate(async () => { try { await window.headroom.train.snapshot(2, { tieQK: 1 }); return null; } catch (e) { return e.message; } });
      assert(thrown && /tieQK/.test(thrown), `snapshot(2, {tieQK: 1}): ${thrown}`);
      // The lesson's toggle is the same tie: it does not throw the runs away, the next reset follows it.
      let g = await page.evaluate(() => window.headroom.setTieQK(false));
      assert(g.tieQK === false && !(await page.evaluate(() => window.headroom.hash())).includes('tieqk'), 'setTieQK(false)');
      s = await train('state');
      assert(names(s) === '1,2,4,1t,2t,4t' && s.step === 2, `setTieQK reset the runs: ${names(s)} step ${s.step}`);
      s = await train('reset', { seed: 5 });
      assert(s.tieQK === false && names(s) === '1,2,4', `reset after setTieQK(false): ${names(s)}`);
      g = await page.evaluate(() => window.headroom.setTieQK(true));
      s = await train('reset', {});
      assert(s.tieQK === true && names(s) === '1,2,4,1t,2t,4t', `reset after setTieQK(true): ${names(s)}`);
      // A link: tieqk=1 ties the lesson and trains tied runs from the start; tieqk=2 is refused.
      const linked = await open(browser, `${url}#seed=9&tieqk=1`, watch, 'tieqk=1');
      // train.state() is the last state the Worker sent: the first comes once it has started.
      await linked.page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 30_000 });
      const ls = await linked.page.evaluate(() => window.headroom.train.state());
      const lg = await linked.page.evaluate(() => window.headroom.getState());
      assert(ls.seed === 9 && ls.tieQK === true && names(ls) === '1,2,4,1t,2t,4t' && lg.tieQK === true, `tieqk=1: ${names(ls)}`);
      const bad = await linked.page.evaluate(() => window.headroom.applyHash('tieqk=2'));
      assert(bad.error && /tieqk/.test(bad.error) && bad.tieQK === true, `tieqk=2: ${bad.error}`);
      await linked.context.close();
      await train('reset', { seed: 3, r: 2, lr: 0.01, tieQK: false });
    });

    await test('playing trains and draws; paused draws no frame and trains no step', async () => {
      await train('reset', { seed: 1, r: 2, lr: 0.01 });
      const f0 = (await state()).frames;
      const cpu0 = rendererCpuMs();
      const t0 = Date.now();
      await train('play');
      // The separation (a printed figure, not a timed assertion): the first
      // evaluated step where the 2-head held-out loss is below 0.25 while the
      // 1-head one is above 0.45, and when a poll first saw it on the chart.
      let seen = null;
      for (let polls = 0; polls < 300 && (Date.now() - t0 < 2500 || !seen); ++polls) {
        const st = await train('state');
        if (!seen) {
          const one = st.runs[0].history, two = st.runs[1].history;
          const k = two.findIndex(([step, loss], j) => loss < 0.25 && one[j] && one[j][0] === step && one[j][1] > 0.45);
          if (k >= 0) seen = { step: two[k][0], ms: Date.now() - t0, at: st.step };
        }
        await sleep(50);
      }
      const playing = await train('state');
      const cpuMs = cpu0 === null ? null : rendererCpuMs() - cpu0, wallMs = Date.now() - t0;
      const f1 = (await state()).frames;
      assert(playing.running && playing.step > 0 && f1 > f0, `step ${playing.step}, frames ${f0} -> ${f1}`);
      console.log(`      train: ${playing.stepsPerSecond.toFixed(1)} steps/s (3 runs each) in headless Chromium, ` +
        `${playing.stepsPerFrame} steps in the last frame, step ${playing.step} after ${(wallMs / 1000).toFixed(1)} s`);
      if (cpuMs !== null) {
        const perStep = cpuMs / playing.step;
        console.log(`      train: renderer CPU ${(cpuMs / 1000).toFixed(2)} s in ${(wallMs / 1000).toFixed(2)} s of wall time ` +
          `(${(100 * cpuMs / wallMs).toFixed(0)}% of a core): ${perStep.toFixed(1)} ms CPU per step (3 runs, evaluations and ` +
          `drawing included), ${(1000 / perStep).toFixed(1)} steps per CPU second`);
      }
      if (seen) {
        console.log(`      train: separation (2 heads < 0.25, 1 head > 0.45) at step ${seen.step}, on the chart ` +
          `${(seen.ms / 1000).toFixed(2)} s after play (step ${seen.at} by then)` +
          (cpuMs !== null ? `; at the CPU cost per step above: ${(seen.step * cpuMs / playing.step / 1000).toFixed(2)} s of CPU` : ''));
      } else {
        console.log(`      train: no separation seen by step ${playing.step} (${(wallMs / 1000).toFixed(1)} s)`);
      }
      await writeFile(path.join(artifacts, 'train-steps-per-second.txt'), `${playing.stepsPerSecond}\n`);
      await train('pause');
      await sleep(300);  // the wake frames after the call
      const a = await state(), sa = await train('state');
      await sleep(1000);
      const b = await state(), sb = await train('state');
      assert(b.frames === a.frames, `frames while paused: ${a.frames} -> ${b.frames}`);
      assert(sb.step === sa.step && !sb.running && sb.stepsPerSecond === 0, `steps while paused: ${sa.step} -> ${sb.step}`);
    });
  } finally {
    await context.close();
  }
}

await runSuite('train', trainTests, SUITE_TIMEOUT_MS);
