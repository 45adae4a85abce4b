// course_hosts.test.mjs: Headroom embedded in real course pages.
//
// Does: build a small MkDocs site and a small Sphinx site (Debian's mkdocs
// and python3-sphinx) into build/course-hosts/, each a page with a notes
// <input>, the README's iframe snippet near the top and the README's
// postMessage snippet below the fold, pasted verbatim from README.md (only
// https://you.example/headroom/ becomes the test's Headroom origin); serve
// those sites from one origin and build/web from a second one (tools/
// serve.mjs on another port, with Access-Control-Allow-Origin: *), and
// check in Debian's Chromium:
// - a focused host input keeps its keys while the frames start;
// - the frame below the fold answers headroom:get (with the postMessage
//   snippet's heads=2 applied) before it is scrolled to, having drawn
//   nothing, and draws once it is in view;
// - the wheel over a view that fits scrolls the page; over a view that
//   scrolls, the view first, then the page at its end;
// - the default embed and each view= at 360 x 560, 540 x 560 and 720 x 560
//   CSS px: no text cut at an edge, no window wider than its room, and the
//   default view (and view=train at 540 and 720) without an inner scrollbar
//   (debug.fit());
// - a touch drag in the sandboxed frame: over a view that fits it scrolls
//   the page; over one that scrolls, the view, and the page at its end;
// - the README's ES-module snippet (page, stylesheet, module file) under the
//   README's own CSP header: starts, no CSP violation, takes no focus; and a
//   module instance below the fold resolves and answers before drawing;
// - a sandboxed frame served without the CORS header says which header is
//   missing;
// and saves screenshots of both course pages with 540 and 720 px columns in
// build/test-artifacts/course-*.png. Launching, watching the pages and the
// ok/FAIL lines are suite_main.mjs's, as for every browser suite.
// Does not: build Headroom (./build.sh build does; HEADROOM_SITE overrides
// build/web), install mkdocs/sphinx (build.sh does), or reach beyond 127.0.0.1.
//
// Run: node tests/browser/course_hosts.test.mjs    (after ./build.sh build)
import { execFileSync } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '../../tools/serve.mjs';
import { assert, test } from './harness.mjs';
import { misfits } from './fit.mjs';
import { runSuite } from './suite_main.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const WORK = path.join(ROOT, 'build/course-hosts');
const SUITE_TIMEOUT_MS = 420_000;
const PLACEHOLDER = 'https://you.example/headroom/';
const FIT_SIZES = [[360, 560], [540, 560], [720, 560]];
const kColumnSlack = 40;  // px: how near a theme's column must come to 540 or 720
const VIEWS = ['lesson', 'attention', 'values', 'readout', 'concat', 'steps', 'train'];
// Views that must fit with no inner scrolling at these widths (x 560), besides the default.
const NO_SCROLL = { train: [540, 720] };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// What the fit probe reads, once the frame loop has settled (a loaded machine
// draws late: a fixed sleep would read a layout still moving).
const fitOf = async (target) => {
  await target.evaluate(() => window.headroom.debug.idle(10000));
  return target.evaluate(() => window.headroom.debug.fit());
};

// ---------------------------------------------------------------------------
// the README's snippets, verbatim
// ---------------------------------------------------------------------------
// The fenced blocks of `lang` in the README section under `heading`.
function blocks(readme, heading, lang) {
  const start = readme.indexOf(`\n### ${heading}\n`);
  assert(start >= 0, `README has no section "### ${heading}"`);
  const end = readme.indexOf('\n### ', start + 5);
  const lines = readme.slice(start, end < 0 ? undefined : end).split('\n');
  const found = [];
  for (let i = 0; i < lines.length; ++i) {
    if (!lines[i].startsWith('```')) continue;
    const close = lines.indexOf('```', i + 1);
    if (lines[i].slice(3) === lang) found.push(`${lines.slice(i + 1, close).join('\n')}\n`);
    i = close;
  }
  return found;
}

