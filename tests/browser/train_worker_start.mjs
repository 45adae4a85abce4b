// train_worker_start.mjs: starts the training program's Worker inside a page
// the way a sandboxed frame must (a blob URL of the fetched scripts), for
// train_worker.test.mjs and the page-load bench (tests/bench/page_load.mjs).
// page.evaluate(startWorker) resolves to {totalMs, workerMs} and leaves
// window.__trainWorker = {worker, posts, call(verb, ...args) -> Promise}.
//
// (A function page.evaluate serialises: it uses nothing outside itself.)
export function startWorker() {
  return (async () => {
    const t0 = performance.now();
    const [glue, driver] = await Promise.all(['headroom-train.js', 'headroom-train-worker.js']
      .map((f) => fetch(new URL(f, location.href)).then((r) => r.text())));
    const worker = new Worker(URL.createObjectURL(new Blob([glue, '\n', driver], { type: 'text/javascript' })));
    const pending = new Map();
    const posts = [];
    let nextId = 1;
    const started = new Promise((resolve, reject) => {
      worker.onmessage = (e) => {
        const m = e.data;
        if (m.type === 'started') resolve(m.ms);
        else if (m.type === 'failed') reject(new Error(m.message));
        else if (m.type === 'state') {
          posts.push({ t: performance.now(), step: m.state.step, loss: m.state.runs.map((r) => r.loss) });
          if (m.id && pending.has(m.id)) { pending.get(m.id)(m); pending.delete(m.id); }
        }
      };
      worker.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
    });
    worker.postMessage({ type: 'init', wasmUrl: new URL('headroom-train.wasm', location.href).href });
    const workerMs = await started;
    window.__trainWorker = {
      worker, posts,
      call: (verb, ...args) => new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        worker.postMessage({ id, verb, args });
      }),
    };
    return { totalMs: performance.now() - t0, workerMs };
  })();
}

