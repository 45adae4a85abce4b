// web_app.h: what the browser build's files share: the one Demo, and the
// guest state (guest.cpp) the main loop reads.
//
// Does: give web_main.cpp (drawing) and js_api.cpp (window.headroom's verbs)
// the same Demo, so a JS call and a click change the same state; and let
// guest.cpp (input, pause, context loss) tell the main loop when to draw.
// Does not: exist outside the browser build.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/state/demo.h"

namespace headroom::platform {

app::Demo& demo();

// State of the app as a guest in a page (guest.cpp).
struct Guest {
  int wake = 3;                   // frames still to draw after the last input
  long long frames = 0;           // frames drawn since start
  long long painted = 0;          // of those, frames that painted the canvas (a frame that
                                  // would paint what it shows already paints nothing)
  bool paused = false;            // page hidden or canvas out of view
  bool context_lost = false;      // WebGL context lost, not yet restored
  bool context_restored = false;  // restored: rebuild GL objects next frame
  int missing_glyphs = 0;         // glyphs the last drawn frame drew as boxes (ui/text.h)
  int gl_generation = 0;          // +1 per restored context: renderers rebuild older GL objects
  int wheel_directions = 0;       // kWheel* bits: where the hovered window can still scroll
  bool ui_wants_keys = false;     // an ImGui text field has focus
  std::string clipboard;          // text handed to ImGui on paste
};
Guest& guest();

// Guest::wheel_directions: the ways the window under the pointer can still
// scroll (the wheel goes to the page otherwise), and an item being dragged.
constexpr int kWheelUp = 1, kWheelDown = 2, kWheelLeft = 4, kWheelRight = 8, kWheelDragging = 16;

// The ways the window under (x, y) (CSS px, the last frame's windows) can
// still scroll, as kWheel* bits (guest.cpp): a touch drag scrolls it only
// that way; any other drag is the page's to scroll (page_glue.cpp).
int touch_scroll_directions(float x, float y);

// Draw at least `frames` more frames (input, API calls, resize).
void wake(int frames = 3);

// Saves snapshot(d.download_request) as a JSON file through the browser and
// clears the request (js_api.cpp); a refusal goes to the state's error.
void save_requested_download(app::Demo& d);

// The canvas's size: CSS pixels and its backing store (device pixels).
struct CanvasSize {
  double css_w = 0, css_h = 0;
  int fb_w = 0, fb_h = 0;
};
CanvasSize canvas_size();  // web_main.cpp
// Draws one frame now, out of view or not (export_png.cpp reads it back);
// false when it cannot (the WebGL context is lost).
bool draw_frame_now();

// A picture read back from GL: width x height RGBA, top row first.
struct Picture {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;
};
// `view`'s picture at the device's resolution (export_png.cpp): "lesson" is
// the canvas, any other view its card drawn alone.
Status export_png(app::Demo& demo, std::string_view view, Picture& out);
// Hands the export the UI asked for (Demo::export_request) to the page, or
// records why it failed in the state's error; clears the request.
void offer_requested_export(app::Demo& d);
// Hands a text file (an export, a snapshot) to the page: saved, and offered
// to the host page from a sandboxed frame (headroom.mjs headroomOffer).
void offer_text(const std::string& view, const std::string& format, const std::string& name, const std::string& text);

// After ImGui's GLFW backend is installed: move listeners to the canvas, add
// pause/visibility/context-loss handling, route the clipboard.
void guest_install();
// After draw_ui each frame: record whether the UI wants the wheel and keys.
void guest_after_frame();

}  // namespace headroom::platform
