// headroom-embed.mjs: the postMessage bridge of embed.html, for cross-origin
// host pages. A module script after headroom-loader.mjs (which defines
// window.headroom; module scripts run in document order).
//
// Out (to the parent, targetOrigin = the parent's origin, never '*'):
//   {type: 'headroom:ready', state}            once Headroom runs
//   {type: 'headroom:state', state, id?, error} after every change, and as the
//                                              reply to each message below
// In (from an allowed origin only):
//   {type: 'headroom:get', id?}
//   {type: 'headroom:set', id?, lang?, heads?, sentence?, query?, focus?, view?, theme?, tab?,
//                        weights?, knockout?, tieQK?}
//                        lang: 'en' | 'es' | 'fr' | 'de' | 'zh' (state.lang says which is shown;
//                        a language not yet fetched is fetched first, the fields after it
//                        applied and the reply sent once it is shown, or error says why not);
//                        weights: 'built' | 'trained' | 'text'; knockout: 0-based heads; tieQK: boolean
//   {type: 'headroom:train', id?, action: 'reset' | 'step' | 'play' | 'pause' | 'knockout',
//    task?, layers?, seed?, r?, lr? (reset), n? (step, default 1),
//    layer, head, heads? (knockout: a head of the text model, 1-based, as train.knockout)}
//     answered with {type: 'headroom:train-state', train: train.state(), error, id?}
//     and, for knockout, knockout: {heads, layer, head, lossBefore, lossAfter}
//     (null when refused: error says why)
//   {type: 'headroom:tour', id?, action: 'go' | 'predict' | 'reveal' | 'replay' | 'retry' | 'get',
//    step? (go, retry), answer? (predict)}
//     answered with {type: 'headroom:tour-state', tour: tour.state(), error, id?}
//   and, as they happen (from messages, the API or the learner's clicks):
//   {type: 'headroom:tour-event', event: 'entered' | 'predicted' | 'revealed',
//    step, stepId, predicted?, measured?, score?, statement? (revealed: xAPI-shaped)}
//   {type: 'headroom:export', id?, view, format}  format 'png' | 'csv' | 'json'
//     answered with {type: 'headroom:export', view, format, data, error, id?}:
//     data a PNG Blob or the text (null when refused: error says why)
//   and, from a frame that may drop downloads (sandboxed), each file a Save
//   menu or snapshot button saves: {type: 'headroom:export', view, format,
//   name, data} (format 'snapshot' for a training snapshot)
//   `error` in the reply is null, or why (part of) the message was refused;
//   a refused field keeps its previous value.
//
// Allowed origins: the embedding parent's origin (location.ancestorOrigins,
// else document.referrer), plus any listed in the query string
// (embed.html?allow=https://a.example,https://b.example). "null" (a
// sandboxed or file: host) is never allowed: such a host can only use the
// URL hash. Messages before Headroom is ready are queued (up to kMaxQueued)
// and answered once it is; if it fails to start they are answered with the
// error, until a Retry starts it ('headroom:started').
// Does not: eval anything, assign message fields into objects by their names
// (so "__proto__" keys are harmless), or reply to anyone but the sender.
const kMaxQueued = 1000;
const kTrainActions = ['reset', 'step', 'play', 'pause', 'knockout'];
const kTourActions = ['go', 'predict', 'reveal', 'replay', 'retry', 'get'];
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);

function parentOrigin() {
  if (window.parent === window) return null;
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length) return ancestors[0];
  try { return document.referrer ? new URL(document.referrer).origin : null; } catch (e) { return null; }
}

// An origin string exactly as URL would write it ("https://a.example:8443").
function validOrigin(o) {
  try { return typeof o === 'string' && o !== 'null' && new URL(o).origin === o; } catch (e) { return false; }
}

// The parent's origin and those the query string lists (?allow=a,b).
function allowedOrigins(parent) {
  const allowed = new Set();
  if (validOrigin(parent)) allowed.add(parent);
  for (const o of (new URLSearchParams(location.search).get('allow') || '').split(',')) {
    if (validOrigin(o.trim())) allowed.add(o.trim());
  }
  return allowed;
}

const parent = parentOrigin();
const allowed = allowedOrigins(parent);

let api = null;       // window.headroom once ready
let setOrder = null;  // the headroom:set fields in the wasm's apply order, once ready
let startError = null;
let quiet = false;    // while a message's own changes are applied
const queue = [];

function reply(target, origin, message) {
  try { target.postMessage(message, origin); } catch (e) { /* the sender went away */ }
}

function withId(m, id) {
  if (typeof id === 'string' || typeof id === 'number') m.id = id;
  return m;
}
function stateMessage(id, error) {
  return withId({ type: 'headroom:state', state: api.getState(), error: error || null }, id);
}

