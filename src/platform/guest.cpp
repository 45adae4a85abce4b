// guest.cpp: make the app a good guest in someone else's page.
//
// Does: move Emscripten GLFW's key listeners from `window` to the canvas (a
// host page's <input> keeps Backspace and Tab; Tab leaves the canvas unless
// an ImGui text field has focus), pass the mouse wheel to ImGui only while
// the ImGui window the wheel would scroll can still move that way (as a
// browser chains a nested scroller's wheel to the page at its end; a view
// that fits claims no wheel), wake the frame loop on input (nothing is drawn
// while idle), pause the main loop while the page is hidden or the canvas is
// scrolled out of view (the API keeps answering: only drawing stops), route ImGui's
// clipboard through navigator.clipboard and the paste event, and recover from
// a lost WebGL context (web_main.cpp rebuilds the GL objects).
// Does not: draw, or hold demo state. Every listener is on this instance's
// canvas (Module.canvas) or is instance-scoped, so several instances on one
// page stay independent.
//
// Build: cmake/web.cmake (emcc only). The JS below runs inside the module's
// scope, where Emscripten's GLFW object and Module are visible.
#include <emscripten.h>
#include <emscripten/html5.h>

#include <cstdlib>

#include "imgui.h"
#include "imgui_internal.h"
#include "platform/web_app.h"

