// page_load.mjs: how long the page takes to start, in phases, in headless
// Chromium (./build.sh bench runs it after the forward benchmark).
//
// Does: serve build/web (tools/serve.mjs, no caching), load the page LOADS
// times, each in a fresh browser context, and print JSON lines:
//   {"variant":"page-load", "loads":5, one field per phase = median in ms}
//     fetchMs        headroom.wasm requested -> its last byte (Resource Timing)
//     compileMs      WebAssembly.compile[Streaming] call -> module (streaming:
//                    overlaps fetchMs, since it compiles while downloading)
//     instantiateMs  WebAssembly.instantiate(module, imports) -> instance
//     appInitMs      the app's own CPU work: main() (GL context, ImGui, fonts)
//                    + the first drawn frame (font atlas, scene, views, draw
//                    calls issued), from the app's performance marks
//                    (src/platform/web_main.cpp)
//     firstFrameMs   end of that CPU work -> the next animation frame, i.e.
//                    the browser drawing (SwiftShader: on the CPU) and
//                    presenting the first frame
//     readyMs        navigation start -> first frame presented (the total)
//     wasmRequestMs  navigation start -> headroom.wasm requested (what the
//                    loader does before it asks for the bytes)
//     wasmToReadyMs  headroom.wasm's last byte -> first frame presented
//                    ("ready within 100 ms of the wasm's arrival")
//   {"variant":"page-size", "files": {name: [raw, gzip]}, "rawBytes", "gzipBytes"}
//     every file the page fetched before its first frame, gzip -9 sizes
//   {"variant":"train-program", "loads", "startMs", "workerStartMs", "files", "gzipBytes"}
//     the training program, fetched and started when training is
//     first used, on a page that has started: startMs = importing
//     headroom-train.mjs, fetching headroom-train.js + headroom-train-worker.js,
//     starting the Worker from a blob URL, and its start message (median); workerStartMs = inside the
//     Worker: fetching, compiling and starting headroom-train.wasm; files
//     with raw and gzip -9 sizes (not counted in page-size)
//   {"variant":"text-corpus", "loads", "bytes", "gzipBytes", "fetchMs", "resetMs", "fetchedAtLoad"}
//     the text task's corpus (brown.bin), fetched by the Worker
//     when the text task is first used: bytes its size as fetched (the
//     state's corpus.bytes), gzipBytes gzip -9 of the file, fetchMs fetch to
//     loaded inside the Worker (corpus.fetchMs), resetMs the page's
//     train.reset({task: 'text'}) call to its answer (fetch, read, the runs'
//     step-0 evaluation), medians; fetchedAtLoad whether any page load above
//     asked for it (it must not)
//   {"variant":"train-play", "path": "worker" | "main thread", "loads", "splitMs",
//    "splitStep", "stepsPerSecond", "longestTaskMs", "drawnPerSecond",
//    "paintedPerSecond", "where"}
//     training played (the targets): the page opened with view=train,
//     seed 4242 at the default learning rate, play() until the split (1 head
//     above 0.45 and 2 heads below 0.25 held out, polled every 20 ms) and at
//     least 3 s; splitMs = play() -> the split seen, stepsPerSecond = steps
//     between play's and pause's answers over that wall time, longestTaskMs =
//     the Long Tasks API's longest main-thread task meanwhile (SwiftShader's
//     painting included), drawnPerSecond / paintedPerSecond = frames the
//     app drew meanwhile and how many of them painted the canvas
//     (headroom.debug.frames(); under software GL each painted frame costs
//     a raster in the GPU process and a read-back of the canvas, on the
//     same two cores as the training); medians. "worker": index.html; "main thread": the
//     same page served with worker-src 'none' (the fallback).
//   {"variant":"train-steps", "path", "loads", "steps", "stepsPerSecond", "where"}
//     the same runs from the same reset, train.step(80) timed from the call
//     to its answer: the page draws nothing meanwhile, so this is the rate
//     play could reach on that path if painting took no CPU (median)
//   {"variant":"train-play-tasks", "path": "worker", "tasks", "longestMs",
//    "appFrameMs", "readBackMs", "otherMs"}
//     one more play of the Worker path, traced (Chrome's trace events): every
//     main-thread task over 50 ms while playing, split into the app's frame
//     (the main loop's JS and wasm), the compositor's read-back of the canvas
//     (GLES2::ReadPixels: with software compositing the page waits for the
//     GPU process to raster and return the frame) and the rest; tasks =
//     how many, the others are each task's maximum over them
//   {"variant":"page-paint", "page", "loads", "fcpMs", "lcpMs", "lcpElement",
//    "lcpSize", "cls", "firstFrameMs"}
//     what a reader sees while it loads, as Chromium reports it, for
//     index.html (1280 x 800) and embed.html (640 x 560): fcpMs first
//     contentful paint, lcpMs / lcpElement / lcpSize the last largest
//     contentful paint before the first frame (its element as
//     tag#id.class, its area in CSS px), cls the sum of every layout shift
//     until one second after the first frame presented (PerformanceObserver),
//     firstFrameMs navigation start -> first frame presented; medians (the
//     element: the most common)
//   {"variant":"course-page", "frames":6, "caching", "loads", "readyMs":[...],
//    "lastReadyMs", "bytes":[...], "totalBytes", "rendererRssMB", "gpuRssMB"}
//     a course page of six embeds (embed.html, 640 x 560 each, two columns),
//     served with no caching ("no-store": every frame fetches everything) and
//     cacheable ("max-age": the frames may share what one fetched):
//     readyMs each frame's headroom:ready message at the host, from the
//     host's navigation start (in frame order), lastReadyMs the last of them,
//     bytes each frame's bytes over the wire before it was ready (Resource
//     Timing transferSize: 0 for what came from the cache), totalBytes their
//     sum, rendererRssMB / gpuRssMB the resident memory of Chromium's renderer
//     and GPU processes once all six are ready (/proc: this script's
//     process tree, so the launched browser's); medians over loads (lists:
//     per frame)
// The wasm phases are timed by wrapping WebAssembly's functions in an init
// script, so the page needs no bench code: an instantiate(bytes) call is
// split into compile + instantiate, which is what it does inside.
// Does not: throttle the network (the files come from 127.0.0.1, so fetchMs
// is the browser's own overhead), or judge the numbers (the machine varies;
// compare runs on one machine).
//
// Run: node tests/bench/page_load.mjs [site=build/web] [loads=5]
// (PAGE_LOAD_ONLY=1: the page-load, page-size, page-paint and course-page lines alone, for comparing builds;
// PAGE_LOAD_ONLY=phases: the page-load and page-size lines alone, what tests/browser/text.test.mjs checks;
// PAGE_HASH=lang=de: the page-load and page-size lines for index.html#lang=de, its catalogue included;
// PAGE_LOAD_ONLY=train: the training lines alone (train-play, train-steps, train-play-tasks), the Worker
// path only, for comparing two builds' training; TRAIN_PARTS=1..3 with it: the runs in that many Workers
// whatever navigator.hardwareConcurrency says)
import path from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_BROWSER, CHROMIUM_ARGS } from '../browser/harness.mjs';
import { serveStatic } from '../../tools/serve.mjs';
import { startWorker } from '../browser/train_worker_start.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = path.resolve(process.argv[2] || path.join(ROOT, 'build/web'));
const LOADS = Number(process.argv[3] || 5);
const STEPS_ALONE = 80;  // train-steps: about the steps play takes to the split

