// headroom-loader.mjs (an ES module: <script type="module">): the pages'
// chrome around the core (headroom.mjs). It shows a loading line with
// progress, or a readable error box if Headroom cannot start (with a Retry
// button that starts it again: a cut download need not cost a reload),
// starts one instance on #canvas, and defines window.headroom, the page's JS
// API:
//
//   headroom.ready              Promise: resolves once the wasm runs and the
//                               hash is applied, drawn or not (a frame out of
//                               view draws when it comes into view); rejects,
//                               with the message shown on the page, if
//                               Headroom cannot start; after Retry it is the
//                               new attempt's promise (window event
//                               'headroom:started' when an attempt succeeds)
//   headroom.setHeads(n)        1, 2, 4 or 8 heads     } each returns getState();
//   headroom.setSentence(text)  new sentence           } a refused input keeps the
//   headroom.selectToken(i)     query token index      } previous state and sets
//   headroom.setFocus(f)        single head: 0..1      } state.error
//   headroom.setKnockout([h])   0-based heads zeroed before W_O; state.knockout,
//                               state.carried (per lesson target, 0..1)
//   headroom.setTieQK(bool)     W_K = W_Q in every head; state.tieQK, state.scores
//                               (per head, the query's scaled scores)
//   headroom.setStress(n)       0 = off, else repeat the sentence to n <= 512
//                               tokens and recompute every frame; state.stress
//   headroom.getState()         plain JSON object: tokens (string[]), heads,
//                               dModel, dHead, query, focus, weights (H arrays
//                               of L weights for the query token), relations
//                               and targets per head, readout per head,
//                               valueSpace per head ({points: L x [x, y],
//                               output: [x, y], explained}), sentence (the
//                               readout in words), text (the sentence as
//                               typed), description, view and
//                               theme (as in the hash), error (null, or why
//                               the last input was refused)
//   headroom.showSplit(i)       case i of train.state().splits (the midpoint
//                               found in held-out text) on the lesson's views
//   headroom.applyHash(h)       apply a URL hash ("heads=2&sentence=..."), parsed
//                               by the C++ whitelist; returns getState()
//   headroom.hash()             the current state as a hash (without '#')
//   headroom.translate(english) the shown language's text for a catalogue key
//                               ("Apply"; English when the catalogue lacks it,
//                               counted in state.missingStrings)
//   headroom.tables()           the wasm's fixed lists: the order a link's
//                               fields are applied in, the values the verbs
//                               accept, the wheel's bits (src/app/tables.h)
//   headroom.exportView(v, f)   a Promise of view v's picture (f 'png': a Blob)
//                               or numbers ('csv', 'json': a string)
//   headroom.setLanguage(code)  'en', 'es', 'fr', 'de' or 'zh': the interface's
//                               language (hash lang=); state.lang, and
//                               state.missingStrings (strings shown in English).
//                               A language not fetched yet (lang/<code>.po) is
//                               waited for: state.langLoading is its code and
//                               state.lang the one still shown until it comes
//                               (then 'headroom:statechange'); a failed fetch
//                               keeps the language, state.errorCode
//                               'lang_unfetched'
//   headroom.languageSettled()  Promise of getState() once no language is
//                               waited for (and the CJK font it needs is in)
//   headroom.setWeights(w)      'built' | 'trained' | 'text': which weights every view
//                               shows (state.modelWeights: choice, shown, note)
//   headroom.tour.go(n), .predict(answer), .reveal(), .replay(), .retry(n): the
//                               guided lesson; each returns tour.state()
//   headroom.train.reset({seed, r, lr, tieQK}), .step(n), .play(), .pause():
//                               live training; each returns a Promise of
//                               train.state() once the runs took the call (they
//                               train in a Worker where one can start);
//                               train.state() is synchronous (the last state
//                               received; .where: "worker" or "main thread:
//                               <why>"); train.snapshot(heads) a Promise of the
//                               numbers of one step; .download(heads) saves
//                               it (README "Live training")
//   state.frames                frames drawn so far (none while idle)
//   state.missingGlyphs         glyphs the last drawn frame could draw neither
//                               with the embedded font nor through the browser
//   headroom.debug.layout()     for tests only: token chip and heads button
//                               rects (CSS px): {tokens: [...], heads: [...],
//                               ...; valueSpace: {view, plots, labels,
//                               markers}: where the value space drew its
//                               labels and markers}
//   headroom.debug.frames()     for tests and benchmarks: {drawn, painted}:
//                               frames drawn so far, and how many of them
//                               painted the canvas (a frame the same as the
//                               one shown paints nothing)
// The verbs and their validation are headroom.mjs's (VERBS, READERS): a verb
// added there appears here without a change to this file.
//
// Keeps the state in the page's URL hash: applies it on load and on
// hashchange, writes it back (history.replaceState) after every change, and
// fires a window event 'headroom:statechange' (headroom-embed.mjs listens),
// and a 'headroom:tour-event' for each tour event.
// Removes the stage's first picture (or its placeholder) once the canvas has
// drawn its first frame, or once the state changes before that.
// Follows the state's theme: <html data-theme="light|dark"> (headroom.css
// colours the chrome from it), from the hash before the wasm runs and from
// the state's own hash after; and its language: <html lang> and the text of
// elements marked data-tr (index.html's title among them), through
// headroom.translate (English while the wasm loads).
// Does not: compute or validate anything itself, or bridge postMessage for
// cross-origin hosts (headroom-embed.mjs does).
import { apiShape, createHeadroom } from './headroom.mjs';

