// lang.test.mjs: the browser suite for the interface in the course's
// language (src/app/lang.h). Serves build/web/ and drives the course embed
// (embed.html) in Debian's Chromium through playwright-core.
//
// Does: for every shipped language (en, es, fr, de, zh) open embed.html with
// lang=<code> at 360, 540 and 720 x 560 and check that getState().lang says
// that language, that no string fell back to English
// (getState().missingStrings) and no glyph was drawn by neither the font
// atlas nor the browser (getState().missingGlyphs, counted from the frame's
// draw data), also with a help marker open (clicked with the mouse), that
// the default view fits (debug.fit(): no cut text, no inner scrolling), and
// that the lesson opens on the language's own sentence with the query and
// the targets the issue names (an independent list here, not read from the
// catalogues); save the 720 x 560 view as build/test-artifacts/lang-<code>-720.png.
// Then setLanguage: a refused code keeps the language and says why (in the
// shown language); an accepted one not fetched yet is waited for
// (state.langLoading, languageSettled), then switches the lesson and the hash.
// Every view in every language: each compact tab (view=lesson and
// view=train's), the full layout's cards (a wide page, with two heads, a
// head knocked out, the tie on and trained runs, so the lesson controls,
// the stress view and the specialisation draw their words) and every tour
// step before and after its reveal, each with getState().missingStrings 0
// and no missing glyph; view=train and the tour fit (no cut text, no inner
// scrolling) at 360, 540 and 720 x 560 in every language. A host page
// receives state.lang in headroom:state and sets it with headroom:set. The
// full page's own words (title, the field's label and button, the canvas's
// name, <html lang>, a refusal typed into the field) follow the language,
// and a tour reveal made in English reads in German after the switch (its
// lines' pixels change; saved as lang-tour-reveal-en-then-de.png).
// Does not: judge the translations (a person does), or check the catalogues'
// keys (tests/lang/catalogue_keys.mjs does).
//
// Run: node tests/browser/lang.test.mjs    (after ./build.sh build)
import path from 'node:path';
import { misfits } from './fit.mjs';
import { assert, test } from './harness.mjs';
import { decodePng } from './png.mjs';
import { runSuite } from './suite_main.mjs';

const SUITE_TIMEOUT_MS = 900_000;
const SIZES = [360, 540, 720];
// The lesson each language opens on: query, subject, complement (the issue: "named explicitly").
const LESSONS = {
  en: ['said', 'researcher', 'it'],
  es: ['dijo', 'investigadora', 'este'],
  fr: ['dit', 'chercheuse', "qu'il"],
  de: ['sagte', 'Forscherin', 'er'],
  zh: ['说', '人', '它'],
};
// Until the frame loop has settled (debug.idle: two animation frames in a
// row drew nothing, so the frames an input asked for are drawn), not a fixed
// time: a loaded machine that draws late waits longer, an idle one does not.
const idle = (page) => page.evaluate(() => window.headroom.debug.idle(10_000));
// A page that never idles (the stress view draws every frame): until `n`
// more frames are drawn.
const drawn = (page, n) => page.evaluate((k) => new Promise((resolve) => {
  const f0 = window.headroom.debug.frames().drawn;
  const tick = () => (window.headroom.debug.frames().drawn >= f0 + k ? resolve() : requestAnimationFrame(tick));
  requestAnimationFrame(tick);
}), n);
// The compact layout's tabs (src/app/view_rows.h kViewTable, kTrainTabs), written out here.
const LESSON_TABS = ['values', 'tokens', 'attention', 'heatmap', 'heads', 'concat', 'steps', 'train'];
const TRAIN_TABS = ['train', 'heads', 'attention'];

