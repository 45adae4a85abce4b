// messages.fuzz.test.mjs: property-based tests (fast-check) of what a hostile
// or careless host page can post to an embedded Headroom: the postMessage
// bridge (web/headroom-embed.mjs) and the validation behind it (the verb table
// of web/headroom.mjs and the C++ verbs), exactly as the frame runs them.
//
// Does: load a host page of another origin with the embed in an iframe, and
// post generated messages to it from the host:
// 1. anything: values of every structured-clone kind (objects, arrays,
//    strings up to 1 MB, -0, NaN, +-Infinity, 1e309, huge and negative
//    numbers, booleans, null, nested and cyclic objects, keys such as
//    __proto__, constructor and prototype, as own properties), under a
//    headroom:* type or another: every headroom:* message gets exactly one
//    reply carrying its id; the state in every reply is well formed (heads in
//    1, 2, 4, 8; 1..32 tokens; query and focus in range; every number
//    finite); an error, when there is one, is a short sentence (< 600 chars,
//    so a 1 MB value is never echoed back);
// 2. refusals change nothing: a headroom:set whose every field is invalid
//    leaves the state exactly as it was and names why; a headroom:train with
//    an invalid action or invalid reset values leaves train.state() as it was;
// 3. no page error or console error in the host or the frame.
// Runs NUM_RUNS generated messages per property (HEADROOM_FUZZ_RUNS overrides)
// from a fixed seed (HEADROOM_FUZZ_SEED overrides); a failure prints the
// shrunk counterexample and the seed to replay it.
// Does not: fuzz the C++ parsers (tests/fuzz/ does, with libFuzzer).
//
// Run: node tests/browser/messages.fuzz.test.mjs   (after ./build.sh build)
import { createServer } from 'node:http';
import fc from 'fast-check';
import { assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 240_000;
const NUM_RUNS = Number(process.env.HEADROOM_FUZZ_RUNS || 150);
const SEED = Number(process.env.HEADROOM_FUZZ_SEED || 20261201);
const HEAD_COUNTS = [1, 2, 4, 8];

// ---------------------------------------------------------------------------
// values: generated in node as a recipe (JSON with markers), built in the
// host page into the real value (so -0, NaN, cycles and __proto__ keys
// survive the trip into the page), then posted
// ---------------------------------------------------------------------------
const special = fc.constantFrom(
  { $: 'nan' }, { $: 'inf' }, { $: '-inf' }, { $: '-0' }, { $: '1e309' }, { $: 'big' },
  { $: 'cycle' }, { $: 'mb' }, { $: 'undefined' }, { $: 'date' }, { $: 'bigint' });
const key = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'type', 'id', 'heads', 'sentence',
  'query', 'focus', 'view', 'theme', 'weights', 'action', 'seed', 'r', 'lr', 'n', 'toString', 'valueOf'), fc.string());
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true },
    fc.integer(), fc.double(), fc.string(), fc.string({ unit: 'grapheme' }), fc.boolean(), fc.constant(null), special,
    fc.array(tie('value'), { maxLength: 5 }).map((items) => ({ $: 'array', items })),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map((fields) => ({ $: 'object', fields }))),
}));
const type = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('headroom:get', 'headroom:set', 'headroom:train', 'headroom:', 'headroom:tour', 'headroom:nope') },
  { weight: 1, arbitrary: fc.constantFrom('HEADROOM:set', 'other:set') }, { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: value });
const anyMessage = fc.tuple(type, fc.array(fc.tuple(key, value), { maxLength: 6 }))
  .map(([t, fields]) => ({ $: 'object', fields: [['type', t], ...fields] }));

// Invalid values for each headroom:set field (checked against the lesson sentence, 11 tokens).
const notString = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null), special,
  fc.constant({ $: 'array', items: [] }), fc.constant({ $: 'object', fields: [] }));
const badNumber = (valid) => fc.oneof(fc.string(), fc.boolean(), fc.constant(null),
  fc.constantFrom({ $: 'nan' }, { $: 'inf' }, { $: '-inf' }, { $: '1e309' }, { $: 'cycle' }, { $: 'mb' }),
  fc.double().filter((d) => !valid(d)), fc.constant({ $: 'array', items: [2] }));