// Runs in the page before its own scripts: times WebAssembly's compile and
// instantiate steps, whichever way the loader calls them.
function wrapWebAssembly() {
  const W = WebAssembly, t = (window.__wasmTimes = { compile: 0, instantiate: 0 });
  const time = async (key, p) => { const t0 = performance.now(); const r = await p; t[key] += performance.now() - t0; return r; };
  const { compile, compileStreaming, instantiate, instantiateStreaming } = W;
  W.compile = (bytes) => time('compile', compile.call(W, bytes));
  if (compileStreaming) W.compileStreaming = (source) => time('compile', compileStreaming.call(W, source));
  W.instantiate = async (what, imports) => {
    if (what instanceof W.Module) return time('instantiate', instantiate.call(W, what, imports));
    const module = await W.compile(what);
    return { module, instance: await W.instantiate(module, imports) };
  };
  if (instantiateStreaming) {
    W.instantiateStreaming = async (source, imports) => {
      const module = await W.compileStreaming(source);
      return { module, instance: await W.instantiate(module, imports) };
    };
  }
}

// Runs in the page before its own scripts: first contentful paint, the
// largest contentful paints and the layout shifts into window.__paint.
function observePaint() {
  const p = (window.__paint = { fcp: null, lcp: [], shifts: 0 });
  const name = (e) => (e ? `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.classList.length ? `.${[...e.classList].join('.')}` : ''}` : null);
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === 'first-contentful-paint') p.fcp = e.startTime; })
    .observe({ type: 'paint', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) p.lcp.push({ t: e.startTime, size: e.size, element: name(e.element) });
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) p.shifts += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
}

