// first_picture.test.mjs: the page's first picture, in Chromium: the default
// state drawn at build time (src/tools/first_picture) on the stage before
// the wasm is ready, then the canvas in its place.
//
// Does: hold headroom.wasm back (a route that answers only when the test
// lets it), and while it is held check that the page and the embed show
// the picture of their language and theme, the size of the canvas, before
// headroom.ready; read the picture's numbers (tokens, query, the one head's
// weights, the value plane's points and output, in data-* attributes) and,
// once the wasm runs, compare them with getState(); check the picture gives
// way after the canvas's first frame; sum every layout shift a
// PerformanceObserver saw over the whole load (CLS) and require 0; check a
// link that asks for another state (heads=2) gets the neutral placeholder
// and no picture; check a page whose HTML stops arriving half way through
// the picture shows none of it until the rest comes (a half-parsed picture
// painted, then its cards moved by the rest, was a layout shift). Screenshots: build/test-artifacts/first-picture-*.png
// (held: the picture; released: the canvas that replaced it).
// Does not: build the site, or judge the picture's looks (a person does,
// from the screenshots).
//
// Run: node tests/browser/first_picture.test.mjs   (after ./build.sh build)
import { createServer } from 'node:http';
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 240_000;
const SAME = 1e-5;  // the picture's numbers are written with 9 significant digits

// Before the page's scripts: every layout shift into window.__shifts.
function recordShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.__shifts.push({ value: e.value, recent: e.hadRecentInput,
        sources: (e.sources || []).map((s) => (s.node && s.node.id) || (s.node && s.node.className) || '?') });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

// A fresh page at `hash` whose headroom.wasm waits for release().
// With loaded false, it returns once the response has begun (the page
// may still be arriving).
async function heldPage(browser, url, file, hash, viewport, { loaded = true } = {}) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const page = await context.newPage();
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/headroom.wasm', async (route) => { await held; await route.continue(); });
  await page.addInitScript(recordShifts);
  await page.goto(`${url}${file}${hash}`, { waitUntil: loaded ? 'load' : 'commit' });
  if (loaded) await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  return { context, page, release };
}

// What the stage shows while the wasm is held: the visible pictures and
// placeholders, the canvas's box and the picture's, whether ready resolved.
const stageNow = (page) => page.evaluate(async () => {
  const shown = (sel) => [...document.querySelectorAll(sel)].filter((e) => getComputedStyle(e).display !== 'none');
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); };
  let ready = false;
  window.headroom.ready.then(() => { ready = true; }, () => {});
  await new Promise((r) => setTimeout(r, 50));
  const pictures = shown('.first-picture'), placeholders = shown('.first-placeholder');
  return { pictures: pictures.map((e) => e.lang), placeholders: placeholders.length, ready,
    canvas: box(document.getElementById('canvas')), picture: pictures[0] ? box(pictures[0]) : null,
    background: pictures[0] ? getComputedStyle(pictures[0]).backgroundColor : null };
});

// The shown picture's numbers, read from its data-* attributes.
const pictureNumbers = (page) => page.evaluate(() => {
  const pic = [...document.querySelectorAll('.first-picture')].find((e) => getComputedStyle(e).display !== 'none');
  const num = (e, k) => Number(e.getAttribute(`data-${k}`));
  return {
    query: num(pic, 'query'), heads: num(pic, 'heads'),
    tokens: [...pic.querySelectorAll('.fp-chip')].map((e) => e.textContent),
    targets: [...pic.querySelectorAll('circle.fp-target')].map((e) => num(e, 'token')),
    points: [...pic.querySelectorAll('circle[data-token]')].map((e) => [num(e, 'token'), num(e, 'x'), num(e, 'y')]),
    output: [...pic.querySelectorAll('[data-output]')].map((e) => [num(e, 'x'), num(e, 'y')])[0],
    weights: [...pic.querySelectorAll('line.fp-mix')].map((e) => [num(e, 'token'), num(e, 'weight')]),
    heading: pic.querySelector('.fp-heads-title').textContent,
  };
});

