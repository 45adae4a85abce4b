// tour_pictures.test.mjs: every reveal of the guided lesson is a picture,
// its input says what it does, and a single view fills its frame.
//
// Does: on the full page at 1366 x 768 (mouse) and 390 x 844 (a phone:
// touch, coarse pointer), answers every step through tour.predict, reveals it
// by a real click or tap on Reveal, and reads what the panel drew
// (debug.layout().tourPicture): the picture the step's proof needs (the
// options' plane, the heads' arcs, the concatenation with head 2 knocked out,
// the score matrices, the loss chart, the recap table), at least 120 px tall,
// inside the display, with no two of its labels overlapping, and pixels in it
// that are not the background; each reveal's screenshot goes to
// build/test-artifacts/tour-reveal-<step>-<w>x<h>.png. Then the input: the
// hint names keys with a mouse and taps on a touch screen; on a choice step
// the arrows move a ring drawn around a choice and Enter reveals with the
// ringed answer; a match with one row picked is refused by Enter, saying
// what is missing, and nothing is revealed; Try again (a real click) forgets
// the answer, and the recap's Try again opens its step. Last, the value space
// alone in a 540 x 560 frame: its plane at least 45% of the frame's height,
// the view down to the frame's bottom.
// Does not: check the measured numbers or the marks (tour.test.mjs does, with
// the main screen's words), or train to step 250.
import path from 'node:path';
import { assert, test } from './harness.mjs';
import { decodePng } from './png.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 420_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The answer given to each step, and the picture its reveal must draw.
const STEPS = [
  { n: 1, answer: { choice: 'neither' }, kind: '' },  // its plane is the one it was answered in
  { n: 2, answer: { choice: 'split' }, kind: 'plane' },
  { n: 3, answer: { points: [{ x: 1, y: 0 }, { x: 0, y: 1 }] }, kind: 'arcs' },
  { n: 4, answer: { choice: 'it' }, kind: 'concat' },
  { n: 5, answer: { match: [1, 7, 5, 5] }, kind: 'arcs' },
  { n: 6, answer: { choice: 'equal' }, kind: 'scores' },
  { n: 7, answer: { number: 0.5 }, kind: 'loss' },
  { n: 8, answer: { labels: ['punctuation', 'determiner-noun', 'previous', 'mixed'] }, kind: 'specialisation' },
  { n: 9, answer: null, kind: 'recap' },
];

const overlap = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

