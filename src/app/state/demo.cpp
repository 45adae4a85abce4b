// demo.cpp: the demo's verbs (see demo.h).
//
// Does: forward each input to the Scene (or, for view and theme, check it
// against the lists in url_state.h) and keep the last refusal's message;
// apply and write the URL hash through url_state.h; time the stress mode's
// forward pass; forward the training verbs and keep the Scene on the chosen
// weights.
// Does not: validate scene input itself: the engine decides what is valid, so
// the UI, the JS API and a link can never disagree with it.
#include "app/state/demo.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "app/lang/lang.h"
#include "app/state/url_state.h"
#include "app/lang/refusals.h"

namespace headroom::app {

namespace {
// The shown language's lesson (English: the Scene's own sentence).
void show_lesson(Scene& scene) {
  const Lesson& l = language().lesson;
  if (l.sentence != Scene::lesson_sentence()) (void)scene.set_lesson(l.sentence, l.targets);
}
}  // namespace

Demo::Demo() { show_lesson(scene); }

Demo::Demo(TrainsElsewhere elsewhere) : training(elsewhere) { show_lesson(scene); }

bool Demo::apply(const Status& s) {
  error = tr_status(s);  // the refusal's code, in the language shown
  error_code = s.code();
  return s.is_ok();
}

void Demo::clear_error() { (void)apply(Status::ok()); }

bool Demo::set_language(std::string_view code) {
  // A page still on its language's lesson follows the language to the new
  // one's lesson; a sentence of the user's own stays.
  if (code == language().code) {  // nothing changes; a wait for another language ends
    lang_loading.clear();
    return apply(Status::ok());
  }
  const std::vector<std::string>& codes = language_code_list();
  if (!catalogue_here(code) && std::find(codes.begin(), codes.end(), code) != codes.end()) {
    lang_loading = std::string(code);  // the page fetches it: language_arrived
    return apply(Status::ok());
  }
  const bool on_lesson = scene.text() == language().lesson.sentence;
  if (!apply(app::set_language(code))) return false;  // an unknown code: the state, and any wait, stay
  lang_loading.clear();
  if (on_lesson) {
    const Lesson& l = language().lesson;
    (void)apply(scene.set_lesson(l.sentence, l.targets));
  }
  return true;
}

bool Demo::language_arrived(std::string_view code, std::string_view po) {
  const Status added = add_catalogue(code, po);
  if (lang_loading != code) return false;  // not waited for (any more): kept for later
  lang_loading.clear();
  if (!added) {
    (void)apply(Status::fail(refusals::lang_unreadable, shown_value(code), StatusArg::refusal(added)));
    return false;
  }
  return set_language(code);
}

void Demo::language_failed(std::string_view code, std::string_view why) {
  if (lang_loading != code) return;
  lang_loading.clear();
  (void)apply(Status::fail(refusals::lang_unfetched, shown_value(code), shown_value(why)));
}

bool Demo::set_heads(int heads) {
  const bool ok = apply(scene.set_heads(heads));
  training.sync_scene(scene);  // the trained run of the new count, or a note that there is none
  return ok;
}

bool Demo::set_sentence(std::string_view utf8) {
  return apply(scene.set_sentence(utf8));
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

bool Demo::set_knockout(const std::vector<int>& heads) { return apply(scene.set_knockout(heads)); }

bool Demo::set_tie_qk(bool tie) {
  if (!apply(scene.set_tie_qk(tie))) return false;
  training.set_tie_qk(tie);  // for the next reset: runs in progress keep going
  training.sync_scene(scene);  // "trained": the tied run, or a note that there is none
  return true;
}

void Demo::reset_targets() {
  scene.reset_targets();
  clear_error();
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

bool Demo::set_tab(std::string_view t) {
  const Status s = check_choice("tab", kTabs, t);
  if (s) tab = std::string(t);
  return apply(s);
}

void Demo::set_reduced_motion(bool reduce) { reduced_motion = reduce; }

void Demo::reject(const Status& why) { (void)apply(why); }

//-----------------------------------------------------------------------------
// training verbs
//-----------------------------------------------------------------------------
namespace {
// Runs a training verb, then puts the Scene on the chosen weights.
template <class F>
Status and_sync(LiveTraining& t, Scene& scene, F&& verb) {
  Status s = verb();
  t.sync_scene(scene);
  return s;
}
}  // namespace

bool Demo::show_split(int i) {
  const std::vector<TextSplit>& cases = training.splits();
  if (i < 0 || i >= static_cast<int>(cases.size()))
    return apply(Status::fail(refusals::no_split_case, i, cases.size()));
  const TextSplit c = cases[static_cast<size_t>(i)];  // a copy: the verbs below may refresh the runs
  if (!set_sentence(split_text(c.words)) || !select_token(c.query) || !set_weights(kWeightChoices[2]) ||
      !set_heads(kSplitOneHeads))
    return false;
  split_shown_ = c;
  return true;
}

const TextSplit* Demo::shown_split() const {
  if (!split_shown_ || training.weights_choice() != kWeightChoices[2] || split_text(split_shown_->words) != scene.text())
    return nullptr;
  return &*split_shown_;
}

bool Demo::set_weights(std::string_view choice) {
  return apply(and_sync(training, scene, [&] { return training.set_weights(choice); }));
}

bool Demo::train_reset(int64_t seed, int r, float lr, std::optional<bool> tie) {
  return apply(and_sync(training, scene, [&] {
    Status s = training.reset(seed, r, lr, tie);
    if (s) s = scene.set_tie_qk(training.tie_qk());  // one tie: the lesson's views follow
    return s;
  }));
}

bool Demo::train_reset_text(int layers, int64_t seed, float lr) {
  return apply(and_sync(training, scene, [&] { return training.reset_text(layers, seed, lr); }));
}

bool Demo::train_step(int n) {
  return apply(and_sync(training, scene, [&] { return training.step(n); }));
}

bool Demo::train_knockout(int heads, int layer, int head) { return apply(training.knockout(heads, layer, head)); }

bool Demo::train_play() { return apply(training.play()); }

void Demo::train_pause() {
  training.pause();
  clear_error();
}

bool Demo::train_set_lr(float lr) { return apply(training.set_lr(lr)); }

bool Demo::train_set_speed(int n) { return apply(training.set_max_steps_per_frame(n)); }

void Demo::train_reject(const Status& why) {
  (void)apply(why);
  training.reject(why);
}

bool Demo::request_download(int heads) {
  if (training.run(heads) == nullptr)
    return apply(Status::fail(refusals::download_no_run, heads));
  download_request = heads;
  return apply(Status::ok());
}

bool Demo::request_export(std::string_view v, std::string_view format) {
  const Status s = check_export(v, format);
  if (s) export_request = {std::string(v), std::string(format)};
  return apply(s);
}

//-----------------------------------------------------------------------------
// tour verbs
//-----------------------------------------------------------------------------
namespace {
bool tour_apply(Demo& d, const Status& s) {
  d.tour_error = tr_status(s);
  d.error = d.tour_error;
  d.error_code = s.code();
  return s.is_ok();
}
}  // namespace

bool Demo::tour_go(int step) { return tour_apply(*this, tour.go(*this, step)); }

bool Demo::tour_predict(const Prediction& p) { return tour_apply(*this, tour.predict(*this, p)); }

bool Demo::tour_reveal() { return tour_apply(*this, tour.reveal(*this)); }

bool Demo::tour_replay() { return tour_apply(*this, tour.replay()); }

bool Demo::tour_retry(int step) { return tour_apply(*this, tour.retry(*this, step)); }

void Demo::tour_close() {
  tour.close();
  tour_error.clear();
  clear_error();
}

void Demo::tour_reject(const Status& why) {
  // A refusal always says something, even when the caller gave no reason.
  tour_apply(*this, why.is_ok() ? Status::fail(refusals::tour_refused) : why);
}

namespace {

// The link's fields that are not the Scene's (url_state.h apply_scene_field
// applies those), one row each; kApplyOrder says when each runs. Every row
// runs, given or not (weights keeps the Scene on the chosen weights).
struct DemoField {
  const char* key;
  void (*apply)(Demo& d, const UrlState& s, std::vector<Status>& messages);
};
const std::array<DemoField, 10> kDemoFields = {{
    // A page on its lesson opens on the new language's.
    {"lang", [](Demo& d, const UrlState& s, std::vector<Status>& m) {
       if (s.lang && !d.set_language(*s.lang)) m.push_back(language_status(*s.lang));
     }},
    // parse_url_hash accepted only listed views, themes and tabs: these cannot fail.
    {"view", [](Demo& d, const UrlState& s, std::vector<Status>&) {
       if (s.view) d.view = *s.view;
     }},
    {"theme", [](Demo& d, const UrlState& s, std::vector<Status>&) {
       if (s.theme) d.theme = *s.theme;
     }},
    {"tab", [](Demo& d, const UrlState& s, std::vector<Status>&) {
       if (s.tab) d.tab = *s.tab;
     }},
    // Training: a new seed or r starts the runs afresh (the same ones keep
    // the runs going, so re-applying the page's own hash changes nothing),
    // tied as the Scene is (tieqk came first). Read through LiveTraining, not its
    // Trainer: a link without them does not build the Trainer (live_training.h
    // "Lazy").
    {"seed", [](Demo& d, const UrlState& s, std::vector<Status>& m) {
       const LiveTraining& tr = d.training;
       if (s.tie_qk) d.training.set_tie_qk(d.scene.tie_qk());  // the link's tie, for the runs it resets
       if (s.task && *s.task == kTrainTasks[1]) return;       // the text task's seed: with task, below
       if ((s.seed && *s.seed != tr.seed()) || (s.r && *s.r != tr.relations())) {
         const Status st = d.training.reset(s.seed.value_or(tr.seed()), s.r.value_or(tr.relations()), tr.lr());
         if (!st) m.push_back(Status::fail(refusals::link_training_refused, StatusArg::refusal(st)));
       }
     }},
    {"r", [](Demo&, const UrlState&, std::vector<Status>&) {}},  // with seed, in one reset
    // task=text (with layers and seed) starts the text runs unless they are
    // already those; task=roles goes back to the roles runs; layers alone
    // means the text task.
    {"task", [](Demo& d, const UrlState& s, std::vector<Status>& m) {
       const LiveTraining& tr = d.training;
       const bool text = s.task ? *s.task == kTrainTasks[1] : s.layers.has_value();
       if (!text) {
         if (s.task && tr.text_task()) {
           const Status st = d.training.reset(s.seed.value_or(tr.seed()), s.r.value_or(tr.relations()), tr.lr());
           if (!st) m.push_back(Status::fail(refusals::link_task_refused, StatusArg::refusal(st)));
         }
         return;
       }
       const int layers = s.layers.value_or(tr.text_task() ? tr.layers() : kTextLayers[0]);
       const int64_t seed = s.seed.value_or(tr.seed());
       if (tr.text_task() && tr.layers() == layers && tr.seed() == seed) return;
       const float lr = tr.text_task() ? tr.lr() : kTextDefaultLr;
       if (const Status st = d.training.reset_text(layers, seed, lr); !st)
         m.push_back(Status::fail(refusals::link_task_refused, StatusArg::refusal(st)));
     }},
    {"layers", [](Demo&, const UrlState&, std::vector<Status>&) {}},  // with task, in one reset
    {"weights", [](Demo& d, const UrlState& s, std::vector<Status>&) {
       if (s.weights) (void)d.training.set_weights(*s.weights);  // parse_url_hash checked it
       d.training.sync_scene(d.scene);
     }},
    // Entering a step sets the heads and controls it asks with. The same
    // step and range again (the page's own hash) changes nothing.
    {"tour", [](Demo& d, const UrlState& s, std::vector<Status>& m) {
       if (!s.tour) return;
       const auto [first, last, step] = *s.tour;
       const bool same = d.tour.open() && d.tour.first() == first && d.tour.last() == last &&
                         (step == d.tour.step() || (first != 1 || last != kTourSteps));
       if (same) return;
       const Status st = d.tour.open_range(d, first, last, step);
       if (!st) m.push_back(Status::fail(refusals::link_tour_refused, StatusArg::refusal(st)));
     }},
}};

}  // namespace

bool Demo::apply_hash(std::string_view hash) {
  UrlParse p = parse_url_hash(hash);
  SceneApplyLog log;
  log.messages = std::move(p.messages);
  for (const ApplyStep& step : kApplyOrder) {
    if (apply_scene_field(scene, p.state, step.key, log)) continue;
    for (const DemoField& f : kDemoFields)
      if (std::string_view(step.key) == f.key) f.apply(*this, p.state, log.messages);
  }
  error = join_messages(log.messages);
  error_code = log.messages.empty() ? "" : log.messages.front().code();
  link_error = error;
  return log.messages.empty();
}

std::string Demo::hash() const {
  UrlState s = url_state_of(scene, scene.text(), view, theme);
  if (tab != kTabs[0]) s.tab = tab;
  // Training keys only when they differ from the defaults (a plain link stays short).
  const LiveTraining& tr = training;
  if (tr.seed() != kDefaultSeed) s.seed = tr.seed();
  if (tr.text_task()) {
    s.task = kTrainTasks[1];
    s.layers = tr.layers();
  } else if (tr.relations() != kDefaultRelations) {
    s.r = tr.relations();
  }
  if (training.weights_choice() != kWeightChoices[0]) s.weights = training.weights_choice();
  if (tour.open()) {
    const bool whole = tour.first() == 1 && tour.last() == kTourSteps;
    s.tour = std::array<int, 3>{tour.first(), tour.last(), whole ? tour.step() : tour.first()};
  }
  return to_url_hash(s);
}

bool Demo::tick() {
  const bool training_on = training.tick(reduced_motion);
  training.sync_scene(scene);
  tour.tick(*this);  // a training reveal waiting for the Worker's steps
  return tick_stress() || training_on;
}

bool Demo::tick_stress() {
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

//-----------------------------------------------------------------------------
// the model shown
//-----------------------------------------------------------------------------
namespace headroom::app {

const ModelShown& Demo::shown() {
  const TextWeights* text = training.weights_shown() == kWeightChoices[2] ? training.text_weights() : nullptr;
  const int layers = text ? text->layers : 1;
  if (text_layer_ >= layers) text_layer_ = layers - 1;
  // Reading the Scene may recompute it (and move its revision): read first.
  (void)scene.trace();
  (void)scene.value_maps();
  // What the shown model is made of: the Scene's revision, and the text
  // weights' run (its step, head count and seed: a reset starts at step 0
  // again) and layer.
  const ShownKey key{scene.revision(), text, text ? text->step : -1, text ? text->heads : 0, training.seed(), text_layer_};
  if (key == shown_key_) return shown_;
  shown_key_ = key;
  if (text && training.text_sentence(scene.text(), text_words_, text_unknown_, text_trace_)) {
    const TrainRun* run = training.run(text->heads);
    TextShownInput in;
    in.words = &text_words_;
    in.unknown = &text_unknown_;
    in.ids = &text_trace_.ids;
    in.traces = &text_trace_.layers;
    in.x = &text_trace_.x;
    in.weights = &text->params.layers[static_cast<size_t>(text_layer_)];
    in.slots = run ? &run->per_head : nullptr;
    in.layers = layers;
    in.layer = text_layer_;
    in.query = scene.query();
    from_text(in, shown_);
  } else {
    from_scene(scene, shown_);
  }
  return shown_;
}

bool Demo::set_text_layer(int layer) {
  const TextWeights* text = training.weights_shown() == kWeightChoices[2] ? training.text_weights() : nullptr;
  const int layers = text ? text->layers : 1;
  if (layer < 1 || layer > layers) return apply(Status::fail(refusals::text_layer_shown, layer, layers));
  text_layer_ = layer - 1;
  return apply(Status::ok());
}

}  // namespace headroom::app
