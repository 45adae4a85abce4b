// save_menu.h: every card's Save menu, and the export frames' layout (one
// view alone, as one card, for its picture).
//
// Does: begin_card calls card_opened(id) and end_card card_closing(), which
// records the card's rect (Layout::card_rects) and draws the Save button of
// a card whose view table row names a page (card_export_view) at the card's
// top right. All defined in save_menu.cpp.
// Does not: save, encode or post anything (the platform does), or compute a
// number (app/export.h writes them).
#pragma once
#include "app/demo.h"

namespace headroom::ui {

// The page (view=) a card's Save menu exports (app/view_table.h), or nullptr.
const char* card_export_view(const char* card_id);
void card_opened(const char* card_id);
void card_closing();
// A card-like window of `view` (the compact panel): its rect and Save button.
void record_card(const char* view);
void save_control(const char* view);
// The Demo the menu's choices go to (draw_ui, each frame).
void set_save_demo(app::Demo& demo);
// The page said the frame is sandboxed (ui.h set_downloads_note).
bool downloads_may_be_dropped();
// Export frames (ui.h begin_export_frames): whether on, and the layout
// draw_ui draws then (the view alone, as one card: draw_page_picture).
bool export_frames();
void draw_export_card(app::Demo& demo);

}  // namespace headroom::ui
