// input_paths.test.mjs: what the learner sees after real input, checked in
// the screenshot's pixels:
// 1. a phone (390 x 844, DPR 3, touch): a tap on each heads button and each
//    view button, and 500 ms later the screenshot shows that button, and only
//    that one, selected (a finger that lifted leaves no hover highlight);
//    the page then stops drawing (settled, zero frames while idle);
// 2. a refused sentence at 1366 x 768 keeps the full layout (the top of the
//    canvas looks the same, no compact tabs) and marks the field until edited;
// 3. the full page owns the keyboard: "2" right after load sets 2 heads, and
//    after Enter in the sentence field "4" goes to the canvas, not the field;
// 4. the value space's labels (debug.layout().valueSpace) never cover each
//    other or a marker, for the lesson sentence at 1, 2, 4 and 8 heads chosen
//    by clicks or taps, at 1366 x 768 (full page: the whole view above the
//    fold, the plots as wide as the card), in a 720 x 560 frame and on the
//    phone; the output's label says what the readout measured;
// 5. after the key "2" the one head's midpoint is still drawn 4 s later, a
//    ring in the screenshot's pixels, labelled; a new query takes it away;
// 6. the rows under the heads control keep their place between 1 and 2 heads
//    (rects and pixels); the attention view keeps one arrangement for a short
//    and a long sentence; a tap on a heatmap cell pins it and selects its row.
// Does not: read getState() alone for what is on screen: every selection
// is checked in pixels; state is read only to confirm the verb happened.
//
// Run: node tests/browser/input_paths.test.mjs   (after ./build.sh build)
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodePng } from './png.mjs';
import { CLOCK, assert, test } from './harness.mjs';
import { runSuite } from './suite_main.mjs';

const LESSON = 'The researcher who wrote the paper said it was wrong.';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function open(browser, url, watch, name, options) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  watch(page, name);
  await page.goto(url);
  await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
  await page.evaluate(() => window.headroom.ready);
  await settled(page);
  return { context, page };
}

// Waits until the page has settled and idles: two animation frames in a row
// drew nothing (debug.idle: nothing is pending then), not a fixed time, so a
// loaded machine that draws late waits longer and an idle one does not wait.
async function settled(page, timeoutMs = 20_000) {
  const r = await page.evaluate((ms) => window.headroom.debug.idle(ms), timeoutMs);
  assert(r.idle, `the page never stopped drawing (frames ${r.drawn} after ${Math.round(r.waitedMs)} ms)`);
  return r.drawn;
}

// The canvas as decoded RGBA, with a CSS-px rect reader: mean colour of the
// rect's inner part (a 3 px margin keeps borders and anti-aliasing out).
async function shoot(page, file) {
  const png = await page.locator('#canvas').screenshot();
  if (file) await writeFile(file, png);
  const img = decodePng(png);
  const box = await page.locator('#canvas').boundingBox();
  const sx = img.width / box.width, sy = img.height / box.height;
  img.mean = ([x0, y0, x1, y1]) => {
    const a = Math.round((x0 + 3) * sx), b = Math.round((x1 - 3) * sx);
    const c = Math.round((y0 + 3) * sy), d = Math.round((y1 - 3) * sy);
    const sum = [0, 0, 0];
    for (let y = c; y < d; ++y)
      for (let x = a; x < b; ++x) for (let k = 0; k < 3; ++k) sum[k] += img.rgba[(y * img.width + x) * 4 + k];
    const n = Math.max(1, (b - a) * (d - c));
    return sum.map((s) => s / n);
  };
  return img;
}

const dist = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

// Which button of `rects` looks unlike the others: the one whose mean colour
// is farthest from every other's nearest neighbour; returns [index, margin]
// where margin is how far it stands out (colour distance) minus how far the
// next most different one does.
function oddOneOut(img, rects) {
  const means = rects.map((r) => img.mean(r));
  const apart = means.map((m, i) => Math.min(...means.filter((_, j) => j !== i).map((o) => dist(m, o))));
  const order = apart.map((a, i) => [a, i]).sort((x, y) => y[0] - x[0]);
  return [order[0][1], order[0][0] - order[1][0]];
}

