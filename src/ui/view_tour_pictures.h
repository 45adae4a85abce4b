// view_tour_pictures.h: the picture under a revealed tour step (see
// view_tour_pictures.cpp for what each step draws).
//
// Does: draw, below the panel's words and buttons, the view that proves the
// open step's reveal, in the width and height left; `t` is the reveal
// animation's progress (0..1).
// Does not: measure or mark (app/tour.h), or draw the value-space plane of
// the point steps and of step options (view_tour.cpp's plane_widget).
#pragma once
#include <string>
#include <vector>

#include "app/demo.h"
#include "app/tour.h"
#include "imgui.h"
#include "ui/label_place.h"

namespace headroom::ui {

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

void tour_picture(app::Demo& demo, const app::TourStepInfo& info, const app::TourRecord& rec, float t);

}  // namespace headroom::ui
