// headroom.mjs: Headroom's one JS core. It wraps the wasm for every page:
// the full page and the embed page (through headroom-loader.mjs) and
// same-origin host pages that import it.
//
//   import { createHeadroom } from './headroom.mjs';
//   const h = await createHeadroom({ canvas, hash: 'heads=2', onProgress });
//   h.setHeads(2); h.getState(); h.destroy();
//
// createHeadroom({ canvas, hash?, lang?, onProgress?(fraction, bytes), onAbort?(message) })
// (lang: the language the page will choose, default the hash's lang=: its
// catalogue is fetched beside the wasm, see "languages" below)
// resolves, once the wasm has started (before anything is drawn: a canvas
// out of view, or in an off-screen iframe where the browser runs no animation
// frames, answers at once and draws when it comes into view), to an instance with the verbs of
// window.headroom (setHeads, setSentence, selectToken, setFocus, setStress,
// setKnockout, setTieQK, setWeights, applyHash: each returns getState();
// tour.go, tour.predict, tour.reveal, tour.replay, tour.retry: each returns tour.state(); train.reset, train.step,
// train.play, train.pause, train.download: each returns train.state(); train.knockout: its loss with and without
// the head) and
// its readers (getState, hash, translate, tables, exportView (a Promise), languageSettled (a Promise), tour.state, train.state, train.snapshot, debug.layout)
// bound to its own wasm instance: several on one page are
// independent (each has its own memory, Demo and canvas). It rejects with a
// readable Error when the browser lacks WebGL2 or wasm SIMD, a CSP forbids
// wasm, or the wasm cannot be fetched (a cross-origin fetch refused for want
// of a CORS header says so) or started. onAbort hears of a wasm that stops
// after it started. The canvas needs a CSS size and tabindex="0" (keys reach
// it only while it has focus); nothing here focuses it: the reader does, by
// click, tap or Tab, or the host by calling canvas.focus().
//
// Does: check the browser's features, compile headroom.wasm once per page
// while it downloads (streaming, with progress), load Emscripten's factory
// (headroom.js) once, and hold the one table of verbs and their validation
// (VERBS) and of readers (READERS).
// A verb refuses what JS alone can judge (a wrong type, outside int32, a lone
// surrogate) the way the engine refuses: state kept, state.error set.
// Adding a verb (or a namespace of verbs, like debug) is one entry in VERBS
// or READERS plus its C export (src/platform/js_api.cpp): window.headroom and
// every instance pick it up (apiShape).
// Does not: touch the page outside `canvas`, define globals other than
// Emscripten's factory createHeadroomModule, show any UI of its own (the
// caller shows progress and errors; headroom-loader.mjs does for the pages),
// or compute anything (every number comes from the wasm engine).
//
// Why not Emscripten's -sEXPORT_ES6: this wraps the one MODULARIZE build the
// pages use, so the site ships one headroom.js + headroom.wasm, not two.

import { createTrainLink } from './headroom-train-link.mjs';

const base = new URL('.', import.meta.url);
const links = new WeakMap();  // wasm module -> its training link (headroom-train-link.mjs)

// ---------------------------------------------------------------------------
// feature checks
// ---------------------------------------------------------------------------
// Why this browser or page cannot run Headroom, or null.
export function missingFeature() {
  return missingWasmFeature() || missingWebGL2();
}

// The WebAssembly half of missingFeature: cheap, so it runs before any fetch.
function missingWasmFeature() {
  if (typeof WebAssembly !== 'object') return 'This browser has no WebAssembly.';
  // A module with one v128 instruction (as in wasm-feature-detect's simd test).
  const simd = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
                               10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
  if (!WebAssembly.validate(simd)) return 'This browser\'s WebAssembly has no SIMD (128-bit) support.';
  // A Content-Security-Policy without 'wasm-unsafe-eval' refuses to compile any wasm.
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  } catch (e) {
    return 'This page\'s Content Security Policy does not allow WebAssembly, so Headroom cannot run here. ' +
           'The page that embeds it needs script-src \'self\' \'wasm-unsafe-eval\'.';
  }
  return null;
}

// The WebGL half: a throwaway context costs 30-50 ms of headless Chromium's
// start (tests/bench/page_load.mjs), so createHeadroom asks while the bytes
// are on their way.
function missingWebGL2() {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) return 'This browser (or its GPU settings) gives no WebGL 2 context.';
  const lose = gl.getExtension('WEBGL_lose_context');
  if (lose) lose.loseContext();
  return null;
}

// ---------------------------------------------------------------------------
// loading: headroom.js and headroom.wasm, once per page for every instance
// ---------------------------------------------------------------------------
let factory = null;     // Promise of createHeadroomModule
let wasmModule = null;  // Promise of the compiled WebAssembly.Module
const listeners = new Set();  // onProgress of every instance waiting for the bytes

function loadFactory() {
  if (!factory) {
    factory = new Promise((resolve, reject) => {
      if (typeof globalThis.createHeadroomModule === 'function') { resolve(globalThis.createHeadroomModule); return; }
      const s = document.createElement('script');
      s.src = new URL('headroom.js', base).href;
      s.onload = () => (typeof globalThis.createHeadroomModule === 'function'
        ? resolve(globalThis.createHeadroomModule)
        : reject(new Error('headroom.js did not define createHeadroomModule')));
      s.onerror = () => reject(new Error('headroom.js could not be loaded'));
      document.head.appendChild(s);
    });
    factory.catch(() => { factory = null; });  // a later instance may try again
  }
  return factory;
}

