// refusals.h: every refusal the app's rooms make, once: a code and its English.
//
// Does: list the app's refusals (the tour, the Demo's verbs, the named
// choices, the languages, the exports) in one X-macro table,
// HEADROOM_APP_REFUSALS(X), as engine/core/refusals.h does for the engine,
// and define each as `refusals::code`. Every room of the app links lang, so
// every room reaches this table; the templates are the catalogues' msgids.
// HEADROOM_JS_REFUSALS(X) lists the page's own (web/headroom.mjs), which
// reach C++ as a code and the values JS quotes (js_api.cpp headroom_reject).
// Does not: translate (tr_status), or hold the engine's refusals.
#pragma once
#include <string_view>

#include "engine/core/refusals.h"

// clang-format off
#define HEADROOM_APP_REFUSALS(X) \
  /* the tour (tour/tour.cpp) */ \
  X(tour_step_range, "tour step {0} is not in this tour's range {1}..{2}") \
  X(tour_range, "a tour range must be steps N-M with 1 <= N <= M <= {0}, got {1}-{2}") \
  X(tour_step_outside, "tour step {0} is outside the range {1}-{2}") \
  X(tour_closed, "the tour is not open: go to a step first (tour.go(1))") \
  X(step_no_prediction, "step {0} takes no prediction: reveal it") \
  X(step_revealed, "step {0} was already revealed; a prediction counts only before the reveal") \
  X(step_kind, "step {0} takes a {1}, not a {2}") \
  X(step_kind_or_choice, "step {0} takes a {1} or a choice, not a {2}") \
  X(point_range, "a point's coordinates must be finite numbers within +-1000") \
  X(point_shape, "a point is {x, y}") \
  X(two_points, "step two-heads takes two points, one per head") \
  X(choice_unknown, "step {0} takes one of {1}, not \"{2}\"") \
  X(number_range, "step {0} takes a number from 0 to 1") \
  X(match_count, "step more-heads takes 4 token indices: subject, complement, previous token, antecedent") \
  X(match_missing, "answer every relationship: no token picked yet for {0}") \
  X(labels_count, "step real-text takes {0} labels, one per head, not {1}") \
  X(labels_missing, "label every head: no label picked yet for head {0}") \
  X(label_unknown, "\"{0}\" is not a head label: previous, self, start, duplicate, induction, determiner-noun, verb-subject, pronoun-noun, punctuation or mixed") \
  X(no_prediction, "no prediction given") \
  X(replay_unrevealed, "step {0} has not been revealed yet: nothing to replay") \
  /* live training (training/live_training.cpp, live_training_json.cpp) */ \
  X(all_diverged, "every run has diverged: reset (a smaller learning rate helps) to train again") \
  X(steps_per_frame, "steps per frame must be a whole number from 1 to {0}, got {1}") \
  X(runs_here, "training runs here: no program sends to it") \
  X(text_layers_choice, "layers must be 1 or 2 (the text model's attention layers), not {0}") \
  X(text_seed, "seed must be a whole number from 0 to {0}") \
  X(corpus_not_loaded, "the corpus is not loaded: the text task cannot start yet") \
  X(corpus_unreadable, "the corpus could not be read ({0}): the text task is not available") \
  X(corpus_unfetched, "the corpus could not be fetched ({0}): the text task is not available") \
  X(snapshot_in_program, "the runs train in the training program: train.snapshot asks it") \
  X(corpus_in_program, "the runs train in the training program, which fetches the corpus itself") \
  X(text_not_tied, "the text model's runs have no tied query and key") \
  X(tie_not_boolean, "tieQK must be true or false") \
  X(knockout_text_only, "a knockout is measured on the English text runs: reset training with task \"text\" first") \
  X(text_not_shown, "no text model is shown: choose the weights \"text\" while the text task trains") \
  X(text_not_shown_note, "no text model is shown: {0}") \
  /* the Demo's verbs, choices, languages, exports (state/, lang/) */ \
  X(download_no_run, "no training run has {0} heads to download") \
  X(not_a_choice, "{0}={1} is not a {2} ({3})") \
  X(not_a_language, "lang={0} is not a language of this page ({1})") \
  X(lang_not_here, "the catalogue of lang={0} is not loaded yet") \
  X(lang_unfetched, "the catalogue of lang={0} could not be fetched ({1}); the language shown is kept") \
  X(lang_unreadable, "the catalogue of lang={0} could not be read ({1}); the language shown is kept") \
  X(png_by_page, "a picture (png) is made by the page, not by the app") \
  X(no_export, "view \"{0}\" has no export") \
  X(png_too_big, "the picture would be {0} x {1} pixels, more than this browser's WebGL can draw") \
  X(png_no_framebuffer, "WebGL refused a framebuffer for the picture") \
  X(png_context_lost, "the WebGL context is lost; try again once the picture is back") \
  X(png_not_drawn, "the canvas could not be drawn for the picture") \
  X(po_malformed, "{0}.po line {1}: malformed entry") \
  X(po_lesson, "{0}.po: @name, @lesson and its @lesson-query, -subject and -complement words are needed") \
  X(po_previous, "{0}.po: @lesson-previous \"{1}\" is not the token before the query") \
  X(po_pronoun, "{0}.po: @lesson-pronoun and @lesson-antecedent must be two words of @lesson") \
  /* the link (state/url_state.cpp, state/demo.cpp): a refused key's reason */ \
  /* is a refusal inside link_kept or link_field_refused */ \
  X(link_kept, "the link's {0}; the current value of {1} is kept") \
  X(link_unknown_key, "ignored the unknown link setting {0} (known: {1})") \
  X(link_twice, "the link gives {0} {1} times; which one was meant is unclear, so the current value of {0} is kept") \
  X(link_too_long, "the link's settings (after #) are {0} bytes; the cap is {1} bytes, so they were ignored") \
  X(link_query_skipped, "the link's query was skipped because its sentence was refused") \
  X(link_field_refused, "the link's {0} setting was refused: {1}; the current value of {2} is kept") \
  X(link_training_refused, "the link's seed or r was refused: {0}") \
  X(link_task_refused, "the link's task was refused: {0}") \
  X(link_tour_refused, "the link's tour was refused: {0}") \
  X(link_focus_above, "the link's focus={0} is above 1; using 1 (focus runs from 0 to 1)") \
  X(value_missing, "{0} has no value") \
  X(value_bad_escape, "{0} has a malformed %-escape {1} (a % must be followed by two hex digits)") \
  X(value_lone_surrogate, "{0} contains a lone surrogate (half of a UTF-16 pair), which is not text") \
  X(value_not_utf8, "{0} is not valid UTF-8 text") \
  X(value_nul, "{0} contains a NUL character (%00)") \
  X(value_control, "{0} contains a control character") \
  X(value_not_digits, "{0}={1} is not a whole number written in digits ({2})") \
  X(link_focus, "focus={0} is not a plain number from 0 to 1 (like 0.5)") \
  X(link_seed, "seed={0} is not a whole number from 0 to {1} written in digits") \
  X(link_r, "r={0} is not a number of related tokens the task has ({1})") \
  X(link_layers, "layers={0} is not a layer count the text model has ({1})") \
  X(link_knockout, "knockout={0} is not a list of head numbers counted from 1 (like 2 or 1,2)") \
  X(link_tieqk, "tieqk={0} is not 1 (query and key tied) or 0 (not tied)") \
  X(link_tour, "tour={0} is not a step 1 to {1} or a range N-M of them") \
  X(tour_refused, "the tour refused this input") \
  /* the text model's layer the views show (state/demo.cpp set_text_layer) */ \
  X(text_layer_shown, "layer {0} is not a layer of the text model: its layers are 1 to {1}") \
  /* the midpoint found in held-out text (state/demo.cpp show_split) */ \
  X(no_split_case, "case {0} of the midpoint found in the text does not exist: there are {1}") \
  /* the training program's messages (wire/train_wire.cpp); {0} of wire_broken is a phrase */ \
  X(wire_foreign, "not a message of the training program") \
  X(wire_unknown_kind, "a training message of an unknown kind") \
  X(wire_other_kind, "a training message of another kind") \
  X(wire_broken, "a broken training message: {0}") \
  /* notes on the weights the views show (training/live_training.cpp): not refusals, */ \
  /* but sentences the page words from a code the same way */ \
  X(note_text_model, "the text model's heads read English, not this sentence: the views show the built weights") \
  X(note_not_text_task, "the text model is not training: reset training with task \"text\" to see its heads; the views show the built weights") \
  X(note_misfit, "the trained weights do not fit the scene ({0}): the views show the built weights") \
  X(note_starting, "the training program is starting: the views show the built weights until it answers") \
  X(note_no_tied_runs, "the training runs have no tied query and key: reset training with the tie on to train tied runs; the views show the built weights, tied") \
  X(note_no_run_one, "no training run has {0} head (the runs have {1}): the views show the built weights") \
  X(note_no_run, "no training run has {0} heads (the runs have {1}): the views show the built weights") \
  X(note_on_the_way, "the trained weights are on their way from the training program: the views show the built weights until they come")

