// page_glue.cpp: see page_glue.h.
#include "platform/page_glue.h"

#include <cfloat>
#include <cmath>

#include <emscripten.h>
#include <emscripten/html5.h>

#include <string>

#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/state/model_shown.h"
#include "ui/views.h"
#include "imgui.h"
#include "platform/web_app.h"

namespace headroom::platform {

namespace {

// Emscripten's GLFW turns touches into mouse presses at the last mouse
// position (its touch path only works for SDL events): take them out.
EM_JS(void, js_remove_glfw_touch, (), {
  if (typeof GLFW === 'undefined' || !Module.canvas) return;
  const c = Module.canvas;
  c.removeEventListener('touchmove', GLFW.onMousemove, true);
  c.removeEventListener('touchstart', GLFW.onMouseButtonDown, true);
  c.removeEventListener('touchcancel', GLFW.onMouseButtonUp, true);
  c.removeEventListener('touchend', GLFW.onMouseButtonUp, true);
});

EM_JS(int, js_reduced_motion, (), {
  if (!Module.headroomMotionQuery && window.matchMedia)
    Module.headroomMotionQuery = window.matchMedia('(prefers-reduced-motion: reduce)');
  return Module.headroomMotionQuery && Module.headroomMotionQuery.matches ? 1 : 0;
});

// Whether the page's main pointer is a finger (a phone or a tablet): the
// tour then names taps, not keys.
EM_JS(int, js_coarse_pointer, (), {
  if (!Module.headroomPointerQuery && window.matchMedia)
    Module.headroomPointerQuery = window.matchMedia('(pointer: coarse)');
  return Module.headroomPointerQuery && Module.headroomPointerQuery.matches ? 1 : 0;
});

EM_JS(void, js_set_state_text, (const char* utf8, const char* name_utf8), {
  const text = UTF8ToString(utf8);
  const live = document.getElementById('headroom-state');
  if (live) live.textContent = text;
  if (Module.canvas) Module.canvas.setAttribute('aria-label', UTF8ToString(name_utf8) + '. ' + text);
});

// The touch that drives the pointer, and who owns its drag: undecided
// until it has moved kDecidePx; then ImGui (a tap, a sideways drag, a drag
// that scrolls the view under the finger) or the page (a vertical drag
// the view under the finger cannot follow: it is at that end, or fits).
enum class Drag { None, Undecided, Ui, Page };
constexpr float kDecidePx = 4.f;  // below the browser's touch slop: no pan has begun
long g_touch_id = -1;  // -1: none
Drag g_drag = Drag::None;
float g_start_x = 0, g_start_y = 0;

// Decides who owns the drag once it has moved far enough; returns the owner.
Drag decide(float x, float y) {
  const float dx = x - g_start_x, dy = y - g_start_y;
  if (std::fabs(dx) < kDecidePx && std::fabs(dy) < kDecidePx) return Drag::Undecided;
  if (std::fabs(dx) >= std::fabs(dy)) return Drag::Ui;  // sideways: a slider, a plot
  // A finger moving up scrolls the content down, as the wheel turning down does.
  const int want = dy < 0 ? kWheelDown : kWheelUp;
  return (touch_scroll_directions(g_start_x, g_start_y) & want) ? Drag::Ui : Drag::Page;
}

// Returns whether the browser's default (panning the page) is prevented.
EM_BOOL on_touch(int type, const EmscriptenTouchEvent* e, void*) {
  ImGuiIO& io = ImGui::GetIO();
  bool prevent = g_drag != Drag::Page;
  for (int i = 0; i < e->numTouches; ++i) {
    const EmscriptenTouchPoint& t = e->touches[i];
    if (!t.isChanged) continue;
    if (type == EMSCRIPTEN_EVENT_TOUCHSTART && g_touch_id < 0) {
      g_touch_id = t.identifier;
      g_drag = Drag::Undecided;
      g_start_x = static_cast<float>(t.targetX);
      g_start_y = static_cast<float>(t.targetY);
    }
    if (t.identifier != g_touch_id) continue;
    const float x = static_cast<float>(t.targetX), y = static_cast<float>(t.targetY);
    const bool lifted = type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL;
    if (type == EMSCRIPTEN_EVENT_TOUCHMOVE && g_drag == Drag::Undecided) {
      g_drag = decide(x, y);
      if (g_drag == Drag::Page) {
        // The page scrolls (the browser pans, chaining out of a frame as it
        // does for the wheel): ImGui sees the finger leave, so the press
        // clicks nothing and no view scrolls with it.
        io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
        io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
      }
    }
    prevent = g_drag != Drag::Page;
    if (g_drag != Drag::Page) {
      io.AddMouseSourceEvent(ImGuiMouseSource_TouchScreen);
      io.AddMousePosEvent(x, y);
      if (type == EMSCRIPTEN_EVENT_TOUCHSTART) io.AddMouseButtonEvent(ImGuiMouseButton_Left, true);
      if (lifted) {
        io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
        // A finger that lifted hovers nothing: without this, the last touched
        // item stays highlighted and its tooltip stays open after a tap or a
        // swipe. ImGui applies the move a frame after the release (its input
        // queue trickles), so the tap still clicks where it landed.
        io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
      }
    }
    if (lifted) {
      g_touch_id = -1;
      g_drag = Drag::None;
    }
  }
  // The start and small moves are not prevented, so the browser may still
  // pan once the drag turns out to be the page's; the end of a drag ImGui
  // owned is, so no emulated mouse click follows a tap.
  if (type == EMSCRIPTEN_EVENT_TOUCHSTART) return EM_FALSE;
  if (type == EMSCRIPTEN_EVENT_TOUCHMOVE && g_drag == Drag::Undecided) return EM_FALSE;
  return prevent ? EM_TRUE : EM_FALSE;
}

}  // namespace

void install_touch(const char* canvas) {
  js_remove_glfw_touch();
  emscripten_set_touchstart_callback(canvas, nullptr, EM_TRUE, on_touch);
  emscripten_set_touchmove_callback(canvas, nullptr, EM_TRUE, on_touch);
  emscripten_set_touchend_callback(canvas, nullptr, EM_TRUE, on_touch);
  emscripten_set_touchcancel_callback(canvas, nullptr, EM_TRUE, on_touch);
}

void read_page_media(app::Demo& demo) {
  demo.set_reduced_motion(js_reduced_motion() != 0);
  demo.coarse_pointer = js_coarse_pointer() != 0;
}

void sync_page(app::Demo& demo) {
  static std::string last;
  static const char* last_name = nullptr;
  std::string text = demo.tour.open() ? ui::tour_description(demo) : app::describe_shown(demo.shown());
  if (!demo.error.empty()) text += " " + app::trf("Refused: {0}", {demo.error});  // the error is translated already
  // The canvas's name (index.html's aria-label, in the shown language) before the state in words.
  const char* name = app::tr("Headroom: multi-head attention demo");
  if (text != last || name != last_name) {
    js_set_state_text(text.c_str(), name);
    last = std::move(text);
    last_name = name;
  }
}

}  // namespace headroom::platform