function snippets(readme) {
  const one = (heading, lang) => {
    const found = blocks(readme, heading, lang);
    assert(found.length === 1, `README "### ${heading}": ${found.length} \`\`\`${lang} blocks, expected 1`);
    return found[0];
  };
  const csp = one('Copy-paste iframes', '').trim();
  assert(csp.startsWith('Content-Security-Policy: '), `the README's CSP block: ${csp}`);
  return {
    iframe: one('Copy-paste iframes', 'html'),
    messages: one('postMessage (cross-origin hosts)', 'html'),
    modulePage: one('ES module (same-origin pages)', 'html'),
    moduleCss: one('ES module (same-origin pages)', 'css'),
    moduleJs: one('ES module (same-origin pages)', 'js'),
    csp: csp.slice('Content-Security-Policy: '.length),
  };
}

// ---------------------------------------------------------------------------
// the course sites
// ---------------------------------------------------------------------------
const FILLER = 'Attention lets each token take a weighted average of the value vectors of the others. ' +
  'The weights come from a softmax over scores, so they are positive and sum to one. ';
const paragraphs = (n) => Array.from({ length: n }, (_, i) => `${FILLER.repeat(3)}(paragraph ${i + 1})`);

async function buildMkDocs(s, app) {
  const dir = path.join(WORK, 'mkdocs');
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'docs'), { recursive: true });
  await writeFile(path.join(dir, 'mkdocs.yml'), [
    'site_name: Attention course', 'use_directory_urls: false',
    'theme:', '  name: mkdocs', '  highlightjs: false', 'plugins: []', ''].join('\n'));
  const md = [
    '# Why attention has more than one head', '',
    '<p><label for="notes">Your notes:</label> <input id="notes" type="text" size="40"></p>', '',
    ...paragraphs(1), '',
    s.iframe.replaceAll(PLACEHOLDER, `${app}/`), '',
    ...paragraphs(14).flatMap((p) => [p, '']),
    '## Driving the demo from the page', '',
    s.messages.replaceAll(PLACEHOLDER, `${app}/`), '',
    ...paragraphs(10).flatMap((p) => [p, '']),
  ].join('\n');
  await writeFile(path.join(dir, 'docs/index.md'), md);
  execFileSync('mkdocs', ['build', '-q', '-f', path.join(dir, 'mkdocs.yml'), '-d', path.join(dir, 'site')], { stdio: 'inherit' });
  return path.join(dir, 'site');
}

async function buildSphinx(s, app) {
  const dir = path.join(WORK, 'sphinx');
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'src'), { recursive: true });
  await writeFile(path.join(dir, 'src/conf.py'), "project = 'Attention course'\nhtml_theme = 'alabaster'\n");
  const raw = (html) => ['.. raw:: html', '', ...html.trimEnd().split('\n').map((l) => (l ? `   ${l}` : '')), ''];
  const rst = [
    'Why attention has more than one head', '=====================================', '',
    ...raw('<p><label for="notes">Your notes:</label> <input id="notes" type="text" size="40"></p>'),
    ...paragraphs(1), '',
    ...raw(s.iframe.replaceAll(PLACEHOLDER, `${app}/`)),
    ...paragraphs(14).flatMap((p) => [p, '']),
    'Driving the demo from the page', '------------------------------', '',
    ...raw(s.messages.replaceAll(PLACEHOLDER, `${app}/`)),
    ...paragraphs(10).flatMap((p) => [p, '']),
  ].join('\n');
  await writeFile(path.join(dir, 'src/index.rst'), rst);
  execFileSync('sphinx-build', ['-q', '-b', 'html', path.join(dir, 'src'), path.join(dir, 'site')], { stdio: 'inherit' });
  await writeFile(path.join(dir, 'site/favicon.ico'), '');  // the theme links none: no 404 in the console
  return path.join(dir, 'site');
}