// Lets the wasm through, waits for ready and for the picture to go (after
// the canvas's first frame), then two more frames.
async function releaseAndSettle(page, release) {
  release();
  await page.evaluate(() => window.headroom.ready);
  await page.waitForFunction(() => !document.querySelector('.first-picture, .first-placeholder'), null, { timeout: 30_000 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

const shifts = (page) => page.evaluate(() => window.__shifts);
const cls = (list) => list.filter((s) => !s.recent).reduce((a, s) => a + s.value, 0);

// The picture's numbers against the running engine's state.
function sameAsEngine(pic, s) {
  assert(JSON.stringify(pic.tokens) === JSON.stringify(s.tokens), `tokens ${JSON.stringify(pic.tokens)} vs ${JSON.stringify(s.tokens)}`);
  assert(pic.query === s.query && pic.heads === s.heads && s.heads === 1, `query ${pic.query}/${s.query}, heads ${pic.heads}/${s.heads}`);
  const plane = s.valueSpace[0];
  assert(pic.points.length === s.tokens.length, `${pic.points.length} points for ${s.tokens.length} tokens`);
  for (const [j, x, y] of pic.points) {
    const [ex, ey] = plane.points[j];
    assert(Math.abs(x - ex) < SAME && Math.abs(y - ey) < SAME, `point ${j}: picture (${x}, ${y}), engine (${ex}, ${ey})`);
  }
  const [ox, oy] = plane.output;
  assert(Math.abs(pic.output[0] - ox) < SAME && Math.abs(pic.output[1] - oy) < SAME,
    `output: picture ${pic.output}, engine ${plane.output}`);
  for (const [j, w] of pic.weights) assert(Math.abs(w - s.weights[0][j]) < SAME, `weight ${j}: ${w} vs ${s.weights[0][j]}`);
  const [a, b] = [...pic.targets].sort((p, q) => p - q);
  const mid = [(plane.points[a][0] + plane.points[b][0]) / 2, (plane.points[a][1] + plane.points[b][1]) / 2];
  const gap = Math.hypot(plane.points[a][0] - plane.points[b][0], plane.points[a][1] - plane.points[b][1]);
  assert(Math.hypot(ox - mid[0], oy - mid[1]) < 0.15 * gap, `the output ${plane.output} is not the targets' midpoint ${mid}`);
}

// One held load of `file#hash`: the picture before ready, its numbers equal
// to the engine's after, gone after the first frame, no layout shift.
async function pictureCase({ browser, url, watch, artifacts }, name, file, hash, viewport, want) {
  const { context, page, release } = await heldPage(browser, url, file, hash, viewport);
  watch(page, name);
  try {
    const before = await stageNow(page);
    assert(!before.ready, 'headroom.ready resolved while the wasm was held');
    assert(JSON.stringify(before.pictures) === JSON.stringify([want.lang]) && before.placeholders === 0,
      `pictures shown: ${JSON.stringify(before.pictures)}, placeholders: ${before.placeholders}`);
    assert(JSON.stringify(before.picture) === JSON.stringify(before.canvas), `picture ${before.picture}, canvas ${before.canvas}`);
    if (want.background) assert(before.background === want.background, `background ${before.background}`);
    const pic = await pictureNumbers(page);
    if (want.heading) assert(pic.heading === want.heading, `heads title "${pic.heading}"`);
    await page.screenshot({ path: path.join(artifacts, `first-picture-${name}.png`) });
    await releaseAndSettle(page, release);
    sameAsEngine(pic, await page.evaluate(() => window.headroom.getState()));
    const after = await page.evaluate(() => { const r = document.getElementById('canvas').getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); });
    assert(JSON.stringify(after) === JSON.stringify(before.canvas), `the canvas moved: ${before.canvas} -> ${after}`);
    const list = await shifts(page);
    assert(cls(list) === 0, `CLS ${cls(list)}: ${JSON.stringify(list)}`);
    await page.screenshot({ path: path.join(artifacts, `first-picture-${name}-canvas.png`) });
  } finally {
    release();
    await context.close();
  }
}

// A server in front of the suite's that sends embed.html up to the English
// picture's columns, then the rest only when cut.release() is called.
async function cutServer(url) {
  let release;
  const held = new Promise((r) => { release = r; });
  const server = createServer(async (req, res) => {
    const upstream = await fetch(new URL(req.url, url));
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') || 'application/octet-stream',
      'Cache-Control': 'no-store' });
    if (!req.url.startsWith('/embed.html')) { res.end(body); return; }
    const html = body.toString('utf8');
    const at = html.indexOf('class="fp-columns"', html.indexOf('<div class="first-picture" lang="en"'));
    assert(at > 0, 'embed.html has no English picture with columns');
    res.write(html.slice(0, at));
    await held;
    res.end(html.slice(at));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, release, close: () => server.close() };
}

async function firstPictureTests(env) {
  const { browser, url, watch, artifacts } = env;
  await test('page: the English picture before ready (wasm held), the engine\'s numbers, then the canvas, CLS 0', () =>
    pictureCase(env, 'page', 'index.html', '', { width: 1280, height: 800 }, { lang: 'en', heading: 'Heads' }));
  await test('page at 900 px, German, dark: the picture in German and the dark window colour, CLS 0', () =>
    pictureCase(env, 'page-de-dark', 'index.html', '#lang=de&theme=dark', { width: 900, height: 800 },
      { lang: 'de', heading: 'Köpfe', background: 'rgb(18, 18, 20)' }));
  await test('embed 640 x 560 (compact): the picture, then the canvas, CLS 0', () =>
    pictureCase(env, 'embed', 'embed.html', '', { width: 640, height: 560 }, { lang: 'en', background: 'rgb(250, 250, 247)' }));
  await test('embed 380 x 560, Chinese: the picture in Chinese, CLS 0', () =>
    pictureCase(env, 'embed-zh', 'embed.html', '#lang=zh', { width: 380, height: 560 }, { lang: 'zh' }));

  await test('a page cut half way through the picture shows none of it until the rest arrives, then the whole, CLS 0', async () => {
    const cut = await cutServer(url);
    const { context, page, release } = await heldPage(browser, cut.url, 'embed.html', '', { width: 640, height: 560 },
      { loaded: false }).catch((e) => { cut.release(); cut.close(); throw e; });
    watch(page, 'cut');
    try {
      const state = () => page.evaluate(() => {
        const pic = document.querySelector('.first-picture[lang="en"]');
        return { parsed: !!pic, whole: !!(pic && pic.querySelector('.fp-end')), display: pic && getComputedStyle(pic).display };
      });
      await page.waitForFunction(() => document.querySelector('.first-picture[lang="en"] .fp-readout'), null, { timeout: 30_000 });
      const half = await state();
      assert(half.parsed && !half.whole && half.display === 'none', `half parsed: ${JSON.stringify(half)}`);
      cut.release();
      await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
      const whole = await state();
      assert(whole.whole && whole.display === 'flex', `whole: ${JSON.stringify(whole)}`);
      await releaseAndSettle(page, release);
      const list = await shifts(page);
      assert(cls(list) === 0, `CLS ${cls(list)}: ${JSON.stringify(list)}`);
    } finally {
      cut.release();
      release();
      await context.close();
      cut.close();
    }
  });

  await test('a link to another state (heads=2) gets the placeholder, no picture; then the canvas, CLS 0', async () => {
    const { context, page, release } = await heldPage(browser, url, 'embed.html', '#heads=2', { width: 640, height: 560 });
    watch(page, 'placeholder');
    try {
      const before = await stageNow(page);
      assert(before.pictures.length === 0 && before.placeholders === 1 && !before.ready,
        `pictures ${JSON.stringify(before.pictures)}, placeholders ${before.placeholders}, ready ${before.ready}`);
      await page.screenshot({ path: path.join(artifacts, 'first-picture-placeholder.png') });
      await releaseAndSettle(page, release);
      const s = await page.evaluate(() => window.headroom.getState());
      assert(s.heads === 2, `heads ${s.heads}`);
      const list = await shifts(page);
      assert(cls(list) === 0, `CLS ${cls(list)}: ${JSON.stringify(list)}`);
    } finally {
      release();
      await context.close();
    }
  });

  await test('the page\'s words are in its language from the first paint (Sentence, Apply, the lesson sentence), and stay', async () => {
    const { context, page, release } = await heldPage(browser, url, 'index.html', '#lang=fr', { width: 1000, height: 760 });
    watch(page, 'words');
    try {
      const words = () => page.evaluate(() => [document.querySelector('#sentence-form label').innerText,
        document.querySelector('#sentence-form button').innerText, document.title,
        document.getElementById('sentence').value]);
      const held = await words();
      await releaseAndSettle(page, release);
      const running = await words();
      assert(JSON.stringify(held) === JSON.stringify(running) && held[0] !== 'Sentence',
        `held ${JSON.stringify(held)}, running ${JSON.stringify(running)}`);
      const list = await shifts(page);
      assert(cls(list) === 0, `CLS ${cls(list)}: ${JSON.stringify(list)}`);
    } finally {
      release();
      await context.close();
    }
  });
}

await runSuite('first picture', firstPictureTests, SUITE_TIMEOUT_MS, { httpErrors: true });
