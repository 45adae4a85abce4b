// train_worker_start.mjs: starts the training program in a page through
// web/headroom-train.mjs (a Worker from a blob URL of the fetched scripts,
// or the main thread where no Worker starts), for train_worker.test.mjs and
// the page-load bench (tests/bench/page_load.mjs).
// page.evaluate(startWorker) resolves to {totalMs, workerMs, where} and leaves
// window.__trainWorker = {posts, call(verb, ...args) -> Promise<{ok, state}>, stop}.
// (A function page.evaluate serialises: it uses nothing outside itself.)
export function startWorker() {
  return (async () => {
    const t0 = performance.now();
    const { startTraining } = await import(new URL('headroom-train.mjs', location.href).href);
    const posts = [];
    const t = await startTraining({
      onState: (s) => posts.push({ t: performance.now(), posted: s.postedMs, step: s.step, loss: s.runs.map((r) => r.loss) }),
    });
    window.__trainWorker = { posts, call: t.call, stop: t.stop, where: t.where };
    return { totalMs: performance.now() - t0, workerMs: t.startMs, where: t.where };
  })();
}
