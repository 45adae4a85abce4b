// lang_fetch.test.mjs: the browser suite for languages fetched when chosen
// (README "Languages", "Fetched when chosen"): the site's wasm holds
// English's catalogue alone; lang/<code>.po and lang/cjk.ttf are files of
// the site. Serves build/web/ and drives index.html in Debian's Chromium
// through playwright-core.
//
// Does: (a) an English page load fetches no catalogue and no font (the
// page's requests); (b) a #lang=de page load fetches lang/de.po beside the
// wasm (its request starts before the wasm's last byte, Resource Timing)
// and its first drawn frame is German (the canvas's text twin,
// #headroom-state, as the wasm first writes it, recorded by a script that
// runs before the page's own: the German lesson's words the issue names,
// none of the English lesson's; screenshot lang-fetch-de.png); (c) choosing Chinese on an English page
// waits for the catalogue (state.langLoading), fetches lang/cjk.ttf once
// (not again after English and back), hands all of its bytes to the wasm
// (debug.fonts: the file's size on disk), merges its glyphs into the atlas,
// and draws them (chips of two different characters differ in pixels:
// two missing-glyph boxes would not; missingGlyphs 0; screenshot
// lang-fetch-zh.png); (d) a catalogue that fails to load (a route answers
// 404) keeps the language shown and shows why (state.error and errorCode
// lang_unfetched, worded in the language shown, and the text twin), and the
// same choice made again once the file is there shows it; a host page's
// headroom:set with such a language is answered with the error, the
// language kept and the message's other fields applied.
// Does not: check the catalogues' words (lang.test.mjs, catalogue_keys.mjs).
//
// Run: node tests/browser/lang_fetch.test.mjs    (after ./build.sh build)
import { statSync } from 'node:fs';
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 300_000;
const idle = (page) => page.evaluate(() => window.headroom.debug.idle(10_000));

