// ui.h: what the platform layer calls to draw the demo: style and fonts,
// the frame (draw_ui), the frames the UI still wants, the export frames of a
// view's picture, and what the page tells the UI about itself (a sandboxed
// frame, a message's room). The debug probes the page reads for tests
// (layout_json, fit_json) are in probes.h.
//
// Does: lay out the views (the view table, view_rows.h and view_draws.h; the views,
// views.h) in one window that fills the display, and handle the demo's
// keyboard shortcuts (1/2/4/8 heads, left/right query).
// Does not: create the ImGui context, the fonts' GL texture or the GL context
// (src/platform does), or compute attention (it reads the Scene's Trace).
#pragma once

#include <string_view>

#include <vector>

#include "app/state/demo.h"
#include "imgui.h"

namespace headroom::ui {

// Colours (palette.h) and spacing; the platform calls it again whenever
// app::Demo::theme changes (dark = theme "dark").
void setup_style(bool dark);

// Fonts for a display with `density` physical pixels per CSS pixel. The
// platform rebuilds the font texture after calling this.
void setup_fonts(float density);
// Whether the shown language (app/lang/lang.h) or the extra font changed
// since setup_fonts: the platform then sets the fonts up again (a language
// outside Latin-1 adds its glyphs to the atlas).
bool fonts_stale();
// The font for the catalogues' glyphs outside the UI fonts' ranges (CJK:
// cmake/web.cmake subsets it to the catalogues' characters and ships it as
// its own file): the page fetches it once a language that needs it is
// shown (extra_font_wanted) and hands the bytes over here; until then those
// glyphs are drawn by the browser (text.h). Kept for the program's life.
void set_extra_font(std::vector<unsigned char> ttf);
// Whether the shown language has glyphs outside the UI fonts' ranges and
// the extra font is not here yet.
bool extra_font_wanted();
// The extra font's bytes (0: none yet) and how many of its glyphs the
// atlas holds (the shown language's, merged by setup_fonts): for tests.
int extra_font_bytes();
int extra_font_glyphs();

// Between ImGui::NewFrame() and ImGui::Render().
void draw_ui(app::Demo& demo);

// Once per frame tick: whether the UI still wants frames drawn (an animation
// running, or the stress tick); counts one off. Frames are otherwise drawn
// only after input. An animation, or the platform while the app ticks, asks
// for more with frame.h request_frames(n).
bool take_frame_request();

// Export frames (src/platform/export_png.cpp renders a view's card into a
// picture): after begin_export_frames(view), draw_ui draws only that view,
// alone, as one card (view_draws.h draw_page_picture: what a single-view
// embed shows of it), as wide as its card was last shown, at the display's top
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

}  // namespace headroom::ui
