// theme.test.mjs: browser tests of theme=light and theme=dark, read in the
// pixels of screenshots, run by run.mjs (which owns the browser, the server
// and the pass/fail count): the HTML chrome follows the state's theme, and
// text stays readable in both themes, in the HTML bars and on the canvas.
//
// Does: open index.html and embed.html with #theme=light and #theme=dark at
// devicePixelRatio 2, take PNG screenshots and decode them with png.mjs (first
// checked byte for byte against Chromium's own PNG decoder). In each region
// that holds text it takes the background as the most common colour and the
// text as the pixel of highest contrast against it (at DPR 2 the core of a
// glyph's stroke is the text colour itself; anti-aliased edges only lie
// between the two), and requires the WCAG 2 contrast ratio of the two to be
// at least 4.5 (WCAG AA for normal-size text). Regions: the sentence bar's
// label, field and Apply button and a refusal under it; the embed's link-error
// bar; on the canvas, every rect headroom.debug.layout() reports (token chips,
// heads buttons, the attention view's labels on screen; a group the app adds
// there is measured too). Controls (checkboxes, sliders, radio buttons,
// fields: debug.layout().controls.frames) need a boundary of contrast >= 3
// against the background beside them (WCAG 1.4.11), measured along their
// edges. The
// HTML regions' pixels are also compared with the colours their CSS declares,
// so a region read in the wrong place fails. Screenshots go to
// build/test-artifacts/theme-*.png.
// Does not: launch a browser or count results itself.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodePng } from './png.mjs';

const DPR = 2;
const MIN_CONTRAST = 4.5;  // WCAG 2, level AA, normal-size text
const MIN_BOUNDARY = 3;    // WCAG 2.1 1.4.11: a control's boundary against what is next to it