// The README's ES-module example as a site: the page (the snippet in a
// minimal document that links the stylesheet), the stylesheet, the module
// file, and Headroom in headroom/ beside them.
async function buildModuleSite(s) {
  const dir = path.join(WORK, 'module');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<title>Module host</title><link rel="icon" href="data:,"><link rel="stylesheet" href="course.css"></head><body>\n' +
    `<h1>Headroom as a module</h1>\n${s.modulePage}</body></html>\n`);
  await writeFile(path.join(dir, 'course.css'), s.moduleCss);
  await writeFile(path.join(dir, 'headroom-demo.mjs'), s.moduleJs);
  // Not the README's: a module instance below the fold, for the ready-without-drawing check.
  await writeFile(path.join(dir, 'offscreen.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<title>Below the fold</title><link rel="icon" href="data:,"><link rel="stylesheet" href="course.css">' +
    '<link rel="stylesheet" href="offscreen.css"></head><body><div class="tall"></div>' +
    '<canvas id="headroom-a" class="headroom" tabindex="0"></canvas><script type="module" src="offscreen.mjs"></script></body></html>\n');
  await writeFile(path.join(dir, 'offscreen.css'), '.tall { height: 3000px; }\n');
  await writeFile(path.join(dir, 'offscreen.mjs'), "import { createHeadroom } from './headroom/headroom.mjs';\n" +
    "createHeadroom({ canvas: document.getElementById('headroom-a'), hash: 'heads=4' })\n" +
    '  .then((h) => { window.h = h; }, (e) => { window.h = String(e); });\n');
  return dir;
}

// ---------------------------------------------------------------------------
// the suite
// ---------------------------------------------------------------------------
// Runs in every frame of a host page; in the top one it records messages
// from the frames, by frame index.
const HOST_PROBE = () => {
  if (window.top !== window) return;
  window.replies = [];
  window.addEventListener('message', (e) => {
    const from = [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source);
    window.replies.push({ from, data: e.data });
  });
  window.ask = (i, msg) => new Promise((resolve) => {
    const id = `q${Math.random()}`;
    document.querySelectorAll('iframe')[i].contentWindow.postMessage({ ...msg, id }, '*');
    const t = setInterval(() => {
      const r = window.replies.find((x) => x.data && x.data.id === id);
      if (r) { clearInterval(t); resolve(r.data); }
    }, 20);
  });
  window.isReady = (i) => window.replies.some((r) => r.from === i && r.data && r.data.type === 'headroom:ready');
};

async function courseTests({ browser, url, watch, artifacts: ARTIFACTS, site: SITE }) {
  const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
  const s = snippets(readme);
  const APP = url.replace(/\/$/, '');  // runSuite serves the site with Access-Control-Allow-Origin: *
  const servers = [];
  const serve = async (...args) => { const server = await serveStatic(...args); servers.push(server); return server; };
  try {
    const plainServer = await serve(SITE, 0);  // the same site without the CORS header
    const PLAIN = `http://127.0.0.1:${plainServer.address().port}`;
    const mkdocsServer = await serve(await buildMkDocs(s, APP));
    const sphinxServer = await serve(await buildSphinx(s, APP));
    const moduleDir = await buildModuleSite(s);
    // The module page and Headroom are one origin (the README: same-origin
    // pages), under the README's CSP; headroom/ is the site itself.
    execFileSync('cp', ['-r', SITE, path.join(moduleDir, 'headroom')]);
    const moduleServer = await serve(moduleDir, 0, { headers: { 'Content-Security-Policy': s.csp } });
    const hosts = {
      mkdocs: `http://127.0.0.1:${mkdocsServer.address().port}/index.html`,
      sphinx: `http://127.0.0.1:${sphinxServer.address().port}/index.html`,
    };
    await hostTests({ browser, watch, ARTIFACTS, s, APP, PLAIN, MODULE: `http://127.0.0.1:${moduleServer.address().port}`, hosts, serve });
  } finally {
    for (const server of servers) server.close();
  }
}

