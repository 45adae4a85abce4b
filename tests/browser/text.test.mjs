// text.test.mjs: the browser suite for scripts: every script on the canvas, right-
// to-left sentences, the sentence field following the state, and the page-load
// bench. Serves build/web/ (or $HEADROOM_SITE) on 127.0.0.1 and drives it in
// Debian's Chromium through playwright-core.
//
// Does: for a Chinese, an Arabic and an emoji sentence, check that the last
// drawn frame had no glyph drawn by neither path (getState().missingGlyphs,
// counted from the frame's draw data) and save a screenshot to
// build/test-artifacts/text-*.png; check that the browser path really draws
// the glyphs (a chip of "研" and one of "究", or of two emoji, differ in
// pixels: two missing-glyph boxes would not); check that the token chips of
// an Arabic sentence run right to left (their x order reversed) and an
// English one's left to right; check that the sentence field shows the
// current sentence after setSentence, applyHash and a hash change, and that
// what a user types there survives a click on a token; run the page-load
// bench (tests/bench/page_load.mjs) for one load, its phase and size lines
// alone (PAGE_LOAD_ONLY=phases), and check them.
// Does not: judge the bench's numbers (./build.sh bench reports them), or
// need fonts beyond Debian's fonts-droid-fallback (CJK) and
// fonts-noto-color-emoji (build.sh installs them; DejaVu has Arabic).
//
// Run: node tests/browser/text.test.mjs    (after ./build.sh build)
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = process.env.HEADROOM_SITE || path.join(ROOT, 'build/web');
const SUITE_TIMEOUT_MS = 240_000;

const SENTENCES = {
  zh: '研究者说它错了。',
  ar: 'قالت الباحثة إن الورقة خاطئة.',
  emoji: 'The 🐱 said 🎉 was 👍🏽 wrong.',
};

