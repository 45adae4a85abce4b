// fit.mjs: what the page's fit probe (headroom.debug.fit(), src/ui/fit_probe.cpp)
// says is wrong with a frame, shared by the suites that check the fit
// (course_hosts.test.mjs, lang.test.mjs, tour.test.mjs).
//
// Does: turn one debug.fit() result into readable complaints: text cut
// (sideways always; any cut when `noScroll`), a window whose content is wider
// than its room, and (when `noScroll`) a window that scrolls. Three windows
// scroll by design, and what they cut vertically is scrolled out of view: the
// tour's recap table, the concatenation under step 4's reveal and the text
// model's heads under step 8's (children
// under the panel's buttons, src/ui/view_tour_pictures.cpp), as a compact
// tab's view scrolls inside its panel.
// Does not: load pages or decide which views must fit (the suites do).
export const SCROLLS_BY_DESIGN = /##tour_(recap|concat|text_heads)/;

export function misfits(fit, { noScroll }) {
  const bad = [];
  if (!fit.drawn) return ['nothing drawn'];
  const scrollers = fit.windows.filter((w) => SCROLLS_BY_DESIGN.test(w.name));
  // cut by a scroller's clip rect (the text may lie wholly below it, scrolled out)
  const inScroller = (c) => scrollers.some((w) => c.clip[1] >= w.pos[1] - 1 && c.clip[3] <= w.pos[1] + w.size[1] + 1);
  for (const c of fit.clipped) {
    if (c.axis.includes('x') || (noScroll && !inScroller(c))) bad.push(`text cut (${c.axis}): "${c.text}"`);
  }
  for (const w of fit.windows) {
    if (w.content[0] > w.room[0] + 1) bad.push(`${w.name}: content ${w.content[0]} px wide in ${w.room[0]}`);
    const scrolls = w.scrollMax[1] > 0 || w.scrollbar[0] || w.scrollbar[1];
    if (noScroll && scrolls && !SCROLLS_BY_DESIGN.test(w.name)) bad.push(`${w.name}: scrolls (${w.scrollMax[1]} px)`);
  }
  return bad;
}
