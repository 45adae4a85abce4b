// cards.h: the cards around the views, each with its Save menu.
//
// Does: begin_card / end_card draw a card (a bordered child window) around a
// view; end_card records the card's rect (Layout::card_rects) and, for a card
// whose view table row names a page (card_export_view), draws the Save
// button at its top right, whose menu asks the platform for that page as a
// picture (PNG) or its numbers (CSV, JSON). record_card does the same for a
// card-like window (the compact layout's panel).
// Does not: save, encode or post anything (the platform does), compute a
// number (app/state/export.h writes them), or lay out the export frames (ui.cpp).
#pragma once
#include "imgui.h"

namespace headroom::ui {

// A card around a view: begin_card, the view, end_card. `tint` is the
// background (0: palette().card).
void begin_card(const char* id, ImU32 tint = 0);
void end_card();
// The page (view=) a card's Save menu exports (app/state/view_rows.h), or nullptr.
const char* card_export_view(const char* card_id);
// A card-like window of `view` (the compact panel): its rect and Save button.
void record_card(const char* view);
void save_control(const char* view);

}  // namespace headroom::ui