const BAD_SET = {
  heads: badNumber((d) => HEAD_COUNTS.includes(d)),
  query: badNumber((d) => Number.isInteger(d) && d >= 0 && d < 11),
  // focus crosses into C++ as a float: -1e-320 is -0 there, 1 + 1e-9 is 1
  focus: badNumber((d) => Math.fround(d) >= 0 && Math.fround(d) <= 1),
  sentence: fc.oneof(notString, fc.constant({ $: 'mb' }), fc.constant('')),
  view: fc.oneof(notString, fc.string().filter((s) => !/^[a-z]+$/.test(s))),
  theme: fc.oneof(notString, fc.constantFrom('Dark', 'blue', ' light', '')),
  weights: fc.oneof(notString, fc.constantFrom('Built', 'train', '', 'trained ')),
};
const badSet = fc.record(BAD_SET, { requiredKeys: [] })
  .filter((r) => Object.keys(r).length > 0)
  .map((r) => ({ $: 'object', fields: [['type', 'headroom:set'], ...Object.entries(r)] }));
const badTrain = fc.oneof(
  fc.tuple(fc.oneof(fc.constantFrom('Reset', 'stop', 'snapshot', 'download', ''), notString), fc.anything())
    .map(([action]) => ({ $: 'object', fields: [['type', 'headroom:train'], ['action', action]] })),
  fc.record({
    seed: fc.oneof(fc.integer({ max: -1 }), fc.double().filter((d) => !Number.isInteger(d)), fc.constant(2 ** 32), notString),
    r: fc.oneof(fc.integer().filter((r) => r !== 2 && r !== 4), notString),
    lr: fc.oneof(fc.double({ min: 10.5, max: 1e300, noNaN: true }), fc.double({ max: -1e-9, noNaN: true }), fc.constant(0), notString),
  }, { requiredKeys: [] }).filter((r) => Object.keys(r).length > 0)
    .map((r) => ({ $: 'object', fields: [['type', 'headroom:train'], ['action', 'reset'], ...Object.entries(r)] })));

// In the host page: recipe -> value, post it with an id, await the reply.
const HOST_SCRIPT = `
  window.replies = [];
  addEventListener('message', (e) => { if (e.source === frames[0]) window.replies.push(e.data); });
  window.build = function build(r, root) {
    if (r === null || typeof r !== 'object') return r;
    switch (r.$) {
      case 'nan': return NaN; case 'inf': return Infinity; case '-inf': return -Infinity;
      case '-0': return -0; case '1e309': return Number('1e309'); case 'big': return 2 ** 80;
      case 'mb': return 'x'.repeat(1 << 20); case 'undefined': return undefined;
      case 'date': return new Date(0); case 'bigint': return 12345678901234567890n;
      case 'cycle': { const o = { a: 1 }; o.self = o; o.list = [o]; return o; }
      case 'array': return r.items.map((x) => build(x, root));
      case 'object': {
        const o = {};
        for (const [k, v] of r.fields) Object.defineProperty(o, k, { value: build(v, root), enumerable: true, configurable: true, writable: true });
        return o;
      }
    }
    return r;
  };
  window.post = (recipe, id, wait) => new Promise((resolve) => {
    const m = build(recipe);
    if (m && typeof m === 'object' && !Array.isArray(m)) Object.defineProperty(m, 'id', { value: id, enumerable: true, configurable: true, writable: true });
    const n = window.replies.length;
    frames[0].postMessage(m, window.APP);
    if (!wait) { setTimeout(() => resolve([]), 30); return; }
    const t0 = performance.now();
    const poll = () => {
      const mine = window.replies.filter((x) => x && x.id === id);
      if (mine.length && performance.now() - t0 > 40) return resolve(mine);
      if (performance.now() - t0 > 8000) return resolve(mine);
      setTimeout(poll, 10);
    };
    poll();
  });`;

