// startup_steps.mjs: what happens between headroom.wasm's arrival and the
// first frame on screen, load by load, in headless Chromium: when each start
// step ran, how many rendering steps passed before the first frame was drawn,
// and which of Chromium's processes used the CPU meanwhile.
//
// Does: serve <site> (tools/serve.mjs, no caching), load index.html LOADS
// times, each in a fresh browser context, and print one JSON line per load,
// then one of medians:
//   {"variant":"startup-steps", "load", "msAfterWasm": {...}, "stepsBeforeFrame1", "cpuMs": {...}}
//     msAfterWasm  each start step in ms after headroom.wasm's last byte
//                  (Resource Timing responseEnd): the app's performance marks
//                  (src/platform/web_main.cpp: main-start, main-end,
//                  frame1-start, frame1-end, first-frame-presented) and
//                  started (headroom-loader.mjs's 'headroom:started' event:
//                  the instance made, the hash applied, ready resolved)
//     stepsBeforeFrame1  the page's rendering steps (animation frames that
//                  ran a callback of the page) after main-end and before
//                  the one that drew frame 1: the canvas stays paused until
//                  its IntersectionObserver's first report (guest.cpp),
//                  which comes after a rendering step
//     cpuMs        CPU time (user + system, /proc) from navigation to
//                  first-frame-presented of the launched browser's processes
//                  (this script's process tree only), by kind: browser, gpu,
//                  renderer (the page's, and a spare one if any), webui
//                  (Chromium's own top-chrome WebUI renderer: the omnibox
//                  popup a new window loads), other; total
//   {"variant":"startup-steps-median", "loads", ...the same fields, medians}
// The page's own requestAnimationFrame is wrapped (an init script) only to
// note when its callbacks run. Nothing of Playwright's evaluates in the page
// between the wasm's arrival and the first frame presented: the one wait is
// set up while the page is still being fetched.
// Does not: wrap WebAssembly or time compile and instantiate
// (page_load.mjs does), or judge the numbers (the machine varies, and other
// processes on it take CPU too: compare two builds alternately, one sitting).
//
// Run: node tests/bench/startup_steps.mjs [site=build/web] [loads=5]
import path from 'node:path';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_BROWSER, CHROMIUM_ARGS } from '../browser/harness.mjs';
import { serveStatic } from '../../tools/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = path.resolve(process.argv[2] || path.join(ROOT, 'build/web'));
const LOADS = Number(process.argv[3] || 5);
const TICK_MS = 1000 / 100;  // /proc/<pid>/stat counts clock ticks (USER_HZ, 100 on Linux)

// Runs in the page before its own scripts: when the page's animation-frame
// callbacks run, and when the loader says it started.
function noteSteps() {
  window.__steps = [];
  const request = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => request((t) => {
    window.__steps.push(performance.now());
    callback(t);
  });
  window.addEventListener('headroom:started', () => { window.__started = performance.now(); });
}

// CPU ms so far of every process below this script's, by kind.
function cpuByKind() {
  const children = new Map();
  const info = new Map();
  for (const d of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
      info.set(Number(d), { cmd: readFileSync(`/proc/${d}/cmdline`, 'utf8'), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS });
    } catch { /* gone meanwhile */ }
  }
  const kindOf = (cmd) => {
    if (!cmd.includes('--type=')) return cmd.includes('chrom') ? 'browser' : null;
    if (cmd.includes('--top-chrome-webui')) return 'webui';
    if (cmd.includes('--type=renderer')) return 'renderer';
    if (cmd.includes('--type=gpu-process')) return 'gpu';
    return 'other';
  };
  const out = new Map();  // pid -> {kind, ms}
  const walk = (p) => {
    for (const c of children.get(p) || []) {
      const x = info.get(c);
      const kind = x && kindOf(x.cmd);
      if (kind) out.set(c, { kind, ms: x.ms });
      walk(c);
    }
  };
  walk(process.pid);
  return out;
}

function cpuBetween(before, after) {
  const by = { browser: 0, gpu: 0, renderer: 0, webui: 0, other: 0 };
  for (const [pid, { kind, ms }] of after) by[kind] += ms - (before.get(pid)?.ms || 0);
  by.total = Object.values(by).reduce((a, b) => a + b, 0);
  return by;
}

async function loadOnce(browser, url, load) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.addInitScript(noteSteps);
    const before = cpuByKind();
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => performance.getEntriesByName('headroom:first-frame-presented').length > 0,
      null, { timeout: 60_000, polling: 20 });
    const cpuMs = cpuBetween(before, cpuByKind());
    const seen = await page.evaluate(() => {
      const wasm = performance.getEntriesByType('resource').find((r) => new URL(r.name).pathname.endsWith('.wasm'));
      const at = (name) => performance.getEntriesByName(`headroom:${name}`)[0].startTime;
      const after = {};
      for (const name of ['main-start', 'main-end', 'started', 'frame1-start', 'frame1-end', 'first-frame-presented']) {
        after[name] = (name === 'started' ? window.__started : at(name)) - wasm.responseEnd;
      }
      // The last step that began before frame1-start is the one that drew it.
      const steps = new Set(window.__steps.filter((t) => t > at('main-end') && t < at('frame1-start')).map(Math.round));
      return { msAfterWasm: after, stepsBeforeFrame1: Math.max(0, steps.size - 1) };
    });
    return { variant: 'startup-steps', load, ...seen, cpuMs };
  } finally {
    await context.close();
  }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
const rounded = (o) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Math.round(v)]));

async function main() {
  const server = await serveStatic(SITE, 0);
  const browser = await chromium.launch({ executablePath: CHROMIUM_BROWSER, args: CHROMIUM_ARGS });
  try {
    const url = `http://127.0.0.1:${server.address().port}/`;
    const runs = [];
    for (let i = 0; i < LOADS; i++) {
      const r = await loadOnce(browser, url, i + 1);
      runs.push(r);
      console.log(JSON.stringify({ ...r, msAfterWasm: rounded(r.msAfterWasm), cpuMs: rounded(r.cpuMs) }));
    }
    const med = (key) => rounded(Object.fromEntries(Object.keys(runs[0][key]).map((k) => [k, median(runs.map((r) => r[key][k]))])));
    console.log(JSON.stringify({ variant: 'startup-steps-median', loads: LOADS, msAfterWasm: med('msAfterWasm'),
      stepsBeforeFrame1: median(runs.map((r) => r.stepsBeforeFrame1)), cpuMs: med('cpuMs') }));
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e) => { console.error(e); process.exit(1); });