async function langFetchTests({ browser, url, watch, forget, artifacts, site }) {
  // A fresh page of index.html at `hash`, with every request it makes
  // (url path, in order) and the wasm's first text twin recorded.
  const open = async (name, hash = '', { routes = [] } = {}) => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    watch(page, name);
    for (const [pattern, handler] of routes) await page.route(pattern, handler);
    const requests = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    // Before the page's scripts: the first text the wasm writes into the
    // canvas's text twin, and how many frames were drawn then.
    await page.addInitScript(() => {
      window.firstTwin = null;
      new MutationObserver(() => {
        const twin = document.getElementById('headroom-state');
        if (window.firstTwin || !twin || !twin.textContent) return;
        window.firstTwin = { text: twin.textContent, drawn: window.headroom ? window.headroom.debug.frames().drawn : -1 };
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.goto(`${url}index.html${hash}`);
    await page.evaluate(() => window.headroom.ready);
    await page.waitForFunction(() => window.firstTwin !== null, null, { timeout: 60_000 });
    await idle(page);
    return { page, requests, context };
  };
  const langFiles = (requests) => requests.filter((p) => p.includes('/lang/'));

  await test('(a) an English page load fetches no catalogue and no font', async () => {
    for (const f of ['de.po', 'es.po', 'fr.po', 'zh.po', 'cjk.ttf']) {
      assert(statSync(path.join(site, 'lang', f)).size > 0, `the site has no lang/${f}`);
    }
    const { page, requests, context } = await open('lang-fetch-en');
    const s = await page.evaluate(() => window.headroom.getState());
    assert(s.lang === 'en' && s.langLoading === null, `English page: ${s.lang}, ${s.langLoading}`);
    assert(requests.some((p) => p.endsWith('/headroom.wasm')), `no wasm request among ${requests.join(' ')}`);
    assert(langFiles(requests).length === 0, `an English page fetched ${langFiles(requests).join(', ')}`);
    await context.close();
  });

  await test('(b) a #lang=de page load fetches lang/de.po beside the wasm, and its first drawn frame is German', async () => {
    const { page, requests, context } = await open('lang-fetch-de', '#lang=de');
    assert(JSON.stringify(langFiles(requests)) === JSON.stringify(['/lang/de.po']), `lang files fetched: ${langFiles(requests).join(', ')}`);
    const t = await page.evaluate(() => {
      const entry = (end) => performance.getEntriesByType('resource').find((e) => e.name.endsWith(end));
      const po = entry('/lang/de.po'), wasm = entry('/headroom.wasm');
      return { poStart: po.startTime, poEnd: po.responseEnd, wasmStart: wasm.startTime, wasmEnd: wasm.responseEnd };
    });
    assert(t.poStart < t.wasmEnd, `de.po was requested at ${t.poStart} ms, after the wasm's last byte (${t.wasmEnd} ms)`);
    const first = await page.evaluate(() => window.firstTwin);
    // The German lesson as the issue names it (query sagte, subject
    // Forscherin); the English one's subject must not be there.
    assert(first.drawn === 1, `the first text twin was written after ${first.drawn} frames`);
    assert(/Forscherin/.test(first.text) && /sagte/.test(first.text) && !/researcher/.test(first.text),
      `the first frame's text: ${first.text.slice(0, 200)}`);
    const s = await page.evaluate(() => window.headroom.getState());
    assert(s.lang === 'de' && s.langLoading === null && s.error === null, `state: ${s.lang}, ${s.langLoading}, ${s.error}`);
    await page.screenshot({ path: path.join(artifacts, 'lang-fetch-de.png') });
    console.log(`      de.po ${t.poStart.toFixed(0)}-${t.poEnd.toFixed(0)} ms, headroom.wasm ${t.wasmStart.toFixed(0)}-${t.wasmEnd.toFixed(0)} ms`);
    await context.close();
  });

  await test('(c) choosing Chinese waits for its catalogue, fetches lang/cjk.ttf once, and its glyphs come from the atlas', async () => {
    const { page, requests, context } = await open('lang-fetch-zh');
    const asked = await page.evaluate(() => window.headroom.setLanguage('zh'));
    assert(asked.lang === 'en' && asked.langLoading === 'zh' && asked.error === null,
      `setLanguage('zh') at once: ${JSON.stringify([asked.lang, asked.langLoading, asked.error])}`);
    const s = await page.evaluate(() => window.headroom.languageSettled());
    assert(s.lang === 'zh' && s.langLoading === null && s.error === null, `settled: ${s.lang}, ${s.langLoading}, ${s.error}`);
    assert(s.tokens[s.query] === '说', `the Chinese lesson's query: ${s.tokens[s.query]}`);
    const fonts = await page.evaluate(() => window.headroom.debug.fonts());
    const size = statSync(path.join(site, 'lang', 'cjk.ttf')).size;
    assert(fonts.extraBytes === size, `the wasm has ${fonts.extraBytes} bytes of the font, the file ${size}`);
    await idle(page);
    assert((await page.evaluate(() => window.headroom.debug.fonts())).extraGlyphs > 0, 'no glyph of the font in the atlas');
    // Back to English and to Chinese again: nothing is fetched twice.
    await page.evaluate(() => window.headroom.setLanguage('en'));
    const again = await page.evaluate(() => { window.headroom.setLanguage('zh'); return window.headroom.languageSettled(); });
    assert(again.lang === 'zh', `zh again: ${again.lang}`);
    const counts = (f) => requests.filter((p) => p === `/lang/${f}`).length;
    assert(counts('zh.po') === 1 && counts('cjk.ttf') === 1, `fetched zh.po ${counts('zh.po')}, cjk.ttf ${counts('cjk.ttf')} times`);
    // The glyphs are drawn: a chip of 说 and one of 它 differ in pixels.
    const chipShot = async (i) => {
      const box = await page.locator('#canvas').boundingBox();
      const [x0, y0, x1, y1] = (await page.evaluate(() => window.headroom.debug.layout().tokens))[i];
      return page.screenshot({ clip: { x: box.x + x0, y: box.y + y0, width: x1 - x0, height: y1 - y0 } });
    };
    await page.evaluate(() => window.headroom.setSentence('说 它'));
    await idle(page);
    const a = await chipShot(0);
    await page.evaluate(() => window.headroom.setSentence('它 说'));
    await idle(page);
    const b = await chipShot(0);
    assert(!a.equals(b), 'the chips of 说 and 它 look the same: the glyphs are not drawn');
    const end = await page.evaluate(() => window.headroom.getState());
    assert(end.missingGlyphs === 0 && end.missingStrings === 0, `missingGlyphs ${end.missingGlyphs}, missingStrings ${end.missingStrings}`);
    await page.screenshot({ path: path.join(artifacts, 'lang-fetch-zh.png') });
    await context.close();
  });

  await test('(d) a catalogue that fails to load (404) keeps the language shown and shows why; chosen again once there, it is shown', async () => {
    let refuse = true;
    const { page, context } = await open('lang-fetch-404', '#lang=de', {
      routes: [['**/lang/fr.po', (route) => (refuse ? route.fulfill({ status: 404, body: 'not here' }) : route.continue())]],
    });
    const asked = await page.evaluate(() => window.headroom.setLanguage('fr'));
    assert(asked.lang === 'de' && asked.langLoading === 'fr', `setLanguage('fr'): ${asked.lang}, ${asked.langLoading}`);
    const s = await page.evaluate(() => window.headroom.languageSettled());
    assert(s.lang === 'de' && s.langLoading === null && s.errorCode === 'lang_unfetched',
      `after the 404: ${JSON.stringify([s.lang, s.langLoading, s.errorCode, s.error])}`);
    assert(s.error.includes('"fr"') && s.error.includes('404') && !/could not be fetched/.test(s.error),
      `the error, in German: ${s.error}`);
    assert(s.tokens[s.query] === 'sagte', `the German lesson stays: ${s.tokens[s.query]}`);
    await idle(page);
    const twin = await page.evaluate(() => document.getElementById('headroom-state').textContent);
    assert(twin.includes(s.error), `the text twin does not show the error: ${twin.slice(-300)}`);
    const hash = await page.evaluate(() => location.hash);
    assert(hash.includes('lang=de'), `the page's hash: ${hash}`);
    await page.screenshot({ path: path.join(artifacts, 'lang-fetch-404.png') });
    refuse = false;
    await page.evaluate(() => window.headroom.setLanguage('fr'));
    const fr = await page.evaluate(() => window.headroom.languageSettled());
    assert(fr.lang === 'fr' && fr.error === null && fr.tokens[fr.query] === 'dit', `chosen again: ${JSON.stringify([fr.lang, fr.error])}`);
    await page.waitForFunction(() => location.hash.includes('lang=fr'), null, { timeout: 5_000 });
    forget('lang-fetch-404');  // the 404 is the point (the browser logs it as a console error)
    await context.close();
  });

  await test('(e) a host page: headroom:set with a language that fails to load replies with the error, the language kept and the other fields applied', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 640 } });
    const page = await context.newPage();
    watch(page, 'lang-fetch-host');
    await page.route('**/lang/fr.po', (route) => route.fulfill({ status: 404, body: 'not here' }));
    await page.route(`${url}lang-fetch-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html>
      <iframe id="f" src="${url}embed.html#lang=de" width="720" height="560"></iframe>
      <script>
        window.got = [];
        addEventListener('message', (e) => { if (e.source === document.getElementById('f').contentWindow) window.got.push(e.data); });
      </script>` }));
    await page.goto(`${url}lang-fetch-host.html`);
    await page.waitForFunction(() => window.got.some((m) => m.type === 'headroom:ready'), null, { timeout: 60_000 });
    const answer = await page.evaluate(() => new Promise((resolve) => {
      const f = document.getElementById('f');
      const on = (e) => { if (e.source === f.contentWindow && e.data.id === 7) { removeEventListener('message', on); resolve(e.data); } };
      addEventListener('message', on);
      f.contentWindow.postMessage({ type: 'headroom:set', id: 7, lang: 'fr', heads: 2 }, '*');
    }));
    assert(answer.type === 'headroom:state' && answer.state.lang === 'de' && answer.state.langLoading === null &&
      answer.state.heads === 2 && answer.error && answer.error.includes('404') && answer.error.includes('"fr"'),
      `reply: ${JSON.stringify([answer.state.lang, answer.state.langLoading, answer.state.heads, answer.error])}`);
    forget('lang-fetch-host');  // the 404 is the point
    await context.close();
  });
}

await runSuite('lang_fetch', langFetchTests, SUITE_TIMEOUT_MS);
