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
//   {id, verb: 'share', args: [part, parts]}  this program trains only its share of
//                                            the runs (engine/train/trainer.h "Shares"),
//                                            from a fresh start; headroom-train.mjs's team
//                                            of Workers sends it first, then
//   {type: 'peers'} with a MessagePort         one per other Worker of the team: each
//                                            slice of play ends by posting this program's
//                                            step there, and play never runs more than
//                                            LEAD steps past the slowest peer's step (so
//                                            the runs stay side by side); wire posts then
//                                            also carry `step`
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

// The driver's parts, each taking the driver's state `d` (driverState). They
// live in this block so that, loaded by a <script> on a page, the file adds
// nothing to the page's globals but globalThis.headroomTrainDriver.
{
  const POST_EVERY_MS = 33;
  const WEIGHTS_EVERY_MS = 250;
  const STEP_PIECE = 4, BEAT_MS = 500;  // step(n): steps per piece, heartbeat interval
  const LEAD = 4;  // steps play may run ahead of the slowest peer of a team

  function driverState(scope, sliceMs) {
    return {
      scope,
      sliceMs: sliceMs || 30,
      w: null,            // the program's module, once started
      playing: false,
      held: false,
      wire: false,        // post bytes for the page's mirror rather than JSON
      want: null,         // [heads, tied] of the weights the page shows
      corpusUrl: null,    // brown.bin (init)
      weightsStep: -1, weightsAt: -Infinity,
      lastPost: -Infinity,
      rate: [],           // [time, steps] of the last second of play
      queued: false,
      channel: new MessageChannel(),  // a yield that is not clamped like setTimeout
      peers: [],          // [port, its last step] per other Worker of a team
      waiting: false,     // play stands until a peer catches up
      solo: false,        // the text task: trained here alone, whatever the peers do
    };
  }

  function stepsPerSecond(d) {
    const rate = d.rate;
    if (!d.playing || rate.length < 2) return 0;
    const span = (rate[rate.length - 1][0] - rate[0][0]) / 1000;
    let steps = 0;
    for (let i = 1; i < rate.length; ++i) steps += rate[i][1];
    return span > 0 ? steps / span : 0;
  }
  const programState = (d) => JSON.parse(d.w.UTF8ToString(d.w._headroom_train_state_json()));
  const wireBytes = (d, p) => d.w.HEAPU8.slice(p, p + d.w._headroom_train_wire_size()).buffer;

  function post(d, extra, forceWeights) {
    d.lastPost = performance.now();
    if (d.wire) { postWire(d, extra, forceWeights); return; }
    const s = programState(d);
    s.running = d.playing;
    s.stepsPerSecond = stepsPerSecond(d);
    s.postedMs = d.lastPost;  // the driver's clock: when it posted, not when the page read it
    d.scope.postMessage({ type: 'state', state: s, ...extra });
  }
  function postWire(d, extra, forceWeights) {
    const w = d.w;
    const m = { type: 'state', postedMs: d.lastPost, step: w._headroom_train_step_count(), ...extra };
    m.wire = wireBytes(d, w._headroom_train_state_wire(stepsPerSecond(d), d.playing ? 1 : 0));
    if (d.want) {
      const step = w._headroom_train_step_count();
      // At a bounded rate while playing; at once when a verb moved them.
      if (forceWeights || (step !== d.weightsStep && (!d.playing || d.lastPost - d.weightsAt >= WEIGHTS_EVERY_MS))) {
        const p = w._headroom_train_weights_wire(d.want[0], d.want[1] ? 1 : 0);
        if (p) { m.weights = wireBytes(d, p); d.weightsStep = step; d.weightsAt = d.lastPost; }
      }
    }
    d.scope.postMessage(m, [m.wire, ...(m.weights ? [m.weights] : [])]);
  }

  // The next slice of play, after the messages waiting now.
  function queueSlice(d) {
    if (d.playing && !d.held && !d.queued) { d.queued = true; d.channel.port2.postMessage(0); }
  }
  // The step play may not pass: LEAD past the slowest peer's (-1: no peers, no bound).
  // The text task trains in the team's first Worker alone (d.solo): no bound.
  const bound = (d) => (d.peers.length && !d.solo ? Math.min(...d.peers.map((p) => p[1])) + LEAD : -1);
  function tellPeers(d) {
    const step = d.w._headroom_train_step_count();
    for (const p of d.peers) p[0].postMessage(step);
  }
  function slice(d) {
    d.queued = false;
    if (!d.playing || d.held) return;
    const until = bound(d);
    d.waiting = until >= 0 && d.w._headroom_train_step_count() >= until;
    if (d.waiting) return;  // a peer's step wakes it
    const steps = d.w._headroom_train_for(d.sliceMs, until);
    const now = performance.now();
    d.rate.push([now, steps]);
    while (d.rate.length > 2 && now - d.rate[0][0] > 1000) d.rate.shift();
    if (steps === 0) d.playing = false;  // every run has diverged (the bound was checked above)
    tellPeers(d);
    if (!d.playing || now - d.lastPost >= POST_EVERY_MS) post(d);
    queueSlice(d);
  }
  function addPeer(d, port) {
    const peer = [port, 0];
    d.peers.push(peer);
    port.onmessage = (e) => {
      peer[1] = e.data;
      if (d.waiting) { d.waiting = false; queueSlice(d); }
    };
  }

  async function start(d, wasmUrl) {
    const t0 = performance.now();
    const response = await fetch(wasmUrl);
    if (!response.ok) throw new Error(`${wasmUrl}: HTTP ${response.status}`);
    const module = await WebAssembly.compile(await response.arrayBuffer());
    d.w = await createHeadroomTrainModule({
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
  async function loadCorpus(d) {
    const w = d.w;
    if (w._headroom_train_has_corpus() === 1) return;
    const t0 = performance.now();
    let bytes;
    try {
      const response = await fetch(d.corpusUrl);
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

  // step(n) in pieces, with a heartbeat ({type: 'pong'}, no id) at most every
  // BEAT_MS between them: a long step(n) is work, not a dead Worker, to the
  // page's watchdog. Curves do not depend on the grouping of steps.
  function stepInPieces(d, n) {
    const w = d.w;
    if (w._headroom_train_steps_ok(n) !== 1) return false;  // refused, saying why
    let beat = performance.now();
    for (let left = n; left > 0;) {
      const k = Math.min(left, STEP_PIECE);
      if (w._headroom_train_step(k) !== 1) return false;
      left -= k;
      if (left > 0 && performance.now() - beat >= BEAT_MS) { beat = performance.now(); d.scope.postMessage({ type: 'pong' }); }
    }
    return true;
  }

  function snapshot(d, heads, tied) {
    const w = d.w;
    const p = w._headroom_train_snapshot_json(heads, tied ? 1 : 0);
    return p ? { snapshot: w.UTF8ToString(p) }
      : { ok: false, error: programState(d).error,
          refusal: wireBytes(d, w._headroom_train_refusal_wire()) };  // its code and arguments, for the page to word
  }

  // The verbs, each answered with what it returns: true / false (ok), or an
  // object of fields for the answer.
  function driverVerbs(d) {
    return {
      // tie: -1 keep, 0 / 1, 2 = not a boolean (the program refuses it, saying why)
      reset: (seed, r, lr, tie) => {
        d.weightsStep = -1;  // new weights, even at the same step
        const ok = d.w._headroom_train_reset(seed, r, lr,
          tie === undefined ? -1 : typeof tie !== 'boolean' ? 2 : tie ? 1 : 0) === 1;
        if (ok) d.solo = false;
        return ok;
      },
      text: async (layers, seed, lr) => {
        d.weightsStep = -1;
        if (typeof layers !== 'number' || typeof seed !== 'number' || typeof lr !== 'number') return false;
        await loadCorpus(d);
        const ok = d.w._headroom_train_reset_text(layers, seed, lr) === 1;
        if (ok) d.solo = true;
        return ok;
      },
      step: (n) => stepInPieces(d, n),
      play: () => {
        const ok = programState(d).runs.some((run) => !run.diverged);
        if (ok && !d.playing) { d.playing = true; d.rate.length = 0; d.rate.push([performance.now(), 0]); }
        return ok;
      },
      pause: () => { d.playing = false; d.rate.length = 0; return true; },
      state: () => true,
      lr: (rate_) => d.w._headroom_train_set_lr(rate_) === 1,
      hold: (on) => {
        d.held = !!on;
        d.rate.length = 0;  // the rate starts a new window after a hold
        if (d.playing) d.rate.push([performance.now(), 0]);
        return true;
      },
      weights: (heads, tied) => {
        d.want = heads ? [heads, !!tied] : null;
        d.weightsStep = -1;
        return true;
      },
      knockout: (heads, layer, head) => d.w._headroom_train_knockout(heads, layer, head) === 1,
      snapshot: (heads, tied) => snapshot(d, heads, tied),
      share: (part, parts) => d.w._headroom_train_share(part, parts) === 1,
    };
  }

  async function init(d, m) {
    try {
      d.wire = !!m.wire;
      d.corpusUrl = m.corpusUrl || new URL('brown.bin', m.wasmUrl).href;
      d.scope.postMessage({ type: 'started', ms: await start(d, m.wasmUrl) });
    } catch (err) {
      d.scope.postMessage({ type: 'failed', message: String(err && err.message || err) });
    }
  }

  async function handle(d, verbs, e) {
    const m = e.data || {};
    if (m.type === 'init') { await init(d, m); return; }
    if (m.type === 'peers') { for (const port of e.ports) addPeer(d, port); return; }
    if (!d.w) {
      d.scope.postMessage({ type: 'failed', id: m.id, message: 'the training program has not started' });
      return;
    }
    if (m.verb === 'ping') { d.scope.postMessage({ type: 'pong', id: m.id }); return; }
    const verb = verbs[m.verb];
    const out = verb ? await verb(...(Array.isArray(m.args) ? m.args : [])) : false;
    const extra = typeof out === 'object' && out ? { id: m.id, ok: true, ...out } : { id: m.id, ok: out };
    post(d, extra, m.verb === 'weights');
    if (m.verb === 'step' || m.verb === 'reset' || m.verb === 'share') tellPeers(d);
    queueSlice(d);
  }

  // headroomTrainDriver(scope, sliceMs): installs the driver on `scope` (its
  // onmessage; it answers through scope.postMessage). In a Worker it runs at
  // once on `self`; loaded by a <script> on a page (the main-thread fallback,
  // web/headroom-train.mjs) it only defines globalThis.headroomTrainDriver,
  // which that module calls with a scope of its own and shorter slices.
  function headroomTrainDriver(scope, sliceMs) {
    const d = driverState(scope, sliceMs);
    d.channel.port1.onmessage = () => slice(d);
    const verbs = driverVerbs(d);
    // One message at a time: a verb that waits (text's corpus fetch) holds the
    // ones after it, so they are answered in order.
    let busy = Promise.resolve();
    scope.onmessage = (e) => { busy = busy.then(() => handle(d, verbs, e)); };
  }

  if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) headroomTrainDriver(self);
  else globalThis.headroomTrainDriver = headroomTrainDriver;
}