async function hostTests({ browser, watch, ARTIFACTS, s, APP, PLAIN, MODULE, hosts, serve }) {
  const newPage = async (label, viewport = { width: 1100, height: 800 }) => {
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
    const page = await context.newPage();
    watch(page, label);
    await page.addInitScript(HOST_PROBE);
    return page;
  };
  // The Playwright frame of the n-th iframe (cross-origin frames are reachable through the browser).
  const frameOf = async (page, n) => (await page.locator('iframe').nth(n).elementHandle()).contentFrame();

  for (const [name, url] of Object.entries(hosts)) {
    await test(`${name}: the README's snippets pass through unchanged`, async () => {
      const html = await readFile(path.join(WORK, name, 'site/index.html'), 'utf8');
      for (const snippet of [s.iframe, s.messages]) {
        const src = snippet.replaceAll(PLACEHOLDER, `${APP}/`).match(/src="([^"]+)"/)[1];
        assert(html.includes(`src="${src}"`) || html.includes(`src="${src.replaceAll('&', '&amp;')}"`), `${src} not in the built page`);
      }
      assert(html.includes("frame.contentWindow.postMessage({ type: 'headroom:set', heads: 2 }, '*')"), 'the postMessage script was changed');
    });

    const page = await newPage(name);
    await test(`${name}: a focused notes input keeps its keys while the frames start`, async () => {
      await page.goto(url, { waitUntil: 'domcontentloaded' });
      await page.focus('#notes');
      const typed = 'heads attend';
      for (const ch of typed) { await page.keyboard.type(ch); await sleep(120); }
      await page.waitForFunction(() => window.isReady(0) && window.isReady(1), null, { timeout: 60_000 });
      await page.keyboard.type(' 12');  // "1" and "2" are Headroom's shortcuts
      await sleep(300);
      const value = await page.inputValue('#notes');
      const active = await page.evaluate(() => document.activeElement && document.activeElement.id);
      assert(value === `${typed} 12` && active === 'notes', `notes "${value}", focus on #${active}`);
      const heads = await page.evaluate(() => window.ask(0, { type: 'headroom:get' }));
      assert(heads.state.heads === 1, `frame 1 took the keys: heads ${heads.state.heads}`);
    });

    await test(`${name}: the frame below the fold answers headroom:get before it is scrolled to, drawing nothing`, async () => {
      const below = await page.evaluate(() => {
        const r = document.querySelectorAll('iframe')[1].getBoundingClientRect();
        return { top: r.top, viewport: innerHeight, scrollY };
      });
      assert(below.top > below.viewport && below.scrollY === 0, JSON.stringify(below));
      const r = await page.evaluate(() => window.ask(1, { type: 'headroom:get' }));
      // heads 2: the postMessage snippet's own headroom:set on ready was applied.
      assert(r.state && r.state.heads === 2 && r.error === null, JSON.stringify([r.state && r.state.heads, r.error]));
      assert(r.state.frames === 0, `it drew ${r.state.frames} frames while out of view`);
      await page.locator('iframe').nth(1).scrollIntoViewIfNeeded();
      await page.waitForFunction(async () => (await window.ask(1, { type: 'headroom:get' })).state.frames > 0, null, { timeout: 20_000 });
    });

    await test(`${name}: the wheel over a view that fits scrolls the page at once`, async () => {
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.locator('iframe').nth(0).scrollIntoViewIfNeeded();
      const box = await page.locator('iframe').nth(0).boundingBox();
      const y0 = await page.evaluate(() => scrollY);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.75);
      await sleep(300);
      await page.mouse.wheel(0, 200);
      await sleep(400);
      const y1 = await page.evaluate(() => scrollY);
      assert(y1 > y0, `page scrollY ${y0} -> ${y1}`);
    });

    await test(`${name}: the wheel scrolls a view that scrolls, then the page at the view's end`, async () => {
      const r = await page.evaluate(() => window.ask(1, { type: 'headroom:set', view: 'attention' }));
      assert(r.error === null && r.state.view === 'attention', JSON.stringify([r.error, r.state.view]));
      const frame = await frameOf(page, 1);
      await page.locator('iframe').nth(1).scrollIntoViewIfNeeded();
      await page.evaluate(() => window.scrollBy(0, document.querySelectorAll('iframe')[1].getBoundingClientRect().top - 40));
      await sleep(500);
      const box = await page.locator('iframe').nth(1).boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await sleep(300);
      const mainScroll = async () => (await fitOf(frame)).windows.find((w) => !w.child);
      const m0 = await mainScroll();
      assert(m0.scrollMax[1] > 0, `view=attention does not scroll at this size (${JSON.stringify(m0.size)})`);
      const y0 = await page.evaluate(() => scrollY);
      await page.mouse.wheel(0, 100);
      await sleep(400);
      const m1 = await mainScroll();
      const y1 = await page.evaluate(() => scrollY);
      assert(m1.scroll[1] > 0 && y1 === y0, `first turn: view scroll ${m1.scroll[1]}, page ${y0} -> ${y1}`);
      let turns = 1;
      while (turns < 60 && (await page.evaluate(() => scrollY)) === y0) {
        await page.mouse.wheel(0, 100);
        await sleep(150);
        ++turns;
      }
      const m2 = await mainScroll();
      const y2 = await page.evaluate(() => scrollY);
      assert(y2 > y0, `the page never scrolled in ${turns} turns (view at ${m2.scroll[1]} of ${m2.scrollMax[1]})`);
      assert(m2.scroll[1] >= m2.scrollMax[1] - 1, `the page scrolled before the view's end (${m2.scroll[1]} of ${m2.scrollMax[1]})`);
    });

    await test(`${name}: screenshots with 540 and 720 px columns; the frame fits its column`, async () => {
      await page.evaluate(() => window.ask(1, { type: 'headroom:set', view: 'lesson' }));
      for (const column of [540, 720]) {
        // The viewport width at which the theme's column (the frame's
        // width) comes nearest `column` px: themes step their columns, so
        // the nearest within kColumnSlack.
        let width = 0, best = Infinity, got = 0;
        for (let vw = 360; vw <= 1600; vw += 10) {
          await page.setViewportSize({ width: vw, height: 800 });
          const w = await page.evaluate(() => document.querySelectorAll('iframe')[0].getBoundingClientRect().width);
          if (Math.abs(w - column) < best) { best = Math.abs(w - column); width = vw; got = w; }
        }
        assert(best <= kColumnSlack, `${name}: the column comes no nearer ${column} px than ${got} px`);
        await page.setViewportSize({ width, height: 800 });
        console.log(`      ${name}: viewport ${width} px wide gives a ${got} px column`);
        // The frame whole on screen, with the page's text above it.
        await page.evaluate(() => window.scrollTo(0, document.querySelectorAll('iframe')[0].getBoundingClientRect().top + scrollY - 120));
        await sleep(800);
        const frame = await frameOf(page, 0);
        const fit = await fitOf(frame);
        const bad = misfits(fit, { noScroll: true });
        const file = path.join(ARTIFACTS, `course-${name}-${column}.png`);
        await page.screenshot({ path: file });
        assert(bad.length === 0, `${column} px column (viewport ${width}): ${bad.join('; ')}`);
      }
    });
    await page.context().close();
  }

  await test(`fit: the default embed and each view= at ${FIT_SIZES.map((x) => x.join(' x ')).join(', ')}`, async () => {
    const bad = [];
    for (const [width, height] of FIT_SIZES) {
      const page = await newPage(`fit-${width}`, { width, height });
      await page.goto(`${APP}/embed.html`);
      await page.evaluate(() => window.headroom.ready);
      for (const view of [null, ...VIEWS]) {
        if (view) await page.evaluate((v) => window.headroom.applyHash(`view=${v}`), view);
        await sleep(400);
        const fit = await fitOf(page);
        const label = `${width} x ${height} ${view ? `view=${view}` : 'default'}`;
        if (!fit.compact) bad.push(`${label}: not the compact layout`);
        const noScroll = view === null || (NO_SCROLL[view] || []).includes(width);
        for (const m of misfits(fit, { noScroll })) bad.push(`${label}: ${m}`);
      }
      await page.context().close();
    }
    assert(bad.length === 0, bad.join('\n'));
  });

  await test('fit: view=train at 360 x 560: the loss tab and the heads-over-time tab fit their width', async () => {
    // The compact train view keeps its charts in tabs (tab= opens one): the
    // loss chart with the controls, and the specialisation (heads over time).
    const seen = [];
    for (const tab of ['train', 'heads']) {
      const page = await newPage(`fit-train-360-${tab}`, { width: 360, height: 560 });
      await page.goto(`${APP}/embed.html#view=train&heads=2&tab=${tab}`);
      await page.evaluate(() => window.headroom.ready);
      await page.evaluate(() => window.headroom.train.step(3));
      await sleep(600);
      const fit = await fitOf(page);
      const l = await page.evaluate(() => window.headroom.debug.layout());
      await page.screenshot({ path: path.join(ARTIFACTS, `fit-train-360-${tab}.png`) });
      if (tab === 'heads') {
        assert(l.trainChart.specialisationCells === 1 + 2 + 4, `tab=heads: specialisation cells ${l.trainChart.specialisationCells}`);
      } else {
        assert(l.trainChart.rect.some((v) => v !== 0), 'tab=train: no loss chart drawn');
      }
      const bad = misfits(fit, { noScroll: false });
      seen.push(`${tab}: ${fit.windows.map((w) => `${w.name.replace(/.*##/, '')} content ${w.content[0]} in ${w.room[0]} px`).join(', ')}`);
      assert(bad.length === 0, `tab=${tab}: ${bad.join('; ')}`);
      await page.context().close();
    }
    console.log(`      ${seen.join('; ')}`);
  });

  await test('compact layout: the view buttons open the token strip, and a click on a token moves the query', async () => {
    const page = await newPage('compact-click', { width: 540, height: 560 });
    await page.goto(`${APP}/embed.html`);
    await page.evaluate(() => window.headroom.ready);
    // Until the frame loop settles (debug.idle), not a fixed 400 ms: at load 7
    // the tab's first frame came later and the strip had 0 chips.
    const settled = () => page.evaluate(() => window.headroom.debug.idle(10_000));
    await settled();
    const click = async ([x0, y0, x1, y1]) => {
      await page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2);
      await page.mouse.down();
      await page.mouse.up();
      await settled();
    };
    const l0 = await page.evaluate(() => window.headroom.debug.layout());
    assert(l0.views.length === 8 && l0.tokens.length === 0, `views ${l0.views.length}, tokens ${l0.tokens.length} before`);
    await click(l0.views[1]);  // "Tokens"
    const l1 = await page.evaluate(() => window.headroom.debug.layout());
    const s0 = await page.evaluate(() => window.headroom.getState());
    assert(l1.tokens.length === s0.tokens.length, `${l1.tokens.length} chips for ${s0.tokens.length} tokens`);
    const target = s0.tokens.indexOf('researcher');
    await click(l1.tokens[target]);
    const s1 = await page.evaluate(() => window.headroom.getState());
    assert(s1.query === target, `clicked "researcher" (${target}), query ${s1.query}`);
    const bad = misfits(await fitOf(page), { noScroll: true });
    assert(bad.length === 0, `the token strip at 540 x 560: ${bad.join('; ')}`);
    await page.context().close();
  });

  await test('compact layout: a vertical touch drag scrolls the panel under the finger (8 heads on a phone)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 700 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    watch(page, 'touch');
    await page.goto(`${APP}/embed.html#heads=8`);
    await page.evaluate(() => window.headroom.ready);
    await sleep(400);
    const panel = async () => (await fitOf(page)).windows.find((w) => w.name.includes('##compact_view'));
    const p0 = await panel();
    assert(p0 && p0.scrollMax[1] > 100 && p0.scroll[1] === 0, `panel ${JSON.stringify(p0)}`);
    const cdp = await context.newCDPSession(page);
    const x = p0.pos[0] + p0.size[0] / 2, y = p0.pos[1] + p0.size[1] * 0.8;
    const touch = (type, ty) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: ty }] });
    await touch('touchStart', y);
    for (let k = 1; k <= 10; ++k) { await touch('touchMove', y - 12 * k); await sleep(40); }
    await touch('touchEnd', y - 120);
    await sleep(400);
    const p1 = await panel();
    assert(p1.scroll[1] > 40, `panel scroll ${p0.scroll[1]} -> ${p1.scroll[1]}`);
    await context.close();
  });

  await test('a touch drag in a course page\'s sandboxed frame: over a view that fits, the page scrolls; over one that scrolls, the view, then the page at its end', async () => {
    const context = await browser.newContext({ viewport: { width: 540, height: 800 }, deviceScaleFactor: 1, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    watch(page, 'touch-chain');
    await page.addInitScript(HOST_PROBE);
    await page.goto(hosts.mkdocs);
    await page.waitForFunction(() => window.isReady(0), null, { timeout: 60_000 });
    const frame = await frameOf(page, 0);
    await page.evaluate(() => window.scrollTo(0, document.querySelectorAll('iframe')[0].getBoundingClientRect().top + scrollY - 20));
    await sleep(800);
    const cdp = await context.newCDPSession(page);
    const panel = async () => (await fitOf(frame)).windows.find((w) => w.name.includes('##compact_view'));
    // An upward drag of 120 px in 10 moves, starting at (x, y) in the frame.
    const drag = async (x, y) => {
      const box = await page.locator('iframe').nth(0).boundingBox();
      const at = (ty) => [{ x: box.x + x, y: box.y + ty }];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(y) });
      for (let k = 1; k <= 10; ++k) { await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(y - 12 * k) }); await sleep(40); }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await sleep(600);
    };
    const p0 = await panel();
    assert(p0 && p0.scrollMax[1] === 0, `the default view scrolls: ${JSON.stringify(p0)}`);
    const y0 = await page.evaluate(() => scrollY);
    await drag(p0.pos[0] + p0.size[0] / 2, p0.pos[1] + p0.size[1] * 0.8);
    const y1 = await page.evaluate(() => scrollY);
    assert(y1 > y0 + 40, `a drag over the value space (it fits) moved the page ${y0} -> ${y1}`);
    const heads = await frame.evaluate(() => window.headroom.getState().heads);
    assert(heads === 1, `the drag pressed something: heads ${heads}`);
    // Eight heads: the panel scrolls; a drag scrolls it, not the page, until its end.
    await page.evaluate(() => window.ask(0, { type: 'headroom:set', heads: 8 }));
    await page.evaluate(() => window.scrollTo(0, document.querySelectorAll('iframe')[0].getBoundingClientRect().top + scrollY - 20));
    await sleep(800);
    const p1 = await panel();
    assert(p1.scrollMax[1] > 100 && p1.scroll[1] === 0, `panel at 8 heads ${JSON.stringify(p1)}`);
    const y2 = await page.evaluate(() => scrollY);
    await drag(p1.pos[0] + p1.size[0] / 2, p1.pos[1] + p1.size[1] * 0.8);
    const p2 = await panel();
    const y3 = await page.evaluate(() => scrollY);
    assert(p2.scroll[1] > 40 && y3 === y2, `first drag: panel ${p1.scroll[1]} -> ${p2.scroll[1]}, page ${y2} -> ${y3}`);
    let drags = 1;
    while (drags < 20 && (await panel()).scroll[1] < p1.scrollMax[1] - 1) {
      await page.evaluate((y) => window.scrollTo(0, y), y2);
      await drag(p1.pos[0] + p1.size[0] / 2, p1.pos[1] + p1.size[1] * 0.8);
      ++drags;
    }
    await page.evaluate((y) => window.scrollTo(0, y), y2);
    await sleep(300);
    await drag(p1.pos[0] + p1.size[0] / 2, p1.pos[1] + p1.size[1] * 0.8);
    const y4 = await page.evaluate(() => scrollY);
    assert(y4 > y2 + 40, `at the panel's end (after ${drags} drags) a drag moved the page ${y2} -> ${y4}`);
    await context.close();
  });

  await test('fit: the probe sees a cut: a word too long to wrap is reported at 360 x 560', async () => {
    // The perturbation that must move the result: the readout cannot wrap
    // a 60-letter word, so it runs past the frame's right edge.
    const page = await newPage('fit-probe', { width: 360, height: 560 });
    await page.goto(`${APP}/embed.html`);
    await page.evaluate(() => window.headroom.ready);
    await sleep(400);
    assert(misfits(await fitOf(page), { noScroll: true }).length === 0, 'misfit before');
    const s1 = await page.evaluate(() => window.headroom.setSentence(`The ${'w'.repeat(60)} said it.`));
    assert(s1.error === null, s1.error);
    await page.evaluate(() => window.headroom.selectToken(1));
    await sleep(400);
    const bad = misfits(await fitOf(page), { noScroll: true });
    assert(bad.some((m) => m.includes('www')) || bad.some((m) => m.includes('wide')), `not seen: ${bad.join('; ')}`);
    await page.context().close();
  });

  await test('ES module: the README\'s snippet (page, stylesheet, module file) runs under the README\'s CSP', async () => {
    const page = await newPage('module');
    const violations = [];
    page.on('console', (m) => { if (/Content Security Policy/.test(m.text())) violations.push(m.text()); });
    await page.goto(`${MODULE}/index.html`);
    await page.waitForFunction(() => {
      const c = document.getElementById('headroom-a');
      return c && c.width > 0 && c.getBoundingClientRect().height === 560;
    }, null, { timeout: 40_000 });
    await sleep(500);
    const drawn = await page.evaluate(() => document.getElementById('headroom-a').width);
    assert(drawn > 0 && violations.length === 0, `canvas backing width ${drawn}; CSP: ${violations.join('; ')}`);
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
    assert(focused !== 'headroom-a', 'the canvas took focus by itself');
    await page.context().close();
  });

  await test('ES module: an instance below the fold resolves, answers and applies its hash before drawing', async () => {
    const page = await newPage('module-offscreen');
    await page.goto(`${MODULE}/offscreen.html`);
    await page.waitForFunction(() => window.h, null, { timeout: 40_000 });
    const s0 = await page.evaluate(() => (typeof window.h === 'string' ? window.h : window.h.getState()));
    assert(typeof s0 === 'object' && s0.heads === 4 && s0.frames === 0, JSON.stringify(s0).slice(0, 200));
    const s1 = await page.evaluate(() => window.h.setHeads(2));
    assert(s1.heads === 2 && s1.frames === 0, `after setHeads(2) off screen: heads ${s1.heads}, frames ${s1.frames}`);
    await page.locator('#headroom-a').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => window.h.getState().frames > 0, null, { timeout: 20_000 });
    await page.context().close();
  });

  await test('a sandboxed frame served without the CORS header says which header is missing', async () => {
    const page = await browser.newContext().then((c) => c.newPage());  // not watched: its errors are the point
    const host = path.join(WORK, 'nocors');
    await mkdir(host, { recursive: true });
    await writeFile(path.join(host, 'index.html'), `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
      ${s.iframe.replaceAll(PLACEHOLDER, `${PLAIN}/`).replace(' loading="lazy"', '')}`);
    const server = await serve(host);
    await page.goto(`http://127.0.0.1:${server.address().port}/index.html`);
    const frame = await frameOf(page, 0);
    let text = '';
    for (let i = 0; i < 100 && !/Access-Control-Allow-Origin/.test(text); ++i) {
      await sleep(200);
      text = await frame.evaluate(() => (document.getElementById('error-text') || {}).textContent || '').catch(() => '');
    }
    assert(/Access-Control-Allow-Origin: \*/.test(text) && /sandbox/.test(text), `the frame says: "${text}"`);
    await page.context().close();
  });

}

await runSuite('course hosts', courseTests, SUITE_TIMEOUT_MS,
  { serve: (site) => serveStatic(site, 0, { headers: { 'Access-Control-Allow-Origin': '*' } }), needs: ['embed.html'] });
