// web_main.cpp: the browser entry point: GLFW window + WebGL2 context, ImGui
// backends, canvas size and devicePixelRatio, the Emscripten main loop.
//
// Does: each frame, size the canvas's backing store to its CSS size times
// devicePixelRatio, give ImGui the CSS size as its display and the ratio as
// its framebuffer scale (and re-rasterise the fonts when the ratio changes),
// feed GLFW's mouse positions in CSS pixels, run the app's tick
// (app::Demo::tick: the stress mode's forward pass and the training steps;
// paused, hidden or off-screen it runs neither; with the WebGL context lost
// it runs the tick and draws nothing), restyle the UI when the
// app's theme changed and draw ui::draw_ui. Draws only when something
// changed (input, an API call, a resize, frames the UI or the tick asked
// for; see guest.cpp and ui::take_frame_request) and then until two frames
// in a row draw the same (settled), paints the canvas only with a frame that
// differs from what it shows, counts the frames it draws and paints,
// and rebuilds its GL objects after a lost WebGL context comes back. After a
// drawn frame, hands what the UI asked for to the page (a snapshot, an
// export: export_png.cpp). draw_frame_now() draws a frame outside the loop
// (a picture is read back from it).
// Does not: hold demo logic (src/app), lay out views (src/ui) or the JS API
// (js_api.cpp).
//
// Why not ImGui's own GLFW callbacks: Emscripten's GLFW reports mouse
// positions in backing-store pixels and ignores devicePixelRatio, so the
// callbacks below convert to CSS pixels before handing events to ImGui.
//
// Build: cmake/web.cmake (emcc only).
#include <emscripten.h>
#include <emscripten/html5.h>
#define GLFW_INCLUDE_ES3
#include <GLES3/gl3.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "imgui.h"
#include "imgui_impl_glfw.h"
#include "imgui_impl_opengl3.h"
#include "platform/fingerprint.h"
#include "platform/heatmap_renderer.h"
#include "platform/page_glue.h"
#include "platform/text_raster.h"
#include "platform/web_app.h"
#include "ui/palette.h"
#include "ui/frame.h"
#include "ui/ui.h"