// Why fetching `url` failed, in words a host page's author can act on. A
// fetch that fails with no HTTP status and crosses origins is almost always a
// missing CORS header; from a sandboxed iframe (origin "null") every fetch
// crosses origins.
function fetchRefused(url, err) {
  const what = `${url.pathname.split('/').pop()} could not be fetched from ${url.origin} (${err && err.message ? err.message : err})`;
  if (self.origin === 'null') {
    return `${what}. This frame is sandboxed, so its origin is "null" and every fetch is cross-origin: ` +
      `the site serving Headroom must send the header Access-Control-Allow-Origin: * ` +
      `(or the iframe must drop its sandbox attribute).`;
  }
  if (url.origin !== self.origin) {
    return `${what}. The page (${self.origin}) loads Headroom from another origin, so the site serving ` +
      `Headroom must send the header Access-Control-Allow-Origin: *.`;
  }
  return `${what}. Check the network connection and that the file is on the server.`;
}

// Compiles headroom.wasm while it downloads (WebAssembly.compileStreaming):
// the response's body passes through a TransformStream that counts the bytes
// for the progress bar on its way to the compiler. Without a Content-Length
// the fraction stays 0 (bytes still count); a gzip-encoded response counts
// decoded bytes against the encoded length, so the fraction is capped at 1.
async function compileWithProgress(url) {
  const progress = (received, total) => {
    for (const f of listeners) f(total ? Math.min(1, received / total) : 0, received);
  };
  let response;
  try {
    response = await fetch(url);
  } catch (e) {
    throw new Error(fetchRefused(url, e));
  }
  if (!response.ok) throw new Error(`headroom.wasm: HTTP ${response.status}`);
  const total = Number(response.headers.get('Content-Length')) || 0;
  let received = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      received += chunk.byteLength;
      progress(received, total);
      controller.enqueue(chunk);
    },
  });
  const counted = new Response(response.body.pipeThrough(counter), {
    headers: { 'Content-Type': 'application/wasm' },
  });
  let module;
  try {
    module = await WebAssembly.compileStreaming(counted);
  } catch (e) {
    // A body that ended early (a dropped connection, a proxy's time-out) is a
    // download problem, not a broken file: say which, so Retry makes sense.
    const mb = (n) => (n / 1048576).toFixed(1);
    if (total && received < total) {
      throw new Error(`headroom.wasm stopped downloading after ${mb(received)} of ${mb(total)} MB ` +
        `(the connection was cut). Retry to load it again.`);
    }
    throw new Error(`headroom.wasm could not be compiled (${e && e.message ? e.message : e}).`);
  }
  progress(total || received, total || received);
  return module;
}

async function loadWasm(onProgress) {
  if (onProgress) listeners.add(onProgress);
  if (!wasmModule) {
    wasmModule = compileWithProgress(new URL('headroom.wasm', base));
    wasmModule.catch(() => { wasmModule = null; });  // a later instance may try again
  }
  try { return await wasmModule; } finally { listeners.delete(onProgress); }
}

// ---------------------------------------------------------------------------
// languages: catalogues and the CJK font, fetched when chosen
// ---------------------------------------------------------------------------
// The site's wasm holds English's catalogue alone: each other language is
// lang/<code>.po beside it, and the glyphs the UI fonts lack (Chinese)
// lang/cjk.ttf (cmake/web.cmake). A language chosen before its file is
// here is waited for: state.langLoading names it, the language shown stays,
// and when the file comes the wasm switches (a 'headroom:language' event on
// the canvas, detail getState(): the loader writes the hash and tells the
// host); a file that does not come keeps the language shown and sets
// state.error (errorCode lang_unfetched). Each file is fetched once per
// page; a failed fetch is forgotten once reported, so a later choice tries again.
const langFiles = new Map();  // file name -> Promise of its bytes
const canvases = new WeakMap();  // wasm module -> its canvas
const langWaits = new WeakMap();  // wasm module -> the catalogue fetch it waits for
const fontWaits = new WeakMap();  // wasm module -> the CJK font's fetch (once)

function fetchLangFile(name) {
  let p = langFiles.get(name);
  if (!p) {
    p = fetch(new URL(`lang/${name}`, base)).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.arrayBuffer();
    });
    p.catch(() => {});  // reported by whoever waits for it
    langFiles.set(name, p);
  }
  return p;
}

