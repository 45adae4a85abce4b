// views.test.mjs: browser tests of the lesson's views, run by run.mjs (which
// owns the browser, the server and the pass/fail count).
//
// Does: check the lesson's views through the real page: screenshots at 1 and
// 2 heads differ; clicking (and tapping) the "2" heads control at the
// coordinates the app reports (headroom.debug.layout().heads) changes
// getState().heads; the value-space output of 1 head lies between its two
// targets and each of 2 heads' outputs sits on its target (getState().
// valueSpace + readout cosines); the readout sentence moves between the
// three bad options with the focus presets; the text twin (role="img",
// aria-label, aria-live region) follows the state; the HTML sentence field
// applies a sentence; a 390 x 844 phone at devicePixelRatio 3 with touch
// loads with no page errors and a drawing buffer of CSS size x 3.
// Screenshots go to build/test-artifacts/views-*.png.
// Does not: launch a browser or count results itself.
import path from 'node:path';

const frames = (page, n = 2) => page.evaluate((k) => new Promise((r) => {
  const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : r());
  step(k);
}), n);

async function open(browser, url, watch, label, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  watch(page, label);
  await page.goto(url);
  await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  await page.evaluate(() => window.headroom.ready);
  await frames(page);
  return { context, page };
}

const sub = (a, b) => [a[0] - b[0], a[1] - b[1]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1];
const norm = (a) => Math.hypot(a[0], a[1]);

// Where o lies relative to the segment p0 -> p1: t along it (0 at p0, 1 at
// p1) and the distance off it as a fraction of its length.
function onSegment(o, p0, p1) {
  const d = sub(p1, p0), len2 = dot(d, d);
  const t = dot(sub(o, p0), d) / len2;
  const foot = [p0[0] + d[0] * t, p0[1] + d[1] * t];
  return { t, off: norm(sub(o, foot)) / Math.sqrt(len2) };
}

// The biggest distance between two points of a head's picture.
function spread(points) {
  let best = 0;
  for (const a of points) for (const b of points) best = Math.max(best, norm(sub(a, b)));
  return best;
}

// Clicks the centre of rect [x0, y0, x1, y1] (CSS px inside the canvas).
async function clickRect(page, rect, { touch = false } = {}) {
  const box = await page.locator('#canvas').boundingBox();
  const x = box.x + (rect[0] + rect[2]) / 2, y = box.y + (rect[1] + rect[3]) / 2;
  if (touch) {
    await page.touchscreen.tap(x, y);
  } else {
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.up();
  }
  await frames(page, 3);
}