namespace headroom::platform {

Guest& guest() {
  static Guest g;
  return g;
}

void wake(int frames) {
  if (guest().wake < frames) guest().wake = frames;
}

namespace {

// clang-format off
EM_JS(void, js_guest_install, (int wheel_up, int wheel_down, int wheel_left, int wheel_right, int wheel_dragging), {
  var canvas = Module["canvas"];
  var wake = function() { Module["_headroom_wake"](); };
  // Keys: only while the canvas has focus (it has tabindex), never window-wide.
  var down = GLFW.onKeydown, press = GLFW.onKeyPress, up = GLFW.onKeyup;
  window.removeEventListener("keydown", down, true);
  window.removeEventListener("keypress", press, true);
  window.removeEventListener("keyup", up, true);
  canvas.addEventListener("keydown", function(e) {
    wake();
    if (e.keyCode === 9 && !Module["_headroom_ui_wants_keys"]()) return;  // Tab moves focus on
    down(e);
  }, true);
  canvas.addEventListener("keypress", press, true);
  canvas.addEventListener("keyup", function(e) { wake(); up(e); }, true);
  canvas.addEventListener("focus", function() { Module["_headroom_canvas_focus"](1); }, true);
  canvas.addEventListener("blur", function() { Module["_headroom_canvas_focus"](0); }, true);
  // Wheel: ImGui gets it (and the host does not) only while the window it
  // would scroll can still move in the wheel's direction (the bits of
  // headroom_wheel_directions, passed in as wheel_* from web_app.h's kWheel*:
  // up, down, left, right, and an item being dragged; the key handlers above
  // already use the names up and down). Steps as ImGui's own Emscripten
  // handler: 100 px, 3 lines or 1/80 page each.
  canvas.removeEventListener("wheel", GLFW.onMouseWheel, true);
  canvas.removeEventListener("mousewheel", GLFW.onMouseWheel, true);
  canvas.addEventListener("wheel", function(e) {
    wake();
    var can = Module["_headroom_wheel_directions"]();
    var wants = (can & wheel_dragging) || (e.deltaY < 0 && (can & wheel_up)) || (e.deltaY > 0 && (can & wheel_down)) ||
                (e.deltaX < 0 && (can & wheel_left)) || (e.deltaX > 0 && (can & wheel_right));
    if (!wants) return;
    e.preventDefault();
    var m = e.deltaMode === 0 ? 1 / 100 : e.deltaMode === 1 ? 1 / 3 : 80;
    Module["_headroom_wheel"](-e.deltaX * m, -e.deltaY * m);
  }, { capture: true, passive: false });
  ["mousemove", "mousedown", "mouseup", "mouseenter", "mouseleave", "touchstart", "touchmove",
   "touchend", "touchcancel", "pointerdown", "pointerup"].forEach(function(t) {
    canvas.addEventListener(t, wake, { capture: true, passive: true });
  });
  // Clipboard: the paste event carries the text ImGui asks for (Ctrl+V).
  Module.headroomClipboard = "";
  canvas.addEventListener("paste", function(e) {
    var t = e.clipboardData ? e.clipboardData.getData("text/plain") : "";
    if (typeof t === "string") Module.headroomClipboard = t;
    wake();
  }, true);
  // Pause while hidden or out of view; draw again when back.
  var onScreen = true;
  var update = function() {
    Module["_headroom_set_paused"](document.hidden || !onScreen ? 1 : 0);
  };
  document.addEventListener("visibilitychange", update);
  if (typeof IntersectionObserver === "function") {
    // Paused until the observer's first report: a canvas below the fold
    // (same-origin pages run animation frames there too) draws nothing.
    onScreen = false;
    update();
    new IntersectionObserver(function(entries) {
      onScreen = entries[entries.length - 1].isIntersecting;
      update();
    }).observe(canvas);
  }
  // WebGL context loss: preventDefault lets the browser restore it.
  canvas.addEventListener("webglcontextlost", function(e) {
    e.preventDefault();
    Module["_headroom_context_lost"]();
    if (Module["onHeadroomContextLost"]) Module["onHeadroomContextLost"]();
  }, false);
  canvas.addEventListener("webglcontextrestored", function() {
    Module["_headroom_context_restored"]();
    if (Module["onHeadroomContextRestored"]) Module["onHeadroomContextRestored"]();
  }, false);
});

EM_JS(void, js_clipboard_write, (const char* text), {
  var s = UTF8ToString(text);
  Module.headroomClipboard = s;
  try {
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(s).catch(function() {});
  } catch (e) {}
});

EM_JS(char*, js_clipboard_read, (), {
  var s = Module.headroomClipboard || "";
  var n = lengthBytesUTF8(s) + 1;
  var p = _malloc(n);
  if (p) stringToUTF8(s, p, n);
  return p;
});
// "#canvas" in emscripten/html5.h calls means this instance's Module.canvas,
// not document.querySelector('#canvas'): a host page may run several
// instances, each on a canvas with its own id (or none).
EM_JS(void, js_register_canvas, (), {
  if (Module["canvas"]) specialHTMLTargets["#canvas"] = Module["canvas"];
});
// clang-format on

// Before main(): every html5.h call, from the first, finds the right canvas.
const bool g_canvas_registered = (js_register_canvas(), true);

void set_clipboard(void*, const char* text) { js_clipboard_write(text ? text : ""); }

const char* get_clipboard(void*) {
  char* p = js_clipboard_read();
  guest().clipboard = p ? p : "";
  std::free(p);
  return guest().clipboard.c_str();
}

}  // namespace

void guest_install() {
  // ImGui's backend listens to the wheel on the whole document and cancels
  // every event (the host page could never scroll): the canvas listener
  // above replaces it.
  emscripten_set_wheel_callback(EMSCRIPTEN_EVENT_TARGET_DOCUMENT, nullptr, false, nullptr);
  ImGuiIO& io = ImGui::GetIO();
  io.SetClipboardTextFn = set_clipboard;
  io.GetClipboardTextFn = get_clipboard;
  io.ClipboardUserData = nullptr;
  js_guest_install(kWheelUp, kWheelDown, kWheelLeft, kWheelRight, kWheelDragging);
}

namespace {

// The window ImGui's wheel would scroll on `axis` (0 x, 1 y) with the pointer
// over `hovered`: as ImGui's FindBestWheelingWindow, the first window up the
// child chain that has scrolling on that axis and accepts the wheel, or null.
ImGuiWindow* wheel_target(ImGuiWindow* hovered, int axis) {
  for (ImGuiWindow* w = hovered; w; w = w->ParentWindow) {
    const bool accepts = !(w->Flags & ImGuiWindowFlags_NoScrollWithMouse) && !(w->Flags & ImGuiWindowFlags_NoMouseInputs);
    if (w->ScrollMax[axis] > 0.f && accepts) return w;
    if (!(w->Flags & ImGuiWindowFlags_ChildWindow)) return nullptr;
  }
  return nullptr;
}


// The ways the window the wheel (or a finger) would scroll over `hovered`
// can still move: kWheelUp | kWheelDown | kWheelLeft | kWheelRight.
int scroll_directions(ImGuiWindow* hovered) {
  // Half a pixel of slack: ImGui rounds scroll positions.
  constexpr float kSlack = 0.5f;
  int dirs = 0;
  for (int axis = 0; axis < 2; ++axis) {
    const ImGuiWindow* w = wheel_target(hovered, axis);
    if (!w) continue;
    const int back = axis == 1 ? kWheelUp : kWheelLeft, on = axis == 1 ? kWheelDown : kWheelRight;
    if (w->Scroll[axis] > kSlack) dirs |= back;
    if (w->Scroll[axis] < w->ScrollMax[axis] - kSlack) dirs |= on;
  }
  return dirs;
}

}  // namespace

int touch_scroll_directions(float x, float y) {
  // The last frame's topmost window under (x, y), as ImGui's own hover test
  // finds it (windows back to front, clipped rects), between frames.
  ImGuiContext& c = *ImGui::GetCurrentContext();
  for (int i = c.Windows.Size - 1; i >= 0; --i) {
    ImGuiWindow* w = c.Windows[i];
    if (!w->Active || w->Hidden || (w->Flags & ImGuiWindowFlags_NoMouseInputs)) continue;
    if (w->OuterRectClipped.Contains(ImVec2(x, y))) return scroll_directions(w);
  }
  return 0;
}

void guest_after_frame() {
  ImGuiContext& c = *ImGui::GetCurrentContext();
  int dirs = scroll_directions(c.HoveredWindow);
  if (ImGui::IsAnyItemActive()) dirs |= kWheelDragging;
  guest().wheel_directions = dirs;
  guest().ui_wants_keys = c.IO.WantTextInput;
}

}  // namespace headroom::platform

