// fit.mjs: what the page's fit probe (headroom.debug.fit(), src/ui/fit_probe.cpp)
// says is wrong with a frame, shared by the suites that check the fit
// (course_hosts.test.mjs, lang.test.mjs).
//
// Does: turn one debug.fit() result into readable complaints: text cut
// (sideways always; any cut when `noScroll`), a window whose content is wider
// than its room, and (when `noScroll`) a window that scrolls.
// Does not: load pages or decide which views must fit (the suites do).
export function misfits(fit, { noScroll }) {
  const bad = [];
  if (!fit.drawn) return ['nothing drawn'];
  for (const c of fit.clipped) {
    if (c.axis.includes('x') || noScroll) bad.push(`text cut (${c.axis}): "${c.text}"`);
  }
  for (const w of fit.windows) {
    if (w.content[0] > w.room[0] + 1) bad.push(`${w.name}: content ${w.content[0]} px wide in ${w.room[0]}`);
    if (noScroll && (w.scrollMax[1] > 0 || w.scrollbar[0] || w.scrollbar[1])) bad.push(`${w.name}: scrolls (${w.scrollMax[1]} px)`);
  }
  return bad;
}
