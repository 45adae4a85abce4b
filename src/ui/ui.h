// ui.h: what the platform layer calls once per frame to draw the demo.
//
// Does: lay out the views (views.h) in one window that fills the display, and
// handle the demo's keyboard shortcuts (1/2/4/8 heads, left/right query).
// Does not: create the ImGui context, the fonts' GL texture or the GL context
// (src/platform does), or compute attention (it reads the Scene's Trace).
#pragma once

#include <string_view>

#include "app/demo.h"
#include "imgui.h"

namespace headroom::ui {

// Colours (palette.h) and spacing; the platform calls it again whenever
// app::Demo::theme changes (dark = theme "dark").
void setup_style(bool dark);

// Fonts for a display with `density` physical pixels per CSS pixel. The
// platform rebuilds the font texture after calling this.
void setup_fonts(float density);

// Between ImGui::NewFrame() and ImGui::Render().
void draw_ui(app::Demo& demo);

// Once per frame tick: whether the UI still wants frames drawn (an animation
// running, or the stress tick); counts one off. Frames are otherwise drawn
// only after input.
bool take_frame_request();

// Where the last frame drew things, in CSS pixels, as JSON:
// {"tokens":[[x0,y0,x1,y1],...], "heads":[...], "views":[...]} (one rect
// per token chip, one per heads button 1/2/4/8, one per view button of the
// compact layout, in the order Value space, Tokens, Attention, Heatmap,
// Heads hold, Concat, Steps); the training views' visible buttons:
// "trainButtons" (play/pause, step, new seed), "download" (one per run),
// "weights" (built, trained), "weightsPlay" (Play beside "not trained yet").
// Every list holds rects with a label inside. Objects that are not labels:
// "controls": {"frames": [...]} (every checkbox's or radio button's box and
// every slider's or field's frame: views.h push_control_frames) and
// "attentionMode": "columns" | "rows" | "" (the attention view's arrangement),
// "heatmap": {"grids": [...] (one per head drawn), "pin": [head, row, column]
// (the cell a click or tap pinned, -1s: none)}.
// Also "save" (every visible Save button), "saveMenu" (the open Save menu's
// items: PNG, CSV, JSON), "cards" ({view: rect}: each view's first card, or
// the compact panel, as drawn).
// Then "trainChart": {rect, runs: [{heads, points, lastLoss, floor, floorY,
// diverged}], specialisationCells}, what the training charts drew (rect all
// 0 when not drawn). Lets browser tests click through the real mouse path
// and check the drawing without guessing a layout.
std::string layout_json();

// Export frames (src/platform/export_png.cpp renders a view's card into a
// picture): after begin_export_frames(view), draw_ui draws only that view,
// alone, as one card (save_menu.cpp kExportCards: what a single-view embed
// shows of it), as wide as its card was last shown, at the display's top
// left, with no Save button; export_card_rect() is where the last frame drew
// it (CSS px). end_export_frames() returns to the layout. has_export_card is
// false for "lesson", whose picture is the whole canvas.
bool has_export_card(std::string_view view);
void begin_export_frames(std::string_view view);
void end_export_frames();
ImVec4 export_card_rect();
// The page says whether the frame is sandboxed (the browser may then drop
// downloads): the Save menus and the snapshot buttons say where files go.
void set_downloads_note(bool sandboxed);

// Whether the last frame used the compact layout (a frame too small for the
// views stacked in one scrolling column: see ui.cpp).
bool compact_layout();
// Room (CSS px) that a passing message outside the canvas takes from it (the
// page's refusal line above the canvas): the layout is chosen on the
// canvas's size plus this, so a refusal never turns the full page compact.
void set_message_room(float css_px);

// Whether the last drawn frame fits its display, as JSON (fit_probe.cpp):
// {"drawn", "display":[w,h], "compact", "windows":[{name, child, pos, size,
// content, room, scroll, scrollMax, scrollbar:[x,y]}], "clipped":[{text,
// rect, clip, axis:"x"|"y"|"xy"}]}: every run of text the scissor cuts.
// Reads what ImGui keeps between frames; call it between frames only.
std::string fit_json();

}  // namespace headroom::ui