// The code of a hash's one lang= field, when it names a file to fetch
// (English is in the wasm), else null.
function langToFetch(hash) {
  const langs = new URLSearchParams(String(hash || '').replace(/^#/, '')).getAll('lang');
  return langs.length === 1 && /^[a-z]{2,3}$/.test(langs[0]) && langs[0] !== 'en' ? langs[0] : null;
}

function languageChanged(w) {
  const canvas = canvases.get(w);
  if (canvas) canvas.dispatchEvent(new CustomEvent('headroom:language', { detail: READERS.getState(w) }));
}

// Hands `code`'s catalogue to the wasm, or the reason it did not come.
function handCatalogue(w, code, bytes, err) {
  withCString(w, code, (c) => (bytes
    ? withBytes(w, bytes, (p, n) => w._headroom_language_arrived(c, p, n))
    : withCString(w, err && err.message ? err.message : String(err), (m) => w._headroom_language_failed(c, m))));
}

// After every verb: fetches the catalogue of a language the wasm waits for
// (state.langLoading) and the CJK font once the language shown needs it.
function followLanguage(w) {
  const code = w.UTF8ToString(w._headroom_lang_loading());
  const now = langWaits.get(w);
  if (code && (!now || now.code !== code)) {
    const wait = fetchLangFile(`${code}.po`).then((bytes) => handCatalogue(w, code, new Uint8Array(bytes)), (e) => {
      langFiles.delete(`${code}.po`);
      handCatalogue(w, code, null, e);
    }).then(() => {
      if (langWaits.get(w) === wait) langWaits.delete(w);
      followLanguage(w);
      languageChanged(w);
    });
    wait.code = code;
    langWaits.set(w, wait);
  }
  if (!fontWaits.has(w) && w._headroom_extra_font_wanted()) {
    fontWaits.set(w, fetchLangFile('cjk.ttf').then((bytes) => {
      withBytes(w, bytes, (p, n) => w._headroom_extra_font(p, n));
      languageChanged(w);
    }, (e) => console.error(`headroom: lang/cjk.ttf could not be fetched (${e.message}): the browser draws those glyphs`)));
  }
}

// ---------------------------------------------------------------------------
// the verbs and readers: the one table
// ---------------------------------------------------------------------------
const isInt32 = (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;

// The lists and orders the wasm hands over (src/app/tables.h, and the wheel's
// bits from src/platform/web_app.h: js_api.cpp headroom_tables_json), read
// once per module at start and frozen: the apply order of a link's fields,
// the values the verbs accept, the wheel's bits. Nothing here copies them.
const tablesByModule = new WeakMap();
function tablesOf(w) {
  let t = tablesByModule.get(w);
  if (!t) {
    const freeze = (o) => { for (const v of Object.values(o)) if (v && typeof v === 'object') freeze(v); return Object.freeze(o); };
    t = freeze(JSON.parse(w.UTF8ToString(w._headroom_tables_json())));
    tablesByModule.set(w, t);
  }
  return t;
}

// "a, b or c" (quoted: '"a", "b" or "c"'), as the C++ side writes its lists.
function orList(items, quoted = false) {
  const xs = items.map((x) => (quoted ? JSON.stringify(x) : String(x)));
  return xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`;
}

// A refused value as a refusal message shows it: short (a 1 MB string or a
// huge array is cut to its first 40 characters), and never throwing (an
// object with no prototype, a Symbol).
function shown(v) {
  let text;
  try { text = typeof v === 'string' ? JSON.stringify(v.slice(0, 41)) : String(v); } catch (e) { text = typeof v; }
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

// Passes a JS string to a C function taking UTF-8 (on the heap: the C side,
// not the stack size, decides what is too long); returns its result, or null
// when the string does not fit in memory.
function withCString(w, text, fn) {
  const n = w.lengthBytesUTF8(text) + 1;
  const p = w._malloc(n);
  if (!p) return null;
  w.stringToUTF8(text, p, n);
  try { return fn(p); } finally { w._free(p); }
}

// Passes a refusal ({code, values}) to a C function taking (code, values):
// headroom_reject and its train and tour twins (js_api.cpp).
function rejectWith(w, fn, r) {
  withCString(w, r.code, (c) => withCString(w, valuesText(r), (v) => fn(c, v)));
}

// Passes bytes to a C function taking (const uint8_t*, n) (on the heap);
// returns its result, or null when they do not fit in memory.
function withBytes(w, buf, fn) {
  const bytes = new Uint8Array(buf);
  const p = w._malloc(Math.max(1, bytes.length));
  if (!p) return null;
  try { w.HEAPU8.set(bytes, p); return fn(p, bytes.length); } finally { w._free(p); }
}

// Passes an array of int32 to a C function taking (const int*, n) (on the
// heap); returns its result, or null when it does not fit in memory.
function withInts(w, ints, fn) {
  const p = w._malloc(4 * Math.max(1, ints.length));
  if (!p) return null;
  try {
    ints.forEach((v, i) => { w.HEAP32[(p >> 2) + i] = v; });
    return fn(p, ints.length);
  } finally { w._free(p); }
}

// A refusal JS makes: a code of the C++ table of the page's refusals
// (src/app/lang/refusals.h HEADROOM_JS_REFUSALS) and the values it quotes,
// in order; C++ adds the tables' values the message names and words it in
// the language shown (app::js_refusal), so no English is made here.
const refusal = (code, ...values) => ({ code, values: values.map(String) });
// Its values as one string for C: separated by U+001F (never inside a value).
const valuesText = (r) => r.values.map((v) => v.replaceAll('\u001f', '?')).join('\u001f');

// Passes text to `fn`, or says why JS cannot (a refusal): `what` names the
// text in the message (one of the phrases app::js_refusal knows: 'the sentence', ...).
function passText(w, text, typeError, what, fn) {
  if (typeof text !== 'string') return typeError;
  if (!text.isWellFormed()) return refusal('js_not_text', what);
  return withCString(w, text, fn) === null ? refusal('js_no_memory', what) : undefined;
}

// A verb of headroom.train: it answers with train.state() rather than
// getState(), and a refusal JS makes is recorded in the training's error too.
// Its Promise resolves once the runs have taken it (where they train in a
// Worker, when the Worker has answered: headroom-train-link.mjs).
const trainVerb = (fn) => Object.assign(fn, {
  result: (w) => READERS.train.state(w),
  reject: (w, c, v) => w._headroom_train_reject(c, v),
  async: true,
});

// A verb of headroom.tour: it answers with tour.state(), and a refusal JS
// makes is recorded in the tour's error.
const tourVerb = (fn) => Object.assign(fn, {
  result: (w) => READERS.tour.state(w),
  reject: (w, c, v) => w._headroom_tour_reject(c, v),
});

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
const isPoint = (p) => p !== null && typeof p === 'object' && isNum(p.x) && isNum(p.y);

// tour.predict(answer): the answer's shape picks what is predicted; C++
// checks that the open step takes that kind and that the values are in range.
//   {x, y}                      a point (step average), in valueSpace coordinates
//   [{x, y}, {x, y}]            two points (step two-heads); also {points: [...]}
//   'id' or {choice: 'id'}      a choice (its ids: tour.state().steps[i].answer.choices)
//   0.42 or {number: 0.42}      a number (step training)
//   [i, j, k, l] or {match: [...]}  token indices (step more-heads)
//   {labels: ['previous', ...]} a head label per head (step real-text: its
//                               answer.choices ids)
function predictTour(w, answer) {
  const why = refusal('js_tour_predict', shown(answer));
  if (answer !== null && typeof answer === 'object' && !Array.isArray(answer) && !isPoint(answer)) {
    if (Object.prototype.hasOwnProperty.call(answer, 'points')) return predictTour(w, answer.points);
    if (Object.prototype.hasOwnProperty.call(answer, 'choice')) {
      return typeof answer.choice === 'string' ? predictTour(w, answer.choice) : why;
    }
    if (Object.prototype.hasOwnProperty.call(answer, 'number')) {
      return isNum(answer.number) ? predictTour(w, answer.number) : why;
    }
    if (Object.prototype.hasOwnProperty.call(answer, 'match')) {
      return Array.isArray(answer.match) ? predictTour(w, answer.match) : why;
    }
    if (Object.prototype.hasOwnProperty.call(answer, 'labels')) {  // one per head, joined as refusal values are
      const labels = answer.labels;
      if (!Array.isArray(labels) || labels.length > 64 || !labels.every((l) => typeof l === 'string')) return why;
      return passText(w, valuesText({ values: labels }), why, 'the answer', (p) => w._headroom_tour_predict_labels(p));
    }
    return why;
  }
  if (isPoint(answer)) return void w._headroom_tour_predict_point(answer.x, answer.y);
  if (isNum(answer)) return void w._headroom_tour_predict_number(answer);
  if (typeof answer === 'string') {
    return passText(w, answer, why, 'the choice', (p) => w._headroom_tour_predict_choice(p));
  }
  if (Array.isArray(answer) && answer.length === 2 && answer.every(isPoint)) {
    return void w._headroom_tour_predict_points(answer[0].x, answer[0].y, answer[1].x, answer[1].y);
  }
  if (Array.isArray(answer) && answer.length <= 64 && answer.every(isInt32)) {
    return withInts(w, answer, (p, n) => w._headroom_tour_predict_match(p, n)) === null ? refusal('js_no_memory', 'the answer') : undefined;
  }
  return why;
}

// train.knockout's last call per wasm module: null (accepted) or the Error
// its refusal rejects with (its result reads it).
const knockoutRefusal = new WeakMap();

const isSeed = (n) => Number.isInteger(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER;  // C++ checks the range

// Verbs change the state and return getState() (or entry.result(w)). Each
// entry gets the wasm module first, then the caller's arguments; it passes
// them to C (which validates the values and records its own refusals), or
// returns a refusal ({code, values}: why JS refused them before C, then
// recorded through headroom_reject, or entry.reject). A nested object is a namespace
// (headroom.<name>.<verb>).
export const VERBS = Object.freeze({
  setHeads: (w, n) => (isInt32(n) ? void w._headroom_set_heads(n)
    : refusal('js_heads', shown(n))),
  selectToken: (w, i) => (isInt32(i) ? void w._headroom_select_token(i)
    : refusal('js_token', shown(i))),
  setFocus: (w, f) => (typeof f === 'number' && Number.isFinite(f) ? void w._headroom_set_focus(f)
    : refusal('js_focus', shown(f))),
  // Head knockout: an array of 0-based head indices ([] = none), zeroed
  // before W_O; getState().knockout and .carried follow.
  setKnockout: (w, heads) => {
    if (!Array.isArray(heads) || heads.length > 32 || !heads.every(isInt32)) {
      return refusal('js_knockout', shown(heads));
    }
    return withInts(w, heads, (p, n) => w._headroom_set_knockout(p, n)) === null ? refusal('js_no_memory', 'the knockout') : undefined;
  },
  // Tied query and key (W_K = W_Q in every head): true or false.
  setTieQK: (w, tie) => (typeof tie === 'boolean' ? void w._headroom_set_tie_qk(tie ? 1 : 0)
    : refusal('js_tie', shown(tie))),
  // 0 = off, else repeat the sentence to n <= 512 tokens and recompute every frame.
  setStress: (w, n) => (isInt32(n) ? void w._headroom_set_stress(n)
    : refusal('js_stress', shown(n))),
  setSentence: (w, text) => passText(w, text, refusal('js_sentence_type'), 'the sentence',
    (p) => w._headroom_set_sentence(p)),
  // A URL hash ("heads=2&sentence=..."), parsed by the C++ whitelist
  // (src/app/url_state.h): a refused field keeps its value.
  applyHash: (w, hash) => passText(w, hash, refusal('js_hash_type'), 'the link',
    (p) => w._headroom_apply_hash(p)),
  // 'built' (the scene's own weights), 'text' (the text task's model, for a
  // sentence typed for it) or 'trained' (the training run with
  // the shown head count; getState().modelWeights says what is shown).
  setWeights: (w, choice) => passText(w, choice, refusal('js_weights', shown(choice)),
    'the weights choice', (p) => w._headroom_set_weights(p)),
  // The midpoint found in held-out text: case i (0-based) of
  // train.state().splits on the lesson's views (its sentence, its query,
  // the text weights, one head), as the "Show it" button does.
  showSplit: (w, i) => (isInt32(i) ? void w._headroom_show_split(i)
    : refusal('js_split', shown(i))),
  // The interface's language: 'en', 'es', 'fr', 'de' or 'zh' (src/app/lang.h);
  // getState().lang says which is shown, .missingStrings how many strings
  // it lacked (shown in English). A page on its lesson opens the language's.
  // A language whose catalogue is not here yet (every one but English's
  // until fetched) is waited for: the state returned says langLoading:
  // code, lang the language still shown; languageSettled() resolves once it
  // is shown (or its fetch failed: state.error).
  setLanguage: (w, code) => passText(w, code, refusal('js_language', shown(code)),
    'the language code', (p) => w._headroom_set_language(p)),
  // The guided lesson (src/app/tour.h): each verb returns tour.state().
  tour: Object.freeze({
    // go(n): open step n (1-based, within the range tour=N-M set).
    go: tourVerb((w, n) => (isInt32(n) ? void w._headroom_tour_go(n)
      : refusal('js_tour_go', shown(n)))),
    predict: tourVerb(predictTour),
    reveal: tourVerb((w) => void w._headroom_tour_reveal()),
    replay: tourVerb((w) => void w._headroom_tour_replay()),
    // retry(n): try step n again (its answer and mark are forgotten).
    retry: tourVerb((w, n) => (isInt32(n) ? void w._headroom_tour_retry(n)
      : refusal('js_tour_retry', shown(n)))),
  }),
  // Live training (src/app/live_training.h): runs of 1, 2 and 4 heads side by side.
  train: Object.freeze({
    // reset({seed, r, lr, tieQK}): every run afresh; a missing field keeps
    // its value (tieQK: the page's query/key tie, the one setTieQK sets;
    // true trains tied runs beside the untied ones and ties the lesson too).
    // reset({task: 'text', layers, seed, lr}): the language model on real
    // English instead (layers 1 or 2; the corpus is fetched the first time);
    // task 'roles' (the default) goes back. Unknown keys are refused.
    reset: trainVerb((w, opts = {}) => {
      if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
        return refusal('js_reset_type');
      }
      const now = READERS.train.state(w);
      const tables = tablesOf(w);
      const { task = 'roles' } = opts;
      if (!tables.trainTasks.includes(task)) return refusal('js_task', shown(task));
      const keys = task === 'text' ? ['task', 'layers', 'seed', 'lr'] : ['task', 'seed', 'r', 'lr', 'tieQK'];
      const unknown = Object.keys(opts).filter((k) => !keys.includes(k));
      if (unknown.length) return refusal('js_reset_keys', shown(task), keys.join(', '), unknown.map(shown).join(', '));
      if (task === 'text') {
        const { layers = now.task === 'text' ? now.layers : tables.textLayers[0], seed = now.seed,
                lr = now.task === 'text' ? now.lr : tables.textLr } = opts;
        if (!tables.textLayers.includes(layers)) return refusal('js_layers', shown(layers));
        if (!isSeed(seed)) return refusal('js_seed', shown(seed));
        if (typeof lr !== 'number' || !Number.isFinite(lr)) return refusal('js_lr', shown(lr));
        w._headroom_train_reset_text(layers, seed, lr);  // the training program fetches the corpus
        return undefined;
      }
      const { seed = now.seed, r = now.r, lr = now.lr, tieQK } = opts;
      if (!isSeed(seed)) return refusal('js_seed', shown(seed));
      if (!isInt32(r)) return refusal('js_r', shown(r));
      if (typeof lr !== 'number' || !Number.isFinite(lr)) return refusal('js_lr', shown(lr));
      if (tieQK !== undefined && typeof tieQK !== 'boolean') return refusal('js_tie_qk', shown(tieQK));
      w._headroom_train_reset(seed, r, lr, tieQK === undefined ? -1 : tieQK ? 1 : 0);
      return undefined;
    }),
    // step(n): n steps of every run, synchronously.
    step: trainVerb((w, n) => (isInt32(n) ? void w._headroom_train_step(n)
      : refusal('js_steps', shown(n)))),
    play: trainVerb((w) => void w._headroom_train_play()),
    pause: trainVerb((w) => void w._headroom_train_pause()),
    // Saves snapshot(heads) as a JSON file (heads: 1, 2 or 4; default the shown count).
    // (It returns train.state() at once; the file follows when the runs' owner has made it.)
    download: Object.assign(trainVerb((w, heads) => {
      const h = heads === undefined ? READERS.getState(w).heads : heads;
      return isInt32(h) ? void w._headroom_train_download(h) : refusal('js_download', shown(h));
    }), { async: false }),
    // knockout(layer, head, heads): the text run with `heads` heads (default
    // the shown head count, as download) measured on the held-out text with
    // and without head `head` of layer `layer`, both counted from 1 as
    // train.state().perHead counts them (its output zeroed before W_O). A
    // Promise of {heads, layer, head, lossBefore, lossAfter};
    // train.state().knockout keeps the last one. Refused (the Promise
    // rejects: TypeError for a wrong type, RangeError for the roles task or
    // a run, layer or head there is not), with the reason in
    // train.state().error and the last knockout kept.
    knockout: Object.assign((w, layer, head, heads) => {
      const h = heads === undefined ? READERS.getState(w).heads : heads;
      knockoutRefusal.set(w, TypeError);
      if (!isInt32(layer) || !isInt32(head) || !isInt32(h)) {
        return refusal('js_knockout_args', [layer, head, h].map(shown).join(', '));
      }
      knockoutRefusal.set(w, w._headroom_train_knockout(h, layer, head) === 1 ? null : RangeError);
      return undefined;
    }, {
      reject: (w, c, v) => w._headroom_train_reject(c, v),
      async: true,
      // Read once the runs' owner has answered; the program may still have refused.
      result: (w) => {
        const { knockout: k, error } = READERS.train.state(w);
        const Refusal = knockoutRefusal.get(w);
        if (Refusal || !k) throw new (Refusal || RangeError)(error || 'the knockout was not measured');
        return { heads: k.heads, layer: k.layer, head: k.head, lossBefore: k.lossBefore, lossAfter: k.lossAfter };
      },
    }),
  }),
});

// ---------------------------------------------------------------------------
// exports: a view's picture or numbers, and files handed to the page
// ---------------------------------------------------------------------------
// Top-down RGBA pixels as a PNG Blob (the browser encodes it).
function pngBlob(pixels, width, height) {
  const c = document.createElement('canvas');
  c.width = width;
  c.height = height;
  c.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, width * height * 4), width, height), 0, 0);
  return new Promise((resolve, reject) => c.toBlob((b) => (b ? resolve(b) : reject(new Error('the browser could not encode the PNG'))), 'image/png'));
}

// exportView(view, format): a Blob (png) or a string (csv, json); rejects
// with the C++ side's message for a view or format it does not know.
async function exportView(w, view, format) {
  if (typeof view !== 'string' || typeof format !== 'string') {
    throw new TypeError(`exportView(view, format) takes a view name and ${orList(tablesOf(w).exportFormats, true)}, not ${shown(view)}, ${shown(format)}`);
  }
  if (!view.isWellFormed() || !format.isWellFormed()) throw new RangeError('exportView: the view or format contains a lone surrogate');
  const refused = () => new RangeError(w.UTF8ToString(w._headroom_export_error()));
  if (format === 'png') {
    if (!withCString(w, view, (p) => w._headroom_export_png(p))) throw refused();
    const width = w._headroom_export_width(), height = w._headroom_export_height();
    const p = w._headroom_export_pixels();
    return pngBlob(w.HEAPU8.slice(p, p + width * height * 4), width, height);
  }
  const text = withCString(w, view, (v) => withCString(w, format, (f) => {
    const p = w._headroom_export_text(v, f);
    return p ? w.UTF8ToString(p) : null;
  }));
  if (text === null) throw refused();
  return text;
}

// Whether this page may lose a download: a frame sandboxed without
// allow-downloads drops it silently (no error, no file). Nothing in the
// frame says which sandbox flags it has, so: a same-origin parent lets us
// read the iframe's sandbox attribute (certain); a frame with an opaque
// ("null") origin is sandboxed without allow-same-origin, and may or may
// not have allow-downloads (unknowable: we try the download and offer the
// file to the host page too); any other page downloads.
export function downloadsMayBeDropped() {
  if (window.parent === window) return { dropped: false, certain: true };
  try {
    const el = window.frameElement;
    if (el) {
      const sandboxed = el.hasAttribute('sandbox') && !el.sandbox.contains('allow-downloads');
      return { dropped: sandboxed, certain: true };
    }
  } catch (e) { /* cross-origin parent: not readable */ }
  return { dropped: self.origin === 'null', certain: false };
}

// Saves a file through an <a download> (dropped silently where the sandbox
// forbids downloads).
function download(name, data) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(data);
  a.download = name;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10000);
}

// The wasm hands a file to the page ({view, format, name, text} or
// {..., pixels, width, height}: a Save menu, a snapshot button): it is
// downloaded unless the frame surely cannot, and, where the frame may drop
// it, also offered to the host page: a 'headroom:export' event on the canvas
// with detail {view, format, name, data} (data: a Blob for png, else the
// text), which embed.html posts to its parent as {type: 'headroom:export',
// view, format, name, data}.
async function offerFile(canvas, file) {
  const data = file.format === 'png' ? await pngBlob(file.pixels, file.width, file.height) : file.text;
  const { dropped, certain } = downloadsMayBeDropped();
  const types = { png: 'image/png', csv: 'text/csv', json: 'application/json', snapshot: 'application/json' };
  if (!(dropped && certain)) download(file.name, data instanceof Blob ? data : new Blob([data], { type: types[file.format] || 'text/plain' }));
  canvas.dispatchEvent(new CustomEvent('headroom:export', {
    detail: { view: file.view, format: file.format, name: file.name, data, sandboxed: dropped },
  }));
}

// Readers return data and change nothing.
export const READERS = Object.freeze({
  // A Promise of the view's picture (a PNG Blob) or numbers (a CSV or JSON
  // string): view one of the hash's views, format "png", "csv" or "json".
  exportView,
  // A plain JSON object (see headroom-loader.mjs for its fields); frames: how
  // many frames the app has drawn (none while idle; see guest.cpp).
  getState: (w) => {
    const state = JSON.parse(w.UTF8ToString(w._headroom_state_json()));
    state.frames = w._headroom_frame_count();
    state.uiWantsWheel = w._headroom_ui_wants_wheel() === 1;
    state.missingGlyphs = w._headroom_missing_glyphs();
    return state;
  },
  // A Promise of getState() once no language is waited for (state.langLoading
  // null: the one chosen is shown, or its fetch failed and state.error says
  // so) and the font its glyphs need is in (lang/cjk.ttf, fetched once).
  languageSettled: async (w) => {
    for (let p = langWaits.get(w); p; p = langWaits.get(w)) await p;
    await fontWaits.get(w);
    return READERS.getState(w);
  },
  // The current state as a hash (without '#'), for links and the address bar.
  hash: (w) => w.UTF8ToString(w._headroom_hash()),
  // `english` in the shown language (the catalogue's entry; a key it lacks
  // comes back in English and counts in state.missingStrings): the page's
  // own words around the canvas (headroom-loader.mjs).
  translate: (w, english) => {
    if (typeof english !== 'string') throw new TypeError(`translate needs English text, not ${shown(english)}`);
    const t = withCString(w, english, (p) => w.UTF8ToString(w._headroom_translate(p)));
    return t === null ? english : t;
  },
  // The wasm's fixed lists (frozen): {applyOrder: [{key, field}], heads,
  // trainR, trainHeads, maxSeed, lrRange, maxStepsPerCall, weights, themes,
  // views, tabs, exportFormats, languages, tourSteps, wheel: {up, down,
  // left, right, dragging}} (src/app/tables.h).
  tables: (w) => tablesOf(w),
  tour: Object.freeze({
    // {step, range: [first, last], error, steps: [{id, title, text, question,
    // answer: {kind, ...}, predicted, revealed, measured, result, feedback,
    // score}]}
    state: (w) => JSON.parse(w.UTF8ToString(w._headroom_tour_state_json())),
    // The tour's events (headroom:tour-event messages) after number `since`,
    // and the number of the last one: {events, last}. For the page's
    // postMessage bridge; not part of the tour's API contract.
    events: (w, since = 0) => ({
      events: JSON.parse(w.UTF8ToString(w._headroom_tour_events_json(isNum(since) ? since : 0))),
      last: w._headroom_tour_last_event(),
    }),
  }),
  train: Object.freeze({
    // {seed, r, lr, tieQK, step, stepsPerSecond, running, error, runs: [{heads,
    // tieQK, loss, floor, history: [[step, loss], ...], perHead: [{weightOn:
    // [R]}]}], ...}: runs untied first, then tied, each by head count.
    state: (w) => JSON.parse(w.UTF8ToString(w._headroom_train_state_json())),
    // The run with `heads` heads ({tieQK: true}: the tied one), checkable
    // with numpy (README "Training snapshots"); a Promise (the runs may train
    // in a Worker), rejected when there is no such run.
    snapshot: async (w, heads, opts = {}) => {
      if (!isInt32(heads)) throw new TypeError(`snapshot needs a head count (${orList(tablesOf(w).trainHeads)}), not ${shown(heads)}`);
      if (opts === null || typeof opts !== 'object' || Array.isArray(opts) ||
          (opts.tieQK !== undefined && typeof opts.tieQK !== 'boolean')) {
        throw new TypeError(`snapshot's options are {tieQK: true or false}, not ${shown(opts)}`);
      }
      const link = links.get(w);
      const got = link ? await link.snapshot(heads, !!opts.tieQK) : null;
      if (got && got.error) {  // recorded as the page's own refusal is, from its code
        if (!(got.refusal && withBytes(w, got.refusal, (p, n) => w._headroom_train_reject_wire(p, n)))) {
          rejectWith(w, (c, v) => w._headroom_train_reject(c, v), refusal('no_run', heads));
        }
        throw new RangeError(got.error);
      }
      if (got) return JSON.parse(got.text);
      const p = w._headroom_train_snapshot_json(heads, opts.tieQK ? 1 : 0);
      if (!p) throw new RangeError(READERS.train.state(w).error || `no training run has ${heads} heads`);
      return JSON.parse(w.UTF8ToString(p));
    },
  }),
  // Not part of the API contract: where the last frame drew the token and
  // heads buttons (CSS px relative to the canvas), so tests can click them;
  // whether it fits the canvas (ImGui windows' content sizes and scroll
  // ranges, text runs the clip cuts; src/ui/fit_probe.cpp), and which ways
  // the wheel would scroll the UI under the pointer (up, down, left, right:
  // otherwise it goes to the page).
  debug: Object.freeze({
    layout: (w) => JSON.parse(w.UTF8ToString(w._headroom_layout_json())),
    fit: (w) => JSON.parse(w.UTF8ToString(w._headroom_fit_json())),
    // Where the runs train, how often the Worker was restarted, how many
    // heartbeats were sent (pings) and how many verbs wait for its answer; settled() a Promise that they have been
    // answered (headroom-embed.mjs replies after it); kill()
    // ends the Worker as a crash would (tests of the restart).
    trainProgram: (w) => {
      const link = links.get(w);
      return link ? { where: link.where, restarts: link.restarts(), pings: link.pings(), pending: link.pending(), kill: link.kill,
        settled: () => link.answered(link.sent) }
        : { where: 'main thread', restarts: 0, pings: 0, pending: 0, kill: () => {}, settled: () => Promise.resolve() };
    },
    // Frames drawn since start, and how many of them painted the canvas (a
    // frame that would paint what the canvas shows paints nothing).
    frames: (w) => ({ drawn: w._headroom_frame_count(), painted: w._headroom_painted_count() }),
    // The CJK font (lang/cjk.ttf): its bytes once handed to the wasm (0
    // before), and how many of its glyphs the atlas holds (the shown language's).
    fonts: (w) => ({ extraBytes: w._headroom_extra_font_bytes(), extraGlyphs: w._headroom_extra_font_glyphs() }),
    // A Promise that the frame loop has settled: two animation frames in a
    // row drew nothing (the loop runs on animation frames and draws in one
    // whenever anything asked, so nothing is pending then). Tests await it
    // instead of sleeping, since a loaded machine draws late. Resolves to
    // { idle, drawn, waitedMs }; idle false when it had not settled within
    // limitMs (a page whose animation frames do not run: hidden, off screen).
    idle: (w, limitMs = 20000) => new Promise((resolve) => {
      const t0 = performance.now();
      let last = -1, quiet = 0;
      const tick = () => {
        const drawn = w._headroom_frame_count(), waitedMs = performance.now() - t0;
        quiet = drawn === last ? quiet + 1 : 0;
        last = drawn;
        if (quiet >= 2 || waitedMs > limitMs) { clearTimeout(timer); resolve({ idle: quiet >= 2, drawn, waitedMs }); return; }
        requestAnimationFrame(tick);
      };
      const timer = setTimeout(() => resolve({ idle: false, drawn: w._headroom_frame_count(), waitedMs: limitMs }), limitMs + 1000);
      requestAnimationFrame(tick);
    }),
    wheel: (w) => {
      const bits = w._headroom_wheel_directions();
      return Object.fromEntries(Object.entries(tablesOf(w).wheel).map(([way, bit]) => [way, (bits & bit) !== 0]));
    },
  }),
});

