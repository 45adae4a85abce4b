// suite_main.mjs: the main() of a browser suite that is its own script (and
// its own CTest test, tests/browser/CMakeLists.txt): check the built site,
// serve it on 127.0.0.1, launch Debian's Chromium, run the suite's tests,
// then one test that no page reported an error, and finish with harness.mjs.
//
// Does: runSuite(label, body, timeoutMs) calls body({browser, url, watch,
// artifacts}); `watch(page, name)` records the page's errors, console errors
// and crashes; artifacts is build/test-artifacts/ (created). The site is
// build/web/ (HEADROOM_SITE overrides).
// Does not: build the site, download a browser, or reach beyond 127.0.0.1.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from '../../tools/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS, assert, finish, test } from './harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = path.resolve(process.env.HEADROOM_SITE || path.join(ROOT, 'build/web'));
const ARTIFACTS = path.join(ROOT, 'build/test-artifacts');

export async function runSuite(label, body, timeoutMs) {
  await finish(async () => {
    if (!existsSync(path.join(SITE, 'index.html')) || !existsSync(path.join(SITE, 'headroom.wasm')))
      throw new Error(`${SITE} has no index.html/headroom.wasm: run ./build.sh build first`);
    await mkdir(ARTIFACTS, { recursive: true });
    const server = await serveStatic(SITE);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const problems = [];
    const watch = (page, name) => {
      page.on('pageerror', (err) => problems.push(`${name} page error: ${err.message}`));
      page.on('console', (msg) => { if (msg.type() === 'error') problems.push(`${name} console error: ${msg.text()}`); });
      page.on('crash', () => problems.push(`${name} crashed`));
    };
    try {
      await body({ browser, url: `http://127.0.0.1:${server.address().port}/`, watch, artifacts: ARTIFACTS });
      await test(`${label}: no page errors and no console errors`, async () => assert(problems.length === 0, problems.join('\n')));
    } finally {
      await browser.close();
      server.close();
    }
  }, timeoutMs);
}