const $ = (id) => document.getElementById(id);
let inst = null;  // the core's instance once running
let resolveReady, rejectReady;
// `ready` is replaced when Retry starts a new attempt after a failure, so
// headroom.ready is always the promise of the attempt in progress.
let ready;
function newReady() {
  ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // the page shows the error; no unhandled-rejection noise
}
newReady();

// --- chrome: loading line, error box, theme ---------------------------------
function element(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}
document.body.append(
  element('div', { id: 'status', role: 'status' },
    element('div', { id: 'status-text' }, 'Loading Headroom…'),
    element('progress', { id: 'progress', max: '1', value: '0' })),
  element('div', { id: 'error', role: 'alert' },
    element('h1', {}, 'Headroom could not start'),
    element('p', { id: 'error-text' }),
    element('p', {}, 'It needs a browser with WebAssembly (with SIMD) and WebGL 2.'),
    element('button', { id: 'retry', type: 'button' }, 'Retry')));

function setStatus(text, fraction) {
  $('status-text').textContent = text;
  const bar = $('progress');
  if (fraction === undefined) bar.removeAttribute('value'); else bar.value = fraction;
}

// --- the first picture -------------------------------------------------------
// The stage shows the default state drawn at build time, or a placeholder
// (headroom-first.js chose which), until the canvas has drawn its first
// frame; then it goes. It lies on the stage over the canvas, which has the
// stage's size all along, so nothing moves when it goes. A state changed
// before that frame (a host's message to a frame out of view, which draws
// nothing yet) takes it away too: it would show the wrong state.
let pictureShown = true;
function removePicture() {
  if (!pictureShown) return;
  pictureShown = false;
  for (const e of document.querySelectorAll('.first-picture, .first-placeholder')) e.remove();
  document.documentElement.removeAttribute('data-first');
}
function removePictureAfterFirstFrame() {
  const drawn = () => performance.getEntriesByName('headroom:frame1-end').length > 0;
  if (drawn()) { removePicture(); return; }
  const watch = new PerformanceObserver(() => {
    if (drawn()) { watch.disconnect(); removePicture(); }
  });
  watch.observe({ type: 'mark' });
}

let failed = false;
function fail(message) {
  if (failed) return;
  failed = true;
  removePicture();
  $('status').classList.add('hidden');
  $('canvas').classList.add('hidden');
  if ($('stage')) $('stage').classList.add('hidden');
  $('error-text').textContent = message;
  $('error').style.display = 'block';
  rejectReady(new Error(message));
}