// An object shaped like the API (namespaces nested; a namespace may hold both
// verbs and readers, like train.step and train.state) whose functions are
// make(entry, kind, path): kind 'verb' or 'reader', path like ['debug', 'layout'].
export function apiShape(make) {
  const walk = (out, table, kind, path) => {
    for (const [name, entry] of Object.entries(table)) {
      if (typeof entry === 'function') {
        if (name in out) throw new Error(`headroom.mjs: ${[...path, name].join('.')} is both a verb and a reader`);
        out[name] = make(entry, kind, [...path, name]);
      } else {
        walk(out[name] || (out[name] = {}), entry, kind, [...path, name]);
      }
    }
    return out;
  };
  const freeze = (o) => { for (const v of Object.values(o)) if (typeof v === 'object') freeze(v); return Object.freeze(o); };
  const api = walk(walk({}, VERBS, 'verb', []), READERS, 'reader', []);
  for (const v of Object.values(api)) if (typeof v === 'object') freeze(v);
  return api;
}

// The instance's API on one wasm module.
function bindApi(w) {
  const refuse = (entry, why) => {
    rejectWith(w, (c, v) => (entry.reject ? entry.reject(w, c, v) : w._headroom_reject(c, v)), why);
  };
  return apiShape((entry, kind) => (kind === 'reader' ? (...args) => entry(w, ...args) : (...args) => {
    const link = links.get(w);
    const before = link ? link.sent : 0;
    const why = entry(w, ...args);
    if (why && typeof why === 'object') refuse(entry, why);
    followLanguage(w);  // a language chosen (setLanguage, a link's lang=) is fetched
    const result = entry.result || READERS.getState;
    if (!entry.async) return result(w);
    return (link && link.sent > before ? link.answered(link.sent) : Promise.resolve()).then(() => result(w));
  }));
}

