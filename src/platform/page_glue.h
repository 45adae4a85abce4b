// page_glue.h: what the page and the app tell each other besides the JS API:
// touch input, prefers-reduced-motion, and the text twin of the canvas.
//
// Does: install_touch() feeds the canvas's touch events to ImGui as a touch
// screen (in CSS pixels; Emscripten's GLFW reports touches at a stale mouse
// position, so its touch listeners are removed), except a vertical drag the
// view under the finger cannot follow (at that end, or a view that fits):
// that one is left to the browser, which scrolls the page (out of an
// iframe, the host page), as the wheel does at a view's end (guest.cpp);
// read_page_media() hands prefers-reduced-motion (Demo::set_reduced_motion)
// and a coarse pointer (Demo::coarse_pointer) to the app before a frame is
// drawn, so the first frame already names taps on a phone; sync_page(), after
// the frame, writes the demo's state in words, when it changes, into the
// page's aria-live region (#headroom-state) and the canvas's aria-label.
// Does not: hold demo logic or draw.
//
// Build: web only (cmake/web.cmake).
#pragma once

#include "app/state/demo.h"

namespace headroom::platform {

void install_touch(const char* canvas_selector);
void read_page_media(app::Demo& demo);
void sync_page(app::Demo& demo);

}  // namespace headroom::platform
