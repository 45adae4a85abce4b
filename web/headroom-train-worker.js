// headroom-train-worker.js: the driver of the training program
// (headroom-train.js + headroom-train.wasm: src/platform/train/train_api.cpp)
// inside a dedicated Worker.
//
// How it is started (web/headroom-train.mjs; TOOLCHAIN.md "Workers in
// sandboxed and CSP pages"): the page fetches headroom-train.js and this file
// (CORS), and starts
//   new Worker(URL.createObjectURL(new Blob([trainJs, '\n', thisFile])))
// so a sandboxed frame (opaque origin) gets the Worker too; then it posts
//   {type: 'init', wasmUrl}                  the absolute URL of headroom-train.wasm
// and the Worker answers {type: 'started', ms} (fetch + compile + start, ms)
// or {type: 'failed', message}. With {type: 'init', wasmUrl, wire: true} (the
// pages) every state post carries `wire` instead of `state`: the state as
// bytes (src/app/train_wire.h, an ArrayBuffer handed over, not copied), which
// the page's wasm reads into its mirror of the runs.
// Verbs, each answered once with {type: 'state', id, ok, state}:
//   {id, verb: 'reset', args: [seed, r, lr, tieQK]}   every run afresh; tieQK
//                                            (optional, true or false): tied runs
//                                            beside the untied ones (default: as before)
//   {id, verb: 'text', args: [layers, seed, lr]}  the text task's runs afresh; the
//                                            first time, the corpus (corpusUrl of init,
//                                            default brown.bin beside the wasm) is fetched
//                                            here first; a fetch that fails or bytes that
//                                            are not the corpus: refused, saying why
//   {id, verb: 'step', args: [n]}              n steps of every run (a long one posts
//                                            {type: 'pong'} about every 500 ms meanwhile)
//   {id, verb: 'play'} / {id, verb: 'pause'}   train continuously / stop
//   {id, verb: 'state'}                        the state as it is
//   {id, verb: 'ping'}                         answered {type: 'pong', id} and nothing
//                                            else (the page's heartbeat: it costs no state)
//   {id, verb: 'lr', args: [rate]}             the learning rate from the next step
//   {id, verb: 'hold', args: [true|false]}     train nothing while held (the page is
//                                            hidden or out of view), playing or not
//   {id, verb: 'weights', args: [heads, tied]} from now on, posts carry `weights`
//                                            (bytes, train_wire.h) of that run: at once,
//                                            then when its step moved, at most every
//                                            250 ms; heads 0 stops them. The text task
//                                            answers with its model (text weights:
//                                            vocabulary, embeddings, layers; no tied runs)
//   {id, verb: 'knockout', args: [heads, layer, head]}  the text run with `heads`
//                                            heads measured without that head (layer and
//                                            head from 1); the state carries it (knockout),
//                                            or ok false and the state's error says why
//   {id, verb: 'snapshot', args: [heads, tied]} answered with `snapshot` (its JSON
//                                            text), or ok false, `error` (why not, in
//                                            English) and `refusal` (the same as status
//                                            bytes, train_wire.h: the page words it)
// While playing it trains in slices of about 30 ms (whole steps, no frame
// budget), reads messages between slices, and posts {type: 'state', state}
// at most every 33 ms (about 30 a second) and when it stops. `state` is the
// program's train.state() JSON, parsed, with stepsPerSecond measured here
// over the last second of play (0 while paused) and postedMs (this driver's
// performance.now() when it posted); every field the program
// writes passes through unchanged.
// Does not: draw, touch the page, or train while paused (nothing runs
// between messages then).
/* global createHeadroomTrainModule */
'use strict';

