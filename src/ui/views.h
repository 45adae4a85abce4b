// views.h: one ImGui view per concept (one file each, view_*.cpp).
//
// Does: declare the views ui.cpp lays out through the view table
// (app/state/view_rows.h: which card, tab and page each one is); each view reads the
// Demo and calls its verbs (never the Scene's setters directly, so errors
// are recorded), and opens with a title and a "(?)" marker stating its maths
// in one line (widgets.h open_view).
// Does not: compute attention, or own any state beyond what ImGui keeps and
// the few display choices in view_state.h. The helpers the views share are
// in widgets.h (widgets), palette.h (colours), view_state.h, probes.h (what
// a frame drew where, for tests), heatmap_textures.h (the GL seam) and
// cards.h.
#pragma once
#include <string>

#include <vector>

#include "app/state/demo.h"
#include "app/lang/describe.h"
#include "app/tour/tour.h"
#include "imgui.h"
#include "ui/cards.h"
#include "ui/label_place.h"
#include "ui/palette.h"
#include "ui/widgets.h"

namespace headroom::ui {

using app::head_verdict;
using app::kReadsCos;
using app::readout_sentence;

// The views of the view table (app/state/view_rows.h: its help column says what
// each shows), in its order.
void view_value_space(Demo& demo);     // ViewId::Values
void view_sentence_strip(Demo& demo);  // ViewId::Sentence: a click on a chip makes it the query, or (armed) reassigns a target
void view_attention(Demo& demo);       // ViewId::Attention: bar thickness = weight, colour = head
void view_heatmap(Demo& demo);         // ViewId::Heatmap: a GLSL program, through heatmap_textures.h
void view_heads_hold(Demo& demo);      // ViewId::Heads: "What each head holds"
void view_concat(Demo& demo);          // ViewId::Concat
void view_steps(Demo& demo);           // ViewId::Steps
void view_train(Demo& demo);           // ViewId::Train: also play / pause, step, new seed, learning rate, speed, R, snapshots
void view_specialisation(Demo& demo);  // ViewId::Specialisation
// Its text task: the heads' behaviour scores over time (only_heads > 0: that run alone).
void view_text_specialisation(const app::LiveTraining& t, int only_heads = 0);
void view_lesson_controls(Demo& demo);  // ViewId::Controls
void view_stress(Demo& demo);           // ViewId::Stress: the app's per-frame forward timing (Demo::tick)

// Above the views, on every page: the heads control (1 / 2 / 4 / 8, d_model
// and d_head), the readout sentence, the single head's focus (presets and
// slider).
void view_heads_control(Demo& demo);
void view_readout(Demo& demo);
void view_focus(Demo& demo);

// The "weights: built / trained" switch and which weights the views show
// (view_weights.cpp); also a one-line statement for the readout.
void view_weights_switch(Demo& demo);
// "built weights (dealt out by construction)" or "trained weights: the
// 2-head run at step 1200 (held-out loss 0.031)", or the note saying why the
// trained ones are not shown.
std::string weights_statement(Demo& demo);

// The training runs' loss chart alone (view_train.cpp), width x height, for
// the tour's training step.
void training_loss_chart(Demo& demo, float width, float height);

// The guided lesson's panel (view_tour.cpp): shown instead of the views
// while demo.tour is open.
void view_tour(Demo& demo);
// The open tour step in words for the screen-reader twin ("" when closed).
std::string tour_description(Demo& demo);

// The picture under a revealed tour step (view_tour_pictures.cpp says what
// each step draws): below the panel's words and buttons, the view that
// proves the open step's reveal, in the width and height left; `t` is the
// reveal animation's progress (0..1). Not the value-space plane of the point
// steps and of step options (view_tour.cpp's plane_widget).
void tour_picture(Demo& demo, const app::TourStepInfo& info, const app::TourRecord& rec, float t);
// A tour picture's labels: placed clear of `markers` and of each other inside
// `bounds` (label_place.h), each drawn in its colour (on a faint backdrop
// when `backdrop`), a leader line to its anchor where it sits farther out;
// every placed rect is recorded for tests (probes.h tour_picture_labels).
struct TourLabel {
  std::string text;
  ImU32 color = 0;
};
void draw_tour_labels(ImDrawList* dl, const std::vector<LabelRequest>& requests, const std::vector<TourLabel>& labels,
                      const std::vector<Box>& markers, const Box& bounds, bool backdrop);

}  // namespace headroom::ui