// ---------------------------------------------------------------------------
// colour arithmetic (WCAG 2: relative luminance and contrast ratio)
// ---------------------------------------------------------------------------
const linear = (c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; };
const luminance = ([r, g, b]) => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const hex = ([r, g, b]) => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
// "rgb(r, g, b)" or "rgba(r, g, b, 1)" from getComputedStyle.
const cssRgb = (s) => {
  const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(s);
  if (!m || (m[4] !== undefined && Number(m[4]) !== 1)) throw new Error(`not an opaque colour: ${s}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};

// In the rect [x0, y0, x1, y1] (image px) of a decoded screenshot: the most
// common colour (background), the pixel of highest contrast against it
// (text), their ratio, and how many pixels are at least half that far.
function measure(img, [x0, y0, x1, y1]) {
  const counts = new Map();
  const at = (x, y) => { const i = 4 * (y * img.width + x); return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]]; };
  const xs = [Math.max(0, Math.round(x0)), Math.min(img.width, Math.round(x1))];
  const ys = [Math.max(0, Math.round(y0)), Math.min(img.height, Math.round(y1))];
  if (xs[1] - xs[0] < 4 || ys[1] - ys[0] < 4) throw new Error(`rect ${[x0, y0, x1, y1]} is empty in a ${img.width} x ${img.height} image`);
  for (let y = ys[0]; y < ys[1]; ++y) {
    for (let x = xs[0]; x < xs[1]; ++x) {
      const key = at(x, y).join(',');
      counts.set(key, (counts.get(key) || 0) + 1);
    }
  }
  const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
  let text = bg, best = 1;
  const ratios = [];
  for (const [key, n] of counts) {
    const c = key.split(',').map(Number), r = contrast(c, bg);
    ratios.push([r, n]);
    if (r > best) { best = r; text = c; }
  }
  const inked = ratios.filter(([r]) => r >= 1 + (best - 1) / 2).reduce((s, [, n]) => s + n, 0);
  return { bg, text, ratio: best, inked };
}
const show = (m) => `${hex(m.text)} on ${hex(m.bg)}: ${m.ratio.toFixed(2)}`;

// A control's boundary in a decoded screenshot, for the frame [x0, y0, x1, y1]
// (image px) a checkbox, slider or field is drawn in: the background is the
// most common colour of a ring 3 to 6 image px outside the frame; along the
// middle fifth of each side, each position takes the pixel of highest
// contrast against it within 2 image px of the frame's edge (a 1 CSS px
// edge is 2 image px at DPR 2); the boundary's contrast is the median over
// all positions (no single pixel decides). Returns {bg, edge, ratio}.
function boundary(img, [x0, y0, x1, y1]) {
  const at = (x, y) => { const i = 4 * (Math.round(y) * img.width + Math.round(x)); return [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2]]; };
  const counts = new Map();
  const count = (x, y) => { const k = at(x, y).join(','); counts.set(k, (counts.get(k) || 0) + 1); };
  for (let d = 3; d <= 6; ++d) {
    for (let x = x0 - d; x <= x1 + d; ++x) { count(x, y0 - d); count(x, y1 + d); }
    for (let y = y0 - d; y <= y1 + d; ++y) { count(x0 - d, y); count(x1 + d, y); }
  }
  const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0][0].split(',').map(Number);
  const samples = [];
  const best = (pts) => pts.reduce((m, [x, y]) => { const c = at(x, y), r = contrast(c, bg); return r > m[0] ? [r, c] : m; }, [1, bg]);
  const span = (a, b) => { const out = []; for (let t = a + 0.4 * (b - a); t <= a + 0.6 * (b - a); ++t) out.push(t); return out; };
  for (const x of span(x0, x1)) {
    samples.push(best([-1, 0, 1, 2].map((k) => [x, y0 + k])));
    samples.push(best([-2, -1, 0, 1].map((k) => [x, y1 + k])));
  }
  for (const y of span(y0, y1)) {
    samples.push(best([-1, 0, 1, 2].map((k) => [x0 + k, y])));
    samples.push(best([-2, -1, 0, 1].map((k) => [x1 + k, y])));
  }
  samples.sort((a, b) => a[0] - b[0]);
  const mid = samples[Math.floor(samples.length / 2)];
  return { bg, edge: mid[1], ratio: mid[0] };
}

// ---------------------------------------------------------------------------
// the suite
// ---------------------------------------------------------------------------
export async function themeSuite({ browser, url, test, assert, watch, artifacts }) {
  const open = async (page, label) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: DPR });
    const p = await context.newPage();
    watch(p, label);
    await p.goto(`${url}${page}`);
    await p.waitForFunction(() => window.headroom, null, { timeout: 30_000 });
    await p.evaluate(() => window.headroom.ready);
    await settle(p);
    return p;
  };
  const settle = (p) => p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const shot = async (p, name) => {
    const png = await p.screenshot();
    await writeFile(path.join(artifacts, `theme-${name}.png`), png);
    return decodePng(png);
  };
  // An element's rect in image px, shrunk by `inset` CSS px on every side,
  // and its computed colour and background (walking up to the first opaque one).
  const box = (p, selector, inset = 0) => p.evaluate(([sel, k, dpr]) => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const r = e.getBoundingClientRect();
    let bgOf = e;
    while (bgOf && /rgba\(0, 0, 0, 0\)|transparent/.test(getComputedStyle(bgOf).backgroundColor)) bgOf = bgOf.parentElement;
    return { rect: [r.left + k, r.top + k, r.right - k, r.bottom - k].map((v) => v * dpr),
      color: getComputedStyle(e).color, background: getComputedStyle(bgOf || document.documentElement).backgroundColor };
  }, [selector, inset, DPR]);

  await test('theme: png.mjs decodes a screenshot byte for byte as Chromium\'s own PNG decoder does', async () => {
    const p = await open('#theme=dark', 'decoder');
    // The bar and the top of the canvas (text, anti-aliasing, flat colours); opaque (RGB) and with alpha (RGBA).
    const clip = { x: 0, y: 0, width: 420, height: 260 };
    for (const options of [{ clip }, { clip, omitBackground: true }]) {
      const png = await p.screenshot(options);
      const ours = decodePng(png);
      const theirs = await p.evaluate(async (b64) => {
        const blob = await (await fetch(`data:image/png;base64,${b64}`)).blob();
        const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
        const c = new OffscreenCanvas(bitmap.width, bitmap.height);
        c.getContext('2d').drawImage(bitmap, 0, 0);
        const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const url = await new Promise((r) => { const f = new FileReader(); f.onload = () => r(f.result); f.readAsDataURL(new Blob([data])); });
        return { w: bitmap.width, h: bitmap.height, data: url.slice(url.indexOf(',') + 1) };
      }, png.toString('base64'));
      const data = Buffer.from(theirs.data, 'base64');
      assert(ours.width === theirs.w && ours.height === theirs.h, `size ${ours.width} x ${ours.height} vs ${theirs.w} x ${theirs.h}`);
      assert(data.length === ours.rgba.length, `${data.length} vs ${ours.rgba.length} bytes`);
      let differ = 0;
      for (let i = 0; i < data.length; ++i) differ += data[i] !== ours.rgba[i] ? 1 : 0;
      assert(differ === 0, `${JSON.stringify(options)}: ${differ} of ${data.length} bytes differ`);
    }
    await p.context().close();
  });

  for (const theme of ['light', 'dark']) {
    const p = await open(`#theme=${theme}&heads=2`, `index-${theme}`);

    await test(`theme: index.html#theme=${theme}: <html data-theme> and the sentence bar follow the theme`, async () => {
      assert((await p.evaluate(() => document.documentElement.dataset.theme)) === theme, 'data-theme');
      const img = await shot(p, `index-${theme}`);
      const bar = await box(p, '#sentence-form label');
      const m = measure(img, bar.rect);
      // The decoded background is exactly the colour the CSS declares.
      assert(hex(m.bg) === hex(cssRgb(bar.background)), `bar background ${hex(m.bg)}, CSS says ${bar.background}`);
      const l = luminance(m.bg);
      assert(theme === 'dark' ? l < 0.05 : l > 0.8, `bar background ${hex(m.bg)} has luminance ${l.toFixed(3)} in ${theme}`);
    });

    await test(`theme: index.html#theme=${theme}: sentence bar text (label, field, Apply, a refusal) has contrast >= ${MIN_CONTRAST}`, async () => {
      await p.evaluate(() => { document.getElementById('sentence').value = ''; });
      await p.click('#sentence-form button');  // an empty sentence is refused: the refusal shows under the bar
      await p.evaluate(() => { document.getElementById('sentence').value = 'The researcher who wrote the paper said it was wrong.'; });
      await settle(p);
      assert((await p.textContent('#sentence-error')).startsWith('Refused'), 'no refusal shown');
      const img = await shot(p, `index-${theme}-refusal`);
      const report = [];
      for (const [name, selector, inset] of [['label', '#sentence-form label', 0], ['field', '#sentence', 4],
        ['Apply', '#sentence-form button', 3], ['refusal', '#sentence-error', 0]]) {
        const b = await box(p, selector, inset);
        const m = measure(img, b.rect);
        const declared = contrast(cssRgb(b.color), cssRgb(b.background));
        report.push(`${name} ${show(m)} (CSS ${declared.toFixed(2)})`);
        assert(m.ratio >= MIN_CONTRAST && m.inked >= 20, report.join('; '));
        // The pixels agree with the CSS: the region was read where the text is.
        assert(m.ratio >= 0.85 * declared && m.ratio <= 1.05 * declared, `pixels and CSS disagree: ${report.join('; ')}`);
      }
      console.log(`      ${theme}: ${report.join('; ')}`);
      await p.evaluate(() => window.headroom.setSentence('The researcher who wrote the paper said it was wrong.'));
      await p.evaluate(() => { document.getElementById('sentence-error').textContent = ''; });
    });

    await test(`theme: index.html#theme=${theme}: canvas labels (token chips, heads buttons, attention labels: debug.layout()) have contrast >= ${MIN_CONTRAST}`, async () => {
      await settle(p);
      const img = await shot(p, `index-${theme}-canvas`);
      const canvas = await box(p, '#canvas');
      const layout = await p.evaluate(() => window.headroom.debug.layout());
      const s = await p.evaluate(() => window.headroom.getState());
      // Every group of labelled rects the app reports (tokens, heads, and any it
      // adds later; a value that is not a list, like trainChart, is no such group).
      const rects = Object.entries(layout).filter(([, rs]) => Array.isArray(rs)).flatMap(([group, rs]) => rs.map((r, i) =>
        [group === 'tokens' ? `chip "${s.tokens[i]}"` : `${group}[${i}]`, r]));
      assert(layout.tokens.length === s.tokens.length && layout.heads.length === 4, JSON.stringify(layout));
      // The attention view (rows at this width): a caption per head and a name per token, all on screen at 1280 x 800.
      assert(layout.attention.length === s.heads + s.tokens.length, `attention labels: ${JSON.stringify(layout.attention)}`);
      const worst = [];
      for (const [name, [x0, y0, x1, y1]] of rects) {
        const k = 3;  // inside the rounded corners
        const m = measure(img, [x0 + k, y0 + k, x1 - k, y1 - k].map((v, i) => v * DPR + canvas.rect[i % 2]));
        worst.push([m.ratio, `${name} ${show(m)}`]);
        assert(m.inked >= 4, `${name}: no text found (${show(m)})`);
      }
      worst.sort((a, b) => a[0] - b[0]);
      console.log(`      ${theme}: ${rects.length} rects; lowest ${worst.slice(0, 3).map((w) => w[1]).join('; ')}`);
      assert(worst[0][0] >= MIN_CONTRAST, worst.filter((w) => w[0] < MIN_CONTRAST).map((w) => w[1]).join('; '));
      // The canvas's own background follows the theme too (a strip left of the chips).
      const [cx0, cy0] = [canvas.rect[0] + 4 * DPR, canvas.rect[1] + (layout.tokens[0][1] + 4) * DPR];
      const bg = measure(img, [cx0, cy0, cx0 + 8 * DPR, cy0 + 8 * DPR]).bg;
      assert(theme === 'dark' ? luminance(bg) < 0.05 : luminance(bg) > 0.8, `canvas background ${hex(bg)} in ${theme}`);
    });
    await p.context().close();

    await test(`theme: embed.html#theme=${theme}: the link-error bar follows the theme with contrast >= ${MIN_CONTRAST}`, async () => {
      const e = await open(`embed.html#theme=${theme}&heads=3`, `embed-${theme}`);
      const b = await box(e, '#hash-error');
      assert(b && (await e.textContent('#hash-error')).startsWith('Link:'), 'no link error shown');
      const img = await shot(e, `embed-${theme}`);
      const m = measure(img, b.rect);
      const declared = contrast(cssRgb(b.color), cssRgb(b.background));
      assert(hex(m.bg) === hex(cssRgb(b.background)), `bar background ${hex(m.bg)}, CSS says ${b.background}`);
      assert(theme === 'dark' ? luminance(m.bg) < 0.05 : luminance(m.bg) > 0.8, `bar ${hex(m.bg)} in ${theme}`);
      assert(m.ratio >= MIN_CONTRAST && m.ratio >= 0.85 * declared, `${show(m)} (CSS ${declared.toFixed(2)})`);
      console.log(`      ${theme}: link bar ${show(m)} (CSS ${declared.toFixed(2)})`);
      await e.context().close();
    });
  }

  // Controls: the frames of checkboxes, sliders, radio
  // buttons and fields the app reports in debug.layout().controls.frames,
  // screen by screen down the full page: the lesson (focus slider, tie), the
  // training card (seed, R, tie, learning rate, speed) and the stress panel
  // at the page's end (the wheel scrolls the canvas).
  for (const theme of ['light', 'dark']) {
    await test(`theme: ${theme}: the boundaries of checkboxes, sliders, radio buttons and fields have contrast >= ${MIN_BOUNDARY} (WCAG 1.4.11)`, async () => {
      const p = await open(`#theme=${theme}&heads=1`, `controls-${theme}`);
      const canvas = await box(p, '#canvas');
      await p.mouse.move(canvas.rect[0] / DPR + 300, canvas.rect[1] / DPR + 300);
      const report = [];
      const seen = new Set();
      for (let screen = 0; screen < 12; ++screen) {
        const l = await p.evaluate(() => window.headroom.debug.layout());
        // Frames wholly on the canvas with room for the ring around them
        // (the app reports those partly visible too).
        const [cw, ch] = [(canvas.rect[2] - canvas.rect[0]) / DPR, (canvas.rect[3] - canvas.rect[1]) / DPR];
        const whole = ([x0, y0, x1, y1]) => x0 >= 6 && y0 >= 6 && x1 <= cw - 6 && y1 <= ch - 6;
        const fresh = l.controls.frames.filter((f) => whole(f) && !seen.has(f.join()));
        if (fresh.length) {
          const img = await shot(p, `controls-${theme}-${screen}`);
          for (const f of fresh) {
            seen.add(f.join());
            const m = boundary(img, f.map((v, i) => v * DPR + canvas.rect[i % 2]));
            report.push([m.ratio, `screen ${screen} [${f.map((v) => v.toFixed(0))}] ${hex(m.edge)} on ${hex(m.bg)}: ${m.ratio.toFixed(2)}`]);
          }
        }
        await p.mouse.wheel(0, 600);
        await p.waitForTimeout(150);
        await settle(p);
      }
      await p.context().close();
      report.sort((a, b) => a[0] - b[0]);
      console.log(`      ${theme}: ${report.length} control frames; lowest ${report.slice(0, 3).map((r) => r[1]).join('; ')}`);
      // The focus slider and the tie on top, the training card's seed, two R
      // buttons, tie and two sliders, the stress panel's checkbox and slider.
      assert(report.length >= 2 + 6 + 2, `${report.length} control frames found down the page`);
      assert(report[0][0] >= MIN_BOUNDARY, report.filter((r) => r[0] < MIN_BOUNDARY).map((r) => r[1]).join('; '));
    });
  }

  await test('theme: a theme set at run time (applyHash, a hash change) re-colours the chrome', async () => {
    const p = await open('#theme=light', 'switch');
    const barBg = async () => {
      await settle(p);
      const b = await box(p, '#sentence-form label');
      return measure(await shot(p, 'switch'), b.rect).bg;
    };
    const light = await barBg();
    await p.evaluate(() => window.headroom.applyHash('theme=dark'));
    const dark = await barBg();
    assert((await p.evaluate(() => document.documentElement.dataset.theme)) === 'dark', 'data-theme after applyHash');
    await p.evaluate(() => { location.hash = '#theme=light'; });
    await p.waitForFunction(() => document.documentElement.dataset.theme === 'light', null, { timeout: 5_000 });
    const back = await barBg();
    assert(luminance(light) > 0.8 && luminance(dark) < 0.05 && hex(back) === hex(light),
      `bar ${hex(light)} -> ${hex(dark)} -> ${hex(back)}`);
    await p.context().close();
  });
}
