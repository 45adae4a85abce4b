// headroom-train-link.mjs: the page's side of training in a Worker, the link
// between the page's wasm (its app mirrors the runs) and the training program
// (headroom-train.mjs) running in a Worker, with its supervisor.
//
//   const link = createTrainLink(w, canvas, { base, withCString, withBytes, offerFile, trainState });
//   link.send(verb, a, b, c, d);        // Module.headroomTrainSend hands verbs here
//   await link.answered(link.sent);     // a verb's Promise: the program has answered it
//
// Does: start the program on the first verb, queue verbs until it answers,
// feed its posts (src/app/wire/train_wire.h bytes) into the app's mirror,
// watch it (ping when quiet, restart when dead, on the main thread after
// kRestarts), hold it while the page is hidden or out of view.
// Does not: validate verbs (headroom.mjs's VERBS did), draw, or compute
// anything (the program and the app do); it takes the few helpers it needs
// from headroom.mjs as arguments, so the two modules do not import each other.
//
// The page's app trains nowhere itself (its wasm holds no trainer: src/app/
// training/live_training.h "Where it trains"): its verbs come out through
// Module.headroomTrainSend(verb, a, b, c, d) and are handed to the program,
// in order; the program's posts (bytes: src/app/train_wire.h) go into the
// app's mirror, which every view and train.state() read. "start" (the first
// use of training) loads headroom-train.mjs and starts the program in a
// Worker; until it answers, verbs wait here. Where no Worker starts (a CSP
// without worker-src blob:), the same program runs on the main thread
// between the page's frames (headroom-train.mjs), the same curves bit for
// bit, and train.state().where says why. Where it cannot start at all (its
// files not fetched), the waiting verbs are dropped, train.state().notice
// says why, and the next use of training tries again. A Worker that fails
// (its error event) or falls silent, playing or paused, is restarted: the
// app resets the runs (they died with it) and says so in
// train.state().notice; after kRestarts failed restarts the program runs on
// the main thread. Silent: nothing heard for kQuietMs, then a ping (a message
// the driver answers with a word, no state, no training) not answered in
// kSilentMs; so a Worker killed while paused is noticed within about
// kQuietMs + kSilentMs, not at the next play. A Worker busy with a long
// step(n) posts a heartbeat about every 500 ms (headroom-train-worker.js),
// so it is not taken for dead. Held (the page hidden or out
// of view), nothing is pinged: the Worker then costs no CPU at all. Each
// train verb's Promise resolves once the program has answered it (answered()).
// How many Workers train the roles runs (headroom-train.mjs "parts"): one
// per run (three: 1, 2 and 4 heads) where the machine has a core for each
// beside the page's own thread, which draws (and, with software GL,
// rasterises) what they report: navigator.hardwareConcurrency - 1 of them,
// at most 3; one Worker interleaving the runs step by step where it has two
// cores or fewer. globalThis.headroomTrainParts (1 to 3), set before
// training is first used, overrides the choice (tests and benches compare
// the counts on one machine); not part of the API.
export function trainParts() {
  const asked = Number(globalThis.headroomTrainParts);
  if (Number.isInteger(asked) && asked >= 1 && asked <= 3) return asked;
  const cores = Number(globalThis.navigator && navigator.hardwareConcurrency) || 1;
  return Math.max(1, Math.min(3, cores - 1));
}

const kRestarts = 2;
const kQuietMs = 1500;
const kSilentMs = 4000;
const kCheckEveryMs = 500;

// The link's state, which every function below takes as `s`: the page's
// wasm (w) and the helpers createTrainLink was given, then what the link knows.
function linkState(w, canvas, { base, withCString, withBytes, offerFile, trainState }) {
  return {
    w, canvas, base, withCString, withBytes, offerFile, trainState,
    program: null,    // startTraining's handle, once started
    starting: false, restarts: 0, held: false,
    mainThread: '',   // why the program runs on the main thread from now on ('' : a Worker)
    sent: 0, answered: 0, lastHeard: 0, pinged: 0, lastCheck: 0, pings: 0,
    queue: [],        // [seq, verb, args] waiting for a program
    waiters: [],      // [seq, resolve]
    watchdog: 0,
  };
}

const call = (s, fn, text) => s.withCString(s.w, text, fn);
function settle(s, seq) {
  s.answered = Math.max(s.answered, seq);
  const due = s.waiters.filter(([q]) => q <= s.answered);  // in the order they were asked
  for (const wt of due) s.waiters.splice(s.waiters.indexOf(wt), 1);
  for (const [, resolve] of due) resolve();
}
const take = (s, buf, part = 0, parts = 1) =>
  s.withBytes(s.w, buf, (p, n) => s.w._headroom_train_take_part_wire(p, n, part, parts));
const heard = (s) => { s.lastHeard = performance.now(); s.pinged = 0; };
const onPost = (s, m) => {
  if (m.weights) take(s, m.weights);
  if (m.wire) take(s, m.wire, m.part, m.parts);  // a team's Worker: its share of the runs
};
// The program's snapshot of a run, as the file a download saves.
function saveSnapshot(s, text) {
  const snap = JSON.parse(text);
  const task = snap.task === 'text' ? `text${snap.layers}l` : `r${snap.r}`;
  const name = `headroom-snapshot-h${snap.heads}-seed${snap.seed}-${task}-step${snap.step}.json`;
  s.offerFile(s.canvas, { view: 'train', format: 'snapshot', name, text }).catch((e) => console.error(e));
}
// The app's command as the driver takes it (headroom-train-worker.js).
const driverArgs = (verb, a) => (verb === 'reset' ? [a[0], a[1], a[2], a[3] === 1]
  : verb === 'text' || verb === 'knockout' ? [a[0], a[1], a[2]]
  : verb === 'weights' ? [a[0], a[1] === 1] : verb === 'hold' ? [a[0] === 1] : [a[0]]);
