// js_api.cpp: the C functions web/headroom.mjs calls to build
// window.headroom (setHeads, setSentence, selectToken, setFocus, setKnockout,
// setTieQK, getState, exportView, tour.go/predict/reveal/replay/retry/state,
// setWeights, train.reset/step/play/pause/state/snapshot/download).
//
// Does: forward each call to the Demo's verbs (so refusals are recorded the
// same way as for clicks) and return the state as JSON. Each setter returns 1
// when the input was accepted, 0 when it was refused (state unchanged).
// The URL hash goes through Demo::apply_hash and Demo::hash, so the page, the
// embed page and the tests share one parser. Every call that can change the
// state wakes the frame loop (nothing is drawn while idle).
// Does not: decide anything (the app's verbs do), validate input (the engine
// and app/state/url_state.h do) or keep state of its own beyond the strings
// returned to JS, valid until the next call. Saving a snapshot file and a
// view's picture are done here rather than in the app: they need the
// browser (a Blob, GL).
//
// Build: cmake/web.cmake (emcc only); exported through EMSCRIPTEN_KEEPALIVE.
#include <emscripten.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/state/export.h"
#include "app/lang/lang.h"
#include "app/lang/refusals.h"
#include "app/wire/train_wire.h"
#include "app/state/tables.h"
#include "platform/web_app.h"
#include "ui/probes.h"
#include "ui/ui.h"

namespace headroom::platform {

app::Demo& demo() {
  static app::Demo d{app::TrainsElsewhere{}};  // the runs train in the training program
  return d;
}

void save_requested_download(app::Demo& d) {
  const int heads = d.download_request;
  d.download_request = 0;
  if (heads == 0) return;
  if (d.training.ask_download(heads)) return;  // the training program has the runs: it saves the file
  std::string json;
  if (const Status s = d.training.snapshot_json(heads, json); !s) {
    d.train_reject(s);
    return;
  }
  const app::LiveTraining& t = d.training;
  const std::string name = "headroom-snapshot-h" + std::to_string(heads) + "-seed" + std::to_string(t.seed()) +
                           (t.text_task() ? "-text" + std::to_string(t.layers()) + "l" : "-r" + std::to_string(t.relations())) +
                           "-step" + std::to_string(t.step_count()) + ".json";
  offer_text("train", "snapshot", name, json);  // export_png.cpp: saved, or offered to the host page
}

// A refusal JS made: its code (app/lang/refusals.h HEADROOM_JS_REFUSALS, or
// any table's) and the values it quotes, separated by U+001F (JS replaces
// that character inside a value): app::js_refusal makes the Status.
Status js_status(const char* code, const char* values) {
  std::vector<std::string> parts;
  const std::string_view v = values ? values : "";
  for (size_t start = 0; !v.empty() && start <= v.size();) {
    const size_t end = std::min(v.find('\x1f', start), v.size());
    parts.emplace_back(v.substr(start, end - start));
    start = end + 1;
  }
  return app::js_refusal(code ? code : "", parts);
}

}  // namespace headroom::platform

using headroom::platform::demo;
using headroom::platform::js_status;

