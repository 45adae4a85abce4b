// text_play.mjs: the text task played in headless Chromium, on
// the Worker path (./build.sh bench runs it after page_load.mjs).
//
// Does: serve build/web (tools/serve.mjs), and per seed (SEEDS, default
// 1,2,3) open index.html#view=train in a fresh context, reset({task:
// 'text', layers: 1, seed}), play(), and print JSON lines:
//   {"variant":"text-play", "seed", "firstPointMs", "marks": [{"s", "step",
//    "stepsPerSecond", "tokensPerSecond", "loss": {heads: nats per word}}]}
//     firstPointMs = play() -> the first held-out point past step 0 seen in
//     train.state() (polled every 20 ms); at each mark (MARKS seconds of
//     play, default 60,120) the step, the steps per second since play()
//     (every run trains each step: 1, 2, 4 and 8 heads), tokens per second
//     (steps/s x B x L x runs: every run's predicted tokens, B = L = 32),
//     and each run's held-out loss in nats per word;
//   "targets": when (seconds of play, and the step) a head of any run first
//    carried a label named by the corpus' tags (determiner-noun,
//    verb-subject, pronoun-noun, punctuation), first carried `previous`,
//    and (LAYERS=2) first scored induction >= 0.4 in layer 2, with the
//    head and its score; null when not by the last mark; and the best
//    induction score seen in layer 2. Polled every 250 ms from
//    train.state()'s perHead (the held-out measurements);
//   screenshots build/bench/text-play-<layers>l-seed<seed>-<s>s.png of the
//    specialisation view (the heads' behaviour cells) at each mark;
//   {"variant":"text-play-summary", "marks": [{"s", "h1", "h4", "gap"}]}
//     per mark the 1-head and 4-head losses over the seeds (mean and
//     spread: min, max) and the gap 1-head minus 4-head (mean, min, max).
// Does not: judge the numbers (the machine varies: the CPU and load go with
// them), or run the main-thread path (page_load.mjs times that for roles).
//
// Run: node tests/bench/text_play.mjs [site=build/web]
//      SEEDS=1 MARKS=10 node tests/bench/text_play.mjs   (a quick look)
//      LAYERS=2 MARKS=60,180,300 node tests/bench/text_play.mjs   (the induction target)
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_BROWSER, CHROMIUM_ARGS } from '../browser/harness.mjs';
import { serveStatic } from '../../tools/serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = path.resolve(process.argv[2] || path.join(ROOT, 'build/web'));
const SEEDS = (process.env.SEEDS || '1,2,3').split(',').map(Number);
const MARKS = (process.env.MARKS || '60,120').split(',').map(Number);
const LAYERS = Number(process.env.LAYERS || 1);
const SHOTS = path.join(ROOT, 'build/bench');
const TAG_KINDS = ['determiner-noun', 'verb-subject', 'pronoun-noun', 'punctuation'];
const TOKENS_PER_RUN_STEP = 32 * 32;  // B x L (engine/train/text_trainer.h kTextBatch, kTextTokens)

async function playSeed(browser, url, seed) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 2200 }, deviceScaleFactor: 1 });  // tall: the chart, the knockout rows and the specialisation view in one shot
  try {
    const page = await context.newPage();
    await page.goto(`${url}index.html#view=train&tab=train`);
    await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.ready);
    await page.waitForFunction(() => window.headroom.train.state().ready, null, { timeout: 60_000 });
    const s = await page.evaluate(([sd, l]) => window.headroom.train.reset({ task: 'text', layers: l, seed: sd }), [seed, LAYERS]);
    if (s.task !== 'text') throw new Error(`the text task did not start: ${s.error}`);
    const t0 = Date.now();
    const pending = page.evaluate(async ([marks, perRunStep, tagKinds]) => {
      const h = window.headroom;
      const t0 = performance.now();
      let firstPointMs = null;
      const poll = setInterval(() => {
        const st = h.train.state();
        if (firstPointMs === null && st.runs.length && st.runs[0].history.length > 1) firstPointMs = performance.now() - t0;
      }, 20);
      // The targets, from the held-out measurements (perHead).
      const targets = { tag: null, previous: null, induction: null, bestInduction: 0 };
      const seen = (st, p, r) => ({ s: Math.round((performance.now() - t0) / 100) / 10, step: st.step, heads: r.heads,
        layer: p.layer, head: p.head, label: p.label, score: p.labelScore });
      const watch = setInterval(() => {
        const st = h.train.state();
        for (const r of st.runs) for (const p of r.perHead) {
          if (!targets.tag && tagKinds.includes(p.label)) targets.tag = seen(st, p, r);
          if (!targets.previous && p.label === 'previous') targets.previous = seen(st, p, r);
          const ind = p.scores && p.scores.induction;
          if (p.layer === 2 && Number.isFinite(ind)) {
            targets.bestInduction = Math.max(targets.bestInduction, Math.round(ind * 1e3) / 1e3);
            if (!targets.induction && ind >= 0.4) targets.induction = { ...seen(st, p, r), label: 'induction', score: ind };
          }
        }
      }, 250);
      window.__marks = [];
      const started = await h.train.play();
      const out = [];
      for (const m of marks) {
        await new Promise((r) => setTimeout(r, Math.max(0, t0 + m * 1000 - performance.now())));
        window.__marks.push(m);
        const st = h.train.state();
        const secs = (performance.now() - t0) / 1000;
        const sps = (st.step - started.step) / secs;
        out.push({ s: m, step: st.step, stepsPerSecond: Math.round(sps * 100) / 100,
          tokensPerSecond: Math.round(sps * perRunStep * st.runs.length),
          loss: Object.fromEntries(st.runs.map((r) => [r.heads, Math.round(r.loss * 1e4) / 1e4])) });
      }
      clearInterval(poll);
      clearInterval(watch);
      await h.train.pause();
      return { firstPointMs: firstPointMs === null ? null : Math.round(firstPointMs), marks: out, targets };
    }, [MARKS, TOKENS_PER_RUN_STEP, TAG_KINDS]);
    // The specialisation view at each mark (the page keeps training meanwhile).
    await mkdir(SHOTS, { recursive: true });
    for (const m of MARKS) {
      await new Promise((r) => setTimeout(r, Math.max(0, t0 + m * 1000 + 500 - Date.now())));
      await page.screenshot({ path: path.join(SHOTS, `text-play-${LAYERS}l-seed${seed}-${m}s.png`) });
    }
    return await pending;
  } finally {
    await context.close();
  }
}

const stats = (xs) => {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const r = (x) => Math.round(x * 1e4) / 1e4;
  return { mean: r(mean), min: r(Math.min(...xs)), max: r(Math.max(...xs)) };
};

async function main() {
  const server = await serveStatic(SITE, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_BROWSER, args: CHROMIUM_ARGS });
  try {
    const all = [];
    for (const seed of SEEDS) {
      const r = await playSeed(browser, url, seed);
      all.push(r);
      console.log(JSON.stringify({ variant: 'text-play', layers: LAYERS, seed, ...r }));
    }
    console.log(JSON.stringify({ variant: 'text-play-summary', seeds: SEEDS, marks: MARKS.map((s, i) => ({
      s,
      h1: stats(all.map((r) => r.marks[i].loss[1])),
      h4: stats(all.map((r) => r.marks[i].loss[4])),
      gap: stats(all.map((r) => r.marks[i].loss[1] - r.marks[i].loss[4])),
    })) }));
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((err) => { console.error(`text_play.mjs: ${err && err.stack || err}`); process.exit(1); });