function deliver(s, seq, verb, args) {
  const driverVerb = verb === 'download' ? 'snapshot' : verb;
  const args_ = verb === 'download' ? [args[0], false] : driverArgs(verb, args);
  s.program.call(driverVerb, ...args_).then(({ message }) => {
    if (verb === 'download' && message.snapshot) saveSnapshot(s, message.snapshot);
    settle(s, seq);
  });
}
const flush = (s) => { while (s.program && s.queue.length) deliver(s, ...s.queue.shift()); };

async function start(s) {
  if (s.starting || s.program) return;
  s.starting = true;
  try {
    const { startTraining } = await import('./headroom-train.mjs');
    s.program = await startTraining({ base: s.base, wire: true, fallback: true, mainThread: s.mainThread,
      parts: trainParts(), onState: (_state, m) => onPost(s, m), onError: (why) => died(s, why), onHeard: () => heard(s) });
  } catch (e) {
    s.starting = false;
    unavailable(s, e && e.message ? e.message : String(e));
    return;
  }
  s.starting = false;
  s.lastHeard = performance.now();
  call(s, (p) => s.w._headroom_train_where(p), s.program.where);
  flush(s);
  clearInterval(s.watchdog);
  s.watchdog = setInterval(() => check(s), kCheckEveryMs);
}

// A program not heard from for kQuietMs is pinged; the ping unanswered
// for kSilentMs, it is dead. A playing program posts 30 times a second,
// so it is pinged only when something is wrong; a paused one about every
// kQuietMs (a message each way, nothing drawn, nothing trained).
function check(s) {
  const now = performance.now(), late = now - s.lastCheck > 2 * kCheckEveryMs;
  s.lastCheck = now;
  if (!s.program || s.held) return;
  // This thread itself was busy (or its timers throttled): an answer may be
  // waiting behind this call, so the ping's clock starts again.
  if (late && s.pinged) s.pinged = now;
  if (s.pinged) {
    if (now - s.pinged >= kSilentMs) died(s, 'it stopped answering');
    return;
  }
  if (now - s.lastHeard < kQuietMs) return;
  s.pinged = now;
  ++s.pings;
  s.program.call('ping');  // its answer, like every post, goes through onHeard
}

// The program could not start anywhere: the verbs waiting for it are
// answered (nothing ran), the app says why, and its next use sends "start" again.
function unavailable(s, why) {
  s.queue.length = 0;
  settle(s, s.sent);
  call(s, (p) => s.w._headroom_train_unavailable(p), String(why).replaceAll('\u001f', '?'));
}

function died(s, why) {
  clearInterval(s.watchdog);
  if (s.program) { s.program.stop(); s.program = null; }
  s.queue.length = 0;  // the runs they were for are gone
  settle(s, s.sent);
  if (++s.restarts > kRestarts && !s.mainThread) s.mainThread = `the training Worker stopped ${s.restarts} times (last: ${why})`;
  // The app resets the runs (and plays again if they were playing): queued for the new program.
  // The notice is the app's (app/lang/refusals.h js_worker_restarted), worded in the language shown.
  call(s, (p) => s.w._headroom_train_restarted(p), String(why).replaceAll('\u001f', '?'));
  start(s);
}

function sendVerb(s, verb, a, b, c, d) {
  if (verb === 'start') { start(s); return; }
  if (verb === 'hold') {
    s.held = a === 1;
    s.pinged = 0;  // a ping out when the hold began is not waited for
    s.lastHeard = performance.now();
  }
  s.queue.push([++s.sent, verb, [a, b, c, d]]);
  flush(s);
}

export function createTrainLink(w, canvas, helpers) {
  const s = linkState(w, canvas, helpers);
  return {
    send(verb, a, b, c, d) { sendVerb(s, verb, a, b, c, d); },
    get sent() { return s.sent; },
    get where() { return s.program ? s.program.where : 'starting'; },
    // Resolves once every verb sent up to number `seq` has been answered.
    answered: (seq) => (seq <= s.answered ? Promise.resolve() : new Promise((resolve) => s.waiters.push([seq, resolve]))),
    // train.snapshot from the program: {text} (its JSON), {error} (why not),
    // or null when no program is there to ask (it could not start).
    async snapshot(heads, tied) {
      w._headroom_train_state_json();  // the first use starts the program (a reset is sent)
      await this.answered(s.sent);
      if (!s.program) return null;
      const { ok, message } = await s.program.call('snapshot', heads, tied);
      return ok ? { text: message.snapshot }
        : { error: message.error || `no training run has ${heads} heads`, refusal: message.refusal };
    },
    // Not part of the API: ends the Worker as a crash would (tests).
    kill: () => { if (s.program) s.program.stop(); },
    restarts: () => s.restarts,
    pings: () => s.pings,  // heartbeats sent (tests)
    pending: () => s.sent - s.answered,  // verbs not answered yet
  };
}