extern "C" {

using headroom::platform::wake;

// The lists and orders the page's JS takes from here once, at start
// (headroom.mjs tablesOf): app/state/tables.h's, and the wheel's bits (web_app.h
// kWheel*: headroom_wheel_directions). Fixed for the module's life.
EMSCRIPTEN_KEEPALIVE const char* headroom_tables_json() {
  static const std::string json = [] {
    namespace p = headroom::platform;
    std::string out;
    {
      headroom::app::JsonObject o(out);
      headroom::app::append_tables(o);
      headroom::app::JsonObject wheel(o.key("wheel"));
      wheel.field("up", p::kWheelUp).field("down", p::kWheelDown).field("left", p::kWheelLeft);
      wheel.field("right", p::kWheelRight).field("dragging", p::kWheelDragging);
    }
    return out;
  }();
  return json.c_str();
}

EMSCRIPTEN_KEEPALIVE int headroom_set_heads(int heads) {
  wake();
  return demo().set_heads(heads) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_set_sentence(const char* utf8) {
  wake();
  return demo().set_sentence(utf8 ? utf8 : "") ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_select_token(int token) {
  wake();
  return demo().select_token(token) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_set_focus(float focus) {
  wake();
  return demo().set_focus(focus) ? 1 : 0;
}

// Head knockout: `n` 0-based head indices at `heads` (the engine validates).
EMSCRIPTEN_KEEPALIVE int headroom_set_knockout(const int* heads, int n) {
  wake();
  std::vector<int> list(heads, heads + (n > 0 ? n : 0));
  return demo().set_knockout(list) ? 1 : 0;
}

// Tied query and key: 1 ties W_K to W_Q in every head, 0 unties.
EMSCRIPTEN_KEEPALIVE int headroom_set_tie_qk(int tie) {
  wake();
  return demo().set_tie_qk(tie != 0) ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_set_stress(int tokens) {
  wake();
  return demo().set_stress(tokens) ? 1 : 0;
}

// Where the last frame drew the token buttons (CSS pixels), for tests.
EMSCRIPTEN_KEEPALIVE const char* headroom_layout_json() {
  static std::string json;
  json = headroom::ui::layout_json();
  return json.c_str();
}

// Whether the last drawn frame fits the canvas (ui::fit_json), for tests.
EMSCRIPTEN_KEEPALIVE const char* headroom_fit_json() {
  static std::string json;
  json = headroom::ui::fit_json();
  return json.c_str();
}

// Records a refusal JS made itself (wrong type): state kept, error set
// (js_status: a code and the values JS quotes).
EMSCRIPTEN_KEEPALIVE void headroom_reject(const char* code, const char* values) {
  wake();
  demo().reject(js_status(code, values));
}

// Applies a URL hash ("#heads=2&..."): see app::Demo::apply_hash. Returns 1
// when everything was accepted.
EMSCRIPTEN_KEEPALIVE int headroom_apply_hash(const char* hash) {
  wake();
  return demo().apply_hash(hash ? hash : "") ? 1 : 0;
}

// The current state as a URL hash without the '#'; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_hash() {
  static std::string hash;
  hash = demo().hash();
  return hash.c_str();
}

// `english` (a catalogue key: "Apply", "Refused: {0}") in the shown
// language: app::tr, so a key the language lacks comes back in English and
// is counted in state.missingStrings. For the page's own words
// (app::page_words); a sentence made elsewhere is not looked up whole.
// Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_translate(const char* english) {
  static std::string out;
  out = headroom::app::tr(english ? english : "");
  return out.c_str();
}

// UTF-8 JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_state_json() {
  static std::string json;
  json = headroom::app::state_json(demo());
  return json.c_str();
}

// "built" or "trained": which weights every view shows (app::Demo::set_weights).
EMSCRIPTEN_KEEPALIVE int headroom_set_weights(const char* choice) {
  wake();
  return demo().set_weights(choice ? choice : "") ? 1 : 0;
}

// Case i (0-based) of train.state().splits on the lesson's views (app::Demo::show_split).
EMSCRIPTEN_KEEPALIVE int headroom_show_split(int i) {
  wake();
  return demo().show_split(i) ? 1 : 0;
}

// A language code ("de"): the interface's language (app::Demo::set_language).
EMSCRIPTEN_KEEPALIVE int headroom_set_language(const char* code) {
  wake();
  return demo().set_language(code ? code : "") ? 1 : 0;
}

// The language chosen whose catalogue the page is to fetch ("" when none:
// app::Demo::lang_loading); web/headroom.mjs asks after every verb.
EMSCRIPTEN_KEEPALIVE const char* headroom_lang_loading() { return demo().lang_loading.c_str(); }

// The page fetched `code`'s catalogue (`n` bytes of its .po text at `po`):
// added, and shown when it is the one chosen (app::Demo::language_arrived).
// Returns 1 when the language shown changed.
EMSCRIPTEN_KEEPALIVE int headroom_language_arrived(const char* code, const char* po, int n) {
  wake();
  return demo().language_arrived(code ? code : "", std::string_view(po ? po : "", po && n > 0 ? static_cast<size_t>(n) : 0))
             ? 1 : 0;
}

// The page could not fetch `code`'s catalogue (why: "HTTP 404", ...): the
// language shown stays and the state's error says so (app::Demo::language_failed).
EMSCRIPTEN_KEEPALIVE void headroom_language_failed(const char* code, const char* why) {
  wake();
  demo().language_failed(code ? code : "", why ? why : "");
}

// The extra font (the catalogues' CJK glyphs, ui.h set_extra_font): 1 when
// the shown language needs it and it is not here; the page then fetches it
// once and hands its `n` bytes over (the atlas is rebuilt on the next frame).
EMSCRIPTEN_KEEPALIVE int headroom_extra_font_wanted() { return headroom::ui::extra_font_wanted() ? 1 : 0; }
EMSCRIPTEN_KEEPALIVE void headroom_extra_font(const uint8_t* p, int n) {
  wake();
  headroom::ui::set_extra_font(std::vector<unsigned char>(p, p + (n > 0 ? n : 0)));
}
// For tests (headroom.debug.fonts): the extra font's size and the atlas's glyphs from it.
EMSCRIPTEN_KEEPALIVE int headroom_extra_font_bytes() { return headroom::ui::extra_font_bytes(); }
EMSCRIPTEN_KEEPALIVE int headroom_extra_font_glyphs() { return headroom::ui::extra_font_glyphs(); }

namespace {
// A JS number as a float: one beyond float's range becomes the infinity it
// rounds toward (a plain cast would be undefined behaviour), so the verb
// refuses it as not finite instead of reading garbage.
float to_float(double v) {
  constexpr double kMax = std::numeric_limits<float>::max();
  if (v > kMax) return std::numeric_limits<float>::infinity();
  if (v < -kMax) return -std::numeric_limits<float>::infinity();
  return static_cast<float>(v);  // NaN stays NaN
}
}  // namespace

// --- window.headroom.train ---------------------------------------------------
// seed arrives as a double (JS checked it is a whole number below 2^53); the
// trainer checks every range. tie: 1 tied query and key, 0 not, -1 the
// demo's tie as it is (app::Demo::train_reset).
EMSCRIPTEN_KEEPALIVE int headroom_train_reset(double seed, int r, double lr, int tie) {
  wake();
  const std::optional<bool> t = tie < 0 ? std::nullopt : std::optional<bool>(tie != 0);
  return demo().train_reset(static_cast<int64_t>(seed), r, to_float(lr), t) ? 1 : 0;
}

// The text task (train.reset({task: 'text', layers, seed, lr})): the
// training program fetches the corpus itself.
EMSCRIPTEN_KEEPALIVE int headroom_train_reset_text(int layers, double seed, double lr) {
  wake();
  return demo().train_reset_text(layers, static_cast<int64_t>(seed), to_float(lr)) ? 1 : 0;
}

// n steps of every run (the program's answer resolves the caller's Promise).
EMSCRIPTEN_KEEPALIVE int headroom_train_step(int n) {
  wake();
  return demo().train_step(n) ? 1 : 0;
}

// Play wakes the frame loop; the app's tick keeps it drawing while training runs.
EMSCRIPTEN_KEEPALIVE int headroom_train_play() {
  wake();
  return demo().train_play() ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE void headroom_train_pause() {
  wake();
  demo().train_pause();
}

// The learning rate from the next step (the train view's slider).
EMSCRIPTEN_KEEPALIVE int headroom_train_set_lr(double lr) {
  wake();
  return demo().train_set_lr(to_float(lr)) ? 1 : 0;
}

// train.knockout(layer, head, heads): a head of the text run with `heads`
// heads knocked out, layer and head from 1 (app::LiveTraining::knockout); 1
// accepted (measured here, or sent to the training program), 0 refused.
EMSCRIPTEN_KEEPALIVE int headroom_train_knockout(int heads, int layer, int head) {
  return demo().train_knockout(heads, layer, head) ? 1 : 0;
}

// Records a refusal JS made itself for a train verb (wrong type): as headroom_reject.
EMSCRIPTEN_KEEPALIVE void headroom_train_reject(const char* code, const char* values) {
  wake();
  demo().train_reject(js_status(code, values));
}

// Records the training program's refusal (its status bytes, train_wire.h
// encode_status: a snapshot it could not make), worded here; 0 when the
// bytes are not a status.
EMSCRIPTEN_KEEPALIVE int headroom_train_reject_wire(const uint8_t* p, int n) {
  wake();
  headroom::Status why;
  if (const headroom::Status s = headroom::app::decode_status(p, n < 0 ? 0 : static_cast<size_t>(n), why); !s) {
    demo().train_reject(s);
    return 0;
  }
  demo().train_reject(why);
  return 1;
}

// train.state() as JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_train_state_json() {
  static std::string json;
  json = demo().training.state_json();
  return json.c_str();
}

// snapshot(heads, tied) as JSON (about 3 MB), or nullptr when no run has
// `heads` heads (tied: no tied run; the reason is then the state's error).
// Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_train_snapshot_json(int heads, int tied) {
  static std::string json;
  const headroom::Status s = demo().training.snapshot_json(heads, tied != 0, json);
  if (!s) {
    demo().train_reject(s);
    json.clear();
    json.shrink_to_fit();
    return nullptr;
  }
  return json.c_str();
}

// Saves snapshot(heads) as a JSON file (train.download and the train view's
// button): 1 when saved, 0 when refused (no such run).
EMSCRIPTEN_KEEPALIVE int headroom_train_download(int heads) {
  wake();
  if (!demo().request_download(heads)) return 0;
  headroom::platform::save_requested_download(demo());
  return 1;
}

// --- the training program (web/headroom.mjs trainLink) -----------------------
// The page's runs train in the training program, in a Worker or, where none
// starts, on this thread (app/training/live_training.h "Where it trains"): the
// app's verbs come out through Module.headroomTrainSend(verb, a, b, c, d),
// and the program's messages (app/wire/train_wire.h) go in here.
EMSCRIPTEN_KEEPALIVE int headroom_train_use_worker() {
  return demo().training.use_remote([](const headroom::app::TrainCommand& c) {
    EM_ASM({ if (Module["headroomTrainSend"]) Module["headroomTrainSend"](UTF8ToString($0), $1, $2, $3, $4); },
           c.verb, c.a, c.b, c.c, c.d);
  }) ? 1 : 0;
}

// A message of the program (bytes at p, n of them): 1 taken, 0 refused (the
// reason goes to the console; nothing changes). While the runs play, the
// page draws what came at most every kTrainFrameMs: the program posts about
// 30 times a second, and each drawn frame is CPU the Worker could train with
// (a software-rendered page on two cores); the last state is always drawn.
namespace {
constexpr double kTrainFrameMs = 100.0;
double g_train_drawn_ms = -1e9;
}  // namespace

// From part `part` of `parts` Workers that each train a share of the runs
// (app/training/live_training.h "Shares"); take_wire is part 0 of 1.
EMSCRIPTEN_KEEPALIVE int headroom_train_take_part_wire(const uint8_t* p, int n, int part, int parts) {
  const headroom::Status s = demo().training.take_wire(p, n < 0 ? 0 : static_cast<size_t>(n), part, parts);
  if (!s) {
    EM_ASM({ console.error("headroom: " + UTF8ToString($0)); }, s.error.c_str());
    return 0;
  }
  demo().training.sync_scene(demo().scene);
  const double now = emscripten_get_now();
  if (!demo().training.running() || now - g_train_drawn_ms >= kTrainFrameMs) {
    g_train_drawn_ms = now;
    wake();
  }
  return 1;
}

EMSCRIPTEN_KEEPALIVE int headroom_train_take_wire(const uint8_t* p, int n) {
  return headroom_train_take_part_wire(p, n, 0, 1);
}

EMSCRIPTEN_KEEPALIVE void headroom_train_where(const char* where) { demo().training.set_where(where ? where : ""); }

// The Worker stopped and was started again: `values` is why (as headroom_reject's).
EMSCRIPTEN_KEEPALIVE void headroom_train_restarted(const char* values) {
  demo().training.restarted(js_status(headroom::refusals::js_worker_restarted.code, values));
  wake();
}

// The program could not be started at all (not in a Worker, not on this
// thread): `values` is why (as headroom_reject's); the next use tries again.
EMSCRIPTEN_KEEPALIVE void headroom_train_unavailable(const char* values) {
  demo().training.unavailable(js_status(headroom::refusals::js_train_unavailable.code, values));
  wake();
}

// --- window.headroom.exportView ----------------------------------------------
// Neither export changes the state or the state's error: a refusal's reason
// is headroom_export_error() (exportView rejects with it).
namespace {
std::string g_export_error;
headroom::platform::Picture g_picture;
}  // namespace

// The view's numbers as CSV or JSON (app/state/export.h), or nullptr when refused.
// Valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_export_text(const char* view, const char* format) {
  static std::string text;
  const headroom::Status s = headroom::app::export_view(demo(), view ? view : "", format ? format : "", text);
  g_export_error = s.error;
  return s ? text.c_str() : nullptr;
}

