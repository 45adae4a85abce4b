// soak.test.mjs: a long run of the full page in Chromium: live training with
// random API calls all the while, to show that memory stays flat, no error
// reaches the page and frames stop when everything is paused.
//
// Does: load index.html, reset and play training, and until the training has
// taken SOAK_STEPS steps and SOAK_CALLS random calls were made (sentences in
// many scripts, heads, queries, hashes, views, themes, weights built and
// trained, focus, bad values among them), sample every so often: the wasm
// memory of the page (every WebAssembly.Memory the page instantiated, found by
// wrapping WebAssembly.instantiate before the page runs) and the JS heap after
// a forced garbage collection (CDP). Then pause, and check: the wasm memory at
// the end is what it was once warmed up (after the first fifth; it only grows,
// in 64 KiB pages: up to kWasmSlackPages allowed), the JS heap at the end is at
// most kHeapSlack above its warmed-up peak, the training state is finite and
// counted every step, no page or console error, and once paused and idle the
// frame counter stands still. Writes the curves to
// build/test-artifacts/soak-memory.json and prints them.
// Does not: run long by default: CTest runs 300 steps and 150 calls;
// `./build.sh soak` runs 20,000 steps and 2,000 calls.
//
// Run: SOAK_STEPS=20000 SOAK_CALLS=2000 node tests/browser/soak.test.mjs   (after ./build.sh build)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const STEPS = Number(process.env.SOAK_STEPS || 300);
const CALLS = Number(process.env.SOAK_CALLS || 150);
const SUITE_TIMEOUT_MS = Number(process.env.SOAK_TIMEOUT_MS || 240_000) + STEPS * 200;
const kWasmSlackPages = 4;          // 256 KiB of wasm growth after warm-up
const kHeapSlack = 4 << 20;         // 4 MiB of JS heap above the warmed-up peak

const SENTENCES = [
  'The researcher who wrote the paper said it was wrong.', 'The dog that chased the cat knew it was late.',
  '研究者说它错了。', 'قالت الباحثة إن الورقة خاطئة.', 'Der Forscher sagte, es sei falsch.', 'The 🐱 said 🎉 was 👍🏽 wrong.',
  'Исследователь сказал, что это неверно.', 'शोधकर्ता ने कहा कि यह गलत था।', 'The cat sat.', 'x'.repeat(5000), '',
];

