// demo.cpp: the demo's verbs (see demo.h).
//
// Does: forward each input to the Scene and keep the last refusal's message.
// Does not: validate anything itself: the engine decides what is valid, so the
// UI and the JS API can never disagree with it.
#include "app/demo.h"

#include <algorithm>
#include <cstring>

namespace headroom::app {

namespace {
void copy_draft(std::array<char, SceneConfig::kMaxBytes + 1>& draft, std::string_view text) {
  const size_t n = std::min(text.size(), draft.size() - 1);
  std::memcpy(draft.data(), text.data(), n);
  draft[n] = '\0';
}
}  // namespace

Demo::Demo() { copy_draft(draft, Scene::lesson_sentence()); }

bool Demo::apply(const Status& s) {
  error = s.error;
  return s.is_ok();
}

bool Demo::set_heads(int heads) { return apply(scene.set_heads(heads)); }

bool Demo::set_sentence(std::string_view utf8) {
  const bool ok = apply(scene.set_sentence(utf8));
  if (ok) copy_draft(draft, utf8);
  return ok;
}

bool Demo::select_token(int token) { return apply(scene.set_query(token)); }

bool Demo::set_focus(float focus) { return apply(scene.set_focus(focus)); }

bool Demo::set_stress(int tokens) { return apply(scene.set_stress(tokens)); }

bool Demo::set_target(Relation r, int token) { return apply(scene.set_target(r, token)); }

void Demo::reset_targets() {
  scene.reset_targets();
  error.clear();
}

}  // namespace headroom::app
