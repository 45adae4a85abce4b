// refusals.h: every refusal the app's rooms make, once: a code and its English.
//
// Does: list the app's refusals (the tour, the Demo's verbs, the named
// choices, the languages, the exports) in one X-macro table,
// HEADROOM_APP_REFUSALS(X), as engine/core/refusals.h does for the engine,
// and define each as `refusals::code`. Every room of the app links lang, so
// every room reaches this table; the templates are the catalogues' msgids.
// Does not: translate (tr_status), or hold the engine's refusals.
#pragma once
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
  X(text_not_tied, "the text model's runs have no tied query and key") \
  X(knockout_text_only, "a knockout is measured on the English text runs: reset training with task \"text\" first") \
  /* the Demo's verbs, choices, languages, exports (state/, lang/) */ \
  X(download_no_run, "no training run has {0} heads to download") \
  X(not_a_choice, "{0}={1} is not a {2} ({3})") \
  X(not_a_language, "lang={0} is not a language of this page ({1})") \
  X(png_by_page, "a picture (png) is made by the page, not by the app") \
  X(no_export, "view \"{0}\" has no export")
// clang-format on

namespace headroom::refusals {
HEADROOM_APP_REFUSALS(HEADROOM_REFUSAL_DEFINE)
}  // namespace headroom::refusals