// One load of `file` in a fresh context at `viewport`: what window.__paint saw.
async function paintOnce(browser, url, file, viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.addInitScript(observePaint);
    await page.goto(`${url}${file}`);
    await page.waitForFunction(() => performance.getEntriesByName('headroom:first-frame-presented').length > 0,
      null, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    return await page.evaluate(() => {
      const frame = performance.getEntriesByName('headroom:first-frame-presented')[0].startTime;
      const lcp = window.__paint.lcp.filter((e) => e.t <= frame).pop() || { t: null, size: null, element: null };
      return { fcpMs: window.__paint.fcp, lcpMs: lcp.t, lcpElement: lcp.element, lcpSize: lcp.size,
        cls: window.__paint.shifts, firstFrameMs: frame };
    });
  } finally {
    await context.close();
  }
}

// The page-paint line of `file`: medians over LOADS loads.
async function paintLine(browser, url, file, viewport) {
  const rs = [];
  for (let i = 0; i < LOADS; i++) rs.push(await paintOnce(browser, url, file, viewport));
  const med = (k) => round(median(rs.map((r) => r[k])));
  const counts = new Map();
  for (const r of rs) counts.set(r.lcpElement, (counts.get(r.lcpElement) || 0) + 1);
  const element = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0];
  return { variant: 'page-paint', page: file, loads: LOADS, fcpMs: med('fcpMs'), lcpMs: med('lcpMs'), lcpElement: element,
    lcpSize: med('lcpSize'), cls: Math.round(median(rs.map((r) => r.cls)) * 1e4) / 1e4, firstFrameMs: med('firstFrameMs') };
}

// One load in a fresh context: the phases in ms and the resources fetched.
async function loadOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.addInitScript(wrapWebAssembly);
    await page.goto(process.env.PAGE_HASH ? `${url}#${process.env.PAGE_HASH}` : url);
    await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.ready);
    await page.waitForFunction(() => performance.getEntriesByName('headroom:first-frame-presented').length > 0,
      null, { timeout: 60_000 });
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    return await page.evaluate(() => {
      const at = (name) => {
        const e = performance.getEntriesByName(`headroom:${name}`)[0];
        if (!e) throw new Error(`no performance mark headroom:${name}`);
        return e.startTime;
      };
      const presented = at('first-frame-presented');
      const resources = performance.getEntriesByType('resource').filter((r) => r.responseEnd <= presented);
      const wasm = resources.find((r) => new URL(r.name).pathname.endsWith('.wasm'));
      if (!wasm) throw new Error('no .wasm among the resources fetched before the first frame');
      return {
        phases: {
          fetchMs: wasm.responseEnd - wasm.startTime,
          compileMs: window.__wasmTimes.compile,
          instantiateMs: window.__wasmTimes.instantiate,
          appInitMs: (at('main-end') - at('main-start')) + (at('frame1-end') - at('frame1-start')),
          firstFrameMs: presented - at('frame1-end'),
          readyMs: presented,
          wasmRequestMs: wasm.startTime,
          wasmToReadyMs: presented - wasm.responseEnd,
        },
        files: [location.pathname, ...resources.map((r) => new URL(r.name).pathname)],
      };
    });
  } finally {
    await context.close();
  }
}

// One start of the training program's Worker in a fresh context, once the page is ready.
async function trainProgramOnce(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.ready);
    return await page.evaluate(startWorker);
  } finally {
    await context.close();
  }
}

// A fresh context on index.html#view=train (with `csp`: served with that
// Content-Security-Policy), ready, its runs reset to seed 4242 (r and lr:
// the defaults); `use(page)` measures, then the context closes.
async function onTrainPage(browser, url, csp, use) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, deviceScaleFactor: 1 });
  try {
    if (csp) {
      await context.route('**/index.html', async (route) => {
        const r = await route.fetch();
        await route.fulfill({ response: r, headers: { ...r.headers(), 'content-security-policy': csp } });
      });
    }
    // TRAIN_PARTS=n: the runs train in n Workers whatever the cores (headroom-train-link.mjs trainParts)
    if (process.env.TRAIN_PARTS) await context.addInitScript((n) => { window.headroomTrainParts = n; }, Number(process.env.TRAIN_PARTS));
    const page = await context.newPage();
    await page.goto(`${url}index.html#view=train`);
    await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.ready);
    await page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.train.reset({ seed: 4242 }));
    return await use(page);
  } finally {
    await context.close();
  }
}

