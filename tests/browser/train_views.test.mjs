// train_views.test.mjs: the browser suite for the training views, its
// own script and CTest test (browser_train_views; suite_main.mjs serves the
// site and launches Chromium).
//
// Does: open #view=train and check, through the real mouse path (buttons at
// the rects headroom.debug.layout() reports) and what the chart says it drew
// (layout().trainChart.runs, specialisationCells): the loss chart has one curve per
// run (1, 2, 4 heads) with its floor 1 - min(H, R) / R placed where the axis
// puts it; Step adds evaluated points; the specialisation view draws a cell
// per run and head; the "trained" weights switch changes what the lesson's
// views show (getState().weights and the readout), and at 8 heads (no run)
// the views fall back to exactly the built weights; the snapshot download
// saves a JSON file whose loss is recomputed here from its own arrays; a
// learning rate that diverges marks every run on the chart with finite
// numbers, and a reset recovers; Play trains until Pause; 250 steps bring
// the runs to their floors (train-view-converged.png); the "tie query = key"
// checkbox, clicked, adds a tied run per head count (train.state() says so),
// the chart draws six curves, the tied ones dotted where the untied are solid
// (counted in the screenshot's pixels along each curve's tail), and the
// specialisation view draws a cell per head of all six runs
// (train-view-tied.png, train-specialisation-tied.png).
// Screenshots go to build/test-artifacts/train-*.png.
// Does not: check training's numbers (the engine and app suites do) or the
// training API (train.test.mjs does).
//
// Run: node tests/browser/train_views.test.mjs    (after ./build.sh build)
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { assert, test } from './harness.mjs';
import { decodePng } from './png.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 330_000;

const frames = (page, n = 2) => page.evaluate((k) => new Promise((r) => {
  const step = (i) => (i ? requestAnimationFrame(() => step(i - 1)) : r());
  step(k);
}), n);

// The runs train in a Worker: a verb is done when the Worker has
// answered it (and the weights it asked for came), then drawn.
async function settled(page) {
  await page.waitForFunction(() => window.headroom.debug.trainProgram().pending === 0 &&
    window.headroom.train.state().ready, null, { timeout: 30_000 });
  await frames(page, 2);
}

async function clickRect(page, rect) {
  const box = await page.locator('#canvas').boundingBox();
  await page.mouse.click(box.x + (rect[0] + rect[2]) / 2, box.y + (rect[1] + rect[3]) / 2);
  await frames(page, 3);
  await settled(page);
}

const maxDiff = (a, b) => {
  let d = 0;
  for (let h = 0; h < a.length; ++h) for (let j = 0; j < a[h].length; ++j) d = Math.max(d, Math.abs(a[h][j] - b[h][j]));
  return d;
};

