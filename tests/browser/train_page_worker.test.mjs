// train_page_worker.test.mjs: the pages train in a Worker, its
// own script and CTest test (browser_train_page_worker).
//
// Does: open the page with view=train and check that its runs train in the
// training Worker (train.state().where "worker"), that the train view draws
// them (the loss chart's curves in the screenshot's pixels, saved as
// build/test-artifacts/train-page-worker.png), and, while playing until the
// split, that taking the Worker's messages (what training adds to the main
// thread, timed) stays under 50 ms a task, printing the Long Tasks API's
// longest task and the longest wasm frame beside the same for frames drawn
// without training (SwiftShader's painting alone passes 50 ms on a loaded
// machine; an 80 ms task of our own first shows the observer hears them); that a hidden page
// (visibilitychange with document.hidden) trains nothing; that the same page
// served with a CSP of worker-src 'none' runs the training program on its
// main thread, says why in `where`, and draws the same curves bit for bit
// as the Worker for the same seed and steps, and plays the same run slower
// than embed.html with its Worker (steps/s both ways printed); that a sandboxed course-host frame trains in the Worker,
// driven by headroom:train messages, trains nothing while scrolled out of the
// host page's view (and on when back); that a Worker killed mid-run is
// restarted, the runs reset and say so, and no number in the state is
// missing or not finite; that one killed while paused is noticed by the
// heartbeat alone (no verb sent), within seconds, and its runs reset paused;
// that a Worker that keeps dying hands the runs to the program on the main
// thread (same curves); that a program whose files cannot be fetched is
// said so in the notice and asked for again on the next use; and that the
// steps-per-frame cap (it paces a program's own frames) is not drawn where
// the runs train in the program, Worker or main thread. Prints the figures for the note: steps/s in the
// Worker vs the main-thread fallback on the same run (and their ratio), the
// time from play() to the split (1 head > 0.45, 2 heads < 0.25 held out),
// and the longest main-thread task while playing.
// Does not: test the training program alone (train_worker.test.mjs) or the
// page's own trainer in detail (train.test.mjs, train_views.test.mjs).
//
// Run: node tests/browser/train_page_worker.test.mjs    (after ./build.sh build)
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { decodePng } from './png.mjs';
import { askFrame, routeCourse } from './course_frame.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 300_000;
const CSP_NO_WORKER = "script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'";

const strip = (s) => JSON.stringify(s.runs.map(({ heads, tieQK, loss, floor, steps, diverged, history, perHead }) =>
  ({ heads, tieQK, loss, floor, steps, diverged, history, perHead })));

// Every number in a state is there and finite (JSON turns NaN into null).
function finiteProblems(s) {
  const bad = [];
  for (const k of ['seed', 'r', 'lr', 'step', 'stepsPerSecond']) if (!Number.isFinite(s[k])) bad.push(`${k} ${s[k]}`);
  for (const r of s.runs) {
    if (!Number.isFinite(r.loss) || !Number.isFinite(r.floor) || !Number.isFinite(r.steps)) bad.push(`run ${r.heads}`);
    for (const [step, loss] of r.history) if (!Number.isFinite(step) || !Number.isFinite(loss)) bad.push(`run ${r.heads} point ${step}`);
    for (const h of r.perHead) for (const w of h.weightOn) if (!Number.isFinite(w)) bad.push(`run ${r.heads} weightOn`);
  }
  return bad;
}

// Waits until read() gives the same value over `quietMs` (a held Worker's
// last post has arrived, the last frame of a change is drawn), at most
// `timeoutMs`; returns the value it settled on. A fixed sleep was too short
// on a loaded machine: the hold and the last post can take over 400 ms.
async function settled(read, { quietMs = 500, timeoutMs = 10_000 } = {}) {
  const t0 = Date.now();
  let v = await read(), since = Date.now();
  while (Date.now() - since < quietMs) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`did not settle in ${timeoutMs} ms (last ${v})`);
    await new Promise((r) => setTimeout(r, 100));
    const w = await read();
    if (w !== v) { v = w; since = Date.now(); }
  }
  return v;
}