async function langTests({ browser, url, watch, artifacts }) {
  const open = async (code, width, { height = 560, file = 'embed.html', hash = '' } = {}) => {
    // Reduced motion: a tour reveal shows its result at once.
    const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, reducedMotion: 'reduce' });
    const page = await context.newPage();
    watch(page, `lang-${code}-${width}`);
    await page.goto(`${url}${file}#lang=${code}${hash}`);
    await page.evaluate(() => window.headroom.ready);
    // The page draws only when something happens: two pointer moves in a
    // corner (on no control) give ImGui the frames its layout settles in.
    for (const y of [3, 4]) {
      await page.mouse.move(width - 3, y);
      await idle(page);
    }
    return page;
  };
  const state = (page) => page.evaluate(() => window.headroom.getState());
  // Two pointer moves in a corner: frames for the layout to settle in (as
  // `open`); `busy`: the page draws every frame (stress on), two more each.
  const settle = async (page, { busy = false } = {}) => {
    const { width } = page.viewportSize();
    for (const y of [3, 4]) {
      await page.mouse.move(width - 3, y);
      await (busy ? drawn(page, 2) : idle(page));
    }
  };
  for (const [code, [query, subject, complement]] of Object.entries(LESSONS)) {
    await test(`${code}: the lesson in ${code} at ${SIZES.join(', ')} x 560: no fallback string, no missing glyph, fits`, async () => {
      const bad = [];
      // One page, resized to each width (the help marker is opened last, at 720).
      const page = await open(code, SIZES[0]);
      for (const width of SIZES) {
        if (width !== SIZES[0]) {
          await page.setViewportSize({ width, height: 560 });
          await settle(page);
        }
        const s = await state(page);
        const at = `${width} x 560`;
        if (s.lang !== code) bad.push(`${at}: lang ${s.lang}`);
        if (s.missingStrings !== 0) bad.push(`${at}: ${s.missingStrings} strings in English`);
        if (s.missingGlyphs !== 0) bad.push(`${at}: ${s.missingGlyphs} missing glyphs`);
        if (s.error) bad.push(`${at}: error ${s.error}`);
        // The query and its two targets, as the issue names them for this language.
        if (s.tokens[s.query] !== query) bad.push(`${at}: query ${s.tokens[s.query]}, not ${query}`);
        const targets = s.relations[0].map((r, k) => [r, s.tokens[s.targets[0][k]]]);
        const named = Object.fromEntries(targets);
        if (named.subject !== subject || named.complement !== complement) {
          bad.push(`${at}: targets ${JSON.stringify(targets)}, not subject ${subject}, complement ${complement}`);
        }
        for (const m of misfits(await page.evaluate(() => window.headroom.debug.fit()), { noScroll: true })) bad.push(`${at}: ${m}`);
        if (width === 720) {
          await page.screenshot({ path: path.join(artifacts, `lang-${code}-720.png`) });
          // A help marker opened with the mouse: its text is the language's too.
          const marker = (await page.evaluate(() => window.headroom.debug.layout())).help.markers[0];
          await page.mouse.click((marker[0] + marker[2]) / 2, (marker[1] + marker[3]) / 2);
          await idle(page);
          const h = await state(page);
          if (h.missingStrings !== 0 || h.missingGlyphs !== 0) {
            bad.push(`${at} help open: ${h.missingStrings} strings in English, ${h.missingGlyphs} missing glyphs`);
          }
          await page.screenshot({ path: path.join(artifacts, `lang-${code}-720-help.png`) });
        }
      }
      await page.context().close();
      assert(bad.length === 0, bad.join('\n'));
    });
  }

  await test('setLanguage: a refused code keeps the language and says why; an accepted one opens its lesson', async () => {
    const page = await open('fr', 720);
    const refused = await page.evaluate(() => window.headroom.setLanguage('xx'));
    assert(refused.lang === 'fr' && refused.error && refused.error.includes('"xx"') && refused.error.includes("n'est pas"),
      `setLanguage('xx'): ${refused.lang}, ${refused.error}`);
    assert(refused.errorCode === 'not_a_language', `setLanguage('xx'): errorCode ${refused.errorCode}`);
    // JS's own type check: a code too, worded in French by the wasm, not English
    const typed = await page.evaluate(() => window.headroom.setLanguage(3));
    assert(typed.lang === 'fr' && typed.error && typed.errorCode === 'js_language' && !/needs a language code/.test(typed.error),
      `setLanguage(3): ${typed.lang}, ${typed.errorCode}, ${typed.error}`);
    const train = await page.evaluate(() => window.headroom.train.step('x'));
    assert(train.errorCode === 'js_steps' && train.error && train.error.includes('10000'),
      `train.step('x'): ${train.errorCode}, ${train.error}`);
    // German's catalogue is not in the wasm: the verb answers at once, still
    // in French, waiting for it; languageSettled() once German is shown.
    const asked = await page.evaluate(() => window.headroom.setLanguage('de'));
    assert(asked.lang === 'fr' && asked.langLoading === 'de' && asked.error === null,
      `setLanguage('de') before its catalogue came: ${JSON.stringify([asked.lang, asked.langLoading, asked.error])}`);
    const de = await page.evaluate(() => window.headroom.languageSettled());
    assert(de.lang === 'de' && de.langLoading === null && de.error === null && de.errorCode === '' && de.tokens[de.query] === 'sagte',
      `setLanguage('de'): ${JSON.stringify([de.lang, de.error, de.errorCode, de.tokens])}`);
    const hash = await page.evaluate(() => window.headroom.hash());
    assert(hash.includes('lang=de') && !hash.includes('sentence='), `hash ${hash}`);
    await page.context().close();
  });

  // What a frame lacked: strings in English, glyphs drawn by neither font.
  const lacks = async (page, at) => {
    const s = await state(page);
    const bad = [];
    if (s.lang === undefined || s.missingStrings !== 0) bad.push(`${at}: ${s.missingStrings} strings in English`);
    if (s.missingGlyphs !== 0) bad.push(`${at}: ${s.missingGlyphs} missing glyphs`);
    if (s.missingStrings !== 0) {
      const keys = (await page.evaluate(() => window.headroom.debug.layout())).missingKeys;
      bad.push(`${at}: lacks ${JSON.stringify(keys).slice(0, 400)}`);
    }
    return bad;
  };

  for (const code of Object.keys(LESSONS)) {
    await test(`${code}: every view (each compact tab, view=train's tabs, the full layout's cards) with no string in English and no missing glyph`, async () => {
      const bad = [];
      const page = await open(code, 720);
      for (const tab of LESSON_TABS) {
        await page.evaluate((t) => window.headroom.applyHash(`tab=${t}`), tab);
        await settle(page);
        bad.push(...await lacks(page, `tab=${tab}`));
      }
      await page.evaluate(() => window.headroom.applyHash('view=train'));
      await page.evaluate(() => window.headroom.train.step(3));
      for (const tab of TRAIN_TABS) {
        await page.evaluate((t) => window.headroom.applyHash(`tab=${t}`), tab);
        await settle(page);
        bad.push(...await lacks(page, `view=train tab=${tab}`));
      }
      await page.context().close();
      // The full layout: every card at once, with the controls' other states.
      const wide = await open(code, 1400, { height: 1000, file: 'index.html' });
      await wide.evaluate(async () => {
        const h = window.headroom;
        h.setHeads(2);
        h.setKnockout([1]);
        h.setTieQK(true);
        await h.train.step(3);
        h.setWeights('trained');
      });
      await settle(wide);
      bad.push(...await lacks(wide, 'full layout'));
      await wide.evaluate(() => window.headroom.setStress(64));
      await settle(wide, { busy: true });
      bad.push(...await lacks(wide, 'full layout, stress on'));
      if (code === 'de' || code === 'zh') await wide.screenshot({ path: path.join(artifacts, `lang-${code}-full.png`) });
      await wide.context().close();
      assert(bad.length === 0, bad.join('\n'));
    });
  }

  for (const code of Object.keys(LESSONS)) {
    // English's tour is walked the same way, at the same widths, by
    // tour.test.mjs's fit case (which checks its strings and glyphs too):
    // here English looks at view=train only.
    const tourToo = code !== 'en';
    await test(`${code}: ${tourToo ? 'the tour (every step before and after its reveal) and ' : ''}view=train at ${SIZES.join(', ')} x 560: every string the language's, no missing glyph, no cut text, no inner scrolling`, async () => {
      const bad = [];
      // One page per view, resized: each tour step is revealed once and
      // looked at in every width, so the training step trains once.
      const train = await open(code, SIZES[0], { hash: '&view=train' });
      await train.evaluate(() => window.headroom.train.step(3));
      for (const width of SIZES) {
        const at = (what) => `${width} x 560 ${what}`;
        await train.setViewportSize({ width, height: 560 });
        await settle(train);
        bad.push(...await lacks(train, at('view=train')));
        for (const m of misfits(await train.evaluate(() => window.headroom.debug.fit()), { noScroll: true })) bad.push(at(`view=train: ${m}`));
        if (width === 540) await train.screenshot({ path: path.join(artifacts, `lang-${code}-train-540.png`) });
      }
      const tour = tourToo ? await open(code, SIZES[0], { hash: '&tour=1' }) : null;
      for (let n = 1; tourToo && n <= 9; ++n) {
        await tour.evaluate((k) => window.headroom.tour.go(k), n);
        for (const phase of ['before', 'after']) {
          if (phase === 'after') {
            await tour.evaluate(() => window.headroom.tour.reveal());
            // step 7 trains 250 steps before its reveal: wait until its numbers are in
            if (n === 7) await tour.waitForFunction(() => (window.headroom.tour.state().steps[6].measured || {}).steps >= 250, null, { timeout: 400_000 });  // a step budget: 250 steps, however long a loaded machine takes (the suite limit bounds it)
            // step 8 starts the text model: its pending reveal is what is checked here (tour.test.mjs waits for the marks)
            if (n === 8) await tour.evaluate(() => window.headroom.train.pause());
          }
          for (const width of SIZES) {
            const at = (what) => `${width} x 560 ${what}`;
            await tour.setViewportSize({ width, height: 560 });
            await settle(tour);
            bad.push(...await lacks(tour, at(`tour step ${n} ${phase}`)));
            for (const m of misfits(await tour.evaluate(() => window.headroom.debug.fit()), { noScroll: true })) bad.push(at(`tour step ${n} ${phase}: ${m}`));
            if (width === 360 && (n === 1 || n === 4) && phase === 'after') await tour.screenshot({ path: path.join(artifacts, `lang-${code}-tour${n}-360.png`) });
          }
        }
      }
      await train.context().close();
      if (tour) await tour.context().close();
      assert(bad.length === 0, bad.join('\n'));
    });
  }

  // The page around the canvas (index.html): its words as German readers
  // expect them, written out here (not read from the catalogue).
  await test('the full page around the canvas follows the language: title, label, button, canvas name, <html lang>, a refusal typed in the field', async () => {
    const page = await open('de', 1000, { height: 700, file: 'index.html' });
    const shell = () => page.evaluate(() => ({
      lang: document.documentElement.lang, title: document.title,
      label: document.querySelector('label[for=sentence]').textContent,
      button: document.querySelector('#sentence-form button').textContent,
      canvas: document.getElementById('canvas').getAttribute('aria-label'),
      error: document.getElementById('sentence-error').textContent }));
    const de = await shell();
    assert(de.lang === 'de' && de.label === 'Satz' && de.button === 'Übernehmen' && /Kopf/.test(de.title) &&
      de.canvas.startsWith('Headroom: Attention mit mehreren Köpfen') && /Forscherin/.test(de.canvas),
      `German page: ${JSON.stringify(de)}`);
    // A refusal typed as a reader would: click the field, replace its text, Enter.
    await page.click('#sentence');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('   ');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('sentence-error').textContent !== '', null, { timeout: 5_000 });
    const refused = await shell();
    assert(refused.error.startsWith('Abgelehnt: ') && !/Refused|type at least/.test(refused.error), `refusal: ${refused.error}`);
    const top = decodePng(await page.screenshot({ path: path.join(artifacts, 'lang-de-page-shell.png'), clip: { x: 0, y: 0, width: 1000, height: 90 } }));
    const s = await state(page);
    assert(s.missingStrings === 0, `${s.missingStrings} strings in English: ${JSON.stringify((await page.evaluate(() => window.headroom.debug.layout())).missingKeys)}`);
    // Back to English: the same places say it in English, and the pixels of the field's row change with them.
    await page.evaluate(() => window.headroom.setLanguage('en'));
    await page.waitForFunction(() => document.documentElement.lang === 'en', null, { timeout: 5_000 });
    const en = await shell();
    assert(en.label === 'Sentence' && en.button === 'Apply' && en.title === 'Headroom: why attention has more than one head' &&
      en.canvas.startsWith('Headroom: multi-head attention demo. '), `English page: ${JSON.stringify(en)}`);
    const topEn = decodePng(await page.screenshot({ path: path.join(artifacts, 'lang-en-page-shell.png'), clip: { x: 0, y: 0, width: 1000, height: 90 } }));
    let differ = 0;
    for (let i = 0; i < top.rgba.length; i += 4) if (Math.abs(top.rgba[i] - topEn.rgba[i]) > 40) ++differ;
    assert(differ > 50, `the field's row looks the same in German and English (${differ} pixels differ)`);
    await page.context().close();
  });

  // A reveal is measured once; its words are read when drawn, so a language
  // chosen after it shows the reveal in that language. The reader's own
  // sentence stays across the switch (only the lesson sentence is swapped),
  // so what changes on screen is the words, not the numbers.
  await test('a tour reveal made in English reads in German once German is chosen (panel pixels and tour.state)', async () => {
    const own = encodeURIComponent('The farmer who owns the horse said it was sick.');
    const page = await open('en', 720, { hash: `&sentence=${own}&tour=1` });
    await page.evaluate(() => window.headroom.tour.reveal());
    await settle(page);
    const resultOf = () => page.evaluate(() => window.headroom.tour.state().steps[0].result);
    const en = await resultOf();
    assert(en.length > 0 && /output lands/.test(en[0]), `English reveal: ${JSON.stringify(en)}`);
    const l = await page.evaluate(() => window.headroom.debug.layout());
    const [, , , planeBottom] = l.tourPlane.rect;
    const buttonsTop = Math.max(...l.tourButtons.map((r) => r[1]));  // Back, Reveal, Next (the close button is at the top)
    assert(buttonsTop > planeBottom + 10, `no room for the result between the plane (${planeBottom}) and the buttons (${buttonsTop})`);
    const clip = { x: 0, y: planeBottom, width: 720, height: buttonsTop - planeBottom };
    const before = decodePng(await page.screenshot({ path: path.join(artifacts, 'lang-tour-reveal-en.png') }));
    await page.evaluate(() => { window.headroom.setLanguage('de'); return window.headroom.languageSettled(); });
    await settle(page);
    const s = await state(page);
    const de = await resultOf();
    assert(s.lang === 'de' && s.tokens[1] === 'farmer', `after setLanguage('de'): ${s.lang}, ${JSON.stringify(s.tokens)}`);
    assert(/landet/.test(de[0]) && !/output lands/.test(de.join(' ')), `German reveal: ${JSON.stringify(de)}`);
    const n = en[0].match(/[0-9]+\.[0-9]+/g);
    assert(n && n.every((x) => de[0].includes(x.replace('.', ','))), `numbers ${JSON.stringify(n)} not in ${de[0]}`);
    assert(s.missingStrings === 0 && s.missingGlyphs === 0, `${s.missingStrings} strings in English, ${s.missingGlyphs} missing glyphs`);
    const after = decodePng(await page.screenshot({ path: path.join(artifacts, 'lang-tour-reveal-en-then-de.png') }));
    let differ = 0;
    for (let y = Math.round(clip.y); y < clip.y + clip.height; ++y) {
      for (let x = 0; x < clip.width; ++x) {
        const i = (y * before.width + x) * 4;
        if (Math.abs(before.rgba[i] - after.rgba[i]) > 40) ++differ;
      }
    }
    assert(differ > 200, `the reveal's lines look the same after the switch (${differ} pixels differ)`);
    await page.context().close();
  });

  await test('a host page: headroom:state carries lang, and headroom:set takes lang (before a sentence in the same message)', async () => {
    const context = await browser.newContext({ viewport: { width: 800, height: 640 } });
    const page = await context.newPage();
    watch(page, 'lang-host');
    // The course page, served from the app's origin (a route of this test, no file).
    await page.route(`${url}lang-host.html`, (route) => route.fulfill({ contentType: 'text/html', body: `<!doctype html>
      <iframe id="f" src="${url}embed.html#lang=fr" width="720" height="560"></iframe>
      <script>
        window.got = [];
        addEventListener('message', (e) => { if (e.source === document.getElementById('f').contentWindow) window.got.push(e.data); });
      </script>` }));
    await page.goto(`${url}lang-host.html`);
    await page.waitForFunction(() => window.got.some((m) => m.type === 'headroom:ready'), null, { timeout: 60_000 });
    const ready = await page.evaluate(() => window.got.find((m) => m.type === 'headroom:ready'));
    assert(ready.state.lang === 'fr', `headroom:ready state.lang ${ready.state.lang}`);
    const ask = (msg) => page.evaluate((m) => new Promise((resolve) => {
      const f = document.getElementById('f');
      const on = (e) => { if (e.source === f.contentWindow && e.data.id === m.id) { removeEventListener('message', on); resolve(e.data); } };
      addEventListener('message', on);
      f.contentWindow.postMessage(m, '*');
    }), msg);
    const de = await ask({ type: 'headroom:set', id: 1, lang: 'de' });
    assert(de.type === 'headroom:state' && de.error === null && de.state.lang === 'de' && de.state.tokens[de.state.query] === 'sagte',
      `set lang=de: ${JSON.stringify([de.error, de.state.lang, de.state.tokens])}`);
    const both = await ask({ type: 'headroom:set', id: 2, sentence: 'The dog barked.', lang: 'es' });
    assert(both.state.lang === 'es' && both.state.tokens[1] === 'dog', `lang + sentence: ${JSON.stringify([both.state.lang, both.state.tokens])}`);
    const refused = await ask({ type: 'headroom:set', id: 3, lang: 'xx' });
    assert(refused.state.lang === 'es' && refused.error && refused.error.includes('"xx"'), `lang=xx: ${refused.state.lang}, ${refused.error}`);
    const got = await ask({ type: 'headroom:get', id: 4 });
    assert(got.state.lang === 'es', `headroom:get state.lang ${got.state.lang}`);
    await context.close();
  });
}

await runSuite('lang', langTests, SUITE_TIMEOUT_MS);