export async function viewsSuite({ browser, url, test, assert, watch, artifacts }) {
  const { context, page } = await open(browser, url, watch, 'views', { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const state = () => page.evaluate(() => window.headroom.getState());
  const call = (verb, ...args) => page.evaluate(([v, a]) => window.headroom[v](...a), [verb, args]);

  try {
    await test('views: screenshots at 1 and 2 heads differ', async () => {
      await call('setHeads', 1);
      await frames(page, 3);
      const one = await page.screenshot({ path: path.join(artifacts, 'views-heads-1.png') });
      await call('setHeads', 2);
      await page.waitForTimeout(1300);  // the 1 -> 2 split animation lasts 1 s
      await frames(page, 3);
      const two = await page.screenshot({ path: path.join(artifacts, 'views-heads-2.png') });
      assert(!one.equals(two), 'the 1-head and 2-head screenshots are identical');
      await call('setHeads', 1);
    });

    await test('views: clicking the "2" heads control on the canvas changes getState().heads', async () => {
      await frames(page, 2);
      const layout = await page.evaluate(() => window.headroom.debug.layout());
      assert(Array.isArray(layout.heads) && layout.heads.length === 4, `layout.heads: ${JSON.stringify(layout.heads)}`);
      await clickRect(page, layout.heads[1]);
      let s = await state();
      assert(s.heads === 2, `after clicking "2" at ${JSON.stringify(layout.heads[1])}: heads ${s.heads}`);
      await clickRect(page, (await page.evaluate(() => window.headroom.debug.layout())).heads[0]);
      s = await state();
      assert(s.heads === 1, `after clicking "1": heads ${s.heads}`);
    });

    await test('views: 1 head\'s value-space output lies between its two targets, close to neither', async () => {
      const s = await call('setHeads', 1);
      const [a, b] = s.targets[0];
      const vs = s.valueSpace[0];
      assert(vs.points.length === s.tokens.length && vs.output.length === 2, 'valueSpace shape');
      const { t, off } = onSegment(vs.output, vs.points[a], vs.points[b]);
      assert(t > 0.3 && t < 0.7 && off < 0.15, `output at t = ${t.toFixed(3)} along ${s.tokens[a]} -> ${s.tokens[b]}, ${off.toFixed(3)} off it`);
      const r = s.readout[0];
      assert(r.targetCos.every((c) => c < 0.9) && r.midpointCos > 0.95,
        `cos to targets ${r.targetCos}, to their midpoint ${r.midpointCos}`);
      assert(/close to neither/.test(s.sentence), `sentence: ${s.sentence}`);
    });

    await test('views: with 2 heads each head\'s value-space output sits on its own target', async () => {
      const s = await call('setHeads', 2);
      for (let h = 0; h < 2; ++h) {
        const [t] = s.targets[h];
        const vs = s.valueSpace[h];
        const d = norm(sub(vs.output, vs.points[t])) / spread(vs.points);
        assert(d < 0.05, `head ${h + 1}: output ${d.toFixed(3)} of the picture's size from ${s.tokens[t]}`);
        assert(s.readout[h].targetCos[0] > 0.95, `head ${h + 1}: cos ${s.readout[h].targetCos[0]}`);
      }
      assert(/^2 heads: head 1 reads researcher .*head 2 reads it/.test(s.sentence), `sentence: ${s.sentence}`);
      await call('setHeads', 1);
    });

    await test('views: focus presets walk one head through all-on-one, split and spread', async () => {
      let s = await call('setFocus', 0);
      assert(/reads researcher and loses it/.test(s.sentence), `focus 0: ${s.sentence}`);
      s = await call('setFocus', 1);
      assert(/mush/.test(s.sentence) && s.readout[0].maxWeight < 0.3, `focus 1: ${s.sentence}`);
      s = await call('setFocus', 0.5);
      assert(/close to neither/.test(s.sentence), `focus 0.5: ${s.sentence}`);
    });

    await test('views: stress recomputes 512 tokens every frame, times it, and stops when off', async () => {
      await call('setHeads', 8);
      let s = await call('setStress', 512);
      assert(s.error === null && s.tokens.length === 512 && s.weights.every((w) => w.length === 512),
        `setStress(512): error ${s.error}, ${s.tokens.length} tokens`);
      await page.waitForFunction(() => window.headroom.getState().stress.frames >= 5, null, { timeout: 60_000 });
      s = await state();
      assert(s.stress.tokens === 512 && s.stress.forwardMs > 0, `stress ${JSON.stringify(s.stress)}`);
      const sum = s.weights[0].reduce((a, b) => a + b, 0);
      assert(Math.abs(sum - 1) < 1e-4, `a 512-token row sums to ${sum}`);
      await page.screenshot({ path: path.join(artifacts, 'views-stress-512.png') });
      s = await call('setStress', 513);
      assert(s.error && /512/.test(s.error) && s.stress.tokens === 512, `setStress(513): ${s.error}`);
      s = await call('setStress', 0);
      assert(s.stress.tokens === 0 && s.tokens.length === 11, `after setStress(0): ${s.tokens.length} tokens`);
      const before = s.stress.frames;
      await page.waitForTimeout(500);
      s = await state();
      assert(s.stress.frames === before, `forwards still timed after stress off: ${before} -> ${s.stress.frames}`);
      await call('setHeads', 1);
    });

    await test('views: #view=values shows one view; #view=lesson brings every view back', async () => {
      await frames(page, 3);
      const full = await page.screenshot();
      let s = await call('applyHash', '#view=values');
      assert(s.view === 'values' && s.error === null, `view ${s.view}, error ${s.error}`);
      await frames(page, 3);
      const one = await page.screenshot({ path: path.join(artifacts, 'views-only-values.png') });
      assert(!one.equals(full), 'the single-view page looks like the full lesson');
      s = await call('applyHash', '#view=nonsense');
      assert(s.view === 'values' && /not a view/.test(s.error), `bad view: ${s.view}, ${s.error}`);
      s = await call('applyHash', '#view=lesson');
      assert(s.view === 'lesson', `view ${s.view}`);
    });

    await test('views: the text twin (role="img", aria-label, aria-live) follows the state', async () => {
      await call('setHeads', 2);
      await frames(page, 3);
      const twin = await page.evaluate(() => ({
        role: document.getElementById('canvas').getAttribute('role'),
        label: document.getElementById('canvas').getAttribute('aria-label'),
        live: document.getElementById('headroom-state').getAttribute('aria-live'),
        text: document.getElementById('headroom-state').textContent,
      }));
      assert(twin.role === 'img' && twin.live === 'polite', JSON.stringify(twin));
      assert(/2 heads/.test(twin.text) && /head 1 reads researcher/.test(twin.text), `live text: ${twin.text}`);
      assert(twin.label.includes('head 1 reads researcher'), `aria-label: ${twin.label}`);
      await call('setHeads', 1);
    });

    await test('views: the HTML sentence field applies a sentence; a refusal shows under it', async () => {
      await page.fill('#sentence', 'The chef who cooked the meal said it was cold.');
      await page.press('#sentence', 'Enter');
      let s = await state();
      assert(s.tokens.includes('chef') && s.error === null, `tokens ${JSON.stringify(s.tokens)}, error ${s.error}`);
      await page.fill('#sentence', '   ');
      await page.press('#sentence', 'Enter');
      const shown = await page.evaluate(() => document.getElementById('sentence-error').textContent);
      s = await state();
      assert(s.tokens.includes('chef') && shown.startsWith('Refused'), `error line "${shown}", tokens ${JSON.stringify(s.tokens)}`);
      await page.fill('#sentence', 'The researcher who wrote the paper said it was wrong.');
      await page.press('#sentence', 'Enter');
    });
  } finally {
    await context.close();
  }

  await test('views: 390 x 844 phone at DPR 3 with touch: loads, buffer = CSS x 3, a tap on "2" works', async () => {
    const phone = await open(browser, url, watch, 'phone', {
      viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true,
    });
    try {
      const p = phone.page;
      const dims = await p.evaluate(() => {
        const c = document.getElementById('canvas');
        return { w: c.width, h: c.height, cw: c.clientWidth, ch: c.clientHeight };
      });
      assert(dims.cw > 0 && dims.w === Math.round(dims.cw * 3) && dims.h === Math.round(dims.ch * 3), JSON.stringify(dims));
      await p.screenshot({ path: path.join(artifacts, 'views-phone-1.png') });
      const layout = await p.evaluate(() => window.headroom.debug.layout());
      const [x0, , x1] = layout.heads[3];
      assert(x1 <= dims.cw, `the heads control runs off a 390 px screen: ${JSON.stringify(layout.heads)}`);
      await clickRect(p, layout.heads[1], { touch: true });
      const s = await p.evaluate(() => window.headroom.getState());
      assert(s.heads === 2, `after tapping "2": heads ${s.heads} (x0 ${x0})`);
      await p.waitForTimeout(1300);
      await frames(p, 3);
      await p.screenshot({ path: path.join(artifacts, 'views-phone-2.png') });
    } finally {
      await phone.context.close();
    }
  });
}