// What each field of a headroom:set calls; view, theme and tab go through
// the hash (under their hash key), which checks them against the wasm's lists.
const kSetVerbs = {
  // The language first (the table's order): it opens its own lesson, which
  // a sentence in the same message replaces.
  lang: (v) => api.setLanguage(v),
  sentence: (v) => api.setSentence(v),
  query: (v) => api.selectToken(v),
  heads: (v) => api.setHeads(v),
  focus: (v) => api.setFocus(v),
  weights: (v) => api.setWeights(v),
  knockout: (v) => api.setKnockout(v),
  tieQK: (v) => api.setTieQK(v),
  view: 'hash', theme: 'hash', tab: 'hash',
};
// The fields in the order the wasm applies a link's (api.tables().applyOrder,
// from src/app/url_state.h kApplyOrder: the sentence before the query,
// heads before the knockout, ...), so a message and a link agree.
function setOrderOf(tables) {
  const order = tables.applyOrder.filter((s) => own(kSetVerbs, s.field));
  const missing = Object.keys(kSetVerbs).filter((f) => !order.some((s) => s.field === f));
  if (missing.length) throw new Error(`headroom-embed.mjs: the wasm's apply order lacks ${missing.join(', ')}`);
  return order;
}

// Applies the fields of a headroom:set from `from` on (an index into
// setOrder) into `errors`; returns the index of the field after a language
// that is being fetched (state.langLoading: the rest waits for it, so a
// query or a sentence lands on the new language's lesson as in a link), or
// null when every field is applied.
function applySet(data, errors, from = 0) {
  if (from === 0) {
    const unknown = Object.keys(data).filter((k) => k !== 'type' && k !== 'id' && !own(kSetVerbs, k));
    if (unknown.length) errors.push(`ignored unknown field(s): ${unknown.slice(0, 5).map((k) => JSON.stringify(k)).join(', ')}`);
  }
  const verb = (fn, value) => {
    const s = fn(value);
    if (s.error) errors.push(s.error);
    return s;
  };
  for (let i = from; i < setOrder.length; ++i) {
    const { key, field } = setOrder[i];
    if (!own(data, field)) continue;
    if (field === 'lang') {
      if (verb(kSetVerbs.lang, data.lang).langLoading) return i + 1;
      continue;
    }
    const value = data[field];
    if (kSetVerbs[field] !== 'hash') { verb(kSetVerbs[field], value); continue; }
    if (typeof value !== 'string') { errors.push(`${field} must be a string`); continue; }
    verb(api.applyHash, `${key}=${encodeURIComponent(value)}`);
  }
  return null;
}

// The refusal of a language that did not come (its fetch failed), or null.
function languageError() {
  const s = api.getState();
  return s.errorCode === 'lang_unfetched' || s.errorCode === 'lang_unreadable' ? s.error : null;
}

// Runs a headroom:train action; the reply (a Promise: the runs may train in
// a Worker, and the reply waits for it to answer) carries train.state().
async function applyTrain(data) {
  const action = data.action;
  let train, error = null;
  if (!kTrainActions.includes(action)) {
    train = Promise.resolve(api.train.state());
    error = `headroom:train needs action ${kTrainActions.map((a) => JSON.stringify(a)).join(', ')}, not ${JSON.stringify(String(action)).slice(0, 40)}`;
  } else if (action === 'reset') {
    const opts = {};
    for (const k of ['task', 'layers', 'seed', 'r', 'lr']) if (own(data, k)) opts[k] = data[k];
    train = api.train.reset(opts);
  } else if (action === 'step') {
    train = api.train.step(own(data, 'n') ? data.n : 1);
  } else if (action === 'knockout') {
    // Measured where the runs train; a refusal rejects, and its message is the reply's error.
    const args = [data.layer, data.head, ...(own(data, 'heads') ? [data.heads] : [])];
    let knockout = null;
    try {
      knockout = await api.train.knockout(...args);
    } catch (e) {
      error = String(e && e.message || e);
    }
    return { type: 'headroom:train-state', train: api.train.state(), error, knockout };
  } else {
    train = api.train[action]();
  }
  // getState().error is the verb's refusal, or null (a diverged run is
  // not a refusal: train.runs[i].message tells of it); read as the verb returns.
  if (!error) error = api.getState().error;
  return { type: 'headroom:train-state', train: await train, error };
}

// Runs a headroom:tour action; the reply carries tour.state().
function applyTour(data) {
  const action = data.action;
  if (!kTourActions.includes(action)) {
    return { type: 'headroom:tour-state', tour: api.tour.state(),
      error: `headroom:tour needs action ${kTourActions.map((a) => JSON.stringify(a)).join(', ')}, not ${JSON.stringify(String(action)).slice(0, 40)}` };
  }
  let tour;
  if (action === 'get') return { type: 'headroom:tour-state', tour: api.tour.state(), error: null };
  if (action === 'go' || action === 'retry') tour = api.tour[action](data.step);
  else if (action === 'predict') tour = api.tour.predict(data.answer);
  else tour = api.tour[action]();
  return { type: 'headroom:tour-state', tour, error: tour.error };
}

