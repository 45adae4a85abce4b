// view_draws.cpp: the draw functions of each view table row (app/state/view_rows.h),
// and the cards, single-view pages and pictures drawn from them.
//
// Does: bind every row of app::kViewTable, in its order, to its views
// (checked at compile time: one binding per row, same order).
// Does not: lay out the full or compact page (ui.cpp).
#include "ui/view_draws.h"

#include "imgui.h"
#include "ui/views.h"

namespace headroom::ui {

using app::ViewId;

namespace {

// The concatenation with the lesson controls that act on it (knockout, tie).
void controls_and_concat(Demo& demo) {
  view_lesson_controls(demo);
  view_concat(demo);
}
// Training in a frame: which weights the lesson's tabs show, the runs and
// what each head came to attend to (the trainer is built when first shown).
void compact_train(Demo& demo) {
  view_weights_switch(demo);
  view_train(demo);
  ImGui::Separator();
  view_specialisation(demo);
}
// What a readout embed shows above what each head holds.
void focus_and_controls(Demo& demo) {
  view_focus(demo);
  view_lesson_controls(demo);
}

// One binding per row of app::kViewTable, in its order: id, draw, tab,
// alone, lead, picture_lead, lazy (app/state/view_rows.h).
constexpr ViewDraw kViewDraws[] = {
    {ViewId::Values, view_value_space, nullptr, nullptr, nullptr, nullptr},
    {ViewId::Sentence, view_sentence_strip, nullptr, nullptr, nullptr, nullptr},
    {ViewId::Attention, view_attention, nullptr, nullptr, nullptr, nullptr},
    {ViewId::Heatmap, view_heatmap, nullptr, nullptr, nullptr, nullptr},
    {ViewId::Heads, view_heads_hold, nullptr, nullptr, focus_and_controls, view_readout},
    {ViewId::Concat, view_concat, controls_and_concat, controls_and_concat, nullptr, nullptr},
    {ViewId::Steps, view_steps, nullptr, nullptr, nullptr, nullptr},
    {ViewId::Train, view_train, compact_train, nullptr, nullptr, nullptr, true},
    {ViewId::Specialisation, view_specialisation, nullptr, nullptr, nullptr, nullptr, true},
    {ViewId::Controls, view_lesson_controls, nullptr, nullptr, nullptr, nullptr},
    {ViewId::Stress, view_stress, nullptr, nullptr, nullptr, nullptr},
};

constexpr bool bound_in_order() {
  if (sizeof kViewDraws / sizeof kViewDraws[0] != app::kViewCount) return false;
  for (size_t i = 0; i < app::kViewCount; ++i)
    if (kViewDraws[i].id != app::kViewTable[i].id) return false;
  return true;
}
static_assert(bound_in_order(), "one ViewDraw per row of app::kViewTable, in its order");

DrawFn alone_draw(const ViewDraw& d) { return d.alone ? d.alone : d.draw; }

}  // namespace

const ViewDraw& view_draw(ViewId id) {
  for (const ViewDraw& d : kViewDraws)
    if (d.id == id) return d;
  return kViewDraws[0];  // unreachable: every id is bound (checked above)
}

void draw_card(Demo& demo, ViewId id, bool alone) {
  const ViewDraw& d = view_draw(id);
  begin_card(app::view_row(id).card);
  (alone ? alone_draw(d) : d.draw)(demo);
  end_card();
}

void draw_page(Demo& demo, std::string_view page) {
  for (size_t i = 0; i < app::kViewCount; ++i)
    if (app::kViewTable[i].page && page == app::kViewTable[i].page && kViewDraws[i].lead) kViewDraws[i].lead(demo);
  for (const app::ViewRow& row : app::kViewTable)
    if (row.page && page == row.page) draw_card(demo, row.id, true);
}

bool page_has_picture(std::string_view page) {
  if (page == app::kLessonPage) return false;
  for (const app::ViewRow& row : app::kViewTable)
    if (row.page && page == row.page) return true;
  return false;
}

void draw_page_picture(Demo& demo, std::string_view page) {
  bool first = true;
  for (size_t i = 0; i < app::kViewCount; ++i) {
    if (!app::kViewTable[i].page || page != app::kViewTable[i].page) continue;
    if (!first) ImGui::Separator();
    first = false;
    if (kViewDraws[i].picture_lead) kViewDraws[i].picture_lead(demo);
    alone_draw(kViewDraws[i])(demo);
  }
}

}  // namespace headroom::ui
