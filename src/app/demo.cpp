// demo.cpp: the demo's verbs (see demo.h).
//
// Does: forward each input to the Scene (or, for view and theme, check it
// against the lists in url_state.h) and keep the last refusal's message;
// apply and write the URL hash through url_state.h; time the stress mode's
// forward pass.
// Does not: validate scene input itself: the engine decides what is valid, so
// the UI, the JS API and a link can never disagree with it.
#include "app/demo.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <utility>
#include <vector>

#include "app/url_state.h"

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

bool Demo::set_stress(int tokens) {
  const int before = scene.stress();
  const bool ok = apply(scene.set_stress(tokens));
  if (ok && scene.stress() != before) stress = StressClock{};
  return ok;
}

bool Demo::set_target(Relation r, int token) { return apply(scene.set_target(r, token)); }

void Demo::reset_targets() {
  scene.reset_targets();
  error.clear();
}

bool Demo::set_view(std::string_view v) {
  const Status s = check_choice("view", kViews, v);
  if (s) view = std::string(v);
  return apply(s);
}

bool Demo::set_theme(std::string_view t) {
  const Status s = check_choice("theme", kThemes, t);
  if (s) theme = std::string(t);
  return apply(s);
}

void Demo::set_reduced_motion(bool reduce) { reduced_motion = reduce; }

void Demo::reject(std::string_view why) { error = std::string(why); }

bool Demo::apply_hash(std::string_view hash) {
  UrlParse p = parse_url_hash(hash);
  std::vector<std::string> messages = std::move(p.messages);
  // The sentence goes through set_sentence so the sentence box follows it.
  if (p.state.sentence && set_sentence(*p.state.sentence)) p.state.sentence.reset();
  for (std::string& m : apply_url_state(scene, p.state)) messages.push_back(std::move(m));
  // parse_url_hash accepted only listed views and themes: these cannot fail.
  if (p.state.view) view = *p.state.view;
  if (p.state.theme) theme = *p.state.theme;
  error = join_messages(messages);
  return messages.empty();
}

std::string Demo::hash() const { return to_url_hash(url_state_of(scene, draft.data(), view, theme)); }

bool Demo::tick() {
  if (scene.stress() <= 0) return false;
  // The engine's forward pass, timed on its own (not the frame, not GL).
  const auto t0 = std::chrono::steady_clock::now();
  scene.recompute();
  const auto t1 = std::chrono::steady_clock::now();
  StressClock& c = stress;
  c.ms[static_cast<size_t>(c.count % StressClock::kFrames)] = std::chrono::duration<double, std::milli>(t1 - t0).count();
  ++c.count;
  const int n = std::min(c.count, StressClock::kFrames);
  std::array<double, StressClock::kFrames> sorted = c.ms;
  std::sort(sorted.begin(), sorted.begin() + n);
  c.median_ms = sorted[static_cast<size_t>(n / 2)];
  return true;
}

}  // namespace headroom::app
