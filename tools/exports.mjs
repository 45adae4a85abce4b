// exports.mjs: every view's export (its picture and its numbers) written to
// files, through the page's own headroom.exportView, so a note can show what
// a course author gets from Save.
//
// Does: serve <site> on 127.0.0.1, open embed.html#heads=2 at 720 x 560, DPR
// 2, in Debian's Chromium, train the runs 40 steps (so the train view has
// curves), and write <out>/<view>.png, .csv and .json for every view of
// headroom.tables().views; prints one line per file with its size.
// Does not: check the numbers (tests/browser/embed.test.mjs compares them with
// getState() and train.state(); tests/app/export_tests.cpp with references).
//
// Run: node tools/exports.mjs [site=build/web] [out=build/exports]
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { serveStatic } from './serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from '../tests/browser/harness.mjs';

const [site = 'build/web', out = 'build/exports'] = process.argv.slice(2);

await mkdir(out, { recursive: true });
const server = await serveStatic(path.resolve(site));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  const context = await browser.newContext({ viewport: { width: 720, height: 560 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(`${url}embed.html#heads=2`);
  await page.evaluate(() => window.headroom.ready);
  await page.evaluate(() => window.headroom.train.step(40));
  const views = await page.evaluate(() => window.headroom.tables().views);
  for (const view of views) {
    for (const format of ['png', 'csv', 'json']) {
      // A PNG Blob comes back as base64 (in pieces: a whole image overflows String.fromCharCode's arguments).
      const data = await page.evaluate(async ([v, f]) => {
        const d = await window.headroom.exportView(v, f);
        if (typeof d === 'string') return { text: d };
        const u = new Uint8Array(await d.arrayBuffer());
        let bin = '';
        for (let i = 0; i < u.length; i += 8192) bin += String.fromCharCode(...u.subarray(i, i + 8192));
        return { base64: btoa(bin) };
      }, [view, format]);
      const bytes = data.base64 !== undefined ? Buffer.from(data.base64, 'base64') : Buffer.from(data.text);
      const file = path.join(out, `${view}.${format}`);
      await writeFile(file, bytes);
      console.log(`${file}: ${bytes.length} B`);
    }
  }
  await context.close();
} finally {
  await browser.close();
  server.close();
}