// A deterministic generator for the calls (mulberry32).
function rng(seed) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function soakTests({ browser, url, watch, artifacts }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(() => {
    window.__memories = [];
    const keep = (result) => {
      const instance = result && result.instance ? result.instance : result;
      if (instance && instance.exports)
        for (const v of Object.values(instance.exports)) if (v instanceof WebAssembly.Memory) window.__memories.push(v);
      return result;
    };
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = (...args) => instantiate.apply(WebAssembly, args).then(keep);
  });
  const page = await context.newPage();
  watch(page, 'soak');
  const cdp = await context.newCDPSession(page);
  await page.goto(url);
  await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
  await page.evaluate(() => window.headroom.ready);

  const sample = async (step) => {
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')).usedSize;
    const wasm = await page.evaluate(() => window.__memories.reduce((s, m) => s + m.buffer.byteLength, 0));
    return { step, wasm, heap };
  };
  const trainState = () => page.evaluate(() => window.headroom.train.state());
  const curve = [];
  const next = rng(20261201);
  const pick = (xs) => xs[Math.floor(next() * xs.length)];
  let calls = 0;
  const t0 = Date.now();

  await test(`soak: ${STEPS} training steps with ${CALLS} random API calls, memory flat after warm-up`, async () => {
    await page.evaluate(async () => { await window.headroom.train.reset({ seed: 1, r: 2 }); await window.headroom.train.play(); });
    curve.push(await sample(0));
    let step = 0;
    while (step < STEPS || calls < CALLS) {
      const call = pick(['sentence', 'heads', 'query', 'hash', 'view', 'theme', 'weights', 'focus', 'bad']);
      const arg = call === 'sentence' ? pick(SENTENCES)
        : call === 'heads' ? pick([1, 2, 4, 8, 3])
        : call === 'query' ? Math.floor(next() * 14) - 1
        : call === 'hash' ? pick(['heads=2&query=6', 'view=values', 'view=train', 'theme=dark', 'sentence=Hello+world.', 'heads=9', 'weights=trained'])
        : call === 'view' ? pick(['lesson', 'attention', 'values', 'readout', 'concat', 'steps', 'train'])
        : call === 'theme' ? pick(['light', 'dark'])
        : call === 'weights' ? pick(['built', 'trained'])
        : call === 'focus' ? next() * 1.2
        : pick([NaN, -1, 'two', null, {}]);
      await page.evaluate(async ([c, a]) => {
        const h = window.headroom;
        const run = { sentence: () => h.setSentence(a), heads: () => h.setHeads(a), query: () => h.selectToken(a),
          hash: () => h.applyHash(a), view: () => h.applyHash(`view=${a}`), theme: () => h.applyHash(`theme=${a}`),
          weights: () => h.setWeights(a), focus: () => h.setFocus(a), bad: () => h.setHeads(a) }[c];
        await run();
        // keep playing: a view or hash may have paused nothing, but the
        // soak's point is training that runs all the while
        if (!h.train.state().running) await h.train.play();
      }, [call, arg]);
      ++calls;
      // pace the calls over the run: a call about every STEPS / CALLS steps
      const state = await trainState();
      step = state.step;
      if (calls >= CALLS && step < STEPS) await new Promise((r) => setTimeout(r, 200));
      if (calls % Math.max(1, Math.floor(CALLS / 20)) === 0 || (calls >= CALLS && step >= STEPS)) curve.push(await sample(step));
      if (calls < CALLS && step < STEPS * calls / CALLS) await new Promise((r) => setTimeout(r, 30));
    }
    await page.evaluate(() => window.headroom.train.pause());
    curve.push(await sample(step));
    const elapsed = (Date.now() - t0) / 1000;
    console.log(`      ${step} steps, ${calls} calls in ${elapsed.toFixed(0)} s (${(step / elapsed).toFixed(1)} steps/s)`);
    console.log(`      wasm memory (MiB) by step: ${curve.map((c) => `${c.step}:${(c.wasm / 1048576).toFixed(2)}`).join(' ')}`);
    console.log(`      JS heap after GC (MiB) by step: ${curve.map((c) => `${c.step}:${(c.heap / 1048576).toFixed(2)}`).join(' ')}`);
    await writeFile(path.join(artifacts, 'soak-memory.json'), JSON.stringify({ steps: step, calls, seconds: elapsed, curve }, null, 1));
    const warm = curve.filter((c) => c.step >= STEPS / 5);
    assert(warm.length >= 2, `too few samples after warm-up (${warm.length})`);
    const last = curve[curve.length - 1];
    assert(last.wasm - warm[0].wasm <= kWasmSlackPages * 65536,
      `wasm memory grew by ${((last.wasm - warm[0].wasm) / 1048576).toFixed(2)} MiB after warm-up`);
    const heapPeak = Math.max(...warm.slice(0, Math.ceil(warm.length / 2)).map((c) => c.heap));
    assert(last.heap <= heapPeak + kHeapSlack,
      `JS heap ${(last.heap / 1048576).toFixed(2)} MiB at the end, warmed-up peak ${(heapPeak / 1048576).toFixed(2)} MiB`);
  });

  await test('soak: the training state is finite after the run, every run counted every step', async () => {
    const t = await trainState();
    for (const run of t.runs) {
      assert(Number.isFinite(run.loss) && run.history.every(([s, l]) => Number.isFinite(s) && Number.isFinite(l)), `run ${run.heads}: non-finite`);
      // paused mid-step, a run already trained in that step is one ahead (trainer.h "Units")
      assert(run.diverged || run.steps === t.step || run.steps === t.step + 1, `run ${run.heads}: ${run.steps} steps of ${t.step}`);
    }
  });

  await test('soak: paused and idle, no frames are drawn', async () => {
    await new Promise((r) => setTimeout(r, 1500));
    const a = await page.evaluate(() => window.headroom.getState().frames);
    await new Promise((r) => setTimeout(r, 1500));
    const b = await page.evaluate(() => window.headroom.getState().frames);
    assert(a === b, `${b - a} frames drawn in 1.5 s while paused and idle`);
  });
  await context.close();
}

await runSuite('soak', soakTests, SUITE_TIMEOUT_MS);
