// suite_main.mjs: the main() of every browser suite (each its own script and
// its own CTest test, tests/browser/CMakeLists.txt): check the built site,
// serve it on 127.0.0.1, launch Debian's Chromium, run the suite's tests,
// then one test that no watched page reported a problem, and finish with
// harness.mjs.
//
// Does: runSuite(label, body, timeoutMs, options) calls body({browser, url,
// watch, forget, artifacts, site, server}); `watch(page, name)` records the
// page's errors, console errors, dialogs (dismissed) and crashes, and with
// options.httpErrors every response of HTTP status 400 or more; `forget(name)`
// drops what a page of that name recorded (a test whose errors are the
// point); artifacts is build/test-artifacts/ (created). The site is
// build/web/ (HEADROOM_SITE overrides); options.needs lists the files it must
// hold (default index.html and headroom.wasm); options.serve(site) starts a
// suite's own server (default tools/serve.mjs's serveStatic).
// Does not: build the site, download a browser, or reach beyond 127.0.0.1.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serveStatic } from '../../tools/serve.mjs';
import { CHROMIUM, CHROMIUM_ARGS, assert, finish, test } from './harness.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SITE = path.resolve(process.env.HEADROOM_SITE || path.join(ROOT, 'build/web'));
const ARTIFACTS = path.join(ROOT, 'build/test-artifacts');

export async function runSuite(label, body, timeoutMs,
  { serve = serveStatic, needs = ['index.html', 'headroom.wasm'], httpErrors = false } = {}) {
  await finish(async () => {
    const missing = needs.filter((f) => !existsSync(path.join(SITE, f)));
    if (missing.length) throw new Error(`${SITE} has no ${missing.join('/')}: run ./build.sh build first`);
    await mkdir(ARTIFACTS, { recursive: true });
    const server = await serve(SITE);
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    let problems = [];
    const watch = (page, name) => {
      const note = (what) => problems.push({ name, text: `${name} ${what}` });
      page.on('pageerror', (err) => note(`page error: ${err.message}`));
      page.on('console', (msg) => { if (msg.type() === 'error') note(`console error: ${msg.text()}`); });
      page.on('dialog', (d) => { note(`dialog: ${d.message()}`); d.dismiss().catch(() => {}); });
      page.on('crash', () => note('crashed'));
      if (httpErrors) page.on('response', (r) => { if (r.status() >= 400) note(`HTTP ${r.status()} for ${r.url()}`); });
    };
    const forget = (name) => { problems = problems.filter((p) => p.name !== name); };
    try {
      await body({ browser, url: `http://127.0.0.1:${server.address().port}/`, watch, forget,
        artifacts: ARTIFACTS, site: SITE, server });
      await test(`${label}: no page errors, console errors${httpErrors ? ', HTTP errors' : ''}, dialogs or crashes`,
        async () => assert(problems.length === 0, problems.map((p) => p.text).join('\n')), { always: true });
    } finally {
      await browser.close();
      server.close();
    }
  }, timeoutMs);
}
