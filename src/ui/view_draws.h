// view_draws.h: the view table's draw functions, bound to its rows by
// id, and the pages drawn from it.
//
// Does: give each row of app/state/view_rows.h (kViewTable: names, tab, page,
// card) the functions that draw it: in its card, in its compact tab, alone
// on its page (a single-view embed, a picture), and what its page draws
// above it; and draw a view's card, a single-view page and a page's picture
// from them (view_draws.cpp). ui.cpp lays the full and compact layouts out
// by id.
// Does not: name anything the hash or the page knows (app/state/view_rows.h
// does), or decide where the full layout puts a card (ui.cpp).
#pragma once
#include <string_view>

#include "app/state/demo.h"
#include "app/state/view_rows.h"

namespace headroom::ui {

using DrawFn = void (*)(app::Demo&);

struct ViewDraw {
  app::ViewId id;
  DrawFn draw;  // the view in its card
  DrawFn tab;   // its compact tab's panel (nullptr: draw)
  // Its card on its own page (a single-view embed of its page) and its part
  // of its page's picture (nullptr: draw).
  DrawFn alone;
  DrawFn lead;          // a single-view embed of its page draws this above the cards (nullptr: none)
  DrawFn picture_lead;  // its page's picture draws this above it (nullptr: none)
  // The full lesson shows a stand-in card until this one scrolls into view
  // (drawing it builds the trainer: app/training/live_training.h "Lazy").
  bool lazy = false;
};

// The functions of row `id`.
const ViewDraw& view_draw(app::ViewId id);

// The view in a card of its row's id: its draw, or (alone) its alone draw.
void draw_card(app::Demo& demo, app::ViewId id, bool alone = false);
// A single-view embed of `page` (a kViews value other than kLessonPage and
// kTrainPage): its rows' leads, then each of its rows alone in its card.
void draw_page(app::Demo& demo, std::string_view page);
// Whether `page` has a picture of its own (every page but kLessonPage, whose
// picture is the whole canvas), and that picture: its rows alone, one after
// the other, a separator between two, each after its picture lead.
bool page_has_picture(std::string_view page);
void draw_page_picture(app::Demo& demo, std::string_view page);

}  // namespace headroom::ui