// ---------------------------------------------------------------------------
// instances
// ---------------------------------------------------------------------------
export async function createHeadroom({ canvas, hash = '', lang = langToFetch(hash), onProgress, onAbort } = {}) {
  if (!(canvas instanceof HTMLCanvasElement)) throw new TypeError('createHeadroom needs { canvas: <canvas> }');
  const wasmMissing = missingWasmFeature();
  if (wasmMissing) throw new Error(wasmMissing);
  // The language the page opens in is fetched beside the wasm and handed
  // over before the first frame (so that frame is already in it); a failed
  // fetch is reported when the hash chooses the language.
  const first = typeof lang === 'string' && langToFetch(`lang=${lang}`);
  const catalogue = first ? fetchLangFile(`${first}.po`).catch(() => null) : null;
  const loads = Promise.all([loadFactory(), loadWasm(onProgress), catalogue]);
  const glMissing = missingWebGL2();
  if (glMissing) {
    loads.catch(() => {});  // nobody waits for the bytes now
    throw new Error(glMissing);
  }
  const [create, module, firstCatalogue] = await loads;
  let stopped;
  let module_ = null;  // the wasm module, once started (headroomTrainSend's link)
  const aborted = new Promise((resolve, reject) => { stopped = reject; });
  aborted.catch(() => {});  // awaited below; an abort after start goes to onAbort only
  // The factory's promise settles after main() has run: the Demo exists, the
  // main loop is installed (it draws on the browser's animation frames, which
  // an off-screen frame may not get), and every verb works.
  const w = await Promise.race([aborted, create({
    canvas,
    // The module is compiled once per page; each instance instantiates it.
    instantiateWasm: (imports, receive) => {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module),
        (err) => stopped(new Error(`headroom.wasm could not be instantiated: ${err.message}`)));
      return {};  // Emscripten: the exports come asynchronously, through receive
    },
    onAbort: (what) => {
      const message = `The WebAssembly module stopped: ${what}`;
      stopped(new Error(message));  // before start: createHeadroom rejects
      if (onAbort) onAbort(message);
    },
    headroomOffer: (file) => { offerFile(canvas, file).catch((e) => console.error(e)); },
    headroomTrainSend: (...args) => { const link = links.get(module_); if (link) link.send(...args); },
    print: (text) => console.log(text),
    printErr: (text) => console.error(text),
  })]);
  tablesOf(w);  // read once, at start
  canvases.set(w, canvas);
  if (firstCatalogue) handCatalogue(w, first, new Uint8Array(firstCatalogue));  // added; the hash shows it
  w._headroom_set_sandboxed(downloadsMayBeDropped().dropped ? 1 : 0);
  // Training in a Worker from its first use (headroom-train-link.mjs); refused only when
  // the page's wasm has already built its trainer.
  const link = createTrainLink(w, canvas, { base, withCString, withBytes, offerFile, trainState: READERS.train.state });
  links.set(w, link);
  module_ = w;
  if (!w._headroom_train_use_worker()) { links.delete(w); module_ = null; }
  const instance = {
    canvas,
    ...bindApi(w),
    // Stops drawing for good (the wasm memory goes when the instance is dropped).
    destroy: () => w._headroom_set_paused(1),
  };
  if (hash) instance.applyHash(hash);
  return Object.freeze(instance);
}
