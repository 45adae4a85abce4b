// headroom-train.mjs: starts the training program (headroom-train.js +
// headroom-train.wasm with its driver headroom-train-worker.js) in a
// dedicated Worker, or on the main thread where no Worker can start, and says
// which in `where`.
//
//   import { startTraining } from './headroom-train.mjs';
//   const t = await startTraining({ onState: (state) => ... });
//   t.where;                        // "worker" or "main thread: <why>"
//   const { ok, state } = await t.call('step', 25);   // reset(seed, r, lr[, tieQK]), step(n), play, pause, state
//   await t.call('ping');           // resolves {ok: true, state: null} once the program answered
//   t.stop();
//
// Does: fetch headroom-train.js and the driver (CORS, so a sandboxed frame
// with an opaque origin gets them too) and start
// new Worker(blob URL of both), which works both same-origin and in a
// sandboxed frame (TOOLCHAIN.md); fall back to the main thread when that
// throws, when the Worker fires `error` instead (a Content-Security-Policy
// whose worker-src, or script-src without worker-src, does not allow blob:
// does that) or when it reports that it could not start its wasm. The
// fallback loads the same two scripts with <script> tags and runs the same
// driver in shorter slices, so curves are the same bit for bit. Every state
// the program posts, asked for or not, goes to onState; call() resolves to
// the answer to that call ({ok, state, message}: message is the driver's whole
// post, with `wire`, `weights` or `snapshot` where it has them).
// Options: wire (the driver posts bytes for the page's mirror, not JSON:
// headroom-train-worker.js), fallback (false: reject with the reason where
// no Worker starts, rather than run the program on this thread),
// mainThread (a reason: no Worker is tried, the program runs on this thread
// at once and `where` says "main thread: <reason>"; the pages' link asks
// for it after Workers kept failing), onError(message) (the Worker failed after
// it started: a crash, out of memory), onHeard(message) (every message the
// program posts, heartbeats included: a watchdog's sign of life).
// parts (with wire; default 1): how many Workers train the roles runs, each
// its share (engine/train/trainer.h "Shares": run i of the full list in
// Worker i % parts), side by side (the driver's peers: play never runs more
// than a few steps past the slowest Worker's step, and pause brings every
// Worker to the same step); call() then goes to every Worker and resolves
// once all have answered, with the first Worker's answer (a snapshot: the
// Worker that has the run); the text task trains in the first Worker alone,
// and while it does every call goes there. Each post reaches onState with
// `part` and `parts` added, for the page's mirror to merge (the curves are
// the same bit for bit however many Workers train them).
// Does not: draw, or wire itself into the page's views (headroom.mjs's
// headroom-train-link.mjs does, for the pages).

const here = new URL('.', import.meta.url);