// The refusals the page's JavaScript makes before a value reaches C++ (its
// type checks, web/headroom.mjs VERBS): JS names the code and the values it
// quotes; state/tables.cpp js_refusal adds the tables' values (head counts,
// choices, caps) the template names first, so a list is one C++ definition.
#define HEADROOM_JS_REFUSALS(X) \
  X(js_heads, "heads must be a whole number ({0}), not {1}") \
  X(js_token, "a token index must be a whole number, not {0}") \
  X(js_focus, "focus must be a number from 0 to 1, not {0}") \
  X(js_knockout, "setKnockout takes an array of head indices counted from 0 (like [1]), not {0}") \
  X(js_tie, "setTieQK takes true or false, not {0}") \
  X(js_stress, "the stress length must be a whole number of tokens, not {0}") \
  X(js_sentence_type, "setSentence needs a string") \
  X(js_hash_type, "a URL hash must be a string") \
  X(js_weights, "weights must be {0}, not {1}") \
  X(js_split, "showSplit takes a case's index in train.state().splits, counted from 0, not {0}") \
  X(js_language, "setLanguage needs a language code like \"de\", not {0}") \
  X(js_not_text, "{0} contains a lone surrogate (half of a UTF-16 pair), which is not text") \
  X(js_no_memory, "{0} does not fit in memory") \
  X(js_tour_go, "tour.go needs a step number (1 to {0}), not {1}") \
  X(js_tour_retry, "tour.retry needs a step number (1 to {0}), not {1}") \
  X(js_tour_predict, "tour.predict takes {x, y}, [{x, y}, {x, y}], a choice id, a number or an array of token indices, not {0}") \
  X(js_reset_type, "train.reset takes an object {task, seed, r, lr, tieQK} or {task: \"text\", layers, seed, lr}") \
  X(js_task, "task must be {0}, not {1}") \
  X(js_reset_keys, "train.reset with task {0} takes {1}; not {2}") \
  X(js_layers, "layers must be {0}, not {1}") \
  X(js_seed, "seed must be a whole number from 0 to {0}, not {1}") \
  X(js_lr, "lr must be a number from 1e-6 to 10, not {0}") /* kLrRangeText */ \
  X(js_r, "r must be {0} (related tokens), not {1}") \
  X(js_tie_qk, "tieQK must be true or false, not {0}") \
  X(js_steps, "step(n) needs a whole number of steps (1 to {0}), not {1}") \
  X(js_download, "download needs a head count ({0}), not {1}") \
  X(js_knockout_args, "knockout takes a layer and a head counted from 1 (as perHead counts them) and a head count, not {0}") \
  X(js_unknown, "the page refused this input ({0})") \
  X(js_worker_restarted, "The training Worker stopped ({0}) and was started again: the runs begin again from step 0.") \
  X(js_train_unavailable, "The training program could not start ({0}); training asks for it again when next used.")
// clang-format on

namespace headroom::refusals {
HEADROOM_APP_REFUSALS(HEADROOM_REFUSAL_DEFINE)
HEADROOM_JS_REFUSALS(HEADROOM_REFUSAL_DEFINE)
}  // namespace headroom::refusals

namespace headroom::app {
// The refusal of any table (engine, app, JS) with this code; nullptr when
// none has it (a code read from the wire or from JS is checked with it).
const Refusal* find_refusal(std::string_view code);
}  // namespace headroom::app