// The view's picture (export_png.cpp): 1 when made (its pixels:
// headroom_export_pixels, width x height RGBA, top row first), 0 when refused.
EMSCRIPTEN_KEEPALIVE int headroom_export_png(const char* view) {
  const headroom::Status s = headroom::platform::export_png(demo(), view ? view : "", g_picture);
  g_export_error = s.error;
  return s ? 1 : 0;
}
EMSCRIPTEN_KEEPALIVE const unsigned char* headroom_export_pixels() { return g_picture.rgba.data(); }
EMSCRIPTEN_KEEPALIVE int headroom_export_width() { return g_picture.width; }
EMSCRIPTEN_KEEPALIVE int headroom_export_height() { return g_picture.height; }
EMSCRIPTEN_KEEPALIVE const char* headroom_export_error() { return g_export_error.c_str(); }

// The page tells whether the frame is sandboxed (headroom.mjs): the Save
// menus and the snapshot buttons then say where files go.
EMSCRIPTEN_KEEPALIVE void headroom_set_sandboxed(int sandboxed) {
  wake();
  headroom::ui::set_downloads_note(sandboxed != 0);
}

// --- window.headroom.tour ----------------------------------------------------
// Each verb returns 1 when accepted, 0 when refused (the tour state's error
// says why); tour.state() reads headroom_tour_state_json.
EMSCRIPTEN_KEEPALIVE int headroom_tour_go(int step) {
  wake();
  return demo().tour_go(step) ? 1 : 0;
}