async function pictureTests({ browser, url, watch, artifacts }) {
  const open = async (name, page0, hash, [width, height], touch = false) => {
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch: touch,
      isMobile: touch });
    const page = await context.newPage();
    watch(page, name);
    await page.goto(`${url}${page0}${hash}`);
    await page.waitForFunction(() => window.headroom, null, { timeout: 60_000 });
    await page.evaluate(() => window.headroom.ready);
    await sleep(500);
    return page;
  };
  const layout = (page) => page.evaluate(() => window.headroom.debug.layout());
  const tour = (page) => page.evaluate(() => window.headroom.tour.state());
  // Canvas rects are CSS px of the canvas; the page may have a bar above it.
  const canvasAt = (page) => page.evaluate(() => {
    const r = document.querySelector('canvas').getBoundingClientRect();
    return [r.x, r.y];
  });
  const press = async (page, rect, touch) => {
    const [cx, cy] = await canvasAt(page);
    const x = cx + (rect[0] + rect[2]) / 2, y = cy + (rect[1] + rect[3]) / 2;
    if (touch) await page.touchscreen.tap(x, y);
    else await page.mouse.click(x, y);
  };
  // Waits until the drawn frame shows `ok(layout)` (frames come when asked).
  const until = async (page, ok, what) => {
    for (let i = 0; i < 60; ++i) {
      const l = await layout(page);
      if (ok(l)) return l;
      await sleep(150);
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  for (const [w, h, touch] of [[1366, 768, false], [390, 844, true]]) {
    await test(`every reveal is a picture at ${w} x ${h} (${touch ? 'taps' : 'clicks'}): the step's view, labels apart, in the display`, async () => {
      const page = await open(`reveal-${w}`, 'index.html', '#tour=1', [w, h], touch);
      const [cx, cy] = await canvasAt(page);
      const bad = [];
      for (const s of STEPS) {
        await page.evaluate((n) => window.headroom.tour.go(n), s.n);
        if (s.answer) await page.evaluate((a) => window.headroom.tour.predict(a), s.answer);
        const t0 = await tour(page);
        assert(!t0.error, `step ${s.n}: the answer was refused: ${t0.error}`);
        // the Reveal button, as the frame after the answer drew it
        const l0 = await until(page, (l) => l.tourButtons.length === 4 && l.tourPicture.hint !== '', 'the panel');
        await press(page, l0.tourButtons[2], touch);
        await until(page, (x) => x.tourPicture.retry.length > 0 || (s.n === 9 && x.tourPicture.kind === 'recap'),
          `step ${s.n}'s reveal`);
        await sleep(1300);  // the arcs grow in; their labels come when they are whole
        // step real-text trains the text model (in the Worker): its table
        // fills once the 4-head run's first held-out point is measured (4
        // heads x 9 behaviours); then it stops, so the next steps run alone
        if (s.kind === 'specialisation') {
          await until(page, (x) => Number(x.trainChart.headScoreCells) >= 36, 'the 4-head run\'s first measured heads');
          await page.evaluate(() => window.headroom.train.pause());
        }
        const done = await layout(page);
        const pic = done.tourPicture;
        const t = await tour(page);
        assert(t.steps[s.n - 1].revealed, `step ${s.n} was not revealed by the ${touch ? 'tap' : 'click'}`);
        const file = path.join(artifacts, `tour-reveal-${s.n}-${w}x${h}.png`);
        const png = decodePng(await page.screenshot({ path: file }));
        // the picture: the plane for step 1 (answered in it), else the kind
        const rect = s.n === 1 ? done.tourPlane.rect : pic.rect;
        if (pic.kind !== s.kind) bad.push(`step ${s.n}: drew '${pic.kind}', not '${s.kind}'`);
        const ph = rect[3] - rect[1];
        // (arcs where the sentence does not fit list only the tokens they join: 3 rows)
        if (ph < (s.kind === 'arcs' ? 80 : 120)) bad.push(`step ${s.n}: the picture is ${ph} px tall`);
        if (rect[0] < 0 || rect[2] > w + 0.5 || rect[1] < 0 || rect[1] > h) bad.push(`step ${s.n}: picture at ${rect} outside ${w} x ${h}`);
        // labels apart
        const labels = pic.labels;
        for (let i = 0; i < labels.length; ++i) {
          for (let j = i + 1; j < labels.length; ++j) {
            if (overlap(labels[i], labels[j])) bad.push(`step ${s.n}: labels ${labels[i]} and ${labels[j]} overlap`);
          }
        }
        if (['arcs', 'plane'].includes(s.kind) && labels.length < 2) bad.push(`step ${s.n}: ${labels.length} labels`);
        // drawn: many colours inside the picture's visible part
        const colours = new Set();
        const y1 = Math.min(rect[3], h - cy - 1);
        for (let y = Math.ceil(rect[1]); y < y1; y += 3) {
          for (let x = Math.ceil(rect[0]); x < rect[2]; x += 3) {
            const i = ((Math.round(y + cy)) * png.width + Math.round(x + cx)) * 4;
            colours.add((png.rgba[i] >> 3) << 10 | (png.rgba[i + 1] >> 3) << 5 | png.rgba[i + 2] >> 3);
          }
        }
        if (colours.size < 8) bad.push(`step ${s.n}: the picture has ${colours.size} colours: nothing drawn`);
        if (s.kind === 'loss' && done.trainChart.rect[3] - done.trainChart.rect[1] < 100) {
          bad.push(`step 7: the loss chart is ${JSON.stringify(done.trainChart.rect)}`);
        }
        if (s.kind === 'recap' && pic.retry.length < 3) bad.push(`step 9: ${pic.retry.length} Try again buttons in sight`);
      }
      assert(bad.length === 0, bad.join('\n'));
      await page.context().close();
    });
  }

  await test('hints: keys with a mouse, taps on a touch screen, for the step\'s own input', async () => {
    const desk = await open('hint-desk', 'embed.html', '#tour=4', [720, 560]);
    let l = await until(desk, (x) => x.tourPicture.hint !== '', 'a hint');
    assert(/^keys: arrows move the ring/.test(l.tourPicture.hint), `desktop choice step: ${l.tourPicture.hint}`);
    await desk.evaluate(() => window.headroom.tour.go(5));
    // (not /row/: "arrows" in the choice step's hint holds it)
    l = await until(desk, (x) => /pick a row/.test(x.tourPicture.hint), 'the match hint');
    assert(/^keys: up and down pick a row/.test(l.tourPicture.hint), `desktop match step: ${l.tourPicture.hint}`);
    await desk.context().close();
    const phone = await open('hint-phone', 'embed.html', '#tour=4', [390, 700], true);
    l = await until(phone, (x) => x.tourPicture.hint !== '', 'a hint');
    assert(/^tap an answer/.test(l.tourPicture.hint), `phone choice step: ${l.tourPicture.hint}`);
    assert(!/keys/.test(l.tourPicture.hint), 'a phone shows no key hint');
    await phone.context().close();
  });

  await test('keys: arrows ring a choice, Enter reveals with the ringed answer; a match with one row picked is refused', async () => {
    const page = await open('keys', 'embed.html', '#tour=4', [720, 560]);
    await page.mouse.click(700, 545);  // focus the canvas on an empty spot
    await sleep(400);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const around = (r, b) => r[0] <= b[0] && r[2] >= b[2] && r[1] <= b[1] && r[3] >= b[3];
    const l = await until(page, (x) => x.tourChoices.length === 4 && around(x.tourPicture.focus, x.tourChoices[1]),
      'the ring around the second choice').catch(async () => layout(page));
    const ring = l.tourPicture.focus, second = l.tourChoices[1];
    assert(around(ring, second), `the ring ${ring} is not around the second choice ${second}`);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.headroom.tour.state().steps[3].revealed, null, { timeout: 10_000 }).catch(() => {});
    let t = await tour(page);
    assert(t.steps[3].revealed && t.steps[3].predicted && t.steps[3].predicted.id === 'it',
      `Enter revealed ${JSON.stringify(t.steps[3].predicted)} (revealed ${t.steps[3].revealed})`);
    assert(t.steps[3].correct !== undefined && typeof t.steps[3].reason === 'string' && t.steps[3].reason.length > 0,
      'the ringed answer was marked with a reason');
    // step 5: one row picked by the keys, then Enter
    await page.keyboard.press('n');
    await page.waitForFunction(() => window.headroom.tour.state().step === 5, null, { timeout: 10_000 });
    await sleep(300);
    await page.keyboard.press('ArrowRight');
    await sleep(200);
    await page.keyboard.press('Enter');
    await sleep(600);
    t = await tour(page);
    assert(!t.steps[4].revealed, 'a match with one row picked was revealed');
    assert(t.error && /no token picked yet/.test(t.error), `the refusal names what is missing: ${t.error}`);
    await page.context().close();
  });

  await test('Try again: a real click forgets the answer; the recap\'s Try again opens its step', async () => {
    const page = await open('retry', 'embed.html', '#tour=2', [720, 560]);
    await page.evaluate(() => { window.headroom.tour.predict('split'); window.headroom.tour.reveal(); });
    let l = await until(page, (x) => x.tourPicture.retry.length === 1, 'Try again');
    await press(page, l.tourPicture.retry[0], false);
    await page.waitForFunction(() => !window.headroom.tour.state().steps[1].revealed, null, { timeout: 10_000 }).catch(() => {});
    let t = await tour(page);
    assert(!t.steps[1].revealed && !t.steps[1].predicted && t.step === 2, `after Try again: ${JSON.stringify(t.steps[1]).slice(0, 200)}`);
    assert(!t.answers.some((a) => a.step === 2), 'the forgotten answer left tour.state().answers');
    await page.evaluate(() => { window.headroom.tour.predict('one'); window.headroom.tour.reveal(); window.headroom.tour.go(9);
      window.headroom.tour.reveal(); });
    l = await until(page, (x) => x.tourPicture.kind === 'recap' && x.tourPicture.retry.length >= 2, 'the recap');
    await sleep(500);  // a table settles its columns over two frames
    l = await layout(page);
    await press(page, l.tourPicture.retry[1], false);  // row 2
    await page.waitForFunction(() => window.headroom.tour.state().step === 2, null, { timeout: 10_000 }).catch(() => {});
    t = await tour(page);
    assert(t.step === 2 && !t.steps[1].revealed, `the recap's row 2 opened step ${t.step}`);
    await page.context().close();
  });

  await test('the value space alone fills a 540 x 560 frame: its plane at least 45% of the height, down to the bottom', async () => {
    for (const heads of [1, 2]) {
      const page = await open(`values-${heads}`, 'embed.html', `#heads=${heads}&view=values`, [540, 560]);
      const l = await until(page, (x) => x.valueSpace.plots.length === heads, 'the plots');
      const plot = l.valueSpace.plots[0], view = l.valueSpace.view;
      const ph = plot[3] - plot[1];
      assert(ph >= (heads === 1 ? 0.45 : 0.36) * 560, `${heads} head(s): the plane is ${ph} px of 560`);
      assert(view[3] >= 0.85 * 560 && view[3] <= 560, `${heads} head(s): the view ends at ${view[3]}`);
      const fit = await page.evaluate(() => window.headroom.debug.fit());
      const scrolls = fit.windows.filter((w) => w.scrollMax[1] > 0 || w.scrollbar[0] || w.scrollbar[1]);
      assert(fit.drawn && scrolls.length === 0, `${heads} head(s): ${scrolls.map((w) => w.name).join(', ')} scroll(s)`);
      await page.screenshot({ path: path.join(artifacts, `values-alone-${heads}-540x560.png`) });
      await page.context().close();
    }
  });
}

await runSuite('tour pictures', pictureTests, SUITE_TIMEOUT_MS);