async function trainViewsTests({ browser, url, watch, artifacts }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1400 }, deviceScaleFactor: 1, acceptDownloads: true });
  const page = await context.newPage();
  watch(page, 'train');
  await page.goto(`${url}#view=train`);
  await page.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
  await page.evaluate(() => window.headroom.ready);
  await frames(page, 3);
  await settled(page);
  const layout = () => page.evaluate(() => window.headroom.debug.layout());
  const state = () => page.evaluate(() => window.headroom.getState());
  const call = (verb, ...args) => page.evaluate(([v, a]) => window.headroom[v](...a), [verb, args]);

  try {
    await test('train view: one curve per run, floors where the axis puts them', async () => {
      const l = await layout();
      const runs = l.trainChart.runs;
      assert(runs.map((r) => r.heads).join() === '1,2,4', `runs drawn: ${JSON.stringify(runs)}`);
      assert(runs.every((r) => r.points >= 1 && Number.isFinite(r.lastLoss)), `points: ${JSON.stringify(runs)}`);
      // R = 2: floors 1 - min(H, 2) / 2 = 0.5, 0, 0.
      assert(runs.map((r) => r.floor).join() === '0.5,0,0', `floors ${runs.map((r) => r.floor)}`);
      // The chart's y runs from 0 at the bottom of its rect: the 0.5 floor sits
      // higher (smaller y) than the 0 floors, which sit on the bottom edge.
      const [x0, y0, x1, y1] = l.trainChart.rect;
      assert(x1 > x0 + 200 && y1 > y0 + 100, `chart rect ${l.trainChart.rect}`);
      assert(Math.abs(runs[1].floorY - y1) < 1 && Math.abs(runs[2].floorY - y1) < 1, `0 floors at ${runs[1].floorY}, bottom ${y1}`);
      assert(runs[0].floorY < y1 - 20 && runs[0].floorY > y0, `0.5 floor at ${runs[0].floorY} in [${y0}, ${y1}]`);
      assert(l.trainChart.specialisationCells === 1 + 2 + 4, `specialisation cells ${l.trainChart.specialisationCells}`);
      assert(l.trainButtons.length === 4 && l.download.length === 3 && l.weights.length === 3, 'buttons not reported');
    });

    await test('train view: Step adds an evaluated point to every curve', async () => {
      const before = (await layout()).trainChart.runs.map((r) => r.points);
      const stepButton = (await layout()).trainButtons[1];
      for (let i = 0; i < 3; ++i) await clickRect(page, stepButton);
      const after = (await layout()).trainChart.runs;
      // Steps 1..8 are all evaluated (engine/trainer.h), so 3 steps add 3 points.
      after.forEach((r, i) => assert(r.points === before[i] + 3, `run ${r.heads}: ${before[i]} -> ${r.points} points`));
      await page.screenshot({ path: path.join(artifacts, 'train-view-steps.png') });
    });

    await test('train view: weights "trained" changes what the views show; 8 heads falls back to built', async () => {
      await call('setHeads', 1);
      await frames(page, 2);
      const built = await state();
      const shotBuilt = await page.screenshot();
      await clickRect(page, (await layout()).weights[1]);  // "trained"
      const trained = await state();
      const shotTrained = await page.screenshot({ path: path.join(artifacts, 'train-view-trained.png') });
      const d = maxDiff(built.weights, trained.weights);
      assert(d > 0.05, `the 1-head weights moved by only ${d} with trained weights`);
      assert(trained.sentence !== built.sentence, `readout unchanged: ${trained.sentence}`);
      assert(built.modelWeights.shown === 'built' && trained.modelWeights.shown === 'trained',
        `shown: ${built.modelWeights.shown} -> ${trained.modelWeights.shown}`);
      assert(!shotBuilt.equals(shotTrained), 'the page looks the same with trained weights');
      // 8 heads: no run has 8, so the views show exactly the built 8-head weights.
      await call('setHeads', 8);
      await frames(page, 2);
      const fallback = await state();
      assert(fallback.modelWeights.choice === 'trained' && fallback.modelWeights.shown === 'built',
        JSON.stringify(fallback.modelWeights));
      await clickRect(page, (await layout()).weights[0]);  // "built"
      const built8 = await state();
      assert(maxDiff(fallback.weights, built8.weights) === 0, '8 heads with "trained" chosen did not show the built weights');
      await call('setHeads', 1);
      await frames(page, 3);  // the next test reads a layout drawn at 1 head
    });

    await test('train view: the snapshot download is JSON whose loss recomputes from its arrays', async () => {
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 20_000 }),
        clickRect(page, (await layout()).download[0]),  // the 1-head run
      ]);
      assert(/^headroom-snapshot-h1-seed\d+(-r\d)?-step\d+\.json$/.test(download.suggestedFilename()), download.suggestedFilename());
      const snap = JSON.parse(await readFile(await download.path(), 'utf8'));
      assert(snap.heads === 1, `heads ${snap.heads}`);
      const [B, L, D] = snap.X.shape;
      const T = snap.target.shape[2];
      assert(snap.W_Q.shape.join() === `${D},${D}` && snap.grads.W_O.shape.join() === `${D},${D}`, 'weight shapes');
      // Recompute the loss: one head, prediction = softmax(Q K^T / sqrt(D)) V W_O.
      const at = (t, ...ix) => { let o = 0; for (let i = 0; i < ix.length; ++i) o = o * t.shape[i] + ix[i]; return t.data[o]; };
      const mm = (x, W) => { const out = new Float64Array(D); for (let c = 0; c < D; ++c) { let s = 0; for (let k = 0; k < D; ++k) s += x[k] * W.data[k * D + c]; out[c] = s; } return out; };
      let se = 0, count = 0;
      for (let b = 0; b < B; ++b) {
        const qs = [], ks = [], vs = [];
        for (let i = 0; i < L; ++i) {
          const x = Array.from({ length: D }, (_, k) => at(snap.X, b, i, k));
          qs.push(mm(x, snap.W_Q)); ks.push(mm(x, snap.W_K)); vs.push(mm(x, snap.W_V));
        }
        for (let i = 0; i < L; ++i) {
          if (!at(snap.mask, b, i)) continue;
          const s = ks.map((k) => k.reduce((acc, kv, c) => acc + kv * qs[i][c], 0) / Math.sqrt(D));
          const m = Math.max(...s), e = s.map((v) => Math.exp(v - m)), z = e.reduce((p, q) => p + q, 0);
          const o = new Float64Array(D);
          for (let j = 0; j < L; ++j) for (let c = 0; c < D; ++c) o[c] += (e[j] / z) * vs[j][c];
          const y = mm(o, snap.W_O);
          for (let c = 0; c < T; ++c) { const r = y[c] - at(snap.target, b, i, c); se += r * r; }
          ++count;
        }
      }
      const loss = se / (count * T * snap.lossScale);
      assert(Math.abs(loss - snap.loss) <= 1e-3 * Math.max(1, snap.loss), `recomputed loss ${loss}, snapshot says ${snap.loss}`);
    });

    await test('train view: a diverging learning rate marks every run, numbers stay finite, reset recovers', async () => {
      await page.evaluate(async () => { await window.headroom.train.reset({ seed: 3, r: 2, lr: 0.3 }); await window.headroom.train.step(3); });
      await frames(page, 3);
      const runs = (await layout()).trainChart.runs;
      assert(runs.length === 3 && runs.every((r) => r.diverged && Number.isFinite(r.lastLoss)), JSON.stringify(runs));
      await page.screenshot({ path: path.join(artifacts, 'train-view-diverged.png') });
      await page.evaluate(() => window.headroom.train.reset({ seed: 1, r: 2, lr: 0.01 }));
      await frames(page, 3);
      const again = (await layout()).trainChart.runs;
      assert(again.every((r) => !r.diverged && r.points === 1), JSON.stringify(again));
    });

    await test('train view: Play trains until Pause', async () => {
      const before = (await layout()).trainChart.runs[0].points;
      await clickRect(page, (await layout()).trainButtons[0]);  // Play
      await page.waitForFunction((n) => window.headroom.debug.layout().trainChart.runs[0].points >= n + 3, before, { timeout: 30_000 });
      await clickRect(page, (await layout()).trainButtons[0]);  // Pause
      // The Worker's last posts may still arrive: paused is when the runs say so.
      await page.waitForFunction(() => !window.headroom.train.state().running, null, { timeout: 10_000 });
      await frames(page, 2);
      const paused = (await layout()).trainChart.runs[0].points;
      await page.waitForTimeout(600);
      await frames(page, 2);
      assert((await layout()).trainChart.runs[0].points === paused, 'the chart moved after Pause');
      await page.screenshot({ path: path.join(artifacts, 'train-view-played.png') });
    });

    await test('train view: after 250 steps (R = 2) one head rests on its 0.5 floor, two and four heads near 0', async () => {
      // A step budget, not a clock: the engine suite measured 0.514-0.519 /
      // < 0.001 / < 0.001 after 200 steps natively (seeds 1-5).
      await page.evaluate(async () => { await window.headroom.train.reset({ seed: 1, r: 2, lr: 0.01 }); await window.headroom.train.step(250); });
      await frames(page, 3);
      const runs = (await layout()).trainChart.runs;
      const [one, two, four] = runs.map((r) => r.lastLoss);
      assert(one > 0.45 && one < 0.6, `1 head at ${one}, floor 0.5`);
      assert(two < 0.05 && four < 0.05, `2 heads at ${two}, 4 heads at ${four}`);
      await page.screenshot({ path: path.join(artifacts, 'train-view-converged.png') });
    });

    await test('train view: the tie checkbox adds tied runs; their curves are dotted, the untied ones solid', async () => {
      await page.evaluate(() => window.headroom.train.reset({ seed: 1, r: 4, lr: 0.01, tieQK: false }));
      await frames(page, 3);
      await clickRect(page, (await layout()).trainButtons[3]);  // "tie query = key"
      // The runs train in a Worker: the tied reset is answered in a message.
      await page.waitForFunction(() => window.headroom.train.state().runs.length === 6, null, { timeout: 10_000 });
      let st = await page.evaluate(() => window.headroom.train.state());
      assert(st.tieQK === true && st.runs.map((r) => `${r.heads}${r.tieQK ? 't' : ''}`).join() === '1,2,4,1t,2t,4t',
        `after the click: ${JSON.stringify(st.runs.map((r) => [r.heads, r.tieQK]))}`);
      assert((await state()).tieQK === true, 'the lesson did not follow the tie');
      st = await page.evaluate(() => window.headroom.train.step(150));
      await frames(page, 3);
      const l = await layout();
      const runs = l.trainChart.runs;
      assert(runs.length === 6 && l.trainChart.specialisationCells === 2 * (1 + 2 + 4),
        `runs ${runs.length}, cells ${l.trainChart.specialisationCells}`);
      // Where each curve ends: y as the chart maps the loss (0 at the bottom,
      // y_max = the largest loss shown, at least 1, rounded up to a quarter).
      const [x0, y0, x1, y1] = l.trainChart.rect;
      let yMax = 1;
      for (const r of st.runs) for (const [, loss] of r.history) yMax = Math.max(yMax, Math.min(loss, 4));
      yMax = Math.ceil(yMax * 4 - 1e-3) / 4;
      const Y = (loss) => y1 - Math.min(1, Math.max(0, loss / yMax)) * (y1 - y0);
      // The step axis reaches at least 1000 (ticks 1, 10, 100, 1000 from the start).
      const X = (step) => x0 + Math.log10(1 + step) / Math.log10(1 + Math.max(1000, st.step)) * (x1 - x0);
      const shot = await page.screenshot({ path: path.join(artifacts, 'train-view-tied.png') });
      const png = decodePng(shot);
      const box = await page.locator('#canvas').boundingBox();
      const rgb = (x, y) => {
        const i = (Math.round(box.y + y) * png.width + Math.round(box.x + x)) * 4;
        return [png.rgba[i], png.rgba[i + 1], png.rgba[i + 2]];
      };
      const bg = rgb(x0 + 4, Y(yMax - 0.125));  // the plot's own background, between grid lines
      const ink = (x, y) => [-1, 0, 1].some((d) => {
        const c = rgb(x, y + d);
        return Math.abs(c[0] - bg[0]) + Math.abs(c[1] - bg[1]) + Math.abs(c[2] - bg[2]) > 90;
      });
      // Each curve's path in 1 px steps, as the chart maps its history.
      const paths = st.runs.map((r) => {
        const pts = r.history.map(([step, loss]) => [X(step), Y(loss)]);
        const out = [];
        for (let i = 1; i < pts.length; ++i) {
          const [ax, ay] = pts[i - 1], [bx, by] = pts[i];
          const n = Math.max(1, Math.ceil(Math.hypot(bx - ax, by - ay)));
          for (let k = 0; k < n; ++k) out.push([ax + (bx - ax) * k / n, ay + (by - ay) * k / n]);
        }
        return out.slice(0, Math.max(0, out.length - 8));  // not the end marker
      });
      const near = (p, other) => other.some(([x, y]) => Math.abs(x - p[0]) < 5 && Math.abs(y - p[1]) < 5);
      // Along the stretches of each curve that no other curve comes within 5
      // px of: how much of the path is inked, and in how many pieces.
      const measured = st.runs.map((run, i) => {
        let samples = 0, inked = 0, pieces = 0, prev = false;
        for (const p of paths[i]) {
          if (p[1] < y0 + 2 || p[1] > y1 - 2 || paths.some((o, j) => j !== i && near(p, o))) { prev = false; continue; }
          const c = ink(p[0], p[1]);
          ++samples;
          if (c) ++inked;
          if (c && !prev) ++pieces;
          prev = c;
        }
        return { tied: run.tieQK, heads: run.heads, samples, cover: samples ? inked / samples : 0, pieces };
      });
      const seen = measured.filter((m) => m.samples >= 15);
      const text = JSON.stringify(measured.map((m) => [m.heads + (m.tied ? 't' : ''), m.samples, m.cover.toFixed(2), m.pieces]));
      assert(seen.filter((m) => m.tied).length >= 1 && seen.filter((m) => !m.tied).length >= 2, `too little of the curves apart: ${text}`);
      for (const m of seen) {
        // Dots every 6 px: a stretch of n px apart from the others shows about
        // n / 6 of them (the axis now reaches 1000, so 150 steps span fewer px).
        if (m.tied) assert(m.cover < 0.85 && m.pieces >= Math.min(4, Math.floor(m.samples / 6)), `a tied curve does not look dotted: ${text}`);
        else assert(m.cover > 0.9, `an untied curve does not look solid: ${text}`);
      }
      console.log(`      tied chart: [run, px apart, inked, pieces] ${text}`);
      // The specialisation view with the tied rows, scrolled into the shot.
      await page.mouse.move(box.x + box.width / 2, box.y + y1 + 200);
      await page.mouse.wheel(0, 700);
      await frames(page, 4);
      await page.screenshot({ path: path.join(artifacts, 'train-specialisation-tied.png') });
      await page.evaluate(() => window.headroom.train.reset({ seed: 1, r: 2, lr: 0.01, tieQK: false }));
    });
  } finally {
    await context.close();
  }

  // "trained" before any training says so and offers Play; the chart's step
  // axis has its decade grid lines at 1, 10 and 100 of 1000 from step 0.
  await test('train view: "trained" at step 0 says so and offers Play, which trains (mouse); the axis reaches 1000', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 });
    const p = await ctx.newPage();
    watch(p, 'train-untrained');
    await p.goto(`${url}#view=train&weights=trained`);
    await p.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await p.evaluate(() => window.headroom.ready);
    await frames(p, 4);
    await settled(p);
    let l = await p.evaluate(() => window.headroom.debug.layout());
    const shot = decodePng(await p.screenshot({ path: path.join(artifacts, 'train-untrained.png') }));
    const box = await p.locator('#canvas').boundingBox();
    const rgb = (x, y) => { const i = (Math.round(box.y + y) * shot.width + Math.round(box.x + x)) * 4; return [shot.rgba[i], shot.rgba[i + 1], shot.rgba[i + 2]]; };
    // Grid lines: at X(s) = x0 + log10(1 + s) / log10(1001) * (x1 - x0), a
    // column darker than the plot a few px to either side, halfway between
    // two loss lines (y_max 1.25 at step 0: lines every 0.25).
    const [x0, y0, x1, y1] = l.trainChart.rect;
    const y = y0 + (y1 - y0) * 0.1;
    for (const s of [1, 10, 100]) {
      const x = Math.round(x0 + Math.log10(1 + s) / Math.log10(1001) * (x1 - x0));
      const line = Math.min(...[-1, 0, 1].map((d) => rgb(x + d, y).reduce((a, b) => a + b, 0)));
      const beside = rgb(x + 6, y).reduce((a, b) => a + b, 0);
      assert(line < beside - 6, `no grid line at step ${s} (x ${x}): ${line} vs ${beside} beside`);
    }
    const st = await p.evaluate(() => window.headroom.train.state());
    assert(st.step === 0 && st.weights.shown === 'trained', `step ${st.step}, shown ${st.weights.shown}`);
    assert(l.weightsPlay.length === 1, `no Play beside "not trained yet": ${JSON.stringify(l.weightsPlay)}`);
    // The button is green (the palette's play colour) in the screenshot.
    const [px0, py0, px1, py1] = l.weightsPlay[0];
    const c = rgb(px0 + 4, (py0 + py1) / 2);
    assert(c[1] > c[0] + 40 && c[1] > c[2] + 40, `the Play button is not green: ${c}`);
    await clickRect(p, l.weightsPlay[0]);
    await p.waitForFunction(() => window.headroom.train.state().step >= 10, null, { timeout: 60_000 });
    await p.evaluate(() => window.headroom.train.pause());
    await frames(p, 3);
    l = await p.evaluate(() => window.headroom.debug.layout());
    assert(l.weightsPlay.length === 0, 'the note and its Play stay after training');
    await ctx.close();
  });
}

await runSuite('train views', trainViewsTests, SUITE_TIMEOUT_MS);