// headroomTrainDriver(scope, sliceMs): installs the driver on `scope` (its
// onmessage; it answers through scope.postMessage). In a Worker it runs at
// once on `self`; loaded by a <script> on a page (the main-thread fallback,
// web/headroom-train.mjs) it only defines globalThis.headroomTrainDriver,
// which that module calls with a scope of its own and shorter slices.
function headroomTrainDriver(scope, sliceMs) {
  const SLICE_MS = sliceMs || 30;
  const POST_EVERY_MS = 33;
  let w = null;            // the program's module, once started
  let playing = false;
  let held = false;
  let wire = false;        // post bytes for the page's mirror rather than JSON
  let want = null;         // [heads, tied] of the weights the page shows
  let corpusUrl = null;    // brown.bin (init)
  let weightsStep = -1, weightsAt = -Infinity;
  const WEIGHTS_EVERY_MS = 250;
  const STEP_PIECE = 4, BEAT_MS = 500;  // step(n): steps per piece, heartbeat interval
  let lastPost = -Infinity;
  const rate = [];         // [time, steps] of the last second of play
  let queued = false;
  const channel = new MessageChannel();  // a yield that is not clamped like setTimeout

  const stepsPerSecond = () => {
    if (!playing || rate.length < 2) return 0;
    const span = (rate[rate.length - 1][0] - rate[0][0]) / 1000;
    let steps = 0;
    for (let i = 1; i < rate.length; ++i) steps += rate[i][1];
    return span > 0 ? steps / span : 0;
  };
  const state = () => {
    const s = JSON.parse(w.UTF8ToString(w._headroom_train_state_json()));
    s.running = playing;
    s.stepsPerSecond = stepsPerSecond();
    return s;
  };
  const bytes = (p) => w.HEAPU8.slice(p, p + w._headroom_train_wire_size()).buffer;
  const post = (extra, forceWeights) => {
    lastPost = performance.now();
    if (!wire) {
      const s = state();
      s.postedMs = lastPost;  // the driver's clock: when it posted, not when the page read it
      scope.postMessage({ type: 'state', state: s, ...extra });
      return;
    }
    const m = { type: 'state', postedMs: lastPost, ...extra };
    m.wire = bytes(w._headroom_train_state_wire(stepsPerSecond(), playing ? 1 : 0));
    if (want) {
      const step = w._headroom_train_step_count();
      // At a bounded rate while playing; at once when a verb moved them.
      if (forceWeights || (step !== weightsStep && (!playing || lastPost - weightsAt >= WEIGHTS_EVERY_MS))) {
        const p = w._headroom_train_weights_wire(want[0], want[1] ? 1 : 0);
        if (p) { m.weights = bytes(p); weightsStep = step; weightsAt = lastPost; }
      }
    }
    scope.postMessage(m, [m.wire, ...(m.weights ? [m.weights] : [])]);
  };

  function slice() {
    queued = false;
    if (!playing || held) return;
    const steps = w._headroom_train_for(SLICE_MS);
    const now = performance.now();
    rate.push([now, steps]);
    while (rate.length > 2 && now - rate[0][0] > 1000) rate.shift();
    if (steps === 0) playing = false;  // every run has diverged
    if (!playing || now - lastPost >= POST_EVERY_MS) post();
    if (playing && !held) { queued = true; channel.port2.postMessage(0); }
  }
  channel.port1.onmessage = slice;

  async function start(wasmUrl) {
    const t0 = performance.now();
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`${wasmUrl}: HTTP ${response.status}`);
    const module = await WebAssembly.compile(await response.arrayBuffer());
    w = await createHeadroomTrainModule({
      instantiateWasm: (imports, receive) => {
        WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module));
        return {};
      },
      print: (text) => console.log(text),
      printErr: (text) => console.error(text),
    });
    return performance.now() - t0;
  }

  // The corpus into the program, once: fetched, timed, handed over (a failure is recorded there).
  async function loadCorpus() {
    if (w._headroom_train_has_corpus() === 1) return;
    const t0 = performance.now();
    let bytes;
    try {
      const response = await fetch(corpusUrl);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (err) {
      const why = String(err && err.message || err);
      const p = w._malloc(why.length * 3 + 1);
      w.stringToUTF8(why, p, why.length * 3 + 1);
      w._headroom_train_corpus_failed(p);
      w._free(p);
      return;
    }
    const p = w._malloc(Math.max(1, bytes.length));
    w.HEAPU8.set(bytes, p);
    w._headroom_train_corpus(p, bytes.length, performance.now() - t0);
    w._free(p);
  }

  const VERBS = {
    // tie: -1 keep, 0 / 1, 2 = not a boolean (the program refuses it, saying why)
    reset: (seed, r, lr, tie) => {
      weightsStep = -1;  // new weights, even at the same step
      return w._headroom_train_reset(seed, r, lr,
        tie === undefined ? -1 : typeof tie !== 'boolean' ? 2 : tie ? 1 : 0) === 1;
    },
    text: async (layers, seed, lr) => {
      weightsStep = -1;
      if (typeof layers !== 'number' || typeof seed !== 'number' || typeof lr !== 'number') return false;
      await loadCorpus();
      return w._headroom_train_reset_text(layers, seed, lr) === 1;
    },
    // In pieces, with a heartbeat ({type: 'pong'}, no id) at most every
    // BEAT_MS between them: a long step(n) is work, not a dead Worker, to the
    // page's watchdog. Curves do not depend on the grouping of steps.
    step: (n) => {
      if (w._headroom_train_steps_ok(n) !== 1) return false;  // refused, saying why
      let beat = performance.now();
      for (let left = n; left > 0;) {
        const k = Math.min(left, STEP_PIECE);
        if (w._headroom_train_step(k) !== 1) return false;
        left -= k;
        if (left > 0 && performance.now() - beat >= BEAT_MS) { beat = performance.now(); scope.postMessage({ type: 'pong' }); }
      }
      return true;
    },
    play: () => {
      const ok = JSON.parse(w.UTF8ToString(w._headroom_train_state_json())).runs.some((run) => !run.diverged);
      if (ok && !playing) { playing = true; rate.length = 0; rate.push([performance.now(), 0]); }
      return ok;
    },
    pause: () => { playing = false; rate.length = 0; return true; },
    state: () => true,
    lr: (rate_) => w._headroom_train_set_lr(rate_) === 1,
    hold: (on) => {
      held = !!on;
      rate.length = 0;  // the rate starts a new window after a hold
      if (playing) rate.push([performance.now(), 0]);
      return true;
    },
    weights: (heads, tied) => {
      want = heads ? [heads, !!tied] : null;
      weightsStep = -1;
      return true;
    },
    knockout: (heads, layer, head) => w._headroom_train_knockout(heads, layer, head) === 1,
    snapshot: (heads, tied) => {
      const p = w._headroom_train_snapshot_json(heads, tied ? 1 : 0);
      return p ? { snapshot: w.UTF8ToString(p) }
        : { ok: false, error: JSON.parse(w.UTF8ToString(w._headroom_train_state_json())).error,
            refusal: bytes(w._headroom_train_refusal_wire()) };  // its code and arguments, for the page to word
    },
  };

  // One message at a time: a verb that waits (text's corpus fetch) holds the
  // ones after it, so they are answered in order.
  let busy = Promise.resolve();
  scope.onmessage = (e) => { busy = busy.then(() => handle(e)); };
  async function handle(e) {
    const m = e.data || {};
    if (m.type === 'init') {
      try {
        wire = !!m.wire;
        corpusUrl = m.corpusUrl || new URL('brown.bin', m.wasmUrl).href;
        scope.postMessage({ type: 'started', ms: await start(m.wasmUrl) });
      } catch (err) {
        scope.postMessage({ type: 'failed', message: String(err && err.message || err) });
      }
      return;
    }
    if (!w) { scope.postMessage({ type: 'failed', id: m.id, message: 'the training program has not started' }); return; }
    if (m.verb === 'ping') { scope.postMessage({ type: 'pong', id: m.id }); return; }
    const verb = VERBS[m.verb];
    const out = verb ? await verb(...(Array.isArray(m.args) ? m.args : [])) : false;
    const extra = typeof out === 'object' && out ? { id: m.id, ok: true, ...out } : { id: m.id, ok: out };
    post(extra, m.verb === 'weights');
    if (playing && !held && !queued) { queued = true; channel.port2.postMessage(0); }
  }
}

if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) headroomTrainDriver(self);
else globalThis.headroomTrainDriver = headroomTrainDriver;