async function openPage(browser, url, watch, name, { csp, file = csp ? 'embed.html' : 'index.html' } = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  if (csp) {
    await context.route('**/embed.html', async (route) => {
      const r = await route.fetch();
      await route.fulfill({ response: r, headers: { ...r.headers(), 'content-security-policy': csp } });
    });
  }
  const page = await context.newPage();
  const errors = [];
  if (csp) {  // the browser logs the refused Worker itself; anything else is an error
    page.on('console', (m) => { if (m.type() === 'error' && !/worker-src/.test(m.text())) errors.push(m.text()); });
    page.on('pageerror', (e) => errors.push(e.message));
  } else {
    watch(page, name);
  }
  // Our own work per main-thread task (the wasm's frames, the Worker's
  // messages), timed apart from the browser's painting (see the long-task test).
  await page.addInitScript(() => {
    window.__ourMs = [];  // the wasm's frames (animation frame callbacks)
    window.__msgMs = [];  // the Worker's messages: taking its state into the page's mirror
    const time = (fn, into) => function (...a) { const t = performance.now(); try { return fn.apply(this, a); } finally { into.push(performance.now() - t); } };
    const raf = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (cb) => raf(time(cb, window.__ourMs));
    const d = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
    Object.defineProperty(Worker.prototype, 'onmessage', { configurable: true, get() { return d.get.call(this); },
      set(fn) { d.set.call(this, fn ? time(fn, window.__msgMs) : fn); } });
  });
  await page.goto(`${url}${file}#view=train`);
  await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  await page.evaluate(() => window.headroom.ready);
  await page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 30_000 });
  return { context, page, errors };
}

// Plays from a reset of `seed` for `ms`; returns steps/s (steps over the
// wall time between play's answer and pause's), the split's time after
// play() and the longest main-thread task meanwhile.
async function playFor(page, seed, ms) {
  return page.evaluate(async ([s, span]) => {
    const h = window.headroom;
    await h.train.reset({ seed: s, r: 2, lr: 0.01 });
    let longest = 0;
    const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) longest = Math.max(longest, e.duration); });
    obs.observe({ type: 'longtask' });
    const t0 = performance.now();
    let split = null;
    const poll = setInterval(() => {
      const st = h.train.state();
      if (split === null && st.runs.length && st.runs[0].loss > 0.45 && st.runs[1].loss < 0.25 && st.step > 0) {
        split = { ms: performance.now() - t0, step: st.step };
      }
    }, 20);
    window.__ourMs.length = 0;
    window.__msgMs.length = 0;
    const started = await h.train.play();
    const t1 = performance.now();
    await new Promise((r) => setTimeout(r, span));
    // On to the split (a loaded machine may need longer), at most 40 s.
    while (split === null && performance.now() - t1 < 40_000) await new Promise((r) => setTimeout(r, 100));
    const stopped = await h.train.pause();
    const t2 = performance.now();
    clearInterval(poll);
    await new Promise((r) => setTimeout(r, 100));  // a long task still being reported
    obs.disconnect();
    return { steps: stopped.step - started.step, seconds: (t2 - t1) / 1000, rate: (stopped.step - started.step) / ((t2 - t1) / 1000),
      split, longest, ours: Math.max(0, ...window.__ourMs), msg: Math.max(0, ...window.__msgMs),
      msgs: window.__msgMs.length, over50: window.__msgMs.filter((t) => t > 50).length, where: stopped.where };
  }, [seed, ms]);
}