// headroom:set: the reply waits for a language being fetched (the fields
// after lang are applied once it is shown: the reply says lang is the new
// one, or error why it did not come), for the training Worker (weights:
// 'trained' asks it for its weights) and for any train verb before it, in order.
async function answerSet(event, data, id) {
  const errors = [];
  const { source, origin } = event;
  for (let next = 0; next !== null;) {
    if (next > 0) {  // after a language being fetched: shown, or why not
      await api.languageSettled();
      const late = languageError();
      if (late) errors.push(late);
    }
    quiet = true;
    next = applySet(data, errors, next);
    quiet = false;
  }
  await api.languageSettled();
  await api.debug.trainProgram().settled();
  reply(source, origin, stateMessage(id, errors.length ? errors.join('; ') : null));
}

function answerTrain(event, data, id) {
  quiet = true;
  const pending = applyTrain(data);  // runs the verb now; its answer may come later
  quiet = false;
  const { source, origin } = event;
  pending.then((reply_) => reply(source, origin, withId(reply_, id)));
}

// A view's picture or numbers, asked for by the host (no click needed).
function answerExport(event, data, id) {
  const view = data.view, format = data.format;
  const answer = (d, error) => reply(event.source, event.origin,
    withId({ type: 'headroom:export', view, format, data: d, error }, id));
  let pending;
  try { pending = api.exportView(view, format); } catch (e) { pending = Promise.reject(e); }
  pending.then((d) => answer(d, null), (e) => answer(null, e && e.message ? e.message : String(e)));
}

function answerTour(event, data, id) {
  quiet = true;
  const reply_ = applyTour(data);
  quiet = false;
  reply(event.source, event.origin, withId(reply_, id));
}

function handle(event) {
  const data = event.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return;  // not for us
  if (typeof data.type !== 'string' || !data.type.startsWith('headroom:')) return;
  const id = data.id;
  if (!api) {
    const error = startError || 'Headroom is not ready yet, and too many messages are waiting';
    reply(event.source, event.origin, withId({ type: 'headroom:state', state: null, error }, id));
    return;
  }
  if (data.type === 'headroom:get') reply(event.source, event.origin, stateMessage(id, null));
  else if (data.type === 'headroom:set') answerSet(event, data, id);
  else if (data.type === 'headroom:train') answerTrain(event, data, id);
  else if (data.type === 'headroom:export') answerExport(event, data, id);
  else if (data.type === 'headroom:tour') answerTour(event, data, id);
  else {
    reply(event.source, event.origin, stateMessage(id, `unknown message type ${JSON.stringify(data.type.slice(0, 40))} (use headroom:get, headroom:set, headroom:train, headroom:tour or headroom:export)`));
  }
}

window.addEventListener('message', (event) => {
  if (!allowed.has(event.origin) || !event.source) return;  // wrong origin or "null": ignored
  if (!api && !startError && queue.length < kMaxQueued) queue.push(event);
  else handle(event);
});

// Changes made by the user (or the hash) are announced to the parent; the
// replies above already carry the state of changes made by messages.
window.addEventListener('headroom:statechange', () => {
  if (api && !quiet && validOrigin(parent)) reply(window.parent, parent, stateMessage(undefined, null));
});

// A file saved from a Save menu or a snapshot button in a frame that may
// drop downloads (sandboxed without allow-downloads: headroom.mjs) goes to
// the parent too, so the host page can save it.
document.getElementById('canvas').addEventListener('headroom:export', (e) => {
  const d = e.detail;
  if (!d || !d.sandboxed || !validOrigin(parent)) return;
  reply(window.parent, parent, { type: 'headroom:export', view: d.view, format: d.format, name: d.name, data: d.data });
});

// The tour's events go to the parent as they happen (headroom-loader.mjs).
// Those of the page's own hash (tour=N) come before ready: sent after it.
const earlyEvents = [];
window.addEventListener('headroom:tour-event', (e) => {
  if (!validOrigin(parent)) return;
  if (!api) { if (earlyEvents.length < 16) earlyEvents.push(e.detail); return; }
  reply(window.parent, parent, e.detail);
});

function started(h) {
  if (api) return;
  setOrder = setOrderOf(h.tables());
  api = h;
  startError = null;
  if (validOrigin(parent)) {
    reply(window.parent, parent, { type: 'headroom:ready', state: api.getState() });
    for (const e of earlyEvents.splice(0)) reply(window.parent, parent, e);
  }
  for (const e of queue.splice(0)) handle(e);
}
// A start that failed and was retried (the error box's Retry) succeeds later.
window.addEventListener('headroom:started', () => started(window.headroom));
window.headroom.ready.then(started, (err) => {
  startError = `Headroom could not start: ${err && err.message ? err.message : String(err)}`;
  for (const e of queue.splice(0)) handle(e);
});
