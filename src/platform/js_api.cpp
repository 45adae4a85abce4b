// js_api.cpp: the C functions web/headroom-loader.js calls to build
// window.headroom (setHeads, setSentence, selectToken, setFocus, getState).
//
// Does: forward each call to the Demo's verbs (so refusals are recorded the
// same way as for clicks) and return the state as JSON. Each setter returns 1
// when the input was accepted, 0 when it was refused (state unchanged).
// The URL hash goes through app/url_state.h (headroom_apply_hash and
// headroom_hash), so the page, the embed page and the tests share one parser.
// Every call that can change the state wakes the frame loop (nothing is drawn
// while idle).
// Does not: validate input (the engine and url_state.h do) or keep state of
// its own beyond the strings returned to JS, valid until the next call.
//
// Build: cmake/web.cmake (emcc only); exported through EMSCRIPTEN_KEEPALIVE.
#include <emscripten.h>

#include <string>
#include <vector>

#include "app/ui.h"
#include "app/url_state.h"
#include "platform/web_app.h"

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
  json = headroom::app::layout_json();
  return json.c_str();
}

// Records a refusal JS made itself (wrong type): state kept, error set.
EMSCRIPTEN_KEEPALIVE void headroom_reject(const char* why) {
  wake();
  demo().error = why ? why : "refused";
}

// Applies a URL hash ("#heads=2&..."): every field that parses and that the
// engine accepts; the rest keep their values and their messages become the
// error ("" when all was accepted). Returns 1 when everything was accepted.
EMSCRIPTEN_KEEPALIVE int headroom_apply_hash(const char* hash) {
  namespace app = headroom::app;
  auto& gs = headroom::platform::guest();
  wake();
  app::UrlParse p = app::parse_url_hash(hash ? hash : "");
  std::vector<std::string> messages = std::move(p.messages);
  auto& d = demo();
  // The sentence goes through the Demo so the sentence box follows it.
  if (p.state.sentence && d.set_sentence(*p.state.sentence)) p.state.sentence.reset();
  for (std::string& m : app::apply_url_state(d.scene, p.state)) messages.push_back(std::move(m));
  if (p.state.view) d.view = *p.state.view;
  if (p.state.theme && *p.state.theme != gs.theme) {
    gs.theme = *p.state.theme;
    gs.theme_changed = true;
  }
  d.error = app::join_messages(messages);
  return messages.empty() ? 1 : 0;
}

// The current state as a URL hash without the '#'; valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_hash() {
  static std::string hash;
  auto& d = demo();
  const auto& gs = headroom::platform::guest();
  hash = headroom::app::to_url_hash(headroom::app::url_state_of(d.scene, d.draft.data(), d.view, gs.theme));
  return hash.c_str();
}

// UTF-8 JSON, owned here, valid until the next call.
EMSCRIPTEN_KEEPALIVE const char* headroom_state_json() {
  static std::string json;
  json = headroom::app::state_json(demo());
  return json.c_str();
}

}  // extern "C"