// One first use of the text task on a train page: the corpus' fetch as the Worker saw it.
const textCorpusOnce = (browser, url) => onTrainPage(browser, url, null, (page) => page.evaluate(async () => {
  const t0 = performance.now();
  const s = await window.headroom.train.reset({ task: 'text', layers: 1 });
  if (!s.corpus) throw new Error(`no corpus: ${s.error}`);
  return { bytes: s.corpus.bytes, fetchMs: s.corpus.fetchMs, resetMs: performance.now() - t0 };
}));

// One play of the default run: the Worker (index.html) or, with `csp`, the
// main-thread fallback.
const playOnce = (browser, url, csp) => onTrainPage(browser, url, csp, (page) => page.evaluate(async () => {
  const h = window.headroom;
  let longest = 0, split = null;
  const obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) longest = Math.max(longest, e.duration); });
  obs.observe({ type: 'longtask' });
  const t0 = performance.now();
  const poll = setInterval(() => {
    const st = h.train.state();
    if (split === null && st.runs.length > 1 && st.step > 0 && st.runs[0].loss > 0.45 && st.runs[1].loss < 0.25)
      split = { ms: performance.now() - t0, step: st.step };
  }, 20);
  // (A build from before debug.frames() gives nulls, so builds compare.)
  const frames = () => (h.debug.frames ? h.debug.frames() : { drawn: NaN, painted: NaN });
  const f1 = frames();
  const started = await h.train.play();
  const t1 = performance.now();
  while ((split === null || performance.now() - t1 < 3000) && performance.now() - t1 < 60_000)
    await new Promise((r) => setTimeout(r, 50));
  const stopped = await h.train.pause();
  const t2 = performance.now();
  const f2 = frames();
  const perSecond = (n) => (Number.isFinite(n) ? n / ((t2 - t1) / 1000) : null);
  clearInterval(poll);
  await new Promise((r) => setTimeout(r, 100));
  obs.disconnect();
  return { splitMs: split ? split.ms : null, splitStep: split ? split.step : null,
    stepsPerSecond: (stopped.step - started.step) / ((t2 - t1) / 1000), longestTaskMs: longest,
    drawnPerSecond: perSecond(f2.drawn - f1.drawn), paintedPerSecond: perSecond(f2.painted - f1.painted), where: stopped.where };
}));

// train.step(n) from the reset, timed: the program's rate with the page
// drawing nothing meanwhile (one answer, one frame), the ceiling of play's.
const stepsOnce = (browser, url, csp, n) => onTrainPage(browser, url, csp, (page) => page.evaluate(async (count) => {
  const t0 = performance.now();
  const s = await window.headroom.train.step(count);
  return { stepsPerSecond: s.step / ((performance.now() - t0) / 1000), where: s.where };
}, n));

