// headroom-loader.js: checks the browser, loads headroom.wasm with a progress
// bar, starts it, and defines window.headroom, the page's JS API:
//
//   headroom.ready              Promise: resolves once the first frame is drawn
//                               (rejects, with the message shown on the page,
//                               if Headroom cannot start)
//   headroom.setHeads(n)        1, 2, 4 or 8 heads     } each returns getState();
//   headroom.setSentence(text)  new sentence           } a refused input keeps the
//   headroom.selectToken(i)     query token index      } previous state and sets
//   headroom.setFocus(f)        single head: 0..1      } state.error
//   headroom.setStress(n)       0 = off, else repeat the sentence to n <= 512
//                               tokens and recompute every frame; state.stress
//   headroom.getState()         plain JSON object: tokens (string[]), heads,
//                               dModel, dHead, query, focus, weights (H arrays
//                               of L weights for the query token), relations
//                               and targets per head, readout per head,
//                               valueSpace per head ({points: L x [x, y],
//                               output: [x, y], explained}), sentence (the
//                               readout in words), description, error
//                               (null, or why the last input was refused)
//   headroom.applyHash(h)       apply a URL hash ("heads=2&sentence=..."), parsed
//                               by the C++ whitelist; returns getState()
//   headroom.hash()             the current state as a hash (without '#')
//   state.frames                frames drawn so far (none while idle)
//   headroom.debug.layout()     for tests only: token chip and heads button
//                               rects (CSS px): {tokens: [...], heads: [...]}
//
// Keeps the state in the page's URL hash: applies it on load and on
// hashchange, writes it back (history.replaceState) after every change, and
// fires a window event 'headroom:statechange' (headroom-embed.js listens).
// Does not: compute anything (every number comes from the wasm engine), or
// bridge postMessage for cross-origin hosts (headroom-embed.js does).
(function () {
  'use strict';

  const $ = (id) => document.getElementById(id);
  let mod = null;  // the Emscripten module once running
  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // the page shows the error; no unhandled-rejection noise

  function setStatus(text, fraction) {
    $('status-text').textContent = text;
    const bar = $('progress');
    if (fraction === undefined) bar.removeAttribute('value'); else bar.value = fraction;
  }

  let failed = false;
  function fail(message) {
    if (failed) return;
    failed = true;
    $('status').classList.add('hidden');
    $('canvas').classList.add('hidden');
    $('error-text').textContent = message;
    $('error').style.display = 'block';
    rejectReady(new Error(message));
  }

  // --- feature checks -------------------------------------------------------
  function missingFeature() {
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
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return 'This browser (or its GPU settings) gives no WebGL 2 context.';
    const lose = gl.getExtension('WEBGL_lose_context');
    if (lose) lose.loseContext();
    return null;
  }

  // --- loading --------------------------------------------------------------
  async function fetchWithProgress(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const total = Number(response.headers.get('Content-Length')) || 0;
    if (!response.body || !total) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    const bytes = new Uint8Array(total);
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (received + value.length > total) throw new Error(`${url}: longer than its Content-Length`);
      bytes.set(value, received);
      received += value.length;
      setStatus(`Loading Headroom… ${(received / 1048576).toFixed(1)} MB`, received / total);
    }
    return bytes.subarray(0, received);
  }

  function loadScript(url) {
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = url;
      s.onload = resolve;
      s.onerror = () => reject(new Error(`${url} could not be loaded`));
      document.head.appendChild(s);
    });
  }

  async function start() {
    const missing = missingFeature();
    if (missing) throw new Error(missing);
    setStatus('Loading Headroom…', 0);
    const [wasmBinary] = await Promise.all([fetchWithProgress('headroom.wasm'), loadScript('headroom.js')]);
    if (typeof createHeadroomModule !== 'function') throw new Error('headroom.js did not define createHeadroomModule');
    setStatus('Starting…');
    let firstFrame;
    const drawn = new Promise((resolve) => { firstFrame = resolve; });
    const m = await createHeadroomModule({
      canvas: $('canvas'),
      wasmBinary,
      onHeadroomFirstFrame: () => firstFrame(),
      onAbort: (what) => fail(`The WebAssembly module stopped: ${what}`),
      print: (text) => console.log(text),
      printErr: (text) => console.error(text),
    });
    await drawn;
    mod = m;
    $('status').classList.add('hidden');
    $('canvas').focus();
  }

  // --- the API ----------------------------------------------------------------
  function need() {
    if (!mod) throw new Error(failed ? 'Headroom failed to start' : 'Headroom is not ready yet: await headroom.ready');
  }

  // frames: how many frames the app has drawn (none while idle; see guest.cpp).
  function getState() {
    need();
    const state = JSON.parse(mod.UTF8ToString(mod._headroom_state_json()));
    state.frames = mod._headroom_frame_count();
    state.uiWantsWheel = mod._headroom_ui_wants_wheel() === 1;
    return state;
  }

  // Passes a JS string to a C function taking UTF-8 (on the heap: the C side,
  // not the stack size, decides what is too long); returns its result.
  function withCString(text, fn) {
    const n = mod.lengthBytesUTF8(text) + 1;
    const p = mod._malloc(n);
    if (!p) return null;
    mod.stringToUTF8(text, p, n);
    try { return fn(p); } finally { mod._free(p); }
  }

  // The URL hash, parsed by the C++ whitelist (src/app/url_state.h): a refused
  // field keeps its value and its message becomes state.error.
  function applyHash(hash) {
    need();
    if (typeof hash !== 'string') return reject('a URL hash must be a string');
    if (!hash.isWellFormed()) return reject('the link contains a lone surrogate (half of a UTF-16 pair), which is not text');
    if (withCString(hash, (p) => mod._headroom_apply_hash(p)) === null) return reject('the link does not fit in memory');
    return getState();
  }
  // The current state as a hash (without '#'), for links and the address bar.
  function hash() { need(); return mod.UTF8ToString(mod._headroom_hash()); }

  // Refuses an input JS itself cannot pass to C (wrong type, out of int range)
  // the same way the engine refuses: state kept, error set.
  function reject(message) {
    const text = String(message);
    const n = mod.lengthBytesUTF8(text) + 1;
    const p = mod._malloc(n);
    mod.stringToUTF8(text, p, n);
    mod._headroom_reject(p);
    mod._free(p);
    return getState();
  }

  const isInt32 = (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;

  function setHeads(n) {
    need();
    if (!isInt32(n)) return reject(`heads must be a whole number (1, 2, 4 or 8), not ${String(n)}`);
    mod._headroom_set_heads(n);
    return getState();
  }

  function selectToken(i) {
    need();
    if (!isInt32(i)) return reject(`a token index must be a whole number, not ${String(i)}`);
    mod._headroom_select_token(i);
    return getState();
  }

  function setFocus(f) {
    need();
    if (typeof f !== 'number' || !Number.isFinite(f)) return reject(`focus must be a number from 0 to 1, not ${String(f)}`);
    mod._headroom_set_focus(f);
    return getState();
  }

  function setStress(n) {
    need();
    if (!isInt32(n)) return reject(`the stress length must be a whole number of tokens, not ${String(n)}`);
    mod._headroom_set_stress(n);
    return getState();
  }

  function setSentence(text) {
    need();
    if (typeof text !== 'string') return reject('setSentence needs a string');
    if (!text.isWellFormed()) return reject('the sentence contains a lone surrogate (half of a UTF-16 pair), which is not text');
    // On the heap, not the stack: the engine, not the stack size, decides what is too long.
    const n = mod.lengthBytesUTF8(text) + 1;
    const p = mod._malloc(n);
    if (!p) return reject('the sentence does not fit in memory');
    mod.stringToUTF8(text, p, n);
    mod._headroom_set_sentence(p);
    mod._free(p);
    return getState();
  }

  // Not part of the API contract: where the last frame drew the token buttons
  // (CSS pixels relative to the canvas), so tests can click them for real.
  const debug = Object.freeze({
    layout() { need(); return JSON.parse(mod.UTF8ToString(mod._headroom_layout_json())); },
  });


  // The page's sentence field (index.html; a host page may not have one):
  // Enter or Apply sends it through setSentence; a refusal is shown under it.
  function wireSentenceForm() {
    const form = $('sentence-form'), input = $('sentence'), error = $('sentence-error');
    if (!form || !input) return;
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const s = setSentence(input.value);
      if (error) error.textContent = s.error ? `Refused: ${s.error}` : '';
    });
  }
  ready.then(wireSentenceForm, () => {});

  // --- state in the URL hash ---------------------------------------------------
  let lastHash = null;
  function showHashError(state) {
    const box = $('sentence-error') || $('hash-error');
    if (box && state.error) box.textContent = `Link: ${state.error}`;
  }
  function syncHash() {
    if (!mod) return;
    const h = hash();
    if (h === lastHash) return;
    lastHash = h;
    try { history.replaceState(history.state, '', `#${h}`); } catch (e) { /* opaque origin: keep going */ }
    window.dispatchEvent(new CustomEvent('headroom:statechange'));
  }
  function startHashSync() {
    const initial = location.hash.replace(/^#/, '');
    if (initial) showHashError(applyHash(initial));
    syncHash();
    window.addEventListener('hashchange', () => {
      const h = location.hash.replace(/^#/, '');
      if (h === lastHash) return;
      showHashError(applyHash(h));
      syncHash();
    });
    // A click or key on the canvas is handled on the next frame: look after it.
    const later = () => setTimeout(syncHash, 150);
    $('canvas').addEventListener('pointerup', later);
    $('canvas').addEventListener('keyup', later);
    const form = $('sentence-form');
    if (form) form.addEventListener('submit', later);
  }
  ready.then(startHashSync, () => {});
  // Every verb of the API also updates the hash.
  const synced = (fn) => (...args) => { const r = fn(...args); syncHash(); return r; };

  window.headroom = Object.freeze({
    ready, setHeads: synced(setHeads), setSentence: synced(setSentence), selectToken: synced(selectToken),
    setFocus: synced(setFocus), setStress: synced(setStress), getState, applyHash: synced(applyHash), hash, debug,
  });

  window.addEventListener('error', (e) => { if (!mod) fail(e.message || 'a script error stopped the page'); });
  start().then(() => resolveReady(window.headroom), (err) => fail(err && err.message ? err.message : String(err)));
})();
