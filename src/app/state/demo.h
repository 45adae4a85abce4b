// demo.h: the demo's state and the verbs every input goes through.
//
// Does: own the one Scene and the page-level choices (view, theme, reduced
// motion), remember the last refused input's message, and give the UI, the
// JS API and the URL hash the same verbs (set heads, set sentence, select
// token, set focus, set view, set theme, apply a hash), so a click, a key, a
// link and a JS call behave identically. Owns the live training (live_training.h)
// and its verbs, and keeps the Scene on the chosen weights (built or
// trained). Runs the stress mode's timed forward pass and the training's
// steps once per frame (tick). Serialises the state the JS API's getState()
// returns and the URL hash.
// Does not: compute attention (it only reads Scene::trace() and readout(),
// and asks Scene::recompute() in tick), draw anything (src/ui), or know about
// the browser (src/platform). Plain C++: no ImGui, no GL.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/state/model_shown.h"
#include "app/tour/tour.h"
#include "app/training/live_training.h"
#include "app/state/view_rows.h"
#include "engine/lesson/scene.h"

namespace headroom::app {

// The stress mode's timing: the engine's forward pass, timed once per frame.
struct StressClock {
  static constexpr int kFrames = 60;  // the median is over this many frames
  std::array<double, kFrames> ms{};   // ring of the last forward times
  int count = 0;                      // forwards timed since the length last changed
  double median_ms = 0;               // median of the last min(count, kFrames)
};

// The demo is the guided lesson's host (app/tour/tour.h TourHost): the tour
// measures its Scene and training and calls its verbs.
struct Demo final : TourHost {
  Scene scene;
  // Which views the page shows (URL hash `view`, app/state/view_rows.h kViews):
  // "lesson" = all of them; any other = the heads control, the readout and
  // that one view, for embeds that teach one step.
  std::string view = kLessonPage;
  std::string theme = "light";  // one of kThemes (app/state/url_state.h)
  // The compact layout's open tab (kTabs; URL hash `tab`): the one view a
  // small frame shows under the readout.
  std::string tab = kTabs[0];
  bool reduced_motion = false;  // the page prefers reduced motion: no animation
  bool coarse_pointer = false;  // the page's main pointer is a finger: hints name taps, not keys
  std::string error;  // message of the last refused input, "" when the last input was accepted
  // The code of that refusal (a refusal table's code, app/lang/refusals.h;
  // a link's first refusal), "" when the last input was accepted.
  std::string error_code;
  // The refusals of the last link applied (apply_hash), as `error` got them:
  // the page prints them beside the canvas ("Link: ..."), so the readout
  // leaves out an `error` equal to them instead of saying it twice.
  std::string link_error;
  StressClock stress;
  // The live training runs (1, 2 and 4 heads) and which weights the views show.
  // Trained here, unless made with TrainsElsewhere (live_training.h).
  LiveTraining training;
  // The guided lesson (tour.h): which step is open, predictions, reveals.
  Tour tour;
  std::string tour_error;  // the last tour verb's refusal, "" when accepted
  // A snapshot download the UI asked for (heads of the run), taken by the
  // platform after the frame; 0 when none is pending.
  int download_request = 0;
  // An export the UI's Save menu asked for (a view of kViews and a format
  // of kExportFormats, app/state/export.h), taken by the platform after the frame;
  // `view` is empty when none is pending.
  struct ExportRequest {
    std::string view, format;
  };
  ExportRequest export_request;

  Demo();
  // The page's: its runs train in the training program (live_training.h
  // "Where it trains"), so no trainer is linked into the page.
  explicit Demo(TrainsElsewhere);

  // The model the views draw (model_shown.h): the Scene on its built or
  // trained weights, or the text model on the Scene's sentence when
  // "text" is shown. Rebuilt here when anything it reads has changed since
  // (the Scene's revision, the text weights, the layer), so every read in a
  // frame sees the verbs made before it.
  const ModelShown& shown();
  // Which of the text model's layers the views show (0-based): kept while
  // the model has it, else its last layer.
  int text_layer() const { return text_layer_; }
  // 1-based, as the screen counts layers: refused (kept) when the text model
  // shown has no such layer.
  bool set_text_layer(int layer);

  Scene& tour_scene() override { return scene; }
  LiveTraining& tour_training() override { return training; }

  // Each verb applies the input or, if it is refused, keeps the state and
  // records the reason in `error`. Returns whether it was accepted.
  bool set_heads(int heads) override;
  bool set_sentence(std::string_view utf8);
  bool select_token(int token);
  bool set_focus(float focus) override;
  bool set_stress(int tokens);  // 0 = off; a new length restarts the clock
  bool set_target(Relation r, int token);  // the query's target for r
  // Lesson controls: knock heads out (0-based; zeroed before W_O) and tie
  // query and key (W_K = W_Q). Scene::set_knockout / set_tie_qk validate.
  // The tie has one meaning everywhere (hash tieqk): the Scene ties its built
  // weights, "trained" shows the tied run, and the next training reset
  // trains tied runs beside the untied ones (live_training.h "The tie").
  bool set_knockout(const std::vector<int>& heads) override;
  bool set_tie_qk(bool tie) override;
  void reset_targets();
  bool set_view(std::string_view view);    // one of kViews
  bool set_theme(std::string_view theme);  // one of kThemes
  bool set_tab(std::string_view tab);      // one of kTabs
  // The interface's language (app/lang/lang.h; hash lang=): a refused code keeps
  // the language. A page on the old language's lesson sentence opens the new
  // one's, with its query and targets as the catalogue names them. A known
  // language whose catalogue is not here yet (the site's wasm has English's
  // alone) is accepted and waited for: lang_loading names it, the language
  // shown stays until language_arrived (the page fetches the file); a later
  // choice replaces the wait.
  bool set_language(std::string_view code);
  // The language being waited for ("" when none): getState().langLoading.
  std::string lang_loading;
  // The page fetched `code`'s catalogue (the .po text): added, and shown if
  // it is still the one waited for; a file that does not parse is that
  // language's refusal (lang_unreadable). Returns whether the language shown changed.
  bool language_arrived(std::string_view code, std::string_view po);
  // The page could not fetch `code`'s catalogue (`why`: the page's words,
  // "HTTP 404"): the wait ends with the refusal lang_unfetched, the language
  // shown stays.
  void language_failed(std::string_view code, std::string_view why);
  void set_reduced_motion(bool reduce);
  // Records a refusal made outside the verbs (the JS side's type checks:
  // a code of the JS table, app/lang/refusals.h).
  void reject(const Status& why);