async function tapRect(page, rect) {
  const box = await page.locator('#canvas').boundingBox();
  await page.touchscreen.tap(box.x + (rect[0] + rect[2]) / 2, box.y + (rect[1] + rect[3]) / 2);
}

// Whether two [x0, y0, x1, y1] rects share more than rounding (the layout
// prints 0.1 px).
const overlap = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5 && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;

// Every way a value-space label can collide, in words ([] when none).
function labelCollisions(vs) {
  const found = [];
  const name = (l) => `head ${l.head + 1} "${l.text}" ${JSON.stringify(l.rect)}`;
  vs.labels.forEach((l, i) => {
    vs.labels.slice(i + 1).forEach((o) => { if (overlap(l.rect, o.rect)) found.push(`${name(l)} covers ${name(o)}`); });
    for (const m of vs.markers)
      if (m.head === l.head && overlap(l.rect, m.rect)) found.push(`${name(l)} covers the ${m.kind} marker ${m.text} ${JSON.stringify(m.rect)}`);
    const plot = vs.plots[l.head];
    if (!plot || l.rect[0] < plot[0] || l.rect[1] < plot[1] || l.rect[2] > plot[2] || l.rect[3] > plot[3])
      found.push(`${name(l)} is outside its plot ${JSON.stringify(plot)}`);
  });
  return found;
}