const text = async (url) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url.pathname.split('/').pop()}: HTTP ${r.status}`);
  return r.text();
};

const loadScript = (url) => new Promise((resolve, reject) => {
  const s = document.createElement('script');
  s.src = url.href;
  s.onload = resolve;
  s.onerror = () => reject(new Error(`${url.pathname.split('/').pop()} could not be loaded`));
  document.head.appendChild(s);
});

// The program behind a port (a Worker, or the main-thread scope): call() and onState.
function connect(port, where, wasmUrl, onState, stop, wire = false, onError = () => {}, onHeard = () => {}) {
  const pending = new Map();
  let nextId = 1, started = false;
  return new Promise((resolve, reject) => {
    port.onmessage = (e) => {
      const m = e.data;
      onHeard(m);
      if (m.type === 'started') {
        started = true;
        resolve({
          where, startMs: m.ms, stop,
          call: (verb, ...args) => new Promise((done) => {
            const id = nextId++;
            pending.set(id, done);
            port.postMessage({ id, verb, args });
          }),
        });
      } else if (m.type === 'failed') {
        reject(new Error(m.message));
      } else if (m.type === 'pong') {  // a heartbeat (a ping's answer, or a long step's): no state
        if (pending.has(m.id)) { pending.get(m.id)({ ok: true, state: null, message: m }); pending.delete(m.id); }
      } else if (m.type === 'state') {
        onState(m.state, m);
        if (pending.has(m.id)) { pending.get(m.id)({ ok: m.ok, state: m.state, message: m }); pending.delete(m.id); }
      }
    };
    port.onerror = (e) => {
      if (e.preventDefault) e.preventDefault();
      if (started) { onError(e.message || 'the training Worker failed'); return; }
      reject(new Error('the browser did not start a Worker from a blob URL (a Content-Security-Policy ' +
                       'needs worker-src blob: for it)'));
    };
    port.postMessage({ type: 'init', wasmUrl, wire });
  });
}

// The first Worker's step after every Worker answered `answers` (the wire
// posts carry each Worker's step): the laggards step up to the leader's.
async function catchUp(programs, answers) {
  const steps = answers.map((a) => a.message.step);
  const top = Math.max(...steps);
  await Promise.all(programs.map((p, i) => (steps[i] < top ? p.call('step', top - steps[i]) : null)));
}

// Several Workers as one program (see "parts" above): `programs` started, `workers` theirs.
async function team(programs, workers) {
  const n = programs.length;
  for (let i = 0; i < n; ++i) {
    for (let j = i + 1; j < n; ++j) {
      const c = new MessageChannel();
      workers[i].postMessage({ type: 'peers' }, [c.port1]);
      workers[j].postMessage({ type: 'peers' }, [c.port2]);
    }
  }
  const shares = await Promise.all(programs.map((p, i) => p.call('share', i, n)));
  if (!shares.every((a) => a.ok)) throw new Error('a training Worker refused its share of the runs');
  let text = false;  // the text task trains in the first Worker alone
  const call = async (verb, ...args) => {
    const all = !text && verb !== 'text' && verb !== 'knockout' || verb === 'reset';
    const to = all ? programs : [programs[0]];
    const answers = await Promise.all(to.map((p) => p.call(verb, ...args)));
    if (verb === 'text' && answers[0].ok) text = true;
    if (verb === 'reset' && answers[0].ok) text = false;
    if (verb === 'pause' && all) await catchUp(to, answers);
    return verb === 'snapshot' ? answers.find((a) => a.ok) || answers[0] : answers[0];
  };
  return { where: programs[0].where, startMs: Math.max(...programs.map((p) => p.startMs)),
    stop: () => programs.forEach((p) => p.stop()), call, parts: n };
}

// `parts` Workers of the fetched scripts (a blob URL), started; one team of them when more than one.
async function startWorkers(blob, parts, wasmUrl, onState, wire, onError, onHeard) {
  const workers = [], starting = [];
  try {
    for (let i = 0; i < parts; ++i) {
      const worker = new Worker(blob);
      workers.push(worker);
      const post = parts === 1 ? onState : (state, m) => onState(state, { ...m, part: i, parts });
      starting.push(connect(worker, 'worker', wasmUrl, post, () => worker.terminate(), wire, onError, onHeard));
    }
    const programs = await Promise.all(starting);
    return parts === 1 ? programs[0] : await team(programs, workers);
  } catch (e) {
    for (const worker of workers) worker.terminate();
    throw e;
  }
}

export async function startTraining({ base = here, onState = () => {}, wire = false, fallback = true,
                                      mainThread = '', onError = () => {}, onHeard = () => {}, parts = 1 } = {}) {
  const glueUrl = new URL('headroom-train.js', base), driverUrl = new URL('headroom-train-worker.js', base);
  const wasmUrl = new URL('headroom-train.wasm', base).href;
  let why = mainThread;
  if (!why) {
    try {
      const [glue, driver] = await Promise.all([text(glueUrl), text(driverUrl)]);
      const blob = URL.createObjectURL(new Blob([glue, '\n', driver], { type: 'text/javascript' }));
      const n = wire ? Math.max(1, Math.min(3, Math.floor(Number(parts)) || 1)) : 1;
      try {
        return await startWorkers(blob, n, wasmUrl, onState, wire, onError, onHeard);
      } finally {
        URL.revokeObjectURL(blob);
      }
    } catch (e) {
      why = e && e.message ? e.message : String(e);
    }
  }
  if (!fallback && !mainThread) throw new Error(why);
  // The main thread: the same scripts, the same driver, a scope of our own.
  if (typeof globalThis.headroomTrainDriver !== 'function') {
    await loadScript(glueUrl);
    await loadScript(driverUrl);
  }
  const toPage = { onmessage: null }, scope = { onmessage: null };
  scope.postMessage = (m) => setTimeout(() => toPage.onmessage && toPage.onmessage({ data: m }));
  let stopped = false;
  toPage.postMessage = (m) => setTimeout(() => !stopped && scope.onmessage && scope.onmessage({ data: m }));
  globalThis.headroomTrainDriver(scope, 8);
  return connect(toPage, `main thread: ${why}`, wasmUrl, onState, () => {
    stopped = true;
    scope.onmessage({ data: { verb: 'pause' } });
  }, wire, onError, onHeard);
}
