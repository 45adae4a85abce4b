// harness.mjs: the tiny test harness every browser suite shares (each runs
// through suite_main.mjs, which launches the browser and serves the site).
//
// Does: `test(name, fn, options)` prints "ok"/"FAIL" per test, with its
// seconds; a case that times something on the wall clock says so
// (options.clock, or the CLOCK constant), and HEADROOM_CASES=clock runs those
// cases alone, HEADROOM_CASES=rest the others (unset: all), so CTest can run a
// suite's clock cases after every other browser suite and the rest with them
// (tests/browser/CMakeLists.txt, `split`; options.always: in both);
// `finish(main, ms)` runs
// the suite under a time limit and ends with "N passed, N failed" (what
// build.sh counts), exiting non-zero on any failure. CHROMIUM_ARGS are the
// flags from shared/TOOLCHAIN.md (WebGL2 through SwiftShader, no network).
// Does not: launch the browser or serve files (suite_main.mjs does).
// The suites run Debian's chromium-headless-shell: Chromium's own engine
// without the browser's window, tab strip and omnibox, which the full
// browser builds for every page, headless or not. A new page cost 0.23 CPU-s
// there against 0.95 in /usr/bin/chromium, and the embed suite 69.6 CPU-s
// against 101.8 (/proc/stat around one run each, 2-core AMD EPYC, idle).
// The benches keep the browser a student runs (CHROMIUM_BROWSER).
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium-headless-shell';
export const CHROMIUM_BROWSER = process.env.CHROMIUM_BROWSER || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic',
];

const results = [];
const CASES = process.env.HEADROOM_CASES || 'all';
if (!['all', 'clock', 'rest'].includes(CASES)) throw new Error(`HEADROOM_CASES=${CASES}: expected clock, rest or nothing`);
export const CLOCK = { clock: true };

// Each line ends with the test's time in seconds, so a slow test is found
// from the log. A case the HEADROOM_CASES selection leaves out is not run
// and not counted.
export async function test(name, fn, { clock = false, always = false } = {}) {
  if (!always && ((CASES === 'clock' && !clock) || (CASES === 'rest' && clock))) return;
  const t0 = performance.now();
  const took = () => `(${((performance.now() - t0) / 1000).toFixed(1)} s)`;
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok    ${name} ${took()}`);
  } catch (err) {
    results.push({ name, ok: false });
    console.log(`FAIL  ${name} ${took()}\n      ${String(err && err.stack || err).split('\n').join('\n      ')}`);
  }
}

export function assert(cond, message) { if (!cond) throw new Error(message); }

export async function finish(main, timeoutMs) {
  const count = () => results.filter((r) => r.ok).length;
  const timer = setTimeout(() => {
    console.log(`FAIL  the suite took longer than ${timeoutMs / 1000} s`);
    console.log(`${count()} passed, ${results.length - count() + 1} failed`);
    process.exit(1);
  }, timeoutMs);
  try {
    await main();
  } catch (err) {
    results.push({ name: 'setup', ok: false });
    console.log(`FAIL  setup\n      ${err && err.stack || err}`);
  }
  clearTimeout(timer);
  const failed = results.length - count();
  console.log(`${count()} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