function checkState(s) {
  assert(s && typeof s === 'object', `reply without a state: ${JSON.stringify(s)}`);
  assert(HEAD_COUNTS.includes(s.heads), `heads ${s.heads}`);
  assert(Array.isArray(s.tokens) && s.tokens.length >= 1 && s.tokens.length <= 32, `tokens ${s.tokens && s.tokens.length}`);
  assert(Number.isInteger(s.query) && s.query >= 0 && s.query < s.tokens.length, `query ${s.query}`);
  assert(s.focus >= 0 && s.focus <= 1, `focus ${s.focus}`);
  const walk = (v, where) => {
    if (typeof v === 'number') assert(Number.isFinite(v), `${where} is ${v}`);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${where}.${k}`);
  };
  walk(s, 'state');
}
// What a refused message must leave alone.
const lessonOf = (s) => JSON.stringify({ tokens: s.tokens, heads: s.heads, query: s.query, focus: s.focus,
  view: s.view, theme: s.theme, text: s.text, weights: s.modelWeights && s.modelWeights.choice });
const trainOf = (t) => JSON.stringify({ seed: t.seed, r: t.r, lr: t.lr, step: t.step,
  runs: t.runs.map((r) => [r.heads, r.steps, r.loss]) });

async function messageTests({ browser, url, watch }) {
  const APP = url.replace(/\/$/, '');
  // The host page: another origin (localhost, its own port), served for real
  // (a page fulfilled by page.route counts as public, and Chromium then keeps
  // it from framing a loopback address).
  const hostPage = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body>
      <iframe src="${APP}/embed.html#heads=1" width="640" height="560"></iframe>
      <script>window.APP = ${JSON.stringify(APP)};${HOST_SCRIPT}</script>`;
  const hostServer = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(hostPage);
  });
  await new Promise((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  const HOST = `http://localhost:${hostServer.address().port}`;
  const context = await browser.newContext({ viewport: { width: 900, height: 700 } });
  const page = await context.newPage();
  watch(page, 'host');
  await page.goto(`${HOST}/fuzz-host.html`);
  await page.waitForFunction(() => window.replies.some((r) => r && r.type === 'headroom:ready'), null, { timeout: 60_000 });
  const frame = page.frames().find((f) => f.url().startsWith(`${APP}/embed.html`));
  let n = 0;
  const post = (recipe, wait = true) => page.evaluate(([r, id, w]) => window.post(r, id, w), [recipe, `fz${++n}`, wait]);
  const get = async () => (await post({ $: 'object', fields: [['type', 'headroom:get']] }))[0].state;
  const trainState = () => frame.evaluate(() => window.headroom.train.state());
  const params = { numRuns: NUM_RUNS, seed: SEED, endOnFailure: true, includeErrorInReport: true };

  await test(`messages: ${NUM_RUNS} arbitrary messages, each headroom:* one answered once with a well-formed state`, async () => {
    let answered = 0;
    await fc.assert(fc.asyncProperty(anyMessage, async (recipe) => {
      const types = recipe.fields.filter(([k]) => k === 'type');
      const t = types[types.length - 1][1];  // the last own 'type' is the one the message has
      const forUs = typeof t === 'string' && t.startsWith('headroom:');
      const replies = await post(recipe, forUs);
      if (!forUs) { assert(replies.length === 0, 'a message not for Headroom was answered'); return; }
      assert(replies.length === 1, `${replies.length} replies to one message`);
      const r = replies[0];
      ++answered;
      if (r.type === 'headroom:train-state') {
        assert(r.train && Array.isArray(r.train.runs), 'train-state without train');
      } else if (r.type !== 'headroom:tour-state') {
        assert(r.type === 'headroom:state', `reply type ${r.type}`);
        checkState(r.state);
      }
      assert(r.error === null || (typeof r.error === 'string' && r.error.length > 0 && r.error.length < 600),
        `error of ${r.error && r.error.length} chars: ${String(r.error).slice(0, 120)}`);
    }), params);
    console.log(`      ${answered} headroom:* messages answered`);
    checkState(await get());
  });

  await test(`messages: ${NUM_RUNS} headroom:set with every field invalid change nothing and say why`, async () => {
    await post({ $: 'object', fields: [['type', 'headroom:set'], ['heads', 2], ['sentence', 'The researcher who wrote the paper said it was wrong.']] });
    await fc.assert(fc.asyncProperty(badSet, async (recipe) => {
      const before = lessonOf(await get());
      const [r] = await post(recipe);
      assert(r && typeof r.error === 'string' && r.error.length > 0, `no error for ${JSON.stringify(recipe).slice(0, 200)}`);
      assert(r.error.length < 600, `error of ${r.error.length} chars`);
      const after = lessonOf(r.state);
      assert(after === before, `changed: ${before} -> ${after} by ${JSON.stringify(recipe).slice(0, 200)}`);
    }), params);
  });

  await test(`messages: ${Math.ceil(NUM_RUNS / 3)} headroom:train with a bad action or bad reset values change no run`, async () => {
    await fc.assert(fc.asyncProperty(badTrain, async (recipe) => {
      const before = trainOf(await trainState());
      const [r] = await post(recipe);
      assert(r && typeof r.error === 'string' && r.error.length > 0 && r.error.length < 600,
        `error: ${r && String(r.error).slice(0, 120)} for ${JSON.stringify(recipe).slice(0, 200)}`);
      const after = trainOf(await trainState());
      assert(after === before, `changed: ${before} -> ${after}`);
    }), { ...params, numRuns: Math.ceil(NUM_RUNS / 3) });
  });
  await context.close();
  hostServer.close();
}

await runSuite('messages', messageTests, SUITE_TIMEOUT_MS);
