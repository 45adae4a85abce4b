// js_api.cpp: the C functions web/headroom-loader.js calls to build
// window.headroom (setHeads, setSentence, selectToken, setFocus, getState).
//
// Does: forward each call to the Demo's verbs (so refusals are recorded the
// same way as for clicks) and return the state as JSON. Each setter returns 1
// when the input was accepted, 0 when it was refused (state unchanged).
// The URL hash goes through Demo::apply_hash and Demo::hash, so the page, the
// embed page and the tests share one parser. Every call that can change the
// state wakes the frame loop (nothing is drawn while idle).
// Does not: decide anything (the app's verbs do), validate input (the engine
// and app/url_state.h do) or keep state of its own beyond the strings
// returned to JS, valid until the next call.
//
// Build: cmake/web.cmake (emcc only); exported through EMSCRIPTEN_KEEPALIVE.
#include <emscripten.h>

#include <string>

#include "platform/web_app.h"
#include "ui/ui.h"

namespace headroom::platform {

app::Demo& demo() {
  static app::Demo d;
  return d;
}

}  // namespace headroom::platform

using headroom::platform::demo;

extern "C" {

using headroom::platform::wake;

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

// Records a refusal JS made itself (wrong type): state kept, error set.
EMSCRIPTEN_KEEPALIVE void headroom_reject(const char* why) {
  wake();
  demo().reject(why ? why : "refused");
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

// UTF-8 JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_state_json() {
  static std::string json;
  json = headroom::app::state_json(demo());
  return json.c_str();
}

}  // extern "C"