async function textTests({ browser, url, watch, artifacts }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    watch(page, 'text');
    await page.goto(url);
    await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.ready);
    const frames = () => page.evaluate(() => new Promise((r) => {
      const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : r());
      step(3);
    }));
    const call = async (verb, ...args) => {
      const s = await page.evaluate(([v, a]) => window.headroom[v](...a), [verb, args]);
      await frames();
      return s;
    };
    const state = () => page.evaluate(() => window.headroom.getState());
    const chips = () => page.evaluate(() => window.headroom.debug.layout().tokens);
    // Pixels of token chip i, as a PNG buffer.
    const chipShot = async (i) => {
      const box = await page.locator('#canvas').boundingBox();
      const [x0, y0, x1, y1] = (await chips())[i];
      return page.screenshot({ clip: { x: box.x + x0, y: box.y + y0, width: x1 - x0, height: y1 - y0 } });
    };

    for (const [name, sentence] of Object.entries(SENTENCES)) {
      await test(`${name}: every glyph drawn (missingGlyphs 0), screenshot text-${name}.png`, async () => {
        const s = await call('setSentence', sentence);
        assert(s.error === null, `setSentence refused: ${s.error}`);
        const after = await state();
        assert(after.missingGlyphs === 0, `missingGlyphs = ${after.missingGlyphs} for ${sentence}`);
        await page.screenshot({ path: path.join(artifacts, `text-${name}.png`) });
      });
    }

    await test('the English lesson needs no browser text and misses no glyph', async () => {
      await call('setSentence', 'The researcher who wrote the paper said it was wrong.');
      const s = await state();
      assert(s.missingGlyphs === 0, `missingGlyphs = ${s.missingGlyphs}`);
    });

    await test('glyphs are really drawn: chips of different CJK characters (and emoji) differ in pixels', async () => {
      for (const [a, b] of [['研', '究'], ['🐱', '🎉']]) {
        await call('setSentence', `${a} ${b}`);
        const first = await chipShot(0);
        await call('setSentence', `${b} ${a}`);
        const second = await chipShot(0);
        assert(!first.equals(second), `the chips of ${a} and ${b} look the same: glyphs are not drawn`);
        assert((await state()).missingGlyphs === 0, `missingGlyphs for ${a} ${b}`);
      }
    });

    await test('right to left: an Arabic sentence\'s chips run right to left, an English one\'s left to right', async () => {
      await call('setSentence', SENTENCES.ar);
      const ar = (await chips()).map((r) => r[0]);
      assert(ar.length === (await state()).tokens.length, `${ar.length} chips`);
      for (let i = 1; i < ar.length; ++i) assert(ar[i] < ar[i - 1], `Arabic chip x: ${ar.join(', ')}`);
      // Numbers stay readable: a leading number does not turn the strip.
      await call('setSentence', '2026 قالت الباحثة');
      const mixed = (await chips()).map((r) => r[0]);
      for (let i = 1; i < mixed.length; ++i) assert(mixed[i] < mixed[i - 1], `"2026 قالت الباحثة" chip x: ${mixed.join(', ')}`);
      await call('setSentence', 'The researcher said it was wrong.');
      const en = (await chips()).map((r) => r[0]);
      for (let i = 1; i < en.length; ++i) assert(en[i] > en[i - 1], `English chip x: ${en.join(', ')}`);
    });

    await test('the sentence field follows the state: setSentence, applyHash, a hash change', async () => {
      const field = () => page.inputValue('#sentence');
      await call('setSentence', SENTENCES.zh);
      assert(await field() === SENTENCES.zh, `after setSentence: "${await field()}"`);
      await call('applyHash', `sentence=${encodeURIComponent(SENTENCES.ar)}`);
      assert(await field() === SENTENCES.ar, `after applyHash: "${await field()}"`);
      await page.evaluate((s) => { location.hash = `sentence=${encodeURIComponent(s)}`; }, SENTENCES.emoji);
      await page.waitForFunction((s) => document.getElementById('sentence').value === s, SENTENCES.emoji, { timeout: 5000 });
      assert((await state()).text === SENTENCES.emoji, 'getState().text after the hash change');
    });

    await test('typing in the field survives a click on a token, and Apply applies it', async () => {
      await page.fill('#sentence', 'Die Forscherin sagte, es sei falsch.');
      const [x0, y0, x1, y1] = (await chips())[1];
      const box = await page.locator('#canvas').boundingBox();
      await page.mouse.click(box.x + (x0 + x1) / 2, box.y + (y0 + y1) / 2);
      await page.waitForTimeout(300);  // the page looks at the state 150 ms after a click
      assert(await page.inputValue('#sentence') === 'Die Forscherin sagte, es sei falsch.', 'the click overwrote the typing');
      await page.click('#sentence-form button[type=submit]');
      await frames();
      const s = await state();
      assert(s.tokens[0] === 'Die' && s.text === 'Die Forscherin sagte, es sei falsch.', `after Apply: ${s.tokens.join(' ')}`);
    });
    await context.close();

    await test('page-load bench: one load gives every phase and the bytes fetched', async () => {
      const { stdout } = await promisify(execFile)(process.execPath,
        [path.join(ROOT, 'tests/bench/page_load.mjs'), SITE, '1'],
        { timeout: 120_000, env: { ...process.env, PAGE_LOAD_ONLY: 'phases' } });
      const lines = stdout.trim().split('\n').map((l) => JSON.parse(l));
      const load = lines.find((l) => l.variant === 'page-load');
      const size = lines.find((l) => l.variant === 'page-size');
      for (const k of ['fetchMs', 'compileMs', 'instantiateMs', 'appInitMs', 'firstFrameMs', 'readyMs'])
        assert(load && Number.isFinite(load[k]) && load[k] >= 0, `${k}: ${JSON.stringify(load)}`);
      assert(load.readyMs >= load.appInitMs, `readyMs ${load.readyMs} < appInitMs ${load.appInitMs}`);
      assert(size && size.files['headroom.wasm'] && size.gzipBytes > size.files['headroom.wasm'][1],
        `page-size: ${JSON.stringify(size)}`);
    });
  } finally {
    await context.close();
  }
}

await runSuite('text', textTests, SUITE_TIMEOUT_MS);