async function inputPathTests({ browser, url, watch, artifacts }) {
  await test('phone: a tap on each heads button shows that button alone selected 500 ms later, then the page idles', async () => {
    const { context, page } = await open(browser, `${url}#heads=1`, watch, 'phone-heads',
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const rects = (await page.evaluate(() => window.headroom.debug.layout())).heads;
    const labels = [1, 2, 4, 8].slice(0, rects.length);
    assert(rects.length >= 3, `heads buttons: ${JSON.stringify(rects)}`);
    // Away from 1 first, so every button is checked after being tapped
    // from another selection (the finding was "1" tapped from 2).
    for (const i of [1, 0, 2, 1, ...labels.keys()]) {
      await tapRect(page, rects[i]);
      await sleep(500);
      const img = await shoot(page, path.join(artifacts, `input-phone-heads-${labels[i]}.png`));
      const [odd, margin] = oddOneOut(img, rects);
      const s = await page.evaluate(() => window.headroom.getState());
      assert(s.heads === labels[i], `tapped "${labels[i]}": state has ${s.heads} heads`);
      assert(odd === i && margin > 20,
        `tapped "${labels[i]}": the screenshot shows button ${labels[odd]} as the odd one out (margin ${margin.toFixed(1)})`);
    }
    await settled(page);
    const frames = await page.evaluate(() => window.headroom.getState().frames);
    await sleep(1500);
    const later = await page.evaluate(() => window.headroom.getState().frames);
    assert(later === frames, `the page kept drawing while idle: ${frames} -> ${later} frames`);
    await context.close();
  }, CLOCK);

  await test('phone: a tap on each view button shows that button alone selected 500 ms later', async () => {
    const { context, page } = await open(browser, url, watch, 'phone-views',
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const first = (await page.evaluate(() => window.headroom.debug.layout())).views;
    assert(first.length >= 3, `the phone shows no view buttons: ${JSON.stringify(first)}`);
    const order = [...first.keys()].slice(1).concat([0]);
    for (const i of order) {
      const rects = (await page.evaluate(() => window.headroom.debug.layout())).views;
      await tapRect(page, rects[i]);
      await sleep(500);
      const img = await shoot(page, path.join(artifacts, `input-phone-view-${i}.png`));
      const now = (await page.evaluate(() => window.headroom.debug.layout())).views;
      const [odd, margin] = oddOneOut(img, now);
      assert(odd === i && margin > 20, `tapped view button ${i}: the screenshot shows ${odd} as the odd one out (margin ${margin.toFixed(1)})`);
    }
    await context.close();
  }, CLOCK);

  await test('phone: a tap on "(?)" opens its help, the next tap elsewhere closes it', async () => {
    const { context, page } = await open(browser, url, watch, 'phone-help',
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const layout = await page.evaluate(() => window.headroom.debug.layout());
    assert(layout.help.markers.length > 0, 'the phone layout draws no "(?)" marker');
    const before = await shoot(page);
    await tapRect(page, layout.help.markers[0]);
    await settled(page);
    const shown = await shoot(page, path.join(artifacts, 'input-phone-help-open.png'));
    const popup = (await page.evaluate(() => window.headroom.debug.layout())).help.open;
    assert(popup[2] - popup[0] > 100 && popup[3] - popup[1] > 20, `no help popup after the tap: ${JSON.stringify(popup)}`);
    assert(popup[2] <= 390 + 0.5, `the help runs off the phone's screen: ${JSON.stringify(popup)}`);
    assert(dist(shown.mean(popup), before.mean(popup)) > 3, 'the popup\'s place on screen looks as it did before the tap');
    // The window's padding at the top left corner: a tap on nothing.
    await tapRect(page, [0, 0, 6, 6]);
    await settled(page);
    const closed = await shoot(page, path.join(artifacts, 'input-phone-help-closed.png'));
    const after = (await page.evaluate(() => window.headroom.debug.layout())).help.open;
    assert(after.every((v) => v === 0), `the help stays open after a tap elsewhere: ${JSON.stringify(after)}`);
    assert(dist(closed.mean(popup), before.mean(popup)) < 1, 'the popup\'s place on screen did not come back');
    await context.close();
  }, CLOCK);

  await test('1366 x 768: a refused sentence keeps the full layout and marks the field until it is edited', async () => {
    const { context, page } = await open(browser, url, watch, 'refusal', { viewport: { width: 1366, height: 768 } });
    const fit0 = await page.evaluate(() => window.headroom.debug.fit());
    const before = await shoot(page, path.join(artifacts, 'input-refusal-before.png'));
    assert(fit0.compact === false, 'the full page at 1366 x 768 is compact before any refusal');
    const canvas0 = await page.locator('#canvas').boundingBox();
    await page.locator('#sentence').fill('word '.repeat(400));
    await page.locator('#sentence').press('Enter');
    await page.waitForFunction(() => document.getElementById('sentence-error').textContent.length > 0);
    await settled(page);
    const after = await shoot(page, path.join(artifacts, 'input-refusal-after.png'));
    const canvas1 = await page.locator('#canvas').boundingBox();
    const fit1 = await page.evaluate(() => window.headroom.debug.fit());
    const layout1 = await page.evaluate(() => window.headroom.debug.layout());
    assert(canvas1.height < canvas0.height, `the refusal took no room (canvas ${canvas0.height} -> ${canvas1.height} px): the test proves nothing`);
    assert(fit1.compact === false && layout1.views.length === 0,
      `a refusal turned the page compact (compact ${fit1.compact}, ${layout1.views.length} view tabs)`);
    // Pixels: the top 200 CSS px of the canvas (title, heads, sentence) are
    // drawn the same before and after.
    const rows = Math.round(200 * before.height / canvas0.height);
    let diff = 0;
    for (let i = 0; i < rows * before.width * 4; i += 4)
      for (let k = 0; k < 3; ++k) diff += Math.abs(before.rgba[i + k] - after.rgba[i + k]);
    diff /= rows * before.width * 3;
    assert(diff < 2, `the top of the canvas changed after the refusal (mean pixel difference ${diff.toFixed(2)})`);
    const field = page.locator('#sentence');
    assert(await field.getAttribute('aria-invalid') === 'true', 'the refused text is not marked');
    assert((await field.inputValue()).startsWith('word word'), 'the refused text was not kept');
    await field.press('End');
    await field.type('x');
    assert(await field.getAttribute('aria-invalid') === null, 'the mark stays after an edit');
    assert(await page.locator('#sentence-error').textContent() === '', 'the refusal stays after an edit');
    await context.close();
  });

  await test('full page: "2" right after load sets 2 heads; after Enter in the field, "4" goes to the canvas', async () => {
    const { context, page } = await open(browser, `${url}#heads=1`, watch, 'keys', { viewport: { width: 1366, height: 768 } });
    const rects = (await page.evaluate(() => window.headroom.debug.layout())).heads;
    await page.keyboard.press('2');
    await settled(page);
    let img = await shoot(page, path.join(artifacts, 'input-keys-2.png'));
    let s = await page.evaluate(() => window.headroom.getState());
    assert(s.heads === 2, `"2" after load: ${s.heads} heads (the canvas has no keyboard focus)`);
    assert(oddOneOut(img, rects)[0] === 1, 'the screen does not show "2" selected');
    const field = page.locator('#sentence');
    await field.fill(LESSON.replace('wrong', 'right'));
    await field.press('Enter');
    await settled(page);
    await page.keyboard.press('4');
    await settled(page);
    img = await shoot(page, path.join(artifacts, 'input-keys-4.png'));
    s = await page.evaluate(() => window.headroom.getState());
    assert(!(await field.inputValue()).includes('4'), `"4" went into the field: ${await field.inputValue()}`);
    assert(s.heads === 4 && s.tokens.includes('right'), `after Enter then "4": ${s.heads} heads, tokens ${s.tokens}`);
    assert(oddOneOut(img, rects)[0] === 2, 'the screen does not show "4" selected');
    await context.close();
  }, CLOCK);

  const frames = [
    ['1366 x 768 full page', 'index.html', { viewport: { width: 1366, height: 768 } }],
    ['720 x 560 frame', 'embed.html', { viewport: { width: 720, height: 560 } }],
    ['390 x 844 phone', 'index.html', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true }],
  ];
  for (const [label, file, options] of frames) {
    await test(`${label}: value-space labels never cover each other or a marker at 1, 2, 4, 8 heads (clicked), and name what is measured`, async () => {
      const { context, page } = await open(browser, `${url}${file}#heads=1`, watch, `labels-${file}-${options.viewport.width}`, options);
      const box = await page.locator('#canvas').boundingBox();
      for (const [i, n] of [1, 2, 4, 8].entries()) {
        const heads = (await page.evaluate(() => window.headroom.debug.layout())).heads;
        const r = heads[i];
        if (options.hasTouch) await tapRect(page, r);
        else await page.mouse.click(box.x + (r[0] + r[2]) / 2, box.y + (r[1] + r[3]) / 2);
        await settled(page);
        const s = await page.evaluate(() => window.headroom.getState());
        assert(s.heads === n, `clicked "${n}": ${s.heads} heads`);
        const vs = (await page.evaluate(() => window.headroom.debug.layout())).valueSpace;
        await page.locator('#canvas').screenshot({ path: path.join(artifacts, `input-labels-${options.viewport.width}-${n}.png`) });
        assert(vs.plots.length === n, `${n} heads, ${vs.plots.length} plots`);
        const bad = labelCollisions(vs);
        assert(bad.length === 0, `${n} heads:\n${bad.join('\n')}`);
        // Every head's output labelled; its words follow the readout's numbers.
        for (let h = 0; h < n; ++h) {
          const out = vs.labels.find((l) => l.head === h && l.text.startsWith('output: '));
          assert(out, `head ${h + 1} of ${n}: no output label among ${JSON.stringify(vs.labels.map((l) => l.text))}`);
          const rd = s.readout[h];
          if (n === 1) {
            const split = rd.targetWeight.every((w) => w > 0.3) && rd.targetCos.every((c) => c < 0.9);
            assert(split && out.text === 'output: midpoint', `1 head, weights ${rd.targetWeight}, cos ${rd.targetCos}: "${out.text}"`);
          } else if (rd.targetCos[0] >= 0.9) {
            // Reads its target, or a token with the very same value vector ("The" for "the").
            const t = s.targets[h][0], pts = s.valueSpace[h].points;
            const word = out.text.replace(/^output: reads /, '');
            const same = s.tokens.some((w, j) => w === word && Math.hypot(pts[j][0] - pts[t][0], pts[j][1] - pts[t][1]) < 1e-4);
            assert(out.text.startsWith('output: reads ') && same, `head ${h + 1} of ${n}, cos ${rd.targetCos[0]} to ${s.tokens[t]}: "${out.text}"`);
          }
        }
        if (n <= 2 && file === 'index.html' && options.viewport.width === 1366) {
          // The whole view above the fold; the plots share the card's width.
          const fold = box.height;
          assert(vs.view[1] >= 0 && vs.view[3] <= fold, `${n} heads: the value space spans y ${vs.view[1]}..${vs.view[3]}, the fold is at ${fold}`);
          const used = vs.plots.reduce((sum, p) => sum + p[2] - p[0], 0);
          assert(used >= 0.9 * (vs.view[2] - vs.view[0]), `${n} heads: plots ${used} px wide in a ${vs.view[2] - vs.view[0]} px card`);
        }
      }
      // Spread: the same head, measured as mush, says so.
      await page.evaluate(() => window.headroom.setHeads(1));
      await page.evaluate(() => window.headroom.setFocus(1));
      await settled(page);
      const s = await page.evaluate(() => window.headroom.getState());
      const vs = (await page.evaluate(() => window.headroom.debug.layout())).valueSpace;
      const out = vs.labels.find((l) => l.text.startsWith('output: '));
      assert(s.readout[0].maxWeight < 0.3 && out && out.text === 'output: mush', `spread (max weight ${s.readout[0].maxWeight}): "${out && out.text}"`);
      assert(labelCollisions(vs).length === 0, labelCollisions(vs).join('\n'));
      await context.close();
    });
  }

  await test('1366 x 768: 4 s after the key "2" the one head\'s midpoint is still drawn (a ring in the pixels), labelled, until the query changes', async () => {
    const { context, page } = await open(browser, `${url}#heads=1`, watch, 'ghost', { viewport: { width: 1366, height: 768 } });
    await page.keyboard.press('2');
    await sleep(4000);
    const img = await shoot(page, path.join(artifacts, 'input-ghost-4s.png'));
    const s = await page.evaluate(() => window.headroom.getState());
    assert(s.heads === 2, `"2": ${s.heads} heads`);
    const vs = (await page.evaluate(() => window.headroom.debug.layout())).valueSpace;
    const ghosts = vs.markers.filter((m) => m.kind === 'ghost');
    assert(ghosts.length === 2, `ghost markers: ${JSON.stringify(ghosts)}`);
    const sx = img.width / (await page.locator('#canvas').boundingBox()).width;
    const px = (x, y) => { const i = (Math.round(y * sx) * img.width + Math.round(x * sx)) * 4; return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]]; };
    for (const g of ghosts) {
      const cx = (g.rect[0] + g.rect[2]) / 2, cy = (g.rect[1] + g.rect[3]) / 2;
      const plot = vs.plots[g.head];
      const bg = px(plot[0] + 4, plot[3] - 4);  // the plot's own background, at its corner
      // A ring: dark about radius 9 all round, light between the ring and the centre dot.
      let ring = 0, hole = 0;
      for (let k = 0; k < 16; ++k) {
        const a = (k / 16) * 2 * Math.PI;
        const across = [8, 8.5, 9, 9.5, 10].map((r) => dist(px(cx + r * Math.cos(a), cy + r * Math.sin(a)), bg));
        if (Math.max(...across) > 40) ++ring;  // the ring's darkest pixel on this ray
        if (dist(px(cx + 5.5 * Math.cos(a), cy + 5.5 * Math.sin(a)), bg) < 25) ++hole;
      }
      assert(ring >= 12 && hole >= 10, `head ${g.head + 1}: no ring at ${cx}, ${cy} 4 s after "2" (${ring}/16 dark on the ring, ${hole}/16 light inside)`);
      const tag = vs.labels.find((l) => l.head === g.head && l.text === '1 head\'s midpoint');
      assert(tag, `head ${g.head + 1}: the ghost has no label`);
      const tagMean = img.mean(tag.rect);
      assert(dist(tagMean, bg) > 15, `head ${g.head + 1}: the ghost's label is not in the pixels (mean ${tagMean}, background ${bg})`);
    }
    await page.keyboard.press('ArrowRight');  // a new query: the one head's midpoint no longer applies
    await settled(page);
    const after = (await page.evaluate(() => window.headroom.debug.layout())).valueSpace;
    const q = (await page.evaluate(() => window.headroom.getState())).query;
    assert(q !== s.query && after.markers.every((m) => m.kind !== 'ghost'), `query ${s.query} -> ${q}: ghosts ${JSON.stringify(after.markers.filter((m) => m.kind === 'ghost'))}`);
    await context.close();
  }, CLOCK);

  await test('a 720 x 560 frame: the compact Train tab trains, and its switch shows the trained weights (mouse)', async () => {
    const { context, page } = await open(browser, `${url}embed.html#heads=2`, watch, 'compact-train', { viewport: { width: 720, height: 560 } });
    const click = async (r) => { await page.mouse.click((r[0] + r[2]) / 2, (r[1] + r[3]) / 2); await settled(page); };
    const layout = () => page.evaluate(() => window.headroom.debug.layout());
    const tabs = (await layout()).views;
    assert(tabs.length === 8, `${tabs.length} tabs (expected the seven lesson views and Train)`);
    const lessonShot = await shoot(page);
    await click(tabs[7]);
    let l = await layout();
    const img = await shoot(page, path.join(artifacts, 'input-compact-train.png'));
    assert(oddOneOut(img, l.views)[0] === 7, 'the screen does not show the Train tab selected');
    assert(l.trainButtons.length >= 3 && l.weights.length === 3, `the Train tab shows no training controls: ${JSON.stringify([l.trainButtons, l.weights])}`);
    // The Play button: the runs train through the real click.
    const press = (r) => page.mouse.click((r[0] + r[2]) / 2, (r[1] + r[3]) / 2);
    await press(l.trainButtons[0]);  // Play: the page draws while it trains
    await page.waitForFunction(() => window.headroom.train.state().step >= 20, null, { timeout: 60_000 });
    l = await layout();
    await press(l.trainButtons[0]);  // Pause
    await settled(page);
    assert(!(await page.evaluate(() => window.headroom.train.state().running)), 'the second click did not pause');
    const before = await shoot(page);
    await click(l.weights[1]);
    const after = await shoot(page, path.join(artifacts, 'input-compact-trained.png'));
    const s = await page.evaluate(() => window.headroom.getState());
    assert(s.modelWeights.choice === 'trained' && s.modelWeights.shown === 'trained', JSON.stringify(s.modelWeights));
    // The readout grows with the trained weights' sentence, moving the row:
    // the buttons are read where each frame drew them. Chosen swapped: the
    // look of "built" before is the look of "trained" after, and the other way.
    const l2 = await layout();
    const [b0, t0] = [before.mean(l.weights[0]), before.mean(l.weights[1])];
    const [b1, t1] = [after.mean(l2.weights[0]), after.mean(l2.weights[1])];
    assert(dist(b0, t0) > 20 && dist(t1, b0) < 10 && dist(b1, t0) < 10,
      `the "trained" button does not look chosen: before built ${b0}, trained ${t0}; after built ${b1}, trained ${t1}`);
    // Back on the value space tab, the views draw the trained weights.
    await click((await layout()).views[0]);
    const trainedShot = await shoot(page);
    let moved = 0;
    for (let i = 0; i < lessonShot.rgba.length; i += 4) moved += Math.abs(lessonShot.rgba[i] - trainedShot.rgba[i]);
    assert(moved / (lessonShot.rgba.length / 4) > 1, 'the value space looks the same with trained weights');
    await context.close();
  });

  await test('1366 x 768: the rows below the heads control stay put between 1 and 2 heads (mouse), and look the same', async () => {
    const { context, page } = await open(browser, `${url}#heads=1`, watch, 'rows-still', { viewport: { width: 1366, height: 768 } });
    const layout = () => page.evaluate(() => window.headroom.debug.layout());
    // The first rect of each row under the heads control: the weights switch,
    // and under the focus row the two columns' first cards (the value space,
    // the token chips). The knockout and tie row follows the attention view,
    // which grows by a row of bars per head, so it is not one of them.
    const rows = (l) => ({ weights: l.weights[0], values: l.valueSpace.view, chip: l.tokens[0] });
    const l1 = await layout();
    const r1 = rows(l1);
    const img1 = await shoot(page, path.join(artifacts, 'input-rows-1-head.png'));
    const h = l1.heads[1], box = await page.locator('#canvas').boundingBox();
    await page.mouse.click(box.x + (h[0] + h[2]) / 2, box.y + (h[1] + h[3]) / 2);  // "2"
    await settled(page);
    const r2 = rows(await layout());
    const img2 = await shoot(page, path.join(artifacts, 'input-rows-2-heads.png'));
    assert((await page.evaluate(() => window.headroom.getState().heads)) === 2, 'the click on "2" did not set 2 heads');
    const moved = Object.keys(r1).filter((k) => !r1[k] || !r2[k] || Math.abs(r1[k][1] - r2[k][1]) > 0.5)
      .map((k) => `${k} y ${r1[k] && r1[k][1]} -> ${r2[k] && r2[k][1]}`);
    assert(moved.length === 0, `rows moved between 1 and 2 heads: ${moved.join('; ')}`);
    // Pixels: the weights switch and the first chip look the same at the same place.
    for (const [k, a, b] of [['weights', r1.weights, r1.weights], ['chip', r1.chip, r1.chip]]) {
      const d = dist(img1.mean(a), img2.mean(b));
      assert(d < 3, `the ${k} looks different after 1 -> 2 heads (colour distance ${d.toFixed(1)})`);
    }
    await context.close();
  });

  await test('attention view: one arrangement for a 3-token and a 30-token sentence (1366 x 768 and a 390 px phone)', async () => {
    const LONG = 'The old researcher who wrote the long paper about the small cat said that the paper was wrong and that the cat was right in the end after all.';
    // 1366: the full lesson, where the attention card is the right column
    // (about 590 px: the long sentence's columns must squeeze); the phone:
    // the attention embed (rows).
    for (const [label, hash, options] of [['1366', '#heads=2', { viewport: { width: 1366, height: 768 } }],
      ['phone', '#view=attention&heads=2', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true }]]) {
      const { context, page } = await open(browser, `${url}${hash}`, watch, `attention-${label}`, options);
      const seen = [];
      for (const [name, sentence] of [['short', 'The cat sat.'], ['long', LONG]]) {
        await page.evaluate((t) => window.headroom.setSentence(t), sentence);
        await settled(page);
        await shoot(page, path.join(artifacts, `input-attention-${label}-${name}.png`));
        const l = await page.evaluate(() => window.headroom.debug.layout());
        const st = await page.evaluate(() => window.headroom.getState());
        const n = st.tokens.length;
        // The token names' labels (reported first, then the heads'): in
        // columns they share one line (one y), in rows each has its own.
        const names = l.attention.slice(0, n);
        const ys = new Set(names.map((r) => Math.round(r[1])));
        const drawn = ys.size === 1 ? 'columns' : ys.size === names.length ? 'rows' : `mixed (${ys.size} lines)`;
        seen.push([name, n, l.attentionMode, drawn, l.attention.length === n + st.heads]);
      }
      const text = seen.map((x) => x.join(' ')).join('; ');
      console.log(`      ${label}: ${text}`);
      assert(seen[1][1] >= 30, `the long sentence has ${seen[1][1]} tokens`);
      assert(seen[0][2] === seen[1][2] && seen[0][2] !== '', `the arrangement changed with the length: ${text}`);
      // Where the labels are all on screen, the pixels' arrangement is the stated one.
      for (const [, , mode, drawn, all] of seen) if (all) assert(drawn === mode, `drawn as ${drawn}, stated ${mode}: ${text}`);
      await context.close();
    }
  });

  await test('phone: a tap on a heatmap cell reads it (pinned, its weight written below) and selects its row', async () => {
    const { context, page } = await open(browser, `${url}#view=attention&heads=2`, watch, 'heatmap-tap',
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, hasTouch: true, isMobile: true });
    const s0 = await page.evaluate(() => window.headroom.getState());
    const layout = () => page.evaluate(() => window.headroom.debug.layout());
    // The heatmap card is under the attention card: the wheel brings its first grid up.
    await page.mouse.move(195, 500);
    await page.mouse.wheel(0, 320);
    await settled(page);
    let l = await layout();
    assert(l.heatmap.grids.length === 2, `heatmap grids: ${JSON.stringify(l.heatmap)}`);
    const g = l.heatmap.grids[0];
    const before = await shoot(page);
    assert(g[3] <= 844, `the first grid is off screen: ${g}`);
    const L = s0.tokens.length, cell = (g[2] - g[0]) / L;
    const cellRect = (i, j) => [g[0] + cell * j, g[1] + cell * i, g[0] + cell * (j + 1), g[1] + cell * (i + 1)];
    // 1. A cell on the selected token's row (the query does not move): the
    // outline drawn around it is the only change there.
    const q = s0.query, col = s0.tokens.indexOf('researcher');
    await tapRect(page, cellRect(q, col));
    await settled(page);
    l = await layout();
    const after = await shoot(page, path.join(artifacts, 'input-heatmap-tap.png'));
    assert(JSON.stringify(l.heatmap.pin) === JSON.stringify([0, q, col]), `pinned ${JSON.stringify(l.heatmap.pin)}, tapped head 1 row ${q} column ${col}`);
    const c = cellRect(q, col);
    const top = [c[0] - 4, c[1] - 4, c[2] + 4, c[1] + 5];  // the outline's top edge (img.mean keeps 3 px inside)
    assert(dist(before.mean(top), after.mean(top)) > 10, `no outline around the tapped cell (${before.mean(top)} vs ${after.mean(top)})`);
    // 2. A cell on another row: pinned, and its row's token becomes the query.
    const row = s0.tokens.indexOf('paper');
    await tapRect(page, cellRect(row, col));
    await settled(page);
    l = await layout();
    const s1 = await page.evaluate(() => window.headroom.getState());
    assert(JSON.stringify(l.heatmap.pin) === JSON.stringify([0, row, col]), `pinned ${JSON.stringify(l.heatmap.pin)}, tapped head 1 row ${row} column ${col}`);
    assert(s1.query === row, `the tap selected token ${s1.query}, not its row ${row}`);
    await context.close();
  });

  await test('the open tab is kept in the hash: a click writes tab=, the link opens that tab again (mouse, pixels)', async () => {
    for (const [hash, index, tab, card] of [['heads=2', 6, 'steps', 'steps'], ['view=train', 1, 'heads', 'train']]) {
      const a = await open(browser, `${url}embed.html#${hash}`, watch, `tab-${tab}`, { viewport: { width: 540, height: 560 } });
      const tabs = (await a.page.evaluate(() => window.headroom.debug.layout())).views;
      await a.page.mouse.click((tabs[index][0] + tabs[index][2]) / 2, (tabs[index][1] + tabs[index][3]) / 2);
      await settled(a.page);
      await a.page.waitForFunction((t) => location.hash.includes(`tab=${t}`), tab, { timeout: 5_000 });
      const link = await a.page.evaluate(() => location.href);
      const l1 = await a.page.evaluate(() => window.headroom.debug.layout());
      assert(oddOneOut(await shoot(a.page), l1.views)[0] === index, `${hash}: the clicked tab ${index} does not look selected`);
      await a.context.close();
      // The link in a new page: the same tab open, seen in the pixels.
      const b = await open(browser, link, watch, `tab-${tab}-link`, { viewport: { width: 540, height: 560 } });
      // The training tabs draw the runs once the Worker has posted them (a loaded machine takes a while).
      if (tab === 'heads') await b.page.waitForFunction(() => window.headroom.train.state().runs.length > 0, null, { timeout: 60_000 });
      await b.page.evaluate(() => window.headroom.debug.idle(10000));
      const l2 = await b.page.evaluate(() => window.headroom.debug.layout());
      const img = await shoot(b.page, path.join(artifacts, `input-tab-${tab}.png`));
      assert(oddOneOut(img, l2.views)[0] === index, `${link}: tab ${index} does not look selected`);
      assert(l2.cards[card], `${link}: no ${card} panel (${Object.keys(l2.cards)})`);
      if (tab === 'heads') assert(l2.trainChart.specialisationCells === 7, `heads over time: ${l2.trainChart.specialisationCells} cells`);
      assert((await b.page.evaluate(() => window.headroom.getState().error)) === null, 'the link was refused');
      await b.context.close();
    }
  });

  await test('a frame does not take the keyboard: "2" after load leaves the host page keys alone', async () => {
    const { context, page } = await open(browser, `${url}embed.html#heads=1`, watch, 'embed-keys', { viewport: { width: 720, height: 560 } });
    const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
    assert(focused !== 'canvas', 'the embed took the keyboard focus at start');
    await page.keyboard.press('2');
    await settled(page);
    const s = await page.evaluate(() => window.headroom.getState());
    assert(s.heads === 1, `"2" with no focus changed the embed: ${s.heads} heads`);
    await context.close();
  }, CLOCK);
}

await runSuite('input paths', inputPathTests, 720_000);  // about 14 tests, several at DPR 3 on SwiftShader