// The Worker path played once under Chrome's tracing: what the main thread's
// long tasks (> 50 ms) spend their time on.
const tracedPlay = (browser, url) => onTrainPage(browser, url, null, async (page) => {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'toplevel', 'gpu'] });
  await page.evaluate(async () => {
    await window.headroom.train.play();
    await new Promise((r) => setTimeout(r, 3000));
    await window.headroom.train.pause();
  });
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`));
  const spans = events.filter((e) => e.ph === 'X' && e.dur && main.has(`${e.pid}:${e.tid}`));
  const inside = (t, name, test = () => true) => spans.filter((e) => e.name === name && test(e) &&
    e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur).reduce((a, e) => Math.max(a, e.dur / 1000), 0);
  const tasks = spans.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.dur > 50_000).map((t) => {
    const appFrameMs = inside(t, 'FunctionCall', (e) => e.args?.data?.functionName === 'Browser_mainLoop_runner');
    const readBackMs = inside(t, 'GLES2::ReadPixels');
    return { ms: t.dur / 1000, appFrameMs, readBackMs, otherMs: t.dur / 1000 - appFrameMs - readBackMs };
  });
  const most = (k) => round(tasks.reduce((a, t) => Math.max(a, t[k]), 0));
  return { tasks: tasks.length, longestMs: most('ms'), appFrameMs: most('appFrameMs'), readBackMs: most('readBackMs'),
    otherMs: most('otherMs') };
});

// A course page of six embeds, served from the site's own origin.
const SIX_FRAMES = `<!doctype html><html><head><meta charset="utf-8"><title>six frames</title>
<style>body{margin:0;display:grid;grid-template-columns:repeat(2,640px);gap:8px}iframe{width:640px;height:560px;border:0}</style>
</head><body>${'<iframe src="embed.html"></iframe>'.repeat(6)}
<script>
window.__ready = [];
addEventListener('message', (e) => {
  if (!e.data || e.data.type !== 'headroom:ready') return;
  const i = [...document.querySelectorAll('iframe')].findIndex((f) => f.contentWindow === e.source);
  window.__ready.push({ i, t: performance.now() });
});
</script></body></html>`;

// The resident memory (MB) of the processes under `pid` whose command line
// says --type=<type>, from /proc.
function rssOf(pid, type) {
  const children = new Map();
  const info = new Map();
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
      const kb = Number((readFileSync(`/proc/${d}/status`, 'utf8').match(/VmRSS:\s+(\d+)/) || [0, 0])[1]);
      info.set(Number(d), { cmd: readFileSync(`/proc/${d}/cmdline`, 'utf8'), kb });
    } catch { /* gone meanwhile */ }
  }
  let kb = 0;
  const walk = (p) => {
    for (const c of children.get(p) || []) {
      const x = info.get(c);
      if (x && x.cmd.includes(`--type=${type}`)) kb += x.kb;
      walk(c);
    }
  };
  walk(pid);
  return Math.round(kb / 1024);
}

// One load of the six-frame page: each frame's ready time and bytes, and the
// renderer's and GPU process's memory once all are ready (the processes
// under `pid`).
async function sixFramesOnce(browser, url, pid) {
  const context = await browser.newContext({ viewport: { width: 1288, height: 1700 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.route('**/six-frames.html', (route) => route.fulfill({ contentType: 'text/html', body: SIX_FRAMES }));
    await page.goto(`${url}six-frames.html`);
    await page.waitForFunction(() => window.__ready.length === 6, null, { timeout: 120_000 });
    const r = await page.evaluate(() => {
      const frames = [...document.querySelectorAll('iframe')];
      const ready = frames.map((_, i) => window.__ready.find((x) => x.i === i).t);
      const bytes = frames.map((f, i) => {
        const w = f.contentWindow, end = ready[i] + performance.timeOrigin - w.performance.timeOrigin;
        const nav = w.performance.getEntriesByType('navigation')[0];
        return w.performance.getEntriesByType('resource').filter((e) => e.responseEnd <= end)
          .reduce((a, e) => a + e.transferSize, nav ? nav.transferSize : 0);
      });
      return { ready, bytes };
    });
    return { ...r, renderer: rssOf(pid, 'renderer'), gpu: rssOf(pid, 'gpu-process') };
  } finally {
    await context.close();
  }
}

// The course-page line for one way of serving: medians over LOADS loads.
async function courseLine(browser, url, pid, caching) {
  const rs = [];
  for (let i = 0; i < Math.min(LOADS, 3); i++) rs.push(await sixFramesOnce(browser, url, pid));
  const perFrame = (k) => rs[0][k].map((_, i) => round(median(rs.map((r) => r[k][i]))));
  return { variant: 'course-page', frames: 6, caching, loads: rs.length, readyMs: perFrame('ready'),
    lastReadyMs: round(median(rs.map((r) => Math.max(...r.ready)))), bytes: perFrame('bytes'),
    totalBytes: median(rs.map((r) => r.bytes.reduce((a, b) => a + b, 0))),
    rendererRssMB: median(rs.map((r) => r.renderer)), gpuRssMB: median(rs.map((r) => r.gpu)) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b), m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x) => Math.round(x * 10) / 10;

// The training lines: train-play and train-steps for each [label, csp] path
// (csp null: the Worker), then train-play-tasks (the Worker).
async function trainLines(browser, url, paths) {
  const plays = Math.min(LOADS, 3);
  for (const [label, csp] of paths) {
    const rs = [];
    for (let i = 0; i < plays; i++) rs.push(await playOnce(browser, url, csp));
    const med = (k) => { const v = rs.map((r) => r[k]).filter((x) => x !== null); return v.length ? round(median(v)) : null; };
    console.log(JSON.stringify({ variant: 'train-play', path: label, loads: plays, splitMs: med('splitMs'),
      splitStep: med('splitStep'), stepsPerSecond: med('stepsPerSecond'), longestTaskMs: med('longestTaskMs'),
      drawnPerSecond: med('drawnPerSecond'), paintedPerSecond: med('paintedPerSecond'),
      where: rs[0].where }));
    const ss = [];
    for (let i = 0; i < plays; i++) ss.push(await stepsOnce(browser, url, csp, STEPS_ALONE));
    console.log(JSON.stringify({ variant: 'train-steps', path: label, loads: plays, steps: STEPS_ALONE,
      stepsPerSecond: round(median(ss.map((r) => r.stepsPerSecond))), where: ss[0].where }));
  }
  console.log(JSON.stringify({ variant: 'train-play-tasks', path: 'worker', ...await tracedPlay(browser, url) }));
}

async function main() {
  const server = await serveStatic(SITE, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_BROWSER, args: CHROMIUM_ARGS });
  try {
    if (process.env.PAGE_LOAD_ONLY === 'train') { await trainLines(browser, url, [['worker', null]]); return; }
    const runs = [];
    for (let i = 0; i < LOADS; i++) runs.push(await loadOnce(browser, url));
    const line = { variant: 'page-load', loads: LOADS };
    for (const key of Object.keys(runs[0].phases)) line[key] = round(median(runs.map((r) => r.phases[key])));
    console.log(JSON.stringify(line));

    const files = {};
    let raw = 0, gz = 0;
    for (const p of new Set(runs[0].files)) {
      const rel = p.endsWith('/') ? `${p}index.html` : p;
      const body = readFileSync(path.join(SITE, rel));
      const sizes = [body.length, gzipSync(body, { level: 9 }).length];
      files[rel.replace(/^\//, '')] = sizes;
      raw += sizes[0];
      gz += sizes[1];
    }
    console.log(JSON.stringify({ variant: 'page-size', files, rawBytes: raw, gzipBytes: gz }));
    if (process.env.PAGE_LOAD_ONLY === 'phases') return;
    console.log(JSON.stringify(await paintLine(browser, url, 'index.html', { width: 1280, height: 800 })));
    console.log(JSON.stringify(await paintLine(browser, url, 'embed.html', { width: 640, height: 560 })));
    const pid = process.pid;  // (the browser's processes are this one's descendants)
    console.log(JSON.stringify(await courseLine(browser, url, pid, 'no-store')));
    const cached = await serveStatic(SITE, 0, { headers: { 'Cache-Control': 'max-age=3600' } });
    try {
      console.log(JSON.stringify(await courseLine(browser, `http://127.0.0.1:${cached.address().port}/`, pid, 'max-age')));
    } finally {
      cached.close();
    }
    if (process.env.PAGE_LOAD_ONLY === '1') return;

    const starts = [];
    for (let i = 0; i < LOADS; i++) starts.push(await trainProgramOnce(browser, url));
    const trainFiles = {};
    let trainGz = 0;
    for (const name of ['headroom-train.mjs', 'headroom-train.js', 'headroom-train-worker.js', 'headroom-train.wasm']) {
      const body = readFileSync(path.join(SITE, name));
      trainFiles[name] = [body.length, gzipSync(body, { level: 9 }).length];
      trainGz += trainFiles[name][1];
    }
    console.log(JSON.stringify({ variant: 'train-program', loads: LOADS,
      startMs: round(median(starts.map((s) => s.totalMs))), workerStartMs: round(median(starts.map((s) => s.workerMs))),
      files: trainFiles, gzipBytes: trainGz }));

    const texts = [];
    for (let i = 0; i < LOADS; i++) texts.push(await textCorpusOnce(browser, url));
    const corpusBody = readFileSync(path.join(SITE, 'brown.bin'));
    console.log(JSON.stringify({ variant: 'text-corpus', loads: LOADS, bytes: texts[0].bytes,
      gzipBytes: gzipSync(corpusBody, { level: 9 }).length, fetchMs: round(median(texts.map((t) => t.fetchMs))),
      resetMs: round(median(texts.map((t) => t.resetMs))),
      fetchedAtLoad: runs.some((r) => r.files.some((f) => f.endsWith('brown.bin'))) }));

    await trainLines(browser, url, [['worker', null], ['main thread', "script-src 'self' 'wasm-unsafe-eval'; worker-src 'none'"]]);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((err) => { console.error(`page_load.mjs: ${err && err.stack || err}`); process.exit(1); });
