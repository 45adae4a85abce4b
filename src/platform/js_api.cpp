// js_api.cpp: the C functions web/headroom-loader.js calls to build
// window.headroom (setHeads, setSentence, selectToken, setFocus, getState).
//
// Does: forward each call to the Demo's verbs (so refusals are recorded the
// same way as for clicks) and return the state as JSON. Each setter returns 1
// when the input was accepted, 0 when it was refused (state unchanged).
// Does not: validate input (the engine does) or keep state of its own beyond
// the JSON buffer returned to JS, valid until the next headroom_state_json.
//
// Build: cmake/web.cmake (emcc only); exported through EMSCRIPTEN_KEEPALIVE.
#include <emscripten.h>

#include <string>

#include "app/ui.h"
#include "platform/web_app.h"

namespace headroom::platform {

app::Demo& demo() {
  static app::Demo d;
  return d;
}

}  // namespace headroom::platform

using headroom::platform::demo;

extern "C" {

EMSCRIPTEN_KEEPALIVE int headroom_set_heads(int heads) { return demo().set_heads(heads) ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE int headroom_set_sentence(const char* utf8) {
  return demo().set_sentence(utf8 ? utf8 : "") ? 1 : 0;
}

EMSCRIPTEN_KEEPALIVE int headroom_select_token(int token) { return demo().select_token(token) ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE int headroom_set_focus(float focus) { return demo().set_focus(focus) ? 1 : 0; }

// Where the last frame drew the token buttons (CSS pixels), for tests.
EMSCRIPTEN_KEEPALIVE const char* headroom_layout_json() {
  static std::string json;
  json = headroom::app::layout_json();
  return json.c_str();
}

// Records a refusal JS made itself (wrong type): state kept, error set.
EMSCRIPTEN_KEEPALIVE void headroom_reject(const char* why) { demo().error = why ? why : "refused"; }

// UTF-8 JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_state_json() {
  static std::string json;
  json = headroom::app::state_json(demo());
  return json.c_str();
}

}  // extern "C"
