// demo.h: the demo's state and the verbs every input goes through.
//
// Does: own the one Scene, remember the last refused input's message, and give
// the UI and the JS API the same verbs (set heads, set sentence, select token,
// set focus), so a click, a key and a JS call behave identically. Serialises
// the state the JS API's getState() returns.
// Does not: compute attention (it only reads Scene::trace() and readout()),
// draw anything (ui.h), or know about the browser (src/platform).
#pragma once
#include <array>
#include <string>
#include <string_view>

#include "engine/scene.h"

namespace headroom::app {

// The head counts the heads control offers: the engine's list.
inline constexpr const auto& kHeadChoices = kHeadCounts;

struct Demo {
  Scene scene;
  // Which views the page shows (URL hash `view`, app/url_state.h kViews):
  // "lesson" = all of them; any other = the heads control, the readout and
  // that one view, for embeds that teach one step.
  std::string view = "lesson";
  std::string error;  // message of the last refused input, "" when the last input was accepted
  // Text the sentence box shows; follows every accepted sentence.
  std::array<char, SceneConfig::kMaxBytes + 1> draft{};

  Demo();

  // Each verb applies the input or, if the engine refuses it, keeps the state
  // and records the reason in `error`. Returns whether it was accepted.
  bool set_heads(int heads);
  bool set_sentence(std::string_view utf8);
  bool select_token(int token);
  bool set_focus(float focus);
  bool set_stress(int tokens);  // 0 = off
  // Stress timing, written by view_stress: median ms per forward pass over
  // the last frames, and how many forwards were timed since it was switched on.
  double forward_ms = 0;
  int forward_count = 0;
  bool set_target(Relation r, int token);  // the query's target for r
  void reset_targets();

 private:
  bool apply(const Status& s);
};

// The JS API's state as one JSON object (see web/headroom-loader.js):
// tokens, heads, dModel, dHead, query, focus, weights (H rows of L weights for
// the selected token), relations and targets per head, readout per head,
// valueSpace per head (the value-space view's 2-D points and output point),
// sentence (the readout in words), description (the aria-live text), error.
std::string state_json(Demo& demo);

// Appends `s` to `out` as a JSON string literal (quotes, escapes, invalid
// UTF-8 replaced by U+FFFD).
void append_json_string(std::string& out, std::string_view s);

}  // namespace headroom::app
