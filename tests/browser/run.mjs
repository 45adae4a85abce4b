// run.mjs: the page suite. Serves build/web/ on 127.0.0.1 (a free port),
// opens it in Debian's Chromium through playwright-core, and checks the page
// through window.headroom, as a host page or a student would see it.
//
// Does: wait for headroom.ready; check the lesson's 1-head midpoint and
// 2-head split through getState(); check refusals keep the state; drive the
// keyboard shortcuts; save screenshots at 1 and 2 heads into
// build/test-artifacts/; run the views' tests (views.test.mjs) and the
// themes' (theme.test.mjs); fail on any page error, console error or HTTP
// status of 400 or more. Serving, launching and the ok/FAIL lines are
// suite_main.mjs's, as for every browser suite.
// Does not: build the site (./build.sh test does first), download a browser
// (executablePath is /usr/bin/chromium-headless-shell; CHROMIUM overrides), or reach any
// address but 127.0.0.1.
//
// Run: node tests/browser/run.mjs    (after ./build.sh build; HEADROOM_SITE picks another site)
import path from 'node:path';
import { themeSuite } from './theme.test.mjs';
import { viewsSuite } from './views.test.mjs';
import { assert, test } from './harness.mjs';
import { decodePng } from './png.mjs';
import { runSuite } from './suite_main.mjs';

const LESSON = 'The researcher who wrote the paper said it was wrong.';
const SUITE_TIMEOUT_MS = 420_000;  // the theme suite measures the controls down the whole page too

const fmt = (xs) => `[${xs.map((x) => x.toFixed(3)).join(', ')}]`;
const inRange = (x, lo, hi) => x >= lo && x <= hi;