async function pageWorkerTests({ browser, url, watch, artifacts }) {
  const figures = {};
  const { context, page } = await openPage(browser, url, watch, 'page worker');
  try {
    await test('page worker: view=train trains in the Worker and the train view draws its curves', async () => {
      const s0 = await page.evaluate(() => window.headroom.train.state());
      assert(s0.where === 'worker', `where: ${s0.where}`);
      const s = await page.evaluate(async () => { await window.headroom.train.reset({ seed: 21, r: 2, lr: 0.01 });
        return window.headroom.train.step(40); });
      assert(s.step === 40 && s.runs.length === 3 && finiteProblems(s).length === 0,
        `step ${s.step}, ${s.runs.length} runs, notice ${s.notice}: ${finiteProblems(s)}`);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const l = await page.evaluate(() => window.headroom.debug.layout());
      assert(l.trainChart.runs.length === 3 && l.trainChart.runs.every((r) => r.points > 10), JSON.stringify(l.trainChart.runs));
      // Pixels: each run's colour is inked inside the chart's rect (a curve), as the view draws it.
      const file = path.join(artifacts, 'train-page-worker.png');
      const shot = decodePng(await page.screenshot({ path: file }));
      const box = await page.locator('#canvas').boundingBox();
      const [x0, y0, x1, y1] = l.trainChart.rect;
      const colours = new Set();
      for (let y = Math.round(box.y + y0) + 2; y < box.y + y1 - 2; y += 2) {
        for (let x = Math.round(box.x + x0) + 2; x < box.x + x1 - 2; x += 2) {
          const i = (y * shot.width + x) * 4;
          const [r, g, b] = [shot.rgba[i], shot.rgba[i + 1], shot.rgba[i + 2]];
          if (Math.max(r, g, b) - Math.min(r, g, b) > 80) colours.add(`${r >> 5},${g >> 5},${b >> 5}`);
        }
      }
      assert(colours.size >= 2, `the chart shows ${colours.size} saturated colours (curves of 2 and 4 heads expected)`);
    });

    // Under SwiftShader (a CPU rasteriser) on a loaded machine, the browser's
    // own painting of a drawn frame, and at times the wasm's frame itself,
    // take over 50 ms with no training at all (a hover redraw shows it): so
    // the bound is checked on what training adds to the main thread, the
    // handling of the Worker's messages (timed), and the Long Tasks API's
    // longest task and the longest wasm frame are printed beside the same
    // for frames drawn without training.
    await test('page worker: while playing, handling the Worker\'s messages stays under 50 ms a task; it splits', async () => {
      // The observer hears a task it must hear (so 0 below means none, not a deaf observer).
      const heard = await page.evaluate(() => new Promise((resolve) => {
        const o = new PerformanceObserver((l) => { o.disconnect(); resolve(Math.max(...l.getEntries().map((e) => e.duration))); });
        o.observe({ type: 'longtask' });
        setTimeout(() => { const t = performance.now(); while (performance.now() - t < 80); }, 0);
      }));
      assert(heard >= 75, `the long-task observer heard ${heard} ms`);
      // Frames drawn without training: the mouse moving over the canvas.
      const idle = await page.evaluate(() => { window.__lt = 0; window.__ourMs.length = 0;
        window.__o = new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt = Math.max(window.__lt, e.duration); });
        window.__o.observe({ type: 'longtask' }); return window.headroom.getState().frames; });
      const box = await page.locator('#canvas').boundingBox();
      for (let i = 0; i < 30; ++i) { await page.mouse.move(box.x + 100 + i * 10, box.y + 300); await page.waitForTimeout(40); }
      const drawn = await page.evaluate((f) => { window.__o.disconnect();
        return { longest: window.__lt, ours: Math.max(0, ...window.__ourMs), frames: window.headroom.getState().frames - f }; }, idle);
      const r = await playFor(page, 4242, 4000);
      figures.worker = r;
      console.log(`      worker: ${r.steps} steps in ${r.seconds.toFixed(2)} s = ${r.rate.toFixed(1)} steps/s; split ` +
                  `${r.split ? `${(r.split.ms / 1000).toFixed(2)} s after play() (step ${r.split.step})` : 'not seen'}; ` +
                  `longest main-thread task ${r.longest.toFixed(0)} ms (Long Tasks API); longest wasm frame ${r.ours.toFixed(1)} ms; ` +
                  `${r.msgs} Worker messages, ${r.over50} over 50 ms, the longest taken in ${r.msg.toFixed(1)} ms`);
      console.log(`      without training, ${drawn.frames} frames drawn on mouse moves: longest task ${drawn.longest.toFixed(0)} ms, ` +
                  `longest wasm frame ${drawn.ours.toFixed(1)} ms`);
      assert(r.where === 'worker', r.where);
      assert(r.split, 'no split while playing');
      // Taking a message is under a millisecond here (see the note); a
      // shared CI machine can stall any task now and then (a GC, another
      // process), so one message in twenty may pass 50 ms, never more.
      assert(r.msgs > 0 && r.over50 <= Math.floor(r.msgs / 20),
        `${r.over50} of ${r.msgs} Worker messages took over 50 ms on the main thread (longest ${r.msg.toFixed(1)} ms)`);
    });

    await test('page worker: a hidden page trains nothing (the step counter stands), and trains again when shown', async () => {
      await page.evaluate(() => window.headroom.train.play());
      await page.waitForFunction(() => window.headroom.train.state().stepsPerSecond > 0, null, { timeout: 10_000 });
      const setHidden = (hidden) => page.evaluate((h) => {
        Object.defineProperty(document, 'hidden', { value: h, configurable: true });
        Object.defineProperty(document, 'visibilityState', { value: h ? 'hidden' : 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);
      await setHidden(true);
      // The hold reaches the Worker and its last post arrives: the counter stands.
      const a = await settled(() => page.evaluate(() => window.headroom.train.state().step));
      await page.waitForTimeout(1200);
      const b = await page.evaluate(() => window.headroom.train.state().step);
      const c = await page.evaluate(async () => (await window.headroom.train.step(1)).step);  // the Worker is alive
      await setHidden(false);
      await page.waitForFunction((n) => window.headroom.train.state().step > n + 5, c, { timeout: 10_000 });
      await page.evaluate(() => window.headroom.train.pause());
      assert(a === b, `steps moved while hidden: ${a} -> ${b}`);
      assert(c === b + 1, `step(1) while hidden: ${b} -> ${c}`);
    });

    await test('page worker: a Worker killed mid-run is restarted, the runs reset and say so, no NaN', async () => {
      const three = () => page.evaluate(async () => { await window.headroom.train.reset({ seed: 5, r: 2, lr: 0.01 }); return window.headroom.train.step(3); });
      const before = await three();
      await page.evaluate(() => window.headroom.train.play());
      await page.waitForFunction(() => window.headroom.train.state().step >= 20, null, { timeout: 20_000 });
      const restartsBefore = await page.evaluate(() => window.headroom.debug.trainProgram().restarts);
      assert(restartsBefore === 0, `${restartsBefore} restarts before any kill`);
      await page.evaluate(() => window.headroom.debug.trainProgram().kill());
      const killedAt = Date.now();
      await page.waitForFunction(() => window.headroom.debug.trainProgram().restarts === 1, null, { timeout: 20_000 });
      const detectMs = Date.now() - killedAt;
      const st = await page.evaluate(() => window.headroom.train.state());
      assert(/started again/.test(st.notice || ''), `notice: ${st.notice}`);
      assert(finiteProblems(st).length === 0, finiteProblems(st).join());
      // The runs begin again from step 0 with the same settings, and play on.
      await page.waitForFunction(() => { const s = window.headroom.train.state(); return s.ready && s.running && s.step >= 3; }, null, { timeout: 20_000 });
      const again = await page.evaluate(() => window.headroom.train.state());
      assert(again.where === 'worker' && again.seed === 5 && finiteProblems(again).length === 0,
        `${again.where} seed ${again.seed}: ${finiteProblems(again)}`);
      await page.evaluate(() => window.headroom.train.pause());
      // The new Worker trains the same runs as the old one did.
      assert(strip(await three()) === strip(before), 'the restarted Worker trains other curves for seed 5');
      console.log(`      killed Worker noticed and restarted after ${(detectMs / 1000).toFixed(1)} s`);
    });

    await test('page worker: a Worker killed while paused is noticed without a play, the runs reset paused, no NaN', async () => {
      await page.evaluate(async () => { await window.headroom.train.reset({ seed: 6, r: 2, lr: 0.01 }); return window.headroom.train.step(7); });
      // The frames that draw step 7 come first (the page draws until settled);
      // counted from a standing frame counter, only the heartbeat is left.
      await settled(() => page.evaluate(() => window.headroom.getState().frames), { quietMs: 800 });
      // Healthy and paused: heartbeats go out and are answered, nothing restarts, no frame is drawn for them.
      const calm = await page.evaluate(async () => {
        const d = window.headroom.debug.trainProgram(), f = window.headroom.getState().frames;
        await new Promise((r) => setTimeout(r, 5000));
        const e = window.headroom.debug.trainProgram();
        return { pings: e.pings - d.pings, restarts: e.restarts - d.restarts, frames: window.headroom.getState().frames - f };
      });
      console.log(`      paused 5 s: ${calm.pings} heartbeats answered, ${calm.frames} frames drawn, ${calm.restarts} restarts`);
      assert(calm.pings >= 2 && calm.restarts === 0, `paused 5 s: ${calm.pings} pings, ${calm.restarts} restarts`);
      assert(calm.frames <= 1, `paused 5 s, the heartbeat drew ${calm.frames} frames`);
      const before = await page.evaluate(() => ({ restarts: window.headroom.debug.trainProgram().restarts, s: window.headroom.train.state() }));
      assert(before.s.step === 7 && !before.s.running, `step ${before.s.step}, running ${before.s.running}`);
      await page.evaluate(() => window.headroom.debug.trainProgram().kill());
      const killedAt = Date.now();
      // No verb is sent: the heartbeat alone notices.
      await page.waitForFunction((n) => window.headroom.debug.trainProgram().restarts === n + 1, before.restarts, { timeout: 15_000 });
      const detectMs = Date.now() - killedAt;
      const st = await page.evaluate(() => window.headroom.train.state());
      assert(/stopped answering.*started again/.test(st.notice || ''), `notice: ${st.notice}`);
      assert(!st.running, 'the restarted runs play though they were paused');
      assert(finiteProblems(st).length === 0, finiteProblems(st).join());
      // No stale number: until the new program answers, no run; then step 0 with the same settings.
      assert(st.step === 0 && (st.runs.length === 0 || st.runs.every((r) => r.steps === 0)), `step ${st.step}, runs ${st.runs.map((r) => r.steps)}`);
      await page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 20_000 });
      const again = await page.evaluate(() => window.headroom.train.state());
      assert(again.where === 'worker' && again.seed === 6 && again.step === 0 && !again.running && finiteProblems(again).length === 0,
        `${again.where} seed ${again.seed} step ${again.step} running ${again.running}: ${finiteProblems(again)}`);
      assert(detectMs < 10_000, `noticed after ${detectMs} ms`);
      console.log(`      Worker killed while paused: noticed and restarted after ${(detectMs / 1000).toFixed(1)} s, no verb sent`);
    });

    await test('page worker: a Worker that keeps dying hands the runs to the main thread, the same curves', async () => {
      const three = (p) => p.evaluate(async () => { await window.headroom.train.reset({ seed: 5, r: 2, lr: 0.01 }); return window.headroom.train.step(3); });
      const own = await openPage(browser, url, watch, 'dying');
      try {
        const before = await three(own.page);
        assert(before.where === 'worker', before.where);
        // kRestarts (2) restarts in a Worker; the third death goes to the main thread.
        for (let n = 1; n <= 3; ++n) {
          await own.page.evaluate(() => window.headroom.debug.trainProgram().kill());
          await own.page.waitForFunction((k) => window.headroom.debug.trainProgram().restarts === k, n, { timeout: 20_000 });
          await own.page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 20_000 });
        }
        const st = await own.page.evaluate(() => window.headroom.train.state());
        console.log(`      after three deaths: where "${st.where}"`);
        assert(/^main thread: the training Worker stopped 3 times \(last: .+\)$/.test(st.where), `where: ${st.where}`);
        assert(/started again/.test(st.notice || ''), `notice: ${st.notice}`);
        const after = await three(own.page);
        assert(strip(after) === strip(before), 'the main thread trains other curves for seed 5 than the Worker did');
        assert(finiteProblems(after).length === 0, finiteProblems(after).join());
      } finally {
        await own.context.close();
      }
    });

    await test('page worker: a program that cannot be fetched is said so, and the next use of training asks for it again', async () => {
      const ctx = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
      // The route stays in place and a flag lets the program through: removing
      // a route is asynchronous in Playwright, and a CI run once got the 404
      // again on the retry after ctx.unroute() had returned.
      let gone = true;
      await ctx.route('**/headroom-train.js', (route) => (gone
        ? route.fulfill({ status: 404, headers: { 'Cache-Control': 'no-store' }, body: 'gone' })
        : route.continue()));
      const p = await ctx.newPage();
      const errors = [];  // the browser logs the 404s itself; anything else is an error
      p.on('console', (m) => { if (m.type() === 'error' && !/404|Not Found/.test(m.text())) errors.push(m.text()); });
      p.on('pageerror', (e) => errors.push(e.message));
      try {
        await p.goto(`${url}index.html#view=train`);
        await p.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
        await p.evaluate(() => window.headroom.ready);
        const refused = await p.evaluate(() => window.headroom.train.step(2));
        console.log(`      program not fetched: notice "${refused.notice}"`);
        assert(/^The training program could not start \(.*headroom-train\.js.*\); training asks for it again when next used\.$/.test(refused.notice || ''),
          `notice: ${refused.notice}`);
        assert(!refused.ready && refused.runs.length === 0 && refused.step === 0, `ready ${refused.ready}, step ${refused.step}`);
        // The training card draws the notice (the probe holds the text it drew).
        await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        const drawn = await p.evaluate(() => window.headroom.debug.layout().trainNotice);
        assert(drawn === refused.notice, `drawn: ${drawn}`);
        gone = false;
        const again = await p.evaluate(() => window.headroom.train.step(2));
        assert(again.ready && again.step === 2 && again.where === 'worker', `ready ${again.ready}, step ${again.step}, where ${again.where}`);
        assert(finiteProblems(again).length === 0, finiteProblems(again).join());
        assert(errors.length === 0, errors.join('\n'));
      } finally {
        await ctx.close();
      }
    });

    await test('page worker: the steps-per-frame cap is not drawn where the runs train in the program (Worker, main thread)', async () => {
      const capOf = async (p) => {
        await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        return p.evaluate(() => window.headroom.debug.layout().trainCap);
      };
      const none = (cap) => cap.enabled === false && cap.rect.every((v) => v === 0);
      const w = await capOf(page);
      assert(none(w), `Worker: ${JSON.stringify(w)}`);
      const csp = await openPage(browser, url, watch, 'csp cap', { csp: CSP_NO_WORKER });
      try {
        const m = await capOf(csp.page);
        assert(none(m), `main thread: ${JSON.stringify(m)}`);
        assert(/^main thread/.test(await csp.page.evaluate(() => window.headroom.train.state().where)), 'not on the main thread');
      } finally {
        await csp.context.close();
      }
    });

    await test('page worker: the same seed gives the same curves bit for bit in the Worker and on the main thread (CSP)', async () => {
      const worker = await page.evaluate(async () => { await window.headroom.train.reset({ seed: 4242, r: 2, lr: 0.01 });
        return window.headroom.train.step(30); });
      const csp = await openPage(browser, url, watch, 'csp', { csp: CSP_NO_WORKER });
      try {
        const main = await csp.page.evaluate(async () => { await window.headroom.train.reset({ seed: 4242, r: 2, lr: 0.01 });
          return window.headroom.train.step(30); });
        console.log(`      where under worker-src 'none': ${main.where}`);
        assert(/^main thread: .*worker-src/.test(main.where), `where: ${main.where}`);
        assert(worker.where === 'worker', worker.where);
        assert(strip(worker) === strip(main), 'the Worker\'s curves and the main thread\'s differ');
        const other = await csp.page.evaluate(async () => { await window.headroom.train.reset({ seed: 4243 }); return window.headroom.train.step(30); });
        assert(strip(other) !== strip(main), 'another seed gave the same curves');
        // The same run played in the same page (embed.html) with and without
        // the Worker, for the figures.
        const plain = await openPage(browser, url, watch, 'embed worker', { file: 'embed.html' });
        try {
          figures.embed = await playFor(plain.page, 4242, 4000);
        } finally {
          await plain.context.close();
        }
        const w = figures.embed;
        console.log(`      embed.html, Worker: ${w.steps} steps in ${w.seconds.toFixed(2)} s = ${w.rate.toFixed(1)} steps/s; split ` +
                    `${w.split ? `${(w.split.ms / 1000).toFixed(2)} s after play()` : 'not seen'}; longest task ${w.longest.toFixed(0)} ms, ` +
                    `longest wasm frame ${w.ours.toFixed(1)} ms, longest message ${w.msg.toFixed(1)} ms`);
        const r = await playFor(csp.page, 4242, 4000);
        figures.main = r;
        console.log(`      embed.html, main thread (CSP): ${r.steps} steps in ${r.seconds.toFixed(2)} s = ${r.rate.toFixed(1)} steps/s; split ` +
                    `${r.split ? `${(r.split.ms / 1000).toFixed(2)} s after play()` : 'not seen'}; longest task ${r.longest.toFixed(0)} ms, ` +
                    `longest wasm frame ${r.ours.toFixed(1)} ms`);
        console.log(`      steps/s Worker / main thread, embed.html, same run: ${(w.rate / Math.max(r.rate, 1e-9)).toFixed(1)}x`);
        assert(w.where === 'worker' && /^main thread/.test(r.where), `${w.where} / ${r.where}`);
        assert(csp.errors.length === 0, csp.errors.join('\n'));
      } finally {
        await csp.context.close();
      }
    });
  } finally {
    await context.close();
  }

  // A course page (opaque-origin frame: sandbox="allow-scripts") that drives
  // training with headroom:train messages.
  const sandbox = await browser.newContext({ viewport: { width: 900, height: 700 } });
  await routeCourse(sandbox, '<!doctype html><html><head><title>Lesson 4</title></head><body>' +
    '<h1>Lesson 4: several heads</h1><p>Train the three models and watch the one head stall.</p>' +
    '<iframe id="f" sandbox="allow-scripts" src="/embed.html#view=train" width="720" height="560"></iframe>' +
    '<p style="height:3000px">The rest of the lesson.</p><p id="end">Exercises.</p></body></html>');
  const host = await sandbox.newPage();
  watch(host, 'course');
  try {
    await host.goto(`${url}course.html`);
    const frame = await (await host.waitForSelector('#f')).contentFrame();
    await frame.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await frame.evaluate(() => window.headroom.ready);
    await test('page worker: a sandboxed course frame trains in the Worker through headroom:train', async () => {
      const ask = (msg) => askFrame(host, msg);
      const r = await ask({ type: 'headroom:train', action: 'reset', seed: 8, id: 1 });
      assert(r.type === 'headroom:train-state' && r.error === null && r.train.seed === 8, JSON.stringify(r).slice(0, 200));
      const s = await ask({ type: 'headroom:train', action: 'step', n: 12, id: 2 });
      assert(s.train.step === 12 && s.train.where === 'worker' && finiteProblems(s.train).length === 0,
        `step ${s.train.step}, where ${s.train.where}`);
      assert(await frame.evaluate(() => self.origin) === 'null', 'the frame is not opaque-origin');
      await host.screenshot({ path: path.join(artifacts, 'train-page-worker-course.png') });
    });

    await test('page worker: a course frame scrolled out of view trains nothing (the step counter stands), and trains on when back', async () => {
      const post = (m) => host.evaluate((msg) => document.getElementById('f').contentWindow.postMessage(msg, '*'), m);
      const step = () => frame.evaluate(() => window.headroom.train.state().step);
      await post({ type: 'headroom:train', action: 'play' });
      await frame.waitForFunction(() => window.headroom.train.state().step > 20, null, { timeout: 20_000 });
      await host.evaluate(() => document.getElementById('end').scrollIntoView());
      const a = await settled(step);  // the hold reaches the Worker; its last post arrives
      await host.waitForTimeout(1500);
      const b = await step();
      const held = await frame.evaluate(() => window.headroom.train.state());
      await host.evaluate(() => window.scrollTo(0, 0));
      await frame.waitForFunction((n) => window.headroom.train.state().step > n + 3, b, { timeout: 20_000 });
      await post({ type: 'headroom:train', action: 'pause' });
      assert(a === b, `steps moved while the frame was out of view: ${a} -> ${b}`);
      assert(held.where === 'worker' && held.running, `where ${held.where}, running ${held.running}`);
    });
  } finally {
    await sandbox.close();
  }
}

runSuite('train page worker', pageWorkerTests, SUITE_TIMEOUT_MS);
