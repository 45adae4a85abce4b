// screens.mjs: the screenshots a note shows of what the learner sees, taken
// through real taps, clicks and keys from any built site, so the same
// command gives the "before" of an older build and the "after" of this one.
//
// Does: serve <site> on 127.0.0.1, open it in Debian's Chromium and write
// PNGs to <out>:
//   phone-tap-1.png        390 x 844, DPR 3, touch: #heads=2, tap "1", 500 ms
//   refusal-1366.png       1366 x 768: a 400-word sentence refused by Enter
//   values-1-1366.png      1366 x 768, 1 head
//   values-2-1366.png      the same page 4 s after a click on "2"
//   heatmap-720.png        embed.html#view=attention at 720 x 560, 2 heads,
//                          the wheel turned down to the heatmap card
//   train-720.png          embed.html#view=train at 720 x 560 after 300 steps
// and prints one line per shot with the state it was taken in.
// Does not: judge the pictures (tests/browser/input_paths.test.mjs does, in
// pixels); it needs only what every build since the layout probe has
// (headroom.ready, getState(), debug.layout().heads, train.step()).
//
// Run: node tools/screens.mjs [site=build/web] [out=build/screens]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveStatic } from './serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/browser/harness.mjs';

const [site = 'build/web', out = 'build/screens'] = process.argv.slice(2);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true };
const WIDE = { viewport: { width: 1366, height: 768 } };
const FRAME = { viewport: { width: 720, height: 560 } };

async function open(browser, url, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
  await page.evaluate(() => window.headroom.ready);
  await sleep(1500);
  return { context, page };
}

// The centre of a debug.layout() rect [x0, y0, x1, y1] in page coordinates.
async function centre(page, rect) {
  const box = await page.locator('#canvas').boundingBox();
  return [box.x + (rect[0] + rect[2]) / 2, box.y + (rect[1] + rect[3]) / 2];
}

async function shot(page, name) {
  await page.screenshot({ path: path.join(out, name) });
  const s = await page.evaluate(() => window.headroom.getState());
  console.log(`${name}: heads ${s.heads}, view ${s.view ?? '-'}, query ${s.tokens?.[s.query] ?? s.query}`);
}

await mkdir(out, { recursive: true });
const server = await serveStatic(path.resolve(site));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  {
    const { context, page } = await open(browser, `${url}#heads=2`, PHONE);
    const heads = (await page.evaluate(() => window.headroom.debug.layout())).heads;
    const [x, y] = await centre(page, heads[0]);
    await page.touchscreen.tap(x, y);
    await sleep(500);
    await shot(page, 'phone-tap-1.png');
    await context.close();
  }
  {
    const { context, page } = await open(browser, url, WIDE);
    await page.locator('#sentence').fill('word '.repeat(400));
    await page.locator('#sentence').press('Enter');
    await sleep(1500);
    await shot(page, 'refusal-1366.png');
    await context.close();
  }
  {
    const { context, page } = await open(browser, `${url}#heads=1`, WIDE);
    await shot(page, 'values-1-1366.png');
    const heads = (await page.evaluate(() => window.headroom.debug.layout())).heads;
    const [x, y] = await centre(page, heads[1]);
    await page.mouse.click(x, y);
    await sleep(4000);
    await shot(page, 'values-2-1366.png');
    await context.close();
  }
  {
    const { context, page } = await open(browser, `${url}embed.html#heads=2&view=attention`, FRAME);
    await page.mouse.move(360, 300);
    await page.mouse.wheel(0, 520);  // the heatmap card is under the attention card
    await sleep(1500);
    await shot(page, 'heatmap-720.png');
    await context.close();
  }
  {
    const { context, page } = await open(browser, `${url}embed.html#view=train`, FRAME);
    await page.evaluate(async () => { await window.headroom.train.step(300); });
    await sleep(1500);
    await shot(page, 'train-720.png');
    await context.close();
  }
} finally {
  await browser.close();
  server.close();
}
