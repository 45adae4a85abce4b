// train_worker.test.mjs: the training program in a dedicated
// Worker, its own script and CTest test (browser_train_worker).
//
// Does: check that the page starts training only when training is
// first used (the full lesson's cards scrolled into view); that
// web/headroom-train.mjs trains on the main thread and says why in `where`
// under a CSP with worker-src 'none' (same curves as the page's, whose
// train.* runs the same program there too), and gets
// the Worker in a sandboxed allow-scripts frame; then, in a plain page,
// start the Worker (a blob URL of the fetched scripts) and check:
// the Worker starts and says how long fetch + compile + start took; its
// curves equal the page's (window.headroom.train: the same program in the
// page's own Worker, read through the wire and the page's mirror) bit for
// bit for the same seed and steps (any drift on the way shows), and so do
// the tied runs of a reset
// with tieQK (a tieQK that is not a boolean is refused); a refused value is refused with the
// page's message and keeps the state; while playing it trains continuously
// and posts state at most about 30 times a second, the 1-head / 2-head
// split (1 head > 0.45, 2 heads < 0.25 held out) comes within a budget of
// steps, and the page's main thread sees no long task over 50 ms; paused,
// the step counter does not move. Prints steps/s, the split's time and step,
// and the longest main-thread task.
// Does not: test the pages' use of it (train_page_worker.test.mjs) or the
// page's training API in detail (train.test.mjs does). The page's own
// train.* calls here train in the page's own Worker (or, under the CSP, in
// the same program on the main thread).
//
// Run: node tests/browser/train_worker.test.mjs    (after ./build.sh build)
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';
import { startWorker } from './train_worker_start.mjs';

const SUITE_TIMEOUT_MS = 180_000;

const strip = (s) => s.runs.map(({ heads, loss, floor, steps, diverged, history, perHead }) =>
  ({ heads, loss, floor, steps, diverged, history, perHead }));

// The page starts training on training's first use (app/training/live_training.h
// "Lazy"): the full lesson at 1280 x 800 draws no training card until the
// reader scrolls down to it, and then the card trains as ever.
async function lazyTests({ browser, url, watch }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, 'lazy');
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await page.evaluate(() => window.headroom.ready);
    await page.waitForTimeout(800);
    await test('lazy trainer: the full lesson trains nothing until its cards scroll into view', async () => {
      const before = await page.evaluate(() => window.headroom.debug.layout().trainChart.runs.length);
      assert(before === 0, `the loss chart drew ${before} runs before anyone scrolled to it`);
      const box = await page.locator('#canvas').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let i = 0; i < 40; ++i) { await page.mouse.wheel(0, 400); await page.waitForTimeout(30); }
      await page.waitForFunction(() => window.headroom.debug.layout().trainChart.runs.length === 3, null, { timeout: 10_000 });
    });
  } finally {
    await context.close();
  }
}