namespace {

constexpr const char* kCanvas = "#canvas";

struct Platform {
  GLFWwindow* window = nullptr;
  double css_w = 0, css_h = 0;  // canvas size in CSS pixels
  int fb_w = 0, fb_h = 0;       // backing store in physical pixels
  float font_density = 0;       // devicePixelRatio the fonts were rasterised for
  bool first_frame_done = false;
  std::string theme;            // app::Demo::theme the ImGui style was set up for
  uint64_t last_draw = 0;       // draw_fingerprint of the last drawn frame
  headroom::platform::HeatmapRenderer* heatmaps = nullptr;  // textures that change in place
  headroom::platform::BrowserText* text = nullptr;
};
Platform g;

// Marks when the next animation frame comes: by then the browser has drawn
// (GPU) and presented the first frame. (Nothing waits for it: the API
// answers before any frame is drawn.)
EM_JS(void, js_first_frame, (), {
  if (typeof performance !== "undefined" && performance.mark) {
    requestAnimationFrame(function() { performance.mark("headroom:first-frame-presented"); });
  }
});

// Startup phases for the page-load bench (tests/bench/page_load.mjs): the
// app's own CPU work is main() plus the first drawn frame, marked on the
// page's performance timeline ("headroom:main-start", ...).
EM_JS(void, js_startup_mark, (const char* name), {
  if (typeof performance !== "undefined" && performance.mark) performance.mark("headroom:" + UTF8ToString(name));
});

// Height (CSS px) of the page's refusal line above the canvas (index.html's
// #sentence-error; 0 when empty, hidden or absent): room the canvas lends.
EM_JS(double, js_message_room, (), {
  var e = document.getElementById("sentence-error");
  return e ? e.offsetHeight : 0;
});

// A fingerprint of everything a frame draws: vertices, indices, clip rects,
// textures and callbacks of every command, and what the canvas shows them
// with (its size in device pixels, the clear colour, the serials of the
// textures that change in place: heatmaps, browser-drawn text). Two equal
// fingerprints in a row mean the frame has settled: ImGui's layout (a card
// sized to last frame's content, a button's new highlight) and every tween
// have stopped moving; and that the second frame would paint the very pixels
// the canvas already shows.
uint64_t draw_fingerprint(const ImDrawData* d, ImU32 clear) {
  headroom::platform::Fingerprint f;
  f.mix(d->DisplaySize);
  for (int l = 0; l < d->CmdListsCount; ++l) {
    const ImDrawList* list = d->CmdLists[l];
    f.mix(list->VtxBuffer.Data, static_cast<size_t>(list->VtxBuffer.Size) * sizeof(ImDrawVert));
    f.mix(list->IdxBuffer.Data, static_cast<size_t>(list->IdxBuffer.Size) * sizeof(ImDrawIdx));
    for (const ImDrawCmd& c : list->CmdBuffer) {
      f.mix(c.ClipRect);
      f.mix(c.TextureId);
      f.mix(c.ElemCount);
      f.mix(c.UserCallback);
      f.mix(c.UserCallbackData);
    }
  }
  const int fb[2] = {g.fb_w, g.fb_h};
  f.mix(fb);
  f.mix(clear);
  if (g.heatmaps) f.mix(g.heatmaps->content_changes());
  if (g.text) f.mix(g.text->uploads());
  return f.value;
}

// Backing-store pixels per CSS pixel, as Emscripten's GLFW scales mouse events.
void backing_scale(double& sx, double& sy) {
  sx = g.css_w > 0 ? g.fb_w / g.css_w : 1.0;
  sy = g.css_h > 0 ? g.fb_h / g.css_h : 1.0;
}

void on_cursor_pos(GLFWwindow* w, double x, double y) {
  double sx, sy;
  backing_scale(sx, sy);
  ImGui_ImplGlfw_CursorPosCallback(w, x / sx, y / sy);
}

// Forward only "entered": ImGui's backend polls glfwGetCursorPos (backing
// pixels) while it thinks the mouse is outside; on leave we tell ImGui directly.
void on_cursor_enter(GLFWwindow* w, int entered) {
  if (entered) {
    ImGui_ImplGlfw_CursorEnterCallback(w, 1);
  } else {
    ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  }
}

void install_callbacks(GLFWwindow* w) {
  glfwSetWindowFocusCallback(w, ImGui_ImplGlfw_WindowFocusCallback);
  glfwSetCursorEnterCallback(w, on_cursor_enter);
  glfwSetCursorPosCallback(w, on_cursor_pos);
  glfwSetMouseButtonCallback(w, ImGui_ImplGlfw_MouseButtonCallback);
  glfwSetScrollCallback(w, ImGui_ImplGlfw_ScrollCallback);
  glfwSetKeyCallback(w, ImGui_ImplGlfw_KeyCallback);
  glfwSetCharCallback(w, ImGui_ImplGlfw_CharCallback);
  ImGui_ImplGlfw_CursorEnterCallback(w, 1);  // see on_cursor_enter
}

// A CSS length in physical pixels (at least 1: GLFW refuses an empty window).
int backing_pixels(double css, double dpr) { return std::max(1, static_cast<int>(std::lround(css * dpr))); }

// Matches the canvas's backing store to its CSS size x devicePixelRatio;
// returns whether anything changed.
bool track_canvas_size() {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const double dpr = emscripten_get_device_pixel_ratio();
  const int fb_w = backing_pixels(css_w, dpr);
  const int fb_h = backing_pixels(css_h, dpr);
  bool changed = css_w != g.css_w || css_h != g.css_h;
  if (fb_w != g.fb_w || fb_h != g.fb_h) {
    emscripten_set_canvas_element_size(kCanvas, fb_w, fb_h);
    g.fb_w = fb_w;
    g.fb_h = fb_h;
    changed = true;
  }
  g.css_w = css_w;
  g.css_h = css_h;
  headroom::ui::set_message_room(static_cast<float>(js_message_room()));
  const float density = static_cast<float>(dpr > 0 ? dpr : 1.0);
  // A new language may need glyphs the atlas lacks (ui.cpp setup_fonts).
  if (density != g.font_density || headroom::ui::fonts_stale()) {
    headroom::ui::setup_fonts(density);
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
    g.font_density = density;
    changed = true;
  }
  return changed;
}

void render_frame(bool must_paint);

void frame(void*) {
  using headroom::platform::guest;
  auto& gs = guest();
  if (gs.paused) return;  // out of view or hidden (the loop may run before it stops)
  if (gs.context_lost) {
    // Nothing can be drawn until the context comes back, but a lost GPU is
    // no reason to stop learning: training keeps its steps, the views
    // catch up when the context returns.
    headroom::platform::demo().tick();
    return;
  }
  const bool restored = gs.context_restored;
  if (restored) {  // every GL object died with the old context (and the canvas is blank)
    gs.context_restored = false;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplOpenGL3_Init("#version 300 es");
    ++gs.gl_generation;
  }
  const bool resized = track_canvas_size();
  // Cards size themselves from the last frame's content (ImGui's
  // AutoResizeY): after a resize, draw a few frames so they settle.
  if (resized) headroom::platform::wake(3);
  if (!headroom::ui::take_frame_request() && !resized && gs.wake <= 0) return;  // idle: draw nothing
  if (gs.wake > 0) --gs.wake;
  render_frame(resized || restored);
}

// One frame: the app's tick, the UI, GL; then what the UI asked the page for
// (a snapshot download, an export). The canvas is painted only when the frame
// differs from the last one (draw_fingerprint) or `must_paint` (a resize, a
// restored context, a picture read back from the canvas): the settling frame
// after every change draws the same pixels, and under software GL (headless
// Chromium here) each painted frame costs the GPU process a full raster and
// the page a read-back of the canvas (tests/bench/page_load.mjs,
// paintedPerSecond).
void render_frame(bool must_paint) {
  auto& gs = headroom::platform::guest();
  if (!g.first_frame_done) js_startup_mark("frame1-start");
  auto& demo = headroom::platform::demo();
  // The media queries before the tick and the frame: read after the frame
  // (as they were), a phone's first frame named keys, not taps.
  headroom::platform::read_page_media(demo);
  if (demo.tick()) headroom::ui::request_frames(2);  // stress or training: keep going every frame
  if (demo.theme != g.theme) {
    g.theme = demo.theme;
    headroom::ui::setup_style(g.theme == "dark");
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(g.css_w), static_cast<float>(g.css_h));
  double sx, sy;
  backing_scale(sx, sy);
  io.DisplayFramebufferScale = ImVec2(static_cast<float>(sx), static_cast<float>(sy));
  ImGui::NewFrame();

  headroom::ui::draw_ui(demo);
  headroom::platform::sync_page(demo);  // aria text
  headroom::platform::guest_after_frame();

  ImGui::Render();
  // Frames until settled: after any input keep drawing until two frames in a
  // row draw the same (then, with nothing else asking, the loop idles).
  const ImU32 window = headroom::ui::palette().window;
  const uint64_t drawn = draw_fingerprint(ImGui::GetDrawData(), window);
  const bool changed = drawn != g.last_draw;
  if (changed) headroom::platform::wake(1);
  g.last_draw = drawn;
  gs.missing_glyphs = headroom::ui::missing_glyphs(ImGui::GetDrawData());
  if (changed || must_paint || !g.first_frame_done) {
    glViewport(0, 0, g.fb_w, g.fb_h);
    const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(window);
    glClearColor(clear.x, clear.y, clear.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++gs.painted;
  }

  ++gs.frames;
  if (!g.first_frame_done) {
    g.first_frame_done = true;
    js_startup_mark("frame1-end");
    js_first_frame();
  }
  // After the frame is drawn: an export draws frames of its own.
  if (demo.download_request != 0) headroom::platform::save_requested_download(demo);  // the train view's button
  if (!demo.export_request.view.empty()) headroom::platform::offer_requested_export(demo);  // a Save menu
}

}  // namespace

namespace headroom::platform {

CanvasSize canvas_size() { return {g.css_w, g.css_h, g.fb_w, g.fb_h}; }

bool draw_frame_now() {
  if (guest().context_lost || !g.window) return false;
  track_canvas_size();
  render_frame(true);  // the caller reads the canvas back
  return true;
}

}  // namespace headroom::platform

namespace {

void glfw_error(int code, const char* msg) { std::fprintf(stderr, "GLFW error %d: %s\n", code, msg); }

}  // namespace

int main() {
  js_startup_mark("main-start");
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) {
    std::fprintf(stderr, "headroom: glfwInit failed\n");
    return 1;
  }
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  // Nothing here tests depth or stencil, and every frame clears to an opaque
  // colour: a context without depth, stencil or alpha (Emscripten's GLFW asks
  // for all three by default) keeps no depth-stencil buffer beside the canvas
  // and lets the page composite it as opaque.
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  // The drawing buffer starts at the canvas's CSS size x devicePixelRatio, so
  // the first frame does not resize it (the resize took 80-155 ms of the first
  // frame in profiles of headless Chromium here; the page's ready time did not
  // move measurably without it, tests/bench/page_load.mjs).
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const double dpr = emscripten_get_device_pixel_ratio();
  const int fb_w = backing_pixels(css_w, dpr);
  const int fb_h = backing_pixels(css_h, dpr);
  g.window = glfwCreateWindow(fb_w, fb_h, "Headroom", nullptr, nullptr);
  if (!g.window) {
    std::fprintf(stderr, "headroom: could not create a WebGL2 context\n");
    return 1;
  }
  g.fb_w = fb_w;
  g.fb_h = fb_h;
  glfwMakeContextCurrent(g.window);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // no imgui.ini in the browser
  // A blinking text cursor would never let a frame settle: it stays solid.
  io.ConfigInputTextCursorBlink = false;
  g.theme = headroom::platform::demo().theme;
  headroom::ui::setup_style(g.theme == "dark");
  g.font_density = static_cast<float>(emscripten_get_device_pixel_ratio());
  headroom::ui::setup_fonts(g.font_density);  // the GL texture comes with the first frame
  ImGui_ImplGlfw_InitForOpenGL(g.window, false);
  install_callbacks(g.window);
  headroom::platform::install_touch(kCanvas);  // page_glue.cpp
  headroom::platform::guest_install();
  ImGui_ImplOpenGL3_Init("#version 300 es");
  static headroom::platform::HeatmapRenderer heatmaps;  // the GL half of the heatmap views
  headroom::ui::set_heatmap_textures(&heatmaps);
  g.heatmaps = &heatmaps;
  static headroom::platform::BrowserText browser_text;  // text the embedded fonts lack
  headroom::ui::set_text_rasterizer(&browser_text);
  g.text = &browser_text;

  emscripten_set_main_loop_arg(frame, nullptr, 0, false);
  js_startup_mark("main-end");
  return 0;
}
