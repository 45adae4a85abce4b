// headroom.mjs: Headroom as an ES module for same-origin host pages.
//
//   import { createHeadroom } from './headroom.mjs';
//   const h = await createHeadroom({ canvas, hash: 'heads=2', onProgress });
//   h.setHeads(2); h.getState(); h.destroy();
//
// createHeadroom({ canvas, hash?, onProgress?(fraction) }) resolves, after the
// first frame, to an instance with the verbs of window.headroom (setHeads,
// setSentence, selectToken, setFocus, applyHash, hash, getState) bound to its
// own wasm instance: several on one page are independent (each has its own
// memory, Demo and canvas). It rejects with a readable Error when the browser
// lacks WebGL2 or wasm SIMD, or a CSP forbids wasm. The canvas needs a CSS
// size and tabindex="0" (keys reach it only while it has focus).
// Does not: touch the page outside `canvas`, define globals other than
// Emscripten's factory createHeadroomModule (headroom.js, loaded once), or
// show any UI of its own (the caller shows progress and errors).
//
// Why not Emscripten's -sEXPORT_ES6: this wraps the one MODULARIZE build the
// pages use, so the site ships one headroom.js + headroom.wasm, not two.

const base = new URL('.', import.meta.url);
let factory = null;  // Promise of createHeadroomModule
let wasmBinary = null;  // Promise of the bytes, fetched once for every instance

function missingFeature() {
  if (typeof WebAssembly !== 'object') return 'This browser has no WebAssembly.';
  const simd = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0,
                               10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  } catch (e) {
    return 'This page\'s Content Security Policy does not allow WebAssembly ' +
           '(it needs script-src \'self\' \'wasm-unsafe-eval\').';
  }
  if (!WebAssembly.validate(simd)) return 'This browser\'s WebAssembly has no SIMD (128-bit) support.';
  if (!document.createElement('canvas').getContext('webgl2')) return 'This browser gives no WebGL 2 context.';
  return null;
}

function loadFactory() {
  if (!factory) {
    factory = new Promise((resolve, reject) => {
      if (typeof globalThis.createHeadroomModule === 'function') { resolve(globalThis.createHeadroomModule); return; }
      const s = document.createElement('script');
      s.src = new URL('headroom.js', base).href;
      s.onload = () => resolve(globalThis.createHeadroomModule);
      s.onerror = () => reject(new Error('headroom.js could not be loaded'));
      document.head.appendChild(s);
    });
  }
  return factory;
}

async function loadWasm(onProgress) {
  if (!wasmBinary) {
    wasmBinary = (async () => {
      const response = await fetch(new URL('headroom.wasm', base));
      if (!response.ok) throw new Error(`headroom.wasm: HTTP ${response.status}`);
      const total = Number(response.headers.get('Content-Length')) || 0;
      if (!response.body || !total) return new Uint8Array(await response.arrayBuffer());
      const reader = response.body.getReader();
      const chunks = [];
      let received = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        if (onProgress) onProgress(Math.min(1, received / total));
      }
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const c of chunks) { bytes.set(c, at); at += c.length; }
      return bytes;
    })();
  }
  return wasmBinary;
}

export async function createHeadroom({ canvas, hash = '', onProgress } = {}) {
  if (!(canvas instanceof HTMLCanvasElement)) throw new TypeError('createHeadroom needs { canvas: <canvas> }');
  const missing = missingFeature();
  if (missing) throw new Error(missing);
  const [create, bytes] = await Promise.all([loadFactory(), loadWasm(onProgress)]);
  let firstFrame;
  const drawn = new Promise((resolve) => { firstFrame = resolve; });
  const mod = await create({
    canvas,
    wasmBinary: bytes,
    onHeadroomFirstFrame: () => firstFrame(),
    print: (t) => console.log(t),
    printErr: (t) => console.error(t),
  });
  await drawn;

  const cstr = (text, fn) => {
    const n = mod.lengthBytesUTF8(text) + 1;
    const p = mod._malloc(n);
    mod.stringToUTF8(text, p, n);
    try { return fn(p); } finally { mod._free(p); }
  };
  const getState = () => {
    const s = JSON.parse(mod.UTF8ToString(mod._headroom_state_json()));
    s.frames = mod._headroom_frame_count();
    s.uiWantsWheel = mod._headroom_ui_wants_wheel() === 1;
    return s;
  };
  const reject = (why) => { cstr(why, (p) => mod._headroom_reject(p)); return getState(); };
  const isInt32 = (n) => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
  const instance = {
    canvas,
    getState,
    setHeads: (n) => (isInt32(n) ? (mod._headroom_set_heads(n), getState()) : reject(`heads must be a whole number (1, 2, 4 or 8), not ${String(n)}`)),
    selectToken: (i) => (isInt32(i) ? (mod._headroom_select_token(i), getState()) : reject(`a token index must be a whole number, not ${String(i)}`)),
    setFocus: (f) => (typeof f === 'number' && Number.isFinite(f) ? (mod._headroom_set_focus(f), getState()) : reject(`focus must be a number from 0 to 1, not ${String(f)}`)),
    setSentence: (t) => (typeof t === 'string' && !t.isWellFormed() ? reject('the sentence contains a lone surrogate (half of a UTF-16 pair), which is not text') : typeof t === 'string' ? (cstr(t, (p) => mod._headroom_set_sentence(p)), getState()) : reject('setSentence needs a string')),
    applyHash: (h) => (typeof h === 'string' && !h.isWellFormed() ? reject('the link contains a lone surrogate (half of a UTF-16 pair), which is not text') : typeof h === 'string' ? (cstr(h, (p) => mod._headroom_apply_hash(p)), getState()) : reject('a URL hash must be a string')),
    hash: () => mod.UTF8ToString(mod._headroom_hash()),
    // Stops drawing for good (the wasm memory goes when the instance is dropped).
    destroy: () => mod._headroom_set_paused(1),
  };
  if (hash) instance.applyHash(hash);
  return Object.freeze(instance);
}