  // Training verbs (live_training.h): the same validation and messages for the
  // train panel, window.headroom.train, postMessage and the hash. Each keeps
  // the Scene on the chosen weights.
  bool set_weights(std::string_view choice);  // "built" | "trained"
  // `tie` (when given) becomes the demo's tie, for the Scene too; without it
  // the runs are reset with the demo's tie.
  bool train_reset(int64_t seed, int r, float lr, std::optional<bool> tie = std::nullopt) override;
  bool train_step(int n) override;
  bool train_play() override;
  void train_pause();
  bool train_set_lr(float lr);
  // The text task (LiveTraining::reset_text): layers 1 or 2.
  bool train_reset_text(int layers, int64_t seed, float lr) override;
  bool train_set_speed(int max_steps_per_frame);
  // A head of a text run knocked out and the held-out loss measured with and
  // without it (LiveTraining::knockout: layer and head from 1).
  bool train_knockout(int heads, int layer, int head);
  // The midpoint found in held-out text: case `i` (0-based) of
  // training.splits() on the lesson's views, through the verbs above: its
  // sentence (the words joined by spaces, which read back to its ids), its
  // query, the text weights, one head. Refused, nothing changed, for a case
  // there is not (the sentence, the verb that could still refuse, goes first).
  // The value space then anchors the one head on the case's two tokens:
  // for the text model each head is read against its query's two heaviest
  // tokens (model_shown.h), which for a case are its a and b.
  bool show_split(int i);
  // The case show_split last put on the views while they still show its
  // sentence on the text weights (the runs may have moved on since), or
  // nullptr.
  const TextSplit* shown_split() const;
  // Asks the platform to save snapshot(heads) as a file (refused when no run
  // has that many heads).
  bool request_download(int heads);
  // Asks the platform to save `view` as `format` (app/state/export.h checks both).
  bool request_export(std::string_view view, std::string_view format);
  // A training refusal made outside the verbs (JS type checks): recorded in
  // `error` and in the training state's error.
  void train_reject(const Status& why);

  // Tour verbs (tour.h): the same for the tour panel, headroom.tour and
  // postMessage. Each records a refusal in `error` and `tour_error`.
  bool tour_go(int step);  // 1-based; opens the tour if closed
  bool tour_predict(const Prediction& p);
  bool tour_reveal();
  bool tour_replay();
  bool tour_retry(int step);  // forget step's answer and reveal, open it again
  void tour_close();
  void tour_reject(const Status& why);  // a refusal made outside the verbs (JS type checks); never silent
  std::string tour_state_json() const { return tour.state_json(tour_error); }

  // A URL hash ("#heads=2&..."): every field that parses and is accepted is
  // applied; the others keep their values and their messages, joined, become
  // `error` ("" when everything was accepted). Returns whether all was.
  bool apply_hash(std::string_view hash);
  // The state as a URL hash without the '#' (defaults left out).
  std::string hash() const;

  // Once per drawn frame, before the views: while stress is on, runs the
  // engine's forward pass again and times it (StressClock); while training
  // runs, trains within the frame budget and brings trained weights to the
  // Scene. Returns whether another frame is wanted (stress on or training).
  bool tick();

 private:
  bool apply(const Status& s);
  void clear_error();
  // The shown model and what it was made from.
  ModelShown shown_;
  struct ShownKey {
    uint64_t revision = ~uint64_t{0};
    const void* weights = nullptr;
    int64_t step = -1;
    int heads = 0;
    int64_t seed = 0;
    int layer = -1;
    bool operator==(const ShownKey& o) const {
      return revision == o.revision && weights == o.weights && step == o.step && heads == o.heads && seed == o.seed &&
             layer == o.layer;
    }
  };
  ShownKey shown_key_;
  std::optional<TextSplit> split_shown_;  // show_split's last case
  int text_layer_ = 0;
  std::vector<std::string> text_words_;
  std::vector<bool> text_unknown_;
  TextSentenceTrace text_trace_;
  bool tick_stress();
};

// The JS API's state as one JSON object (see web/headroom-loader.mjs):
// tokens, heads, dModel, dHead, query, focus, weights (H rows of L weights for
// the selected token), relations and targets per head, readout per head,
// valueSpace per head (the value-space view's 2-D points and output point),
// knockout (0-based heads), carried (per lesson target, 0..1) and
// carriedTargets (their token indices), tieQK, scores (per head, the query's
// scaled scores before softmax),
// sentence (the readout in words), description (the aria-live text),
// modelWeights ({choice, shown, note, step}: which weights the views show),
// error.
std::string state_json(Demo& demo);

}  // namespace headroom::app
