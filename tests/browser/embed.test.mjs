// embed.test.mjs: the browser suite for embedding: embed.html in
// cross-origin iframes, postMessage, the ES module, good-guest behaviour,
// graceful refusal and hostile input, in Debian's Chromium via playwright-core.
//
// Does: serve build/web (HEADROOM_SITE overrides) plus generated host pages
// on one port, reached as two origins: the site as http://127.0.0.1:P, the
// hosts as http://localhost:P (so iframes are cross-origin). Query strings
// pick headers: ?csp=strict (script-src 'self' 'wasm-unsafe-eval'), ?csp=nowasm
// (script-src 'self'); every response carries Access-Control-Allow-Origin: *
// (what a sandboxed iframe's wasm fetch needs). Launching, watching the pages
// and the ok/FAIL lines are suite_main.mjs's, as for every browser suite.
// Does not: build the site, download a browser, or reach beyond 127.0.0.1.
//
// Run: node tests/browser/embed.test.mjs    (after ./build.sh build)
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { decodePng } from './png.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 300_000;
const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm', '.css': 'text/css; charset=utf-8' };
const CSP = {
  strict: "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
  nowasm: "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:",
};

// ---------------------------------------------------------------------------
// host pages (served from the other origin); APP is the embed's origin
// ---------------------------------------------------------------------------
const hostScript = `
  window.replies = [];
  window.addEventListener('message', (e) => { window.replies.push({ origin: e.origin, data: e.data,
    from: [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source) }); });
  window.waitReady = (i) => new Promise((resolve) => { const t = setInterval(() => {
    if (window.replies.some((r) => r.from === i && r.data && r.data.type === 'headroom:ready')) { clearInterval(t); resolve(); } }, 50); });
  window.ask = (i, msg, origin) => new Promise((resolve) => {
    const id = 'q' + Math.random(); const n = window.replies.length;
    document.querySelectorAll('iframe')[i].contentWindow.postMessage({ ...msg, id }, origin);
    const t = setInterval(() => { const r = window.replies.find((x) => x.data && x.data.id === id);
      if (r) { clearInterval(t); resolve(r); } }, 20); });`;