using headroom::platform::guest;

extern "C" {

EMSCRIPTEN_KEEPALIVE void headroom_wake() { headroom::platform::wake(3); }

// 1 when the wheel over the last frame's hovered window would scroll it one
// way or another (or an item is being dragged).
EMSCRIPTEN_KEEPALIVE int headroom_ui_wants_wheel() { return guest().wheel_directions != 0 ? 1 : 0; }

// Which ways that window can still scroll: bits kWheelUp | kWheelDown |
// kWheelLeft | kWheelRight, plus kWheelDragging (web_app.h).
EMSCRIPTEN_KEEPALIVE int headroom_wheel_directions() { return guest().wheel_directions; }

EMSCRIPTEN_KEEPALIVE void headroom_wheel(float x, float y) {
  ImGui::GetIO().AddMouseWheelEvent(x, y);
  headroom::platform::wake(3);
}

EMSCRIPTEN_KEEPALIVE int headroom_ui_wants_keys() { return guest().ui_wants_keys ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE void headroom_canvas_focus(int focused) {
  ImGui::GetIO().AddFocusEvent(focused != 0);  // on blur ImGui releases every key
  headroom::platform::wake(3);
}

EMSCRIPTEN_KEEPALIVE void headroom_set_paused(int paused) {
  if (paused == (guest().paused ? 1 : 0)) return;
  guest().paused = paused != 0;
  headroom::platform::demo().training.hold(paused != 0);  // a training Worker trains nothing while the page cannot be seen
  if (paused) {
    emscripten_pause_main_loop();
  } else {
    emscripten_resume_main_loop();
    headroom::platform::wake(3);
  }
}

EMSCRIPTEN_KEEPALIVE void headroom_context_lost() { guest().context_lost = true; }

EMSCRIPTEN_KEEPALIVE void headroom_context_restored() {
  guest().context_lost = false;
  guest().context_restored = true;
  headroom::platform::wake(3);
}

// Frames actually drawn since start (idle ticks do not count), and of those
// the frames that painted the canvas (web_main.cpp render_frame).
EMSCRIPTEN_KEEPALIVE double headroom_frame_count() { return static_cast<double>(guest().frames); }
EMSCRIPTEN_KEEPALIVE double headroom_painted_count() { return static_cast<double>(guest().painted); }

}  // extern "C"