// The theme as the page shows it: the state's hash (C++ writes theme= unless
// it is the default, light), or before the wasm runs the page's own hash.
function showTheme(hash) {
  const themes = new URLSearchParams(hash).getAll('theme');
  const theme = themes.length === 1 && themes[0] === 'dark' ? 'dark' : 'light';
  if (document.documentElement.dataset.theme !== theme) document.documentElement.dataset.theme = theme;
}
showTheme(location.hash.replace(/^#/, ''));

// --- the API ------------------------------------------------------------------
function need() {
  if (!inst) throw new Error(failed ? 'Headroom failed to start' : 'Headroom is not ready yet: await headroom.ready');
}

// --- the page's own words in the shown language -----------------------------------
// The English of each (src/app/lang.cpp page_words): every element marked
// data-tr (its text; index.html's <title> is one). Read once, before any
// change. (The canvas's aria-label is the wasm's: page_glue.cpp.)
// (The build writes each key into data-tr and the words of every language
// inside: the page's own show from the first paint, headroom.css.)
const pageWords = [...document.querySelectorAll('[data-tr]')].map((e) => [e, e.dataset.tr || e.textContent]);
let shownLang = 'en';
// `english` ("Refused: {0}") in the shown language with {0} filled (the
// message itself already is: the wasm translates it).
const say = (english, arg = '') => (inst ? inst.translate(english) : english).replace('{0}', arg);
// The shown language from the state's own hash (C++ writes lang= unless it
// is English): <html lang> and the page's words follow it.
function showLanguage(hash) {
  const langs = new URLSearchParams(hash).getAll('lang');
  const lang = langs.length === 1 ? langs[0] : 'en';
  if (lang === shownLang) return;
  shownLang = lang;
  document.documentElement.lang = lang;
  for (const [node, english] of pageWords) node.textContent = say(english);
}

// --- state in the URL hash ------------------------------------------------------
let lastHash = null;
function showHashError(state) {
  const box = $('sentence-error') || $('hash-error');
  if (box && state.error) box.textContent = say('Link: {0}', state.error);
}
// The sentence field shows the current sentence after every change (API,
// hash, postMessage, a click); it is rewritten only when the sentence itself
// changed, so what a user is typing survives changes of heads or query.
let shownSentence = null;
function showSentence() {
  const input = $('sentence');
  if (!input) return;
  const text = inst.getState().text;
  if (text === shownSentence) return;
  shownSentence = text;
  input.value = text;
}
// The tour's events (entered, predicted, revealed) as they happen, whether
// from the API, a message or the canvas: each as a window event
// 'headroom:tour-event' whose detail is the headroom:tour-event message
// (headroom-embed.mjs forwards them to the host page).
let lastTourEvent = 0;
function flushTourEvents() {
  const { events, last } = inst.tour.events(lastTourEvent);
  lastTourEvent = last;
  for (const e of events) window.dispatchEvent(new CustomEvent('headroom:tour-event', { detail: e }));
}
function syncHash() {
  if (!inst) return;
  flushTourEvents();
  const h = inst.hash();
  if (h === lastHash) return;
  if (lastHash !== null) removePicture();  // another state than the one it shows
  lastHash = h;
  showSentence();
  showTheme(h);
  showLanguage(h);
  try { history.replaceState(history.state, '', `#${h}`); } catch (e) { /* opaque origin: keep going */ }
  window.dispatchEvent(new CustomEvent('headroom:statechange'));
}

// window.headroom: every verb and reader of the core, on this page's instance;
// every verb also updates the hash.
const api = apiShape((entry, kind, path) => {
  const call = (...args) => { need(); return path.reduce((o, k) => o[k], inst)(...args); };
  return kind === 'verb' ? (...args) => { const r = call(...args); syncHash(); return r; } : call;
});
window.headroom = Object.freeze({ get ready() { return ready; }, ...api });

function startHashSync() {
  const initial = location.hash.replace(/^#/, '');
  if (initial) showHashError(window.headroom.applyHash(initial));
  syncHash();
  window.addEventListener('hashchange', () => {
    const h = location.hash.replace(/^#/, '');
    if (h === lastHash) return;
    showHashError(window.headroom.applyHash(h));
  });
  // A reveal can be marked later than the verb that asked for it (step
  // training waits for the Worker's steps): new events are looked for four
  // times a second (an empty list when there are none), so a host hears it
  // without another verb.
  setInterval(() => { if (inst) flushTourEvents(); }, 250);
  // A language chosen before its catalogue was here is shown when the file
  // comes (or refused when it does not): the hash and the host follow.
  $('canvas').addEventListener('headroom:language', () => {
    const before = lastHash;
    syncHash();
    if (lastHash === before) window.dispatchEvent(new CustomEvent('headroom:statechange'));
  });
  // A click or key on the canvas is handled on the next frame: look after it.
  const later = () => setTimeout(syncHash, 150);
  $('canvas').addEventListener('pointerup', later);
  $('canvas').addEventListener('keyup', later);
}

// The full page (index.html at the top level, not in a frame) gives the
// canvas the keyboard, so the keys it advertises work from the start; a
// frame never takes focus (it would steal the keys of whatever the reader
// is typing in the host page).
function ownsKeyboard() {
  try { return window.top === window && !document.body.classList.contains('embed'); } catch (e) { return false; }
}
function focusCanvas() {
  if (ownsKeyboard()) $('canvas').focus({ preventScroll: true });
}
// The page's sentence field (index.html; a host page may not have one):
// Enter or Apply sends it through setSentence. A refusal is shown under it
// and the field keeps the refused text, marked (aria-invalid) until edited;
// an accepted sentence hands the keyboard back to the canvas.
function wireSentenceForm() {
  const form = $('sentence-form'), input = $('sentence'), error = $('sentence-error');
  if (!form || !input) return;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const s = window.headroom.setSentence(input.value);
    if (error) error.textContent = s.error ? say('Refused: {0}', s.error) : '';
    if (s.error) {
      input.setAttribute('aria-invalid', 'true');
      if (error) input.setAttribute('aria-errormessage', 'sentence-error');
    } else {
      input.removeAttribute('aria-invalid');
      focusCanvas();
    }
  });
  input.addEventListener('input', () => {
    if (!input.hasAttribute('aria-invalid')) return;
    input.removeAttribute('aria-invalid');
    if (error) error.textContent = '';
  });
}

// --- start ------------------------------------------------------------------------
window.addEventListener('error', (e) => { if (!inst) fail(e.message || 'a script error stopped the page'); });
// One attempt to start; Retry (in the error box) makes another, after the
// core has forgotten the failed download (headroom.mjs keeps no failed promise).
let started = false;  // the API, hash and form are wired once, on the first success
function start() {
  setStatus('Loading Headroom…', 0);
  createHeadroom({
    canvas: $('canvas'),
    // The hash's language: its catalogue comes beside the wasm (headroom.mjs).
    lang: new URLSearchParams(location.hash.replace(/^#/, '')).getAll('lang').join(','),
    onProgress: (fraction, bytes) => (fraction < 1
      ? setStatus(`Loading Headroom… ${(bytes / 1048576).toFixed(1)} MB`, fraction) : setStatus('Starting…')),
    onAbort: fail,
  }).then((h) => {
    inst = h;
    removePictureAfterFirstFrame();
    $('status').classList.add('hidden');
    focusCanvas();
    if (!started) {
      started = true;
      startHashSync();
      wireSentenceForm();
    }
    resolveReady(window.headroom);
    window.dispatchEvent(new CustomEvent('headroom:started'));
  }, (err) => fail(err && err.message ? err.message : String(err)));
}
$('retry').addEventListener('click', () => {
  if (!failed || inst) return;
  failed = false;
  $('error').style.display = '';
  $('status').classList.remove('hidden');
  $('canvas').classList.remove('hidden');
  if ($('stage')) $('stage').classList.remove('hidden');
  newReady();
  start();
});
start();