// ---------------------------------------------------------------------------
// the suite
// ---------------------------------------------------------------------------
async function pageTests({ browser, url, watch, artifacts: ARTIFACTS }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  watch(page, 'page');
  const state = () => page.evaluate(() => window.headroom.getState());
  const call = (verb, ...args) => page.evaluate(([v, a]) => window.headroom[v](...a), [verb, args]);
  // Two animation frames: the canvas shows the latest state.
  const settle = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const tokenIndex = (s, text) => s.tokens.indexOf(text);

  await test('page loads and headroom.ready resolves', async () => {
    await page.goto(url);
    await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await page.evaluate(() => window.headroom.ready);
    const visibleError = await page.evaluate(() => getComputedStyle(document.getElementById('error')).display);
    assert(visibleError === 'none', 'the error box is visible');
  });

  await test('default state: lesson sentence, one head, query "said"', async () => {
    const s = await state();
    assert(s.tokens.join(' ').startsWith('The researcher who wrote the paper said it was wrong'),
      `tokens: ${JSON.stringify(s.tokens)}`);
    assert(s.heads === 1, `heads = ${s.heads}`);
    assert(s.tokens[s.query] === 'said', `query token = ${s.tokens[s.query]}`);
    assert(s.dModel % 8 === 0 && s.dHead === s.dModel, `dModel ${s.dModel}, dHead ${s.dHead}`);
    assert(s.error === null, `error = ${s.error}`);
  });

  await test('one head splits: weight on "researcher" and on "it" each in [0.35, 0.65]', async () => {
    const s = await state();
    const w = s.weights[0];
    assert(s.weights.length === 1 && w.length === s.tokens.length, 'weights shape');
    const r = w[tokenIndex(s, 'researcher')], it = w[tokenIndex(s, 'it')];
    assert(inRange(r, 0.35, 0.65) && inRange(it, 0.35, 0.65), `researcher ${r}, it ${it}: ${fmt(w)}`);
    await settle();
    await page.screenshot({ path: path.join(ARTIFACTS, 'heads-1.png') });
  });

  await test('two heads: one head >= 0.9 on "researcher", another >= 0.9 on "it"', async () => {
    const s = await call('setHeads', 2);
    assert(s.heads === 2 && s.dHead === s.dModel / 2 && s.error === null, `heads ${s.heads}, error ${s.error}`);
    const ri = tokenIndex(s, 'researcher'), ii = tokenIndex(s, 'it');
    const onR = s.weights.findIndex((w) => w[ri] >= 0.9);
    const onIt = s.weights.findIndex((w) => w[ii] >= 0.9);
    assert(onR >= 0 && onIt >= 0 && onR !== onIt, `weights: ${s.weights.map(fmt).join(' | ')}`);
    await settle();
    await page.screenshot({ path: path.join(ARTIFACTS, 'heads-2.png') });
  });

  await test('setHeads(3) is refused and keeps 2 heads', async () => {
    const before = await state();
    const s = await call('setHeads', 3);
    assert(typeof s.error === 'string' && s.error.length > 0, `error = ${s.error}`);
    assert(s.heads === 2, `heads = ${s.heads}`);
    assert(JSON.stringify(s.weights) === JSON.stringify(before.weights), 'weights changed');
  });

  await test('non-numbers are refused without changing state', async () => {
    for (const bad of ['2', 2.5, null]) {
      const s = await call('setHeads', bad);
      assert(s.error && s.heads === 2, `setHeads(${JSON.stringify(bad)}): heads ${s.heads}, error ${s.error}`);
    }
    const s = await call('selectToken', 999);
    assert(s.error && s.tokens[s.query] === 'said', `selectToken(999): query ${s.query}, error ${s.error}`);
  });

  await test('every head count 1, 2, 4, 8: H rows of L weights, each summing to 1', async () => {
    for (const n of [1, 2, 4, 8]) {
      const s = await call('setHeads', n);
      assert(s.heads === n && s.weights.length === n && s.error === null, `setHeads(${n}): ${s.heads}, ${s.error}`);
      for (const w of s.weights) {
        const sum = w.reduce((a, b) => a + b, 0);
        assert(w.length === s.tokens.length && Math.abs(sum - 1) < 1e-4, `row sum ${sum}`);
      }
    }
    await call('setHeads', 2);
  });

  await test('selectToken moves the query and the weights', async () => {
    const before = await state();
    const s = await call('selectToken', 1);
    assert(s.query === 1 && s.error === null, `query ${s.query}, error ${s.error}`);
    assert(JSON.stringify(s.weights) !== JSON.stringify(before.weights), 'weights did not change');
    await call('selectToken', before.query);
  });

  await test('setSentence changes the tokens; an over-long one is refused', async () => {
    const s = await call('setSentence', 'The chef who cooked the meal said it was cold.');
    assert(s.error === null, `error = ${s.error}`);
    assert(s.tokens.includes('chef') && !s.tokens.includes('researcher'), `tokens: ${JSON.stringify(s.tokens)}`);
    assert(s.weights.every((w) => w.length === s.tokens.length), 'weights do not match the new tokens');
    const long = await call('setSentence', 'word '.repeat(5000));
    assert(long.error && JSON.stringify(long.tokens) === JSON.stringify(s.tokens), `long: error ${long.error}`);
    const back = await call('setSentence', LESSON);
    assert(back.error === null && back.tokens.includes('researcher'), 'could not restore the lesson');
  });

  await test('keyboard: "1" and "2" switch heads, arrows move the query', async () => {
    await page.locator('#canvas').focus();
    await page.keyboard.press('1');
    await settle();
    let s = await state();
    assert(s.heads === 1, `after "1": heads ${s.heads}`);
    await page.keyboard.press('2');
    await settle();
    s = await state();
    assert(s.heads === 2, `after "2": heads ${s.heads}`);
    const q = s.query;
    await page.keyboard.press('ArrowRight');
    await settle();
    s = await state();
    assert(s.query === q + 1, `after ArrowRight: query ${s.query}, was ${q}`);
    await page.keyboard.press('ArrowLeft');
    await settle();
    s = await state();
    assert(s.query === q, `after ArrowLeft: query ${s.query}`);
  });

  await test('a frame that would paint what the canvas shows paints nothing; the canvas shows the settled frame', async () => {
    const frames = () => page.evaluate(() => window.headroom.debug.frames());
    // Idle: no frame drawn for 400 ms.
    const idle = async () => {
      for (let last = -1, same = 0; same < 8; await page.waitForTimeout(50)) {
        const { drawn } = await frames();
        same = drawn === last ? same + 1 : 0;
        last = drawn;
      }
    };
    const box = await page.locator('#canvas').boundingBox();
    await page.mouse.move(box.x + 2, box.y + 2);  // nothing hovered
    await idle();
    const f0 = await frames();
    // A real click on "it": the query moves, the views change, then settle.
    const s0 = await state();
    const target = tokenIndex(s0, 'it');
    const [x0, y0, x1, y1] = (await page.evaluate(() => window.headroom.debug.layout())).tokens[target];
    await page.mouse.click(box.x + (x0 + x1) / 2, box.y + (y0 + y1) / 2);
    await page.mouse.move(box.x + 2, box.y + 2);
    await idle();
    const f1 = await frames();
    assert((await state()).query === target, `the click on "it" (${target}) did not move the query`);
    const drawn = f1.drawn - f0.drawn, painted = f1.painted - f0.painted;
    // At least one frame changed the picture, and the frame that found it
    // settled (the same as the one before) was drawn but not painted.
    assert(painted >= 1 && painted < drawn, `${drawn} frames drawn, ${painted} painted`);
    // What the page shows is what painting the frame now gives: exportView's
    // "lesson" picture draws a frame and reads the canvas back at once.
    const shown = decodePng(await page.locator('#canvas').screenshot());
    const fresh = decodePng(Buffer.from(await page.evaluate(async () =>
      Array.from(new Uint8Array(await (await window.headroom.exportView('lesson', 'png')).arrayBuffer())))));
    assert(shown.width === fresh.width && shown.height === fresh.height,
      `screenshot ${shown.width} x ${shown.height}, picture ${fresh.width} x ${fresh.height}`);
    let off = 0;
    for (let i = 0; i < shown.rgba.length; i += 4) {
      for (let c = 0; c < 3; ++c) if (Math.abs(shown.rgba[i + c] - fresh.rgba[i + c]) > 8) { ++off; break; }
    }
    assert(off <= shown.width * shown.height / 1000, `${off} pixels differ between the canvas shown and a frame painted now`);
  });

  await test('high-DPI: backing store is CSS size x devicePixelRatio, clicks hit the token under the pointer', async () => {
    // 800 px tall: the full layout, with the token strip on screen (the
    // compact layout of shorter frames keeps it behind a view button).
    const hi = await browser.newContext({ viewport: { width: 900, height: 800 }, deviceScaleFactor: 2 });
    const p2 = await hi.newPage();
    watch(p2, 'dpr2');
    // Every backing size the canvas takes: the app creates its drawing buffer
    // at the final size, so no other size may be seen on the way.
    await p2.addInitScript(() => {
      window.__canvasSizes = [];
      document.addEventListener('DOMContentLoaded', () => {
        const c = document.getElementById('canvas');
        new MutationObserver(() => window.__canvasSizes.push({ w: c.width, h: c.height }))
          .observe(c, { attributes: true, attributeFilter: ['width', 'height'] });
      });
    });
    await p2.goto(url);
    await p2.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await p2.evaluate(() => window.headroom.ready);
    await p2.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const dims = await p2.evaluate(() => {
      const c = document.getElementById('canvas');
      return { w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight };
    });
    assert(dims.w === 2 * dims.cw && dims.h === 2 * dims.ch, JSON.stringify(dims));
    const sizes = await p2.evaluate(() => window.__canvasSizes);
    assert(sizes.length > 0 && sizes.every((e) => e.w === dims.w && e.h === dims.h),
      `the drawing buffer took other sizes before ${dims.w} x ${dims.h}: ${JSON.stringify(sizes)}`);
    // A real click at devicePixelRatio 2 lands on the token under the pointer.
    const s0 = await p2.evaluate(() => window.headroom.getState());
    const target = s0.tokens.indexOf('researcher');
    const [x0, y0, x1, y1] = (await p2.evaluate(() => window.headroom.debug.layout())).tokens[target];
    const box = await p2.locator('#canvas').boundingBox();
    await p2.mouse.move(box.x + (x0 + x1) / 2, box.y + (y0 + y1) / 2);
    await p2.mouse.down();
    await p2.mouse.up();
    await p2.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const s1 = await p2.evaluate(() => window.headroom.getState());
    assert(s1.query === target, `clicked "researcher" (${target}), query is ${s1.query} ("${s1.tokens[s1.query]}")`);
    await p2.screenshot({ path: path.join(ARTIFACTS, 'heads-1-dpr2.png') });
    await hi.close();
  });

  await test('a missing or broken wasm shows a readable error and rejects ready', async () => {
    for (const [label, reply] of [['404', { status: 404, body: '' }],
                                  ['garbage', { status: 200, contentType: 'application/wasm', body: 'not wasm' }]]) {
      const ctx = await browser.newContext({ viewport: { width: 800, height: 600 } });
      const p3 = await ctx.newPage();  // not watched: its errors are the point
      await p3.route('**/headroom.wasm', (route) => route.fulfill(reply));
      await p3.goto(url);
      await p3.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
      const outcome = await p3.evaluate(() => window.headroom.ready.then(() => 'resolved', (e) => `rejected: ${e.message}`));
      const shown = await p3.evaluate(() => ({
        display: getComputedStyle(document.getElementById('error')).display,
        text: document.getElementById('error-text').textContent,
      }));
      assert(outcome.startsWith('rejected') && shown.display !== 'none' && shown.text.length > 0,
        `${label}: ready ${outcome}; error box ${JSON.stringify(shown)}`);
      await ctx.close();
    }
  });

  // The views' tests: tests/browser/views.test.mjs.
  await viewsSuite({ browser, url, test, assert, watch, artifacts: ARTIFACTS });
  // The light and dark themes, read in screenshot pixels: tests/browser/theme.test.mjs.
  await themeSuite({ browser, url, test, assert, watch, artifacts: ARTIFACTS });
}

await runSuite('page', pageTests, SUITE_TIMEOUT_MS, { httpErrors: true });