namespace {
int predict(headroom::app::Prediction p) {
  wake();
  return demo().tour_predict(p) ? 1 : 0;
}
}  // namespace

EMSCRIPTEN_KEEPALIVE int headroom_tour_predict_point(double x, double y) {
  headroom::app::Prediction p;
  p.kind = headroom::app::AnswerKind::Point;
  p.xy = {to_float(x), to_float(y)};
  return predict(p);
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_predict_points(double x0, double y0, double x1, double y1) {
  headroom::app::Prediction p;
  p.kind = headroom::app::AnswerKind::Points;
  p.xy = {to_float(x0), to_float(y0), to_float(x1), to_float(y1)};
  return predict(p);
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_predict_choice(const char* id) {
  headroom::app::Prediction p;
  p.kind = headroom::app::AnswerKind::Choice;
  p.choice = id ? id : "";
  return predict(p);
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_predict_number(double v) {
  headroom::app::Prediction p;
  p.kind = headroom::app::AnswerKind::Number;
  p.number = to_float(v);
  return predict(p);
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_predict_match(const int* tokens, int n) {
  headroom::app::Prediction p;
  p.kind = headroom::app::AnswerKind::Match;
  p.match.assign(tokens, tokens + (n > 0 ? n : 0));
  return predict(p);
}

// `labels`: the labels separated by U+001F (headroom.mjs valuesText).
EMSCRIPTEN_KEEPALIVE int headroom_tour_predict_labels(const char* labels) {
  headroom::app::Prediction p;
  p.kind = headroom::app::AnswerKind::Labels;
  const std::string_view all = labels ? labels : "";
  for (size_t at = 0;;) {
    const size_t end = all.find('\x1f', at);
    p.labels.emplace_back(all.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return predict(p);
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_reveal() {
  wake();
  return demo().tour_reveal() ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_replay() {
  wake();
  return demo().tour_replay() ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_tour_retry(int step) {
  wake();
  return demo().tour_retry(step) ? 1 : 0;
}

// Records a refusal JS made itself for a tour verb (wrong type): as headroom_reject.
EMSCRIPTEN_KEEPALIVE void headroom_tour_reject(const char* code, const char* values) {
  wake();
  demo().tour_reject(js_status(code, values));
}

// tour.state() as JSON, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_tour_state_json() {
  static std::string json;
  json = demo().tour_state_json();
  return json.c_str();
}

// The tour's events after sequence number `since` (a JSON array of
// headroom:tour-event messages), and the last event's number.
EMSCRIPTEN_KEEPALIVE const char* headroom_tour_events_json(double since) {
  static std::string json;
  // Events are numbered from 1: anything below (NaN, negative, -Infinity)
  // asks for all of them, anything past 2^53 for none (no cast out of range).
  const int64_t from = !(since > 0) ? 0 : since > 9007199254740992.0 ? int64_t{1} << 53 : static_cast<int64_t>(since);
  json = demo().tour.events_json(from);
  return json.c_str();
}

EMSCRIPTEN_KEEPALIVE double headroom_tour_last_event() { return static_cast<double>(demo().tour.last_event()); }

// Glyphs the last drawn frame could draw by neither path (ui/text.h): 0 when
// every string was drawn by the font atlas or the browser.
EMSCRIPTEN_KEEPALIVE int headroom_missing_glyphs() { return headroom::platform::guest().missing_glyphs; }

}  // extern "C"
