// page_glue.cpp: see page_glue.h.
#include "platform/page_glue.h"

#include <cfloat>

#include <emscripten.h>
#include <emscripten/html5.h>

#include <string>

#include "app/describe.h"
#include "ui/views.h"
#include "imgui.h"

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

EM_JS(void, js_set_state_text, (const char* utf8), {
  const text = UTF8ToString(utf8);
  const live = document.getElementById('headroom-state');
  if (live) live.textContent = text;
  if (Module.canvas) Module.canvas.setAttribute('aria-label', 'Headroom, multi-head attention demo. ' + text);
});

long g_touch_id = -1;  // the touch that drives the pointer, -1: none

EM_BOOL on_touch(int type, const EmscriptenTouchEvent* e, void*) {
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < e->numTouches; ++i) {
    const EmscriptenTouchPoint& t = e->touches[i];
    if (!t.isChanged) continue;
    if (type == EMSCRIPTEN_EVENT_TOUCHSTART && g_touch_id < 0) g_touch_id = t.identifier;
    if (t.identifier != g_touch_id) continue;
    io.AddMouseSourceEvent(ImGuiMouseSource_TouchScreen);
    io.AddMousePosEvent(static_cast<float>(t.targetX), static_cast<float>(t.targetY));
    if (type == EMSCRIPTEN_EVENT_TOUCHSTART) io.AddMouseButtonEvent(ImGuiMouseButton_Left, true);
    if (type == EMSCRIPTEN_EVENT_TOUCHEND || type == EMSCRIPTEN_EVENT_TOUCHCANCEL) {
      io.AddMouseButtonEvent(ImGuiMouseButton_Left, false);
      // A finger that lifted hovers nothing: without this, the last touched
      // item stays highlighted and its tooltip stays open after a tap or a
      // swipe. ImGui applies the move a frame after the release (its input
      // queue trickles), so the tap still clicks where it landed.
      io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
      g_touch_id = -1;
    }
  }
  return EM_TRUE;  // no emulated mouse events, no browser panning over the canvas
}

}  // namespace

void install_touch(const char* canvas) {
  js_remove_glfw_touch();
  emscripten_set_touchstart_callback(canvas, nullptr, EM_TRUE, on_touch);
  emscripten_set_touchmove_callback(canvas, nullptr, EM_TRUE, on_touch);
  emscripten_set_touchend_callback(canvas, nullptr, EM_TRUE, on_touch);
  emscripten_set_touchcancel_callback(canvas, nullptr, EM_TRUE, on_touch);
}

void sync_page(app::Demo& demo) {
  demo.set_reduced_motion(js_reduced_motion() != 0);
  static std::string last;
  std::string text = demo.tour.open() ? ui::tour_description(demo) : app::describe_state(demo.scene);
  if (!demo.error.empty()) text += " Refused: " + demo.error;
  if (text != last) {
    js_set_state_text(text.c_str());
    last = std::move(text);
  }
}

}  // namespace headroom::platform
