// course_frame.mjs: a course page around a sandboxed Headroom frame, for the
// suites that drive training with postMessage (train_page_worker, train_text).
//
// Does: routeCourse(context, body) serves `body` as /course.html in that
// browser context and adds Access-Control-Allow-Origin: * to every other
// response (a sandbox="allow-scripts" frame has an opaque origin, so all
// its fetches are cross-origin); askFrame(host, msg) posts `msg` to the
// host page's iframe #f and resolves to the frame's reply with msg.id.
// Does not: open pages or wait for the frame to start (the suites do).
export async function routeCourse(context, body) {
  await context.route('**/*', async (route) => {
    if (route.request().url().endsWith('/course.html')) {
      await route.fulfill({ contentType: 'text/html', body });
      return;
    }
    const r = await route.fetch();
    await route.fulfill({ response: r, headers: { ...r.headers(), 'access-control-allow-origin': '*' } });
  });
}

export const askFrame = (host, msg) => host.evaluate((m) => new Promise((resolve) => {
  const f = document.getElementById('f');
  const on = (e) => { if (e.source === f.contentWindow && e.data && e.data.id === m.id) { removeEventListener('message', on); resolve(e.data); } };
  addEventListener('message', on);
  f.contentWindow.postMessage(m, '*');
}), msg);