const HOSTS = {
  'two.html': (app) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body>
    <input id="host-input" value="abc">
    <iframe id="a" src="${app}/embed.html#heads=1" width="640" height="420"></iframe>
    <iframe id="b" src="${app}/embed.html#heads=2&sentence=The+cat+sat+down." width="640" height="420"></iframe>
    <iframe id="rogue" src="${app}/rogue.html" width="10" height="10"></iframe>
    <iframe id="nullrogue" sandbox="allow-scripts" srcdoc="<script>window.go=()=>0;addEventListener('message',e=>{if(e.data==='go')parent.frames[0].postMessage({type:'headroom:set',heads:8},'*')})</script>" width="10" height="10"></iframe>
    <script>${hostScript}</script>`,
  'sandboxed.html': (app) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body>
    <iframe sandbox="allow-scripts" src="${app}/embed.html#heads=2" width="640" height="420"></iframe>
    <script>${hostScript}</script>`,
  'early.html': (app) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body><script>${hostScript}
    window.early = [];
    const f = document.createElement('iframe'); f.src = '${app}/embed.html'; f.width = 400; f.height = 300;
    f.addEventListener('load', () => { f.contentWindow.postMessage({ type: 'headroom:set', heads: 4, id: 'early' }, '${app}'); });
    document.body.appendChild(f);</script>`,
};
// A page of the embed's own origin that is not the parent: its messages must be ignored.
const ROGUE = `<!doctype html><script>addEventListener('message', (e) => {
  if (e.data === 'go') parent.frames[0].postMessage({ type: 'headroom:set', heads: 8 }, '*'); });</script>`;
const MODULE_PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">
  <style>canvas{display:block;width:480px;height:320px} .tall{height:3000px}</style>
  <input id="host-input" value="abc"><canvas id="c1" tabindex="0"></canvas><canvas id="c2" tabindex="0"></canvas>
  <div class="tall"></div><script type="module" src="module-host.mjs"></script>`;
const MODULE_HOST = `import { createHeadroom } from './headroom.mjs';
  window.instances = Promise.all([
    createHeadroom({ canvas: document.getElementById('c1'), hash: 'heads=1' }),
    createHeadroom({ canvas: document.getElementById('c2'), hash: 'heads=2&sentence=Two+instances+here.' }),
  ]);
  window.instances.then((xs) => { window.h = xs; }, (e) => { window.h = String(e); });`;

// The site and the host pages on one port (127.0.0.1 and localhost: two origins).
function serve(SITE) {
  const server = createServer(async (req, res) => {
    const u = new URL(req.url, 'http://x');
    const headers = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-store' };
    if (CSP[u.searchParams.get('csp')]) headers['Content-Security-Policy'] = CSP[u.searchParams.get('csp')];
    const app = `http://127.0.0.1:${server.address().port}`;
    const send = (type, body) => { res.writeHead(200, { ...headers, 'Content-Type': type }); res.end(body); };
    const name = u.pathname.slice(1);
    if (name.startsWith('host/') && HOSTS[name.slice(5)]) return send(MIME['.html'], HOSTS[name.slice(5)](app));
    if (name === 'rogue.html') return send(MIME['.html'], ROGUE);
    if (name === 'module.html') return send(MIME['.html'], MODULE_PAGE);
    if (name === 'module-host.mjs') return send(MIME['.mjs'], MODULE_HOST);
    const file = path.join(SITE, path.normalize(name || 'index.html'));
    if (!file.startsWith(SITE + path.sep)) { res.writeHead(404); return res.end(); }
    try {
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream',
        'Content-Length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) { res.writeHead(404, headers); res.end(); }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function embedTests({ browser, url, watch, forget }) {
  const port = new URL(url).port;
  const APP = `http://127.0.0.1:${port}`;
  const HOST = `http://localhost:${port}`;
  const newPage = async (label, options = {}) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
    const page = await context.newPage();
    watch(page, label);
    return page;
  };
  const loadEmbed = async (page, hash = '', query = '') => {
    await page.goto(`${APP}/embed.html${query}${hash}`);
    await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await page.evaluate(() => window.headroom.ready);
  };

  // --- direct: the embed page and the API --------------------------------------
  const page = await newPage('embed');
  const state = () => page.evaluate(() => window.headroom.getState());
  const call = (verb, ...args) => page.evaluate(([v, a]) => window.headroom[v](...a), [verb, args]);

  await test('embed.html loads under the strict CSP (script-src \'self\' \'wasm-unsafe-eval\') with state from the hash', async () => {
    await loadEmbed(page, '#heads=2&sentence=The+cat+sat+down.&query=1&theme=dark', '?csp=strict');
    const s = await state();
    assert(s.heads === 2 && s.tokens.join(' ') === 'The cat sat down .' && s.query === 1, JSON.stringify([s.heads, s.tokens, s.query]));
    assert(!s.error, `error: ${s.error}`);
  });

  await test('the state goes back into the URL hash', async () => {
    await call('setHeads', 4);
    const hash = await page.evaluate(() => location.hash);
    assert(hash.includes('heads=4') && hash.includes('sentence=The%20cat%20sat%20down.') && hash.includes('theme=dark'), hash);
  });

  await test('after load with no input, the app draws no frames over two seconds', async () => {
    const settled = await page.evaluate(() => window.headroom.debug.idle(10000));
    assert(settled.idle, `the frame loop did not settle: ${JSON.stringify(settled)}`);
    const f0 = (await state()).frames;
    await sleep(2000);
    const f1 = (await state()).frames;
    assert(f0 > 0 && f1 === f0, `frames ${f0} -> ${f1}`);
    await call('setHeads', 2);
    await sleep(300);
    assert((await state()).frames > f1, 'an API call draws again');
  });

  const hostileHashes = ['heads=0', 'heads=-1', 'heads=3.5', 'heads=NaN', 'heads=1e309', 'heads=0x10', 'heads=999999',
    'heads=2&heads=4', 'sentence=%ZZ', 'sentence=%00', 'sentence=%ED%A0%80', `sentence=${'a'.repeat(100 * 1024)}`,
    'view=%3Cscript%3Ealert(1)%3C%2Fscript%3E', 'theme=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E',
    'sentence=%20%20%20', 'sentence=%01%02', `sentence=${'w+'.repeat(40)}`, 'query=99', 'focus=NaN', 'bogus=1'];
  await test(`hostile hashes (${hostileHashes.length}) each give a message and keep the state`, async () => {
    await call('setSentence', 'The researcher who wrote the paper said it was wrong.');
    await call('setHeads', 2);
    const before = await state();
    for (const h of hostileHashes) {
      const s = await call('applyHash', h);
      assert(s.error && s.error.length > 10, `${h.slice(0, 40)}: no message`);
      assert(s.heads === 2 && s.tokens.join('|') === before.tokens.join('|') && s.query === before.query,
        `${h.slice(0, 40)}: state changed`);
    }
    const lone = await call('applyHash', 'sentence=a\uD800b');
    assert(/surrogate/.test(lone.error), `raw lone surrogate: ${lone.error}`);
  });

  await test('a hostile hash on load shows a readable message, and the page still runs', async () => {
    const p = await newPage('hash-on-load');
    await loadEmbed(p, '#heads=3.5&sentence=%ZZ');
    const text = await p.evaluate(() => document.getElementById('hash-error').textContent);
    assert(/heads/.test(text) && /%-escape/.test(text), text);
    assert((await p.evaluate(() => window.headroom.getState().heads)) === 1, 'heads changed');
    await p.context().close();
  });

  await test('hostile sentences are refused with the cap stated; the previous sentence stays', async () => {
    const before = (await state()).tokens.join('|');
    const cases = { '': /no words/, '   \t ': /no words/, '\u0001\u0002\u0003': /no words/,
      [`${'word '.repeat(40)}`]: /cap is 32/, ['x'.repeat(1 << 20)]: /cap is 4096 bytes/, 'a\uDC00b': /surrogate/ };
    for (const [text, re] of Object.entries(cases)) {
      const s = await call('setSentence', text);
      assert(re.test(s.error || ''), `${JSON.stringify(text.slice(0, 20))}: ${s.error}`);
      assert(s.tokens.join('|') === before, 'tokens changed');
    }
  });

  await test('one token, emoji, combining marks, RTL, accents, CJK and markup are sentences', async () => {
    for (const text of ['Hello', 'I ❤️ 👩‍💻 🇫🇷', 'e\u0301te\u0301', 'שלום עולם', 'c\'était déjà là', '我爱你。',
      '<img src=x onerror=alert(1)> <b>bold</b>']) {
      const s = await call('setSentence', text);
      assert(s.error === null, `${text}: ${s.error}`);
    }
    const s = await state();
    assert(s.tokens.includes('<') && s.tokens.includes('img'), JSON.stringify(s.tokens));
    assert(!(await page.evaluate(() => document.querySelector('img'))), 'markup became an element');
  });

  await test('WebGL context loss (WEBGL_lose_context) is recovered without reload', async () => {
    const marker = await page.evaluate(() => { window.notReloaded = true; return true; });
    await page.evaluate(async () => {
      const gl = document.getElementById('canvas').getContext('webgl2');
      const ext = gl.getExtension('WEBGL_lose_context');
      ext.loseContext();
      await new Promise((r) => setTimeout(r, 300));
      ext.restoreContext();
      await new Promise((r) => setTimeout(r, 500));
    });
    const f0 = (await state()).frames;
    await call('setHeads', 1);
    await sleep(500);
    const s = await state();
    assert(marker && (await page.evaluate(() => window.notReloaded)), 'the page reloaded');
    assert(s.frames > f0 && s.heads === 1, `frames ${f0} -> ${s.frames}`);
    const pixels = await page.evaluate(() => {
      const c = document.getElementById('canvas'), gl = c.getContext('webgl2');
      const px = new Uint8Array(4 * 64);
      gl.readPixels(0, 0, 64, 1, gl.RGBA, gl.UNSIGNED_BYTE, px);
      return { lost: gl.isContextLost(), any: px.some((v) => v !== 0) };
    });
    assert(!pixels.lost, 'context still lost');
  });

  await test('a page whose CSP forbids wasm shows the reason instead of a blank canvas', async () => {
    const p = await newPage('nowasm');
    await p.goto(`${APP}/embed.html?csp=nowasm`);
    await p.waitForFunction(() => getComputedStyle(document.getElementById('error')).display !== 'none', null, { timeout: 20_000 });
    const text = await p.evaluate(() => document.getElementById('error-text').textContent);
    assert(/Content Security Policy/.test(text) && /wasm-unsafe-eval/.test(text), text);
    await p.context().close();
    forget('nowasm');
  });

  // --- cross-origin hosts --------------------------------------------------------
  const host = await newPage('host');
  await test('a host page with two iframes in different states', async () => {
    await host.goto(`${HOST}/host/two.html`);
    await host.evaluate(() => Promise.all([window.waitReady(0), window.waitReady(1)]));
    const a = await host.evaluate((o) => window.ask(0, { type: 'headroom:get' }, o), APP);
    const b = await host.evaluate((o) => window.ask(1, { type: 'headroom:get' }, o), APP);
    assert(a.origin === APP && a.data.state.heads === 1, JSON.stringify(a.data.state && a.data.state.heads));
    assert(b.data.state.heads === 2 && b.data.state.tokens.length === 5, JSON.stringify(b.data.state.tokens));
  });

  await test('headroom:set changes one iframe only; refusals come back as error', async () => {
    const r = await host.evaluate((o) => window.ask(0, { type: 'headroom:set', heads: 4 }, o), APP);
    assert(r.data.state.heads === 4 && r.data.error === null, JSON.stringify(r.data.error));
    const b = await host.evaluate((o) => window.ask(1, { type: 'headroom:get' }, o), APP);
    assert(b.data.state.heads === 2, 'the other iframe changed');
    for (const bad of [{ heads: 0 }, { heads: -1 }, { heads: 3.5 }, { heads: NaN }, { heads: Infinity }, { heads: 16 },
      { heads: 999999 }, { heads: '2' }, { sentence: 42 }, { focus: 'x' }, { view: '<script>' }, { bogus: 1 }]) {
      const x = await host.evaluate(([o, m]) => window.ask(0, { type: 'headroom:set', ...m }, o), [APP, bad]);
      assert(x.data.error && x.data.state.heads === 4, `${JSON.stringify(bad)}: ${x.data.error}`);
    }
  });

  await test('headroom:set applies its fields in the order a link does (the wasm\'s tables), not the message\'s', async () => {
    // Written query and knockout first: applied first, query 12 would be
    // refused (the lesson has 11 tokens) and heads 2 would clear the knockout.
    const m = { type: 'headroom:set', query: 12, knockout: [1], heads: 2,
      sentence: 'The teacher who graded the long test said it was too hard.' };
    const r = await host.evaluate(([o, msg]) => window.ask(0, msg, o), [APP, m]);
    const s = r.data.state;
    assert(r.data.error === null && s.tokens.length === 13 && s.query === 12, `${r.data.error}: ${s.tokens.length} tokens, query ${s.query}`);
    assert(s.heads === 2 && JSON.stringify(s.knockout) === '[1]', `heads ${s.heads}, knockout ${JSON.stringify(s.knockout)}`);
    const back = await host.evaluate(([o, msg]) => window.ask(0, msg, o),
      [APP, { type: 'headroom:set', sentence: 'The researcher who wrote the paper said it was wrong.', heads: 4 }]);
    assert(back.data.error === null && back.data.state.heads === 4 && back.data.state.knockout.length === 0, JSON.stringify(back.data.error));
  });

  await test('headroom:train steps, plays and pauses one iframe and answers with the train state', async () => {
    const ask = (m) => host.evaluate(([o, msg]) => window.ask(1, msg, o), [APP, m]);
    const r = await ask({ type: 'headroom:train', action: 'reset', seed: 5 });
    assert(r.data.type === 'headroom:train-state' && r.data.error === null, JSON.stringify(r.data.error));
    assert(r.data.train.seed === 5 && r.data.train.step === 0, JSON.stringify(r.data.train.seed));
    const s = await ask({ type: 'headroom:train', action: 'step', n: 3 });
    assert(s.data.train.step === 3 && s.data.train.runs.length === 3, `step ${s.data.train.step}`);
    const a = await host.evaluate((o) => window.ask(0, { type: 'headroom:train', action: 'step' }, o), APP);
    assert(a.data.train.step === 1, `the other iframe: step ${a.data.train.step}`);
    for (const bad of [{ action: 'step', n: 0 }, { action: 'step', n: '3' }, { action: 'reset', seed: -1 },
      { action: 'reset', r: 3 }, { action: 'reset', lr: 'fast' }, { action: 'explode' }, {}]) {
      const x = await ask({ type: 'headroom:train', ...bad });
      assert(x.data.error && x.data.train.step === 3 && x.data.train.seed === 5,
        `${JSON.stringify(bad)}: error ${x.data.error}, step ${x.data.train.step}`);
    }
    const w = await host.evaluate((o) => window.ask(1, { type: 'headroom:set', weights: 'trained' }, o), APP);
    assert(w.data.error === null && w.data.state.modelWeights.shown === 'trained', JSON.stringify(w.data.state.modelWeights));
    const p = await ask({ type: 'headroom:train', action: 'play' });
    assert(p.data.train.running === true, 'not running after play');
    const q = await ask({ type: 'headroom:train', action: 'pause' });
    assert(q.data.train.running === false, 'running after pause');
    // knockout: the roles runs have no text heads, so it is refused and nothing changes ...
    const no = await ask({ type: 'headroom:train', action: 'knockout', layer: 1, head: 1, heads: 2 });
    assert(no.data.knockout === null && /task "text"/.test(no.data.error || '') && no.data.train.knockout === null &&
      no.data.train.step === q.data.train.step, `knockout on roles: ${JSON.stringify([no.data.error, no.data.knockout])}`);
    // ... and on the text model it answers with the loss with and without the head, as train.state() keeps it.
    const t = await ask({ type: 'headroom:train', action: 'reset', task: 'text', layers: 1, seed: 3 });
    assert(t.data.error === null && t.data.train.task === 'text', `text reset: ${t.data.error}`);
    await ask({ type: 'headroom:train', action: 'step', n: 2 });
    const k = await ask({ type: 'headroom:train', action: 'knockout', layer: 1, head: 2, heads: 4 });
    const kept = k.data.train.knockout;
    assert(k.data.error === null && k.data.knockout && k.data.knockout.heads === 4 && k.data.knockout.head === 2 &&
      Number.isFinite(k.data.knockout.lossBefore) && kept && kept.lossAfter === k.data.knockout.lossAfter,
      `knockout: ${JSON.stringify([k.data.error, k.data.knockout, kept])}`);
    await ask({ type: 'headroom:train', action: 'reset', task: 'roles', seed: 5 });
  });

  await test('__proto__ keys, non-objects and messages without a type are harmless', async () => {
    const r = await host.evaluate((o) => {
      const f = document.querySelectorAll('iframe')[0].contentWindow;
      for (const m of ['headroom:set', 42, null, [1, 2], { heads: 8 }, { type: 7 }, { type: 'other:thing' }]) f.postMessage(m, o);
      return window.ask(0, JSON.parse('{"type":"headroom:set","__proto__":{"heads":8,"polluted":true},"heads":2}'), o);
    }, APP);
    assert(r.data.state.heads === 2 && /__proto__/.test(r.data.error), JSON.stringify([r.data.state.heads, r.data.error]));
    assert(!(await host.evaluate(() => ({}).polluted)), 'host prototype polluted');
  });

  await test('messages from a wrong origin or from "null" are ignored', async () => {
    await host.evaluate(() => { document.getElementById('rogue').contentWindow.postMessage('go', '*');
      document.getElementById('nullrogue').contentWindow.postMessage('go', '*'); });
    await sleep(500);
    const r = await host.evaluate((o) => window.ask(0, { type: 'headroom:get' }, o), APP);
    assert(r.data.state.heads === 2, `heads = ${r.data.state.heads}`);
  });

  await test('a burst of 1000 messages: 1000 replies, final state from the last', async () => {
    const r = await host.evaluate(async (o) => {
      const f = document.querySelectorAll('iframe')[0].contentWindow;
      const n0 = window.replies.length;
      for (let i = 0; i < 1000; ++i) f.postMessage({ type: 'headroom:set', heads: [1, 2, 4, 8][i % 4], id: `b${i}` }, o);
      const t0 = Date.now();
      while (window.replies.filter((x) => x.data && typeof x.data.id === 'string' && x.data.id.startsWith('b')).length < 1000 && Date.now() - t0 < 20000) {
        await new Promise((res) => setTimeout(res, 50));
      }
      const mine = window.replies.slice(n0).filter((x) => x.data && typeof x.data.id === 'string' && x.data.id.startsWith('b'));
      return { n: mine.length, last: mine[mine.length - 1].data.state.heads };
    }, APP);
    assert(r.n === 1000 && r.last === 8, JSON.stringify(r));
  });

  await test('a host <input> keeps Backspace and typing while Headroom is on the page', async () => {
    await host.click('#host-input');
    await host.keyboard.press('End');
    await host.keyboard.press('Backspace');
    await host.keyboard.type('Z');
    assert((await host.inputValue('#host-input')) === 'abZ', await host.inputValue('#host-input'));
  });

  await test('messages sent before ready are queued and answered', async () => {
    const p = await newPage('early');
    await p.goto(`${HOST}/host/early.html`);
    await p.waitForFunction(() => window.replies.some((r) => r.data && r.data.id === 'early'), null, { timeout: 30_000 });
    const r = await p.evaluate(() => window.replies.find((x) => x.data && x.data.id === 'early').data);
    assert(r.state && r.state.heads === 4, JSON.stringify(r.error));
    await p.context().close();
  });

  await test('a sandboxed iframe (sandbox="allow-scripts") loads with CORS and answers', async () => {
    const p = await newPage('sandboxed');
    await p.goto(`${HOST}/host/sandboxed.html`);
    await p.evaluate(() => window.waitReady(0));
    const r = await p.evaluate((o) => window.ask(0, { type: 'headroom:get' }, o), '*');
    assert(r.origin === 'null' && r.data.state.heads === 2, JSON.stringify([r.origin, r.data.state && r.data.state.heads]));
    await p.context().close();
  });

  // --- exports --------------------------------------------------------
  // A CSV export as {quantity: [[run, head, row, column, label, value], ...]} (RFC 4180).
  const readCsv = (text) => {
    const rows = [[]];
    let field = '', quoted = false;
    for (let i = 0; i < text.length; ++i) {
      const c = text[i];
      if (quoted) {
        if (c === '"' && text[i + 1] === '"') { field += '"'; ++i; } else if (c === '"') quoted = false; else field += c;
      } else if (c === '"' && field === '') quoted = true;
      else if (c === ',' || c === '\n') { rows[rows.length - 1].push(field); field = ''; if (c === '\n') rows.push([]); } else field += c;
    }
    const out = {};
    for (const r of rows.slice(1)) if (r.length === 7) (out[r[0]] ||= []).push(r.slice(1));
    return { header: rows[0], by: out };
  };
  await test('exportView: CSV and JSON numbers equal getState() and train.state(); a bad view or format rejects by name', async () => {
    const p = await newPage('export-numbers');
    await loadEmbed(p, '#heads=2');
    await p.evaluate(() => window.headroom.train.step(40));
    const { state, train, json, csv } = await p.evaluate(async () => {
      const h = window.headroom;
      const views = ['lesson', 'attention', 'values', 'readout', 'concat', 'steps', 'train'];
      const json = {}, csv = {};
      for (const v of views) { json[v] = JSON.parse(await h.exportView(v, 'json')); csv[v] = await h.exportView(v, 'csv'); }
      return { state: h.getState(), train: h.train.state(), json, csv };
    });
    const same = (a, b, what) => assert(JSON.stringify(a) === JSON.stringify(b), `${what}: ${JSON.stringify(a).slice(0, 120)} vs ${JSON.stringify(b).slice(0, 120)}`);
    same(json.attention.weights, state.weights, 'attention weights');
    same(json.attention.scores, state.scores, 'attention scores');
    same(json.values.valueSpace, state.valueSpace, 'value space');
    same(json.values.targets, state.targets, 'targets');
    same(json.readout.readout, state.readout, 'readout');
    same(json.readout.carried, state.carried, 'carried');
    same(json.lesson.weights, state.weights, 'lesson weights');
    for (const k of ['seed', 'r', 'lr', 'step']) same(json.train.train[k], train[k], `train.${k}`);
    same(json.train.train.runs, train.runs, 'train runs (histories, per-head weights)');
    // CSV: every weight and every history point, against getState() and train.state().
    const a = readCsv(csv.attention);
    same(a.header, ['quantity', 'run', 'head', 'row', 'column', 'label', 'value'], 'CSV header');
    for (const [run, head, row, col, label, value] of a.by.weights) {
      assert(Number(value) === state.weights[head - 1][col] && Number(row) === state.query && label === state.tokens[col],
        `weights row ${head},${row},${col},${label}: ${value} vs ${state.weights[head - 1][col]}`);
    }
    assert(a.by.weights.length === state.heads * state.tokens.length, `${a.by.weights.length} weight rows`);
    const t = readCsv(csv.train);
    for (const r of train.runs) {
      const name = `h${r.heads}${r.tieQK ? '-tied' : ''}`;
      const rows = t.by.loss.filter((x) => x[0] === name);
      same(rows.map((x) => [Number(x[3]), Number(x[5])]), r.history, `${name} loss history`);
      const w = t.by.weightOn.filter((x) => x[0] === name);
      same(w.map((x) => Number(x[5])), r.perHead.flatMap((h) => h.weightOn), `${name} weightOn`);
    }
    const bad = await p.evaluate(async () => {
      const h = window.headroom;
      const why = (f) => f().then(() => 'resolved', (e) => `${e.name}: ${e.message}`);
      return [await why(() => h.exportView('heatmaps', 'csv')), await why(() => h.exportView('values', 'gif')),
        await why(() => h.exportView(3, 'png')), h.getState().error];
    });
    assert(/heatmaps/.test(bad[0]) && /lesson, attention/.test(bad[0]), bad[0]);
    assert(/gif/.test(bad[1]) && /png, csv or json/.test(bad[1]), bad[1]);
    assert(/TypeError/.test(bad[2]), bad[2]);
    assert(bad[3] === null, `a refused export changed the state's error: ${bad[3]}`);
    await p.context().close();
  });

  await test('exportView png: each view\'s card in device pixels (DPR 2), as drawn on the page; views and themes differ', async () => {
    const p = await newPage('export-png', { viewport: { width: 1100, height: 900 }, deviceScaleFactor: 2 });
    await loadEmbed(p, '#heads=2');
    await sleep(600);
    const views = ['lesson', 'attention', 'values', 'readout', 'concat', 'steps', 'train'];
    const got = await p.evaluate(async (vs) => {
      const h = window.headroom, out = {};
      for (const v of vs) out[v] = Array.from(new Uint8Array(await (await h.exportView(v, 'png')).arrayBuffer()));
      const c = document.getElementById('canvas');
      return { out, cards: h.debug.layout().cards, canvas: [c.width, c.height] };
    }, views);
    const pngs = Object.fromEntries(views.map((v) => [v, decodePng(Buffer.from(got.out[v]))]));
    assert(pngs.lesson.width === got.canvas[0] && pngs.lesson.height === got.canvas[1], `lesson ${pngs.lesson.width} x ${pngs.lesson.height}, canvas ${got.canvas}`);
    for (const v of views.slice(1)) {
      const [x0, y0, x1, y1] = got.cards[v];
      assert(Math.abs(pngs[v].width - Math.round((x1 - x0) * 2)) <= 1, `${v}: ${pngs[v].width} px wide, its card ${x1 - x0} CSS px`);
    }
    // One card each on the page, drawn alone the same: the height agrees too.
    for (const v of ['values', 'steps']) {
      const [, y0, , y1] = got.cards[v];
      assert(Math.abs(pngs[v].height - Math.round((y1 - y0) * 2)) <= 2, `${v}: ${pngs[v].height} px high, its card ${y1 - y0} CSS px`);
    }
    const fingerprint = (img) => { let h = 0; for (let i = 0; i < img.rgba.length; i += 7) h = (h * 31 + img.rgba[i]) >>> 0; return `${img.width}x${img.height}:${h}`; };
    const prints = new Set(views.map((v) => fingerprint(pngs[v])));
    assert(prints.size === views.length, `only ${prints.size} different pictures for ${views.length} views`);
    // Dark as shown: the same card's mean brightness drops.
    const mean = (img) => { let s = 0; for (let i = 0; i < img.rgba.length; i += 4) s += img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2]; return s / (img.rgba.length / 4) / 3; };
    await p.evaluate(() => window.headroom.applyHash('theme=dark'));
    const dark = decodePng(Buffer.from(await p.evaluate(async () => Array.from(new Uint8Array(await (await window.headroom.exportView('values', 'png')).arrayBuffer())))));
    assert(dark.width === pngs.values.width && mean(dark) < mean(pngs.values) - 60, `light ${mean(pngs.values)}, dark ${mean(dark)}`);
    await p.context().close();
  });

  await test('a sandboxed frame: Save (real clicks) posts headroom:export to the host; snapshots too; headroom:export asks', async () => {
    const p = await newPage('sandboxed-export');
    await p.goto(`${HOST}/host/sandboxed.html`);
    await p.evaluate(() => window.waitReady(0));
    const frame = await (await p.locator('iframe').elementHandle()).contentFrame();
    await sleep(600);
    const box = await p.locator('iframe').boundingBox();
    const click = async ([x0, y0, x1, y1]) => {
      await p.mouse.move(box.x + (x0 + x1) / 2, box.y + (y0 + y1) / 2);
      await p.mouse.down();
      await p.mouse.up();
      await sleep(500);
    };
    const exports = () => p.evaluate(() => window.replies.filter((r) => r.data && r.data.type === 'headroom:export' && !r.data.id));
    for (const [item, format] of [[1, 'csv'], [0, 'png']]) {
      const l0 = await frame.evaluate(() => window.headroom.debug.layout());
      assert(l0.save.length >= 1, `no Save button: ${JSON.stringify(l0.save)}`);
      await click(l0.save[0]);
      const l1 = await frame.evaluate(() => window.headroom.debug.layout());
      assert(l1.saveMenu.length === 3, `menu items ${JSON.stringify(l1.saveMenu)}`);
      const before = (await exports()).length;
      await click(l1.saveMenu[item]);
      await p.waitForFunction((n) => window.replies.filter((r) => r.data && r.data.type === 'headroom:export' && !r.data.id).length > n, before, { timeout: 20_000 });
    }
    const [csvMsg, pngMsg] = await p.evaluate(async () => {
      const xs = window.replies.filter((r) => r.data && r.data.type === 'headroom:export' && !r.data.id).map((r) => r.data);
      const png = xs.find((x) => x.format === 'png');
      return [xs.find((x) => x.format === 'csv'),
        { view: png.view, name: png.name, isBlob: png.data instanceof Blob, bytes: Array.from(new Uint8Array(await png.data.arrayBuffer())) }];
    });
    const own = await frame.evaluate(() => window.headroom.exportView('values', 'csv'));
    assert(csvMsg.view === 'values' && csvMsg.name === 'headroom-values-h2.csv' && csvMsg.data === own, `csv message ${JSON.stringify(csvMsg).slice(0, 200)}`);
    const img = decodePng(Buffer.from(pngMsg.bytes));
    assert(pngMsg.isBlob && pngMsg.view === 'values' && img.width > 100 && img.height > 100, `png message ${JSON.stringify([pngMsg.isBlob, pngMsg.view, img.width, img.height])}`);
    // The snapshot download goes the same way (it would be dropped silently otherwise).
    await frame.evaluate(async () => { await window.headroom.train.step(2); window.headroom.train.download(2); });
    await p.waitForFunction(() => window.replies.some((r) => r.data && r.data.type === 'headroom:export' && r.data.format === 'snapshot'), null, { timeout: 20_000 });
    const snap = await p.evaluate(() => window.replies.find((r) => r.data && r.data.format === 'snapshot').data);
    assert(/^headroom-snapshot-h2-seed\d+-r2-step2\.json$/.test(snap.name) && JSON.parse(snap.data).heads === 2, snap.name);
    // Asked by message, no click: the reply carries the data.
    const r = await p.evaluate(() => window.ask(0, { type: 'headroom:export', view: 'attention', format: 'json' }, '*'));
    assert(r.data.error === null && JSON.parse(r.data.data).view === 'attention', JSON.stringify(r.data).slice(0, 200));
    const bad = await p.evaluate(() => window.ask(0, { type: 'headroom:export', view: 'nope', format: 'json' }, '*'));
    assert(bad.data.data === null && /nope/.test(bad.data.error), JSON.stringify(bad.data));
    await p.context().close();
  });

  // --- the ES module ---------------------------------------------------------------
  await test('ES module: two createHeadroom instances on one page are independent', async () => {
    const p = await newPage('module');
    await p.goto(`${APP}/module.html?csp=strict`);
    await p.waitForFunction(() => window.h, null, { timeout: 40_000 });
    const err = await p.evaluate(() => (typeof window.h === 'string' ? window.h : null));
    assert(!err, err);
    const [a, b] = await p.evaluate(() => window.h.map((x) => x.getState()));
    assert(a.heads === 1 && b.heads === 2 && b.tokens[0] === 'Two', JSON.stringify([a.heads, b.heads, b.tokens]));
    await p.evaluate(() => window.h[0].setHeads(8));
    const [a2, b2] = await p.evaluate(() => window.h.map((x) => x.getState()));
    assert(a2.heads === 8 && b2.heads === 2, JSON.stringify([a2.heads, b2.heads]));
    // keys reach an instance only while its canvas has focus
    await p.click('#c2');
    await p.keyboard.press('4');
    await sleep(300);
    const [a3, b3] = await p.evaluate(() => window.h.map((x) => x.getState()));
    assert(a3.heads === 8 && b3.heads === 4, `after "4" on c2: ${a3.heads}, ${b3.heads}`);
    await p.click('#host-input');
    await p.keyboard.press('End');
    await p.keyboard.press('Backspace');
    assert((await p.inputValue('#host-input')) === 'ab', 'Backspace swallowed');
    assert((await p.evaluate(() => window.h[1].getState().heads)) === 4, 'keys leaked to the canvas');
    // the wheel scrolls the host page unless the UI under the pointer can scroll
    const box = await p.evaluate(() => { const r = document.getElementById('c1').getBoundingClientRect(); return [r.x, r.y]; });
    await p.mouse.move(box[0] + 40, box[1] + 40);
    await sleep(300);
    const wants = await p.evaluate(() => window.h[0].getState().uiWantsWheel);
    await p.mouse.wheel(0, 400);
    await sleep(300);
    const scrolled = (await p.evaluate(() => window.scrollY)) > 0;
    assert(scrolled === !wants, `uiWantsWheel ${wants}, host scrolled ${scrolled}`);
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.mouse.move(5, 780);  // over the host's own content
    await p.mouse.wheel(0, 400);
    await sleep(300);
    assert((await p.evaluate(() => window.scrollY)) > 0, 'the host page did not scroll outside the canvas');
    await p.context().close();
  });

  // --- devices and preferences -------------------------------------------------------
  await test('390 x 844 at DPR 3 with touch: loads, backing store is CSS size x 3, taps work', async () => {
    const p = await newPage('phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    await loadEmbed(p, '#heads=1');
    await sleep(300);
    const c = await p.evaluate(() => { const e = document.getElementById('canvas'); const r = e.getBoundingClientRect();
      return { w: e.width, h: e.height, cw: r.width, ch: r.height }; });
    assert(Math.abs(c.w - c.cw * 3) <= 1 && Math.abs(c.h - c.ch * 3) <= 1, JSON.stringify(c));
    await p.touchscreen.tap(100, 100);
    await sleep(300);
    assert((await p.evaluate(() => window.headroom.getState().heads)) === 1, 'state changed');
    await p.context().close();
  });

  await test('prefers-reduced-motion: loads and runs', async () => {
    const p = await newPage('reduced', { reducedMotion: 'reduce' });
    await loadEmbed(p, '#heads=2');
    assert((await p.evaluate(() => window.headroom.setHeads(1).heads)) === 1, 'setHeads failed');
    await p.context().close();
  });
}

await runSuite('embed', embedTests, SUITE_TIMEOUT_MS, { serve, needs: ['embed.html'] });