// Where a Worker cannot start: a CSP with worker-src 'none' (the blob Worker
// fires `error`, it does not throw); and where it must: a sandboxed frame
// (opaque origin, every fetch cross-origin: the server sends
// Access-Control-Allow-Origin: *, added here to every response).
async function placesTests({ browser, url, watch }) {
  const csp = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await csp.route('**/embed.html', async (route) => {
    const r = await route.fetch();
    await route.fulfill({ response: r, headers: { ...r.headers(),
      'content-security-policy': "script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'" } });
  });
  const page = await csp.newPage();
  // Not watch(): the browser itself logs the refused Worker as a console
  // error; every other error still fails the test below.
  const cspErrors = [];
  page.on('console', (m) => { if (m.type() === 'error') cspErrors.push(m.text()); });
  page.on('pageerror', (e) => cspErrors.push(`page error: ${e.message}`));
  try {
    await page.goto(`${url}embed.html`);
    await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await page.evaluate(() => window.headroom.ready);
    await test('train worker: under worker-src \'none\' it trains on the main thread, says why, same curves', async () => {
      const t = await page.evaluate(startWorker);
      console.log(`      where: ${t.where}`);
      assert(/^main thread: .*worker-src blob:/.test(t.where), `where: ${t.where}`);
      const fallback = await page.evaluate(async () => { await window.__trainWorker.call('reset', 4242, 2, 0.01);
        return (await window.__trainWorker.call('step', 25)).state; });
      const main = await page.evaluate(async () => { await window.headroom.train.reset({ seed: 4242, r: 2, lr: 0.01 });
        return window.headroom.train.step(25); });
      assert(JSON.stringify(strip(fallback)) === JSON.stringify(strip(main)), 'main-thread program and page differ');
      const others = cspErrors.filter((m) => !/violates the following Content Security Policy directive: "worker-src 'none'"/.test(m));
      assert(others.length === 0, others.join('\n'));
    });
  } finally {
    await csp.close();
  }

  const sandbox = await browser.newContext({ viewport: { width: 800, height: 600 } });
  await sandbox.route('**/*', async (route) => {
    if (route.request().url().endsWith('/host.html')) {
      await route.fulfill({ contentType: 'text/html', body:
        '<!doctype html><iframe id="f" sandbox="allow-scripts" src="/embed.html" width="600" height="400"></iframe>' });
      return;
    }
    const r = await route.fetch();
    await route.fulfill({ response: r, headers: { ...r.headers(), 'access-control-allow-origin': '*' } });
  });
  const host = await sandbox.newPage();
  watch(host, 'sandbox');
  try {
    await host.goto(`${url}host.html`);
    const frame = await (await host.waitForSelector('#f')).contentFrame();
    await frame.waitForURL(/\/embed\.html(#|$)/, { timeout: 30_000 });
    await frame.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await frame.evaluate(() => window.headroom.ready);
    await test('train worker: a sandboxed (allow-scripts) frame gets the Worker and trains', async () => {
      assert(await frame.evaluate(() => self.origin) === 'null', 'the frame is not opaque-origin');
      const t = await frame.evaluate(startWorker);
      assert(t.where === 'worker', `where: ${t.where}`);
      const s = await frame.evaluate(async () => (await window.__trainWorker.call('step', 3)).state);
      assert(s.step === 3 && s.runs.every((r) => Number.isFinite(r.loss)), JSON.stringify(s).slice(0, 200));
    });
  } finally {
    await sandbox.close();
  }
}

async function workerTests({ browser, url, watch }) {
  await lazyTests({ browser, url, watch });
  await placesTests({ browser, url, watch });
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, 'train-worker');
  await page.goto(`${url}embed.html`);
  await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  await page.evaluate(() => window.headroom.ready);
  const call = (verb, ...args) => page.evaluate(([v, a]) => window.__trainWorker.call(v, ...a), [verb, args]);

  try {
    await test('train worker: starts from a blob URL of the fetched scripts', async () => {
      const t = await page.evaluate(startWorker);
      console.log(`      train worker: scripts fetched and worker started in ${t.totalMs.toFixed(1)} ms ` +
                  `(wasm fetch + compile + start inside it ${t.workerMs.toFixed(1)} ms)`);
      assert(t.where === 'worker', `where: ${t.where}`);
      const s = (await call('state')).state;
      assert(s.step === 0 && s.runs.map((r) => r.heads).join() === '1,2,4', JSON.stringify(s).slice(0, 200));
    });

    await test('train worker: the same seed gives the page\'s own curves, bit for bit', async () => {
      const w = await call('reset', 4242, 2, 0.01);
      assert(w.ok, 'reset refused');
      const stepped = await call('step', 25);
      const main = await page.evaluate(async () => { await window.headroom.train.reset({ seed: 4242, r: 2, lr: 0.01 });
        return window.headroom.train.step(25); });
      const a = JSON.stringify(strip(stepped.state)), b = JSON.stringify(strip(main));
      assert(stepped.state.step === 25 && main.step === 25, `steps ${stepped.state.step} / ${main.step}`);
      assert(a === b, `worker and main thread differ:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
      // A different seed must move the curves (the comparison can fail).
      const other = await call('reset', 4243, 2, 0.01);
      const moved = await call('step', 25);
      assert(other.ok && JSON.stringify(strip(moved.state)) !== a, 'another seed gave the same curves');
    });

    await test('train worker: reset with tieQK trains the tied runs the page trains, bit for bit', async () => {
      const w = await call('reset', 4242, 4, 0.01, true);
      assert(w.ok && w.state.tieQK === true, `reset(..., true): ${w.state.error}`);
      const stepped = await call('step', 10);
      const main = await page.evaluate(async () => { await window.headroom.train.reset({ seed: 4242, r: 4, lr: 0.01, tieQK: true });
        return window.headroom.train.step(10); });
      const names = (st) => st.runs.map((r) => `${r.heads}${r.tieQK ? 't' : ''}`).join();
      assert(names(stepped.state) === '1,2,4,1t,2t,4t', `worker runs ${names(stepped.state)}`);
      const a = JSON.stringify(strip(stepped.state)), b = JSON.stringify(strip(main));
      assert(a === b, `worker and main thread differ:\n${a.slice(0, 300)}\n${b.slice(0, 300)}`);
      const bad = await call('reset', 4242, 2, 0.01, 'yes');
      assert(!bad.ok && /tieQK/.test(bad.state.error) && names(bad.state) === names(stepped.state), `tieQK 'yes': ${bad.state.error}`);
      const off = await call('reset', 4242, 2, 0.01, false);
      assert(off.ok && off.state.tieQK === false && names(off.state) === '1,2,4', `reset(..., false): ${names(off.state)}`);
      await page.evaluate(() => window.headroom.train.reset({ tieQK: false }));
    });

    await test('train worker: a refused value keeps the state and says why, as the page does', async () => {
      const before = (await call('state')).state;
      const r = await call('reset', 1, 3, 0.01);
      assert(!r.ok, 'r = 3 accepted');
      assert(/r must be 2 or 4/.test(r.state.error), `error: ${r.state.error}`);
      assert(r.state.step === before.step && r.state.r === before.r, 'state changed');
    });

    await test('train worker: playing trains continuously, posts at most ~30/s, splits within 150 steps; ' +
               'no main-thread task over 50 ms; paused, no step', async () => {
      await page.evaluate(() => {
        window.__longest = 0;
        new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longest = Math.max(window.__longest, e.duration); })
          .observe({ type: 'longtask' });
      });
      // The observer sees a task it must see (so 0 below means none, not a deaf observer).
      await page.evaluate(() => new Promise((r) => setTimeout(() => { const t = performance.now(); while (performance.now() - t < 80); r(); })));
      await page.waitForFunction(() => window.__longest >= 75, null, { timeout: 5_000 });
      await page.evaluate(() => { window.__longest = 0; });
      await call('reset', 4242, 2, 0.01);
      await page.evaluate(() => { window.__trainWorker.posts.length = 0; window.__playAt = performance.now();
        window.__trainWorker.call('play'); });
      await page.waitForFunction(() => {
        const p = window.__trainWorker.posts;
        return p.length && (p[p.length - 1].step >= 150 || p.some((x) => x.loss[0] > 0.45 && x.loss[1] < 0.25 && x.step > 0));
      }, null, { timeout: 60_000, polling: 100 });
      await page.waitForTimeout(1500);
      const played = await call('pause');
      const r = await page.evaluate(() => ({ posts: window.__trainWorker.posts, longest: window.__longest, at: window.__playAt }));
      const split = r.posts.find((x) => x.step > 0 && x.loss[0] > 0.45 && x.loss[1] < 0.25);
      const last = r.posts[r.posts.length - 1];
      const seconds = (last.t - r.at) / 1000;
      const rate = last.step / seconds;
      let minGap = Infinity;
      // On the driver's clock: a busy page can read two posts in one task.
      for (let i = 2; i < r.posts.length - 1; ++i) minGap = Math.min(minGap, r.posts[i].posted - r.posts[i - 1].posted);
      console.log(`      train worker: ${last.step} steps in ${seconds.toFixed(2)} s = ${rate.toFixed(1)} steps/s ` +
                  `(each step trains the 1, 2 and 4 head runs); split at step ${split && split.step}, ` +
                  `${split ? ((split.t - r.at) / 1000).toFixed(2) : '-'} s after play; ${r.posts.length} posts, ` +
                  `closest two ${minGap.toFixed(1)} ms apart; longest main-thread task ${r.longest.toFixed(0)} ms`);
      assert(split && split.step <= 150, 'no split within 150 steps');
      assert(minGap >= 25, `posts ${minGap} ms apart (at most ~30 a second expected)`);
      assert(r.longest <= 50, `a main-thread task of ${r.longest} ms while the worker trained`);
      assert(played.state.running === false, 'still running after pause');
      const paused = played.state.step;
      await page.waitForTimeout(600);
      const after = (await call('state')).state.step;
      assert(after === paused, `steps moved while paused: ${paused} -> ${after}`);
    });
  } finally {
    await context.close();
  }
}

runSuite('train worker', workerTests, SUITE_TIMEOUT_MS);
