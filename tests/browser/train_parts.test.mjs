// train_parts.test.mjs: the roles runs trained by several Workers at once,
// its own script and CTest test (browser_train_parts).
//
// Does: open index.html#view=train twice, one page training in one Worker
// and one in three (headroom-train-link.mjs trainParts, forced with
// globalThis.headroomTrainParts before the first use of training), and
// check: the pages start that many Workers; the same seed gives the same
// curves bit for bit with three Workers as with one, untied and tied (six
// runs in three Workers: two each), and another seed does not; played
// and paused, the three Workers stop at one step (every run's steps equal
// the state's step) and their curves equal one Worker's stepped to it;
// played from a reset, the 1-head / 2-head split (1 head > 0.45 and 2
// heads < 0.25 held out) shows, and its time after play() is printed for
// both counts; the choice without an override follows
// navigator.hardwareConcurrency (printed).
// Does not: judge the split's time against a wall-clock goal (the machine
// is shared: the page-load bench's train-play line reports it), or test
// the Worker alone (train_worker.test.mjs) or the restart and hold paths
// (train_page_worker.test.mjs).
//
// Run: node tests/browser/train_parts.test.mjs    (after ./build.sh build)
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 240_000;

const strip = (s) => JSON.stringify(s.runs.map(({ heads, tieQK, loss, floor, steps, diverged, history, perHead }) =>
  ({ heads, tieQK, loss, floor, steps, diverged, history, perHead })));

// A train page whose runs train in `parts` Workers (null: the page's own choice).
async function openPage(browser, url, watch, parts) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, `parts ${parts}`);
  await page.addInitScript((n) => {
    if (n !== null) window.headroomTrainParts = n;
    window.__workers = 0;
    const W = window.Worker;
    window.Worker = class extends W { constructor(...a) { super(...a); window.__workers += 1; } };
  }, parts);
  await page.goto(`${url}index.html#view=train`);
  await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  await page.evaluate(() => window.headroom.ready);
  await page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 30_000 });
  return { context, page };
}

const resetStep = (page, opts, n) => page.evaluate(async ([o, k]) => {
  await window.headroom.train.reset(o);
  return window.headroom.train.step(k);
}, [opts, n]);

// Plays from a reset until the split shows (at most 40 s), then pauses.
const playToSplit = (page) => page.evaluate(async () => {
  const h = window.headroom;
  await h.train.reset({ seed: 4242, r: 2, lr: 0.01, tieQK: false });
  let split = null;
  const t0 = performance.now();
  const poll = setInterval(() => {
    const st = h.train.state();
    if (split === null && st.step > 0 && st.runs.length > 1 && st.runs[0].loss > 0.45 && st.runs[1].loss < 0.25)
      split = { ms: performance.now() - t0, step: st.step };
  }, 20);
  const started = await h.train.play();
  const t1 = performance.now();
  while (split === null && performance.now() - t1 < 40_000) await new Promise((r) => setTimeout(r, 50));
  const stopped = await h.train.pause();
  clearInterval(poll);
  return { split, rate: (stopped.step - started.step) / ((performance.now() - t1) / 1000), stopped };
});

async function partsTests({ browser, url, watch }) {
  const one = await openPage(browser, url, watch, 1);
  const three = await openPage(browser, url, watch, 3);
  const chosen = await openPage(browser, url, watch, null);
  try {
    await test('train parts: the pages start one Worker and three; unforced, the count follows the cores', async () => {
      const n1 = await one.page.evaluate(() => window.__workers);
      const n3 = await three.page.evaluate(() => window.__workers);
      const [cores, n] = await chosen.page.evaluate(() => [navigator.hardwareConcurrency, window.__workers]);
      console.log(`      navigator.hardwareConcurrency ${cores}: ${n} Worker(s) chosen`);
      assert(n1 === 1 && n3 === 3, `Workers started: ${n1} and ${n3}`);
      assert(n === Math.max(1, Math.min(3, cores - 1)), `${cores} cores chose ${n} Workers`);
      const s = await three.page.evaluate(() => window.headroom.train.state());
      assert(s.where === 'worker' && s.runs.map((r) => r.heads).join() === '1,2,4', `${s.where}: ${s.runs.map((r) => r.heads)}`);
    });

    await test('train parts: three Workers give one Worker\'s curves bit for bit, untied and tied; another seed does not', async () => {
      for (const [opts, n] of [[{ seed: 4242, r: 2, lr: 0.01, tieQK: false }, 30], [{ seed: 77, r: 4, lr: 0.02, tieQK: true }, 12]]) {
        const a = await resetStep(one.page, opts, n);
        const b = await resetStep(three.page, opts, n);
        assert(a.step === n && b.step === n, `steps ${a.step} / ${b.step}`);
        assert(b.runs.length === (opts.tieQK ? 6 : 3), `${b.runs.length} runs`);
        assert(strip(a) === strip(b), `seed ${opts.seed}: one Worker's curves and three Workers' differ`);
      }
      const other = await resetStep(three.page, { seed: 4243, r: 2, lr: 0.01, tieQK: false }, 30);
      const a = await resetStep(one.page, { seed: 4242, r: 2, lr: 0.01, tieQK: false }, 30);
      assert(strip(other) !== strip(a), 'another seed gave the same curves');
    });

    await test('train parts: played, the split shows; paused, three Workers stand at one step with one Worker\'s curves', async () => {
      const r3 = await playToSplit(three.page);
      const r1 = await playToSplit(one.page);
      for (const [name, r] of [['one Worker', r1], ['three Workers', r3]]) {
        console.log(`      ${name}: split ${r.split ? `${(r.split.ms / 1000).toFixed(2)} s after play() at step ${r.split.step}` : 'not seen'}, ` +
                    `${r.rate.toFixed(1)} steps/s`);
      }
      assert(r3.split && r1.split, 'the split did not show');
      // pause brought every Worker to the state's step (late state posts settle first)
      const s = await three.page.evaluate(async () => { await new Promise((r) => setTimeout(r, 300)); return window.headroom.train.state(); });
      assert(s.runs.every((run) => run.steps === s.step), `paused at ${s.step}, runs at ${s.runs.map((run) => run.steps)}`);
      const ref = await resetStep(one.page, { seed: 4242, r: 2, lr: 0.01, tieQK: false }, s.step);
      assert(strip(ref) === strip(s), `played to step ${s.step} in three Workers, the curves differ from one Worker's`);
    });
  } finally {
    await one.context.close();
    await three.context.close();
    await chosen.context.close();
  }
}

runSuite('train parts', partsTests, SUITE_TIMEOUT_MS);
