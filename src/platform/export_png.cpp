// export_png.cpp: a view's picture, and handing exports to the page
// (headroom.exportView, the cards' Save menus, the training snapshots).
//
// Does: picture a view at the device's resolution, light or dark as shown:
// "lesson" is the canvas itself (a frame drawn now and read back before the
// browser presents it: no preserveDrawingBuffer needed); any other view is
// drawn alone as one card (ui::begin_export_frames: as wide as it was last
// shown, nothing hovered) in frames of its own, until its card's size settles
// (cards size themselves from the last frame's content), then rendered
// into a framebuffer of exactly the card's size in device pixels and read
// back. Those frames never reach the canvas; a normal frame follows, so the
// layout and debug.layout() are the page's again. The input queue is kept
// aside meanwhile, so no click or key is consumed by a frame the user never
// sees. Hands the UI's export and snapshot requests to the page's JS
// (Module.headroomOffer, headroom.mjs), which saves the file and, in a
// sandboxed frame, offers it to the host page.
// Does not: encode the PNG (the browser does, in headroom.mjs: canvas.toBlob)
// or write any number (app/state/export.h).
//
// Build: cmake/web.cmake (emcc only).
#include <emscripten.h>
#define GLFW_INCLUDE_ES3
#include <GLES3/gl3.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "app/lang/refusals.h"
#include "app/state/export.h"
#include "app/state/url_state.h"
#include "imgui.h"
#include "imgui_impl_opengl3.h"
#include "imgui_internal.h"
#include "platform/web_app.h"
#include "ui/palette.h"
#include "ui/ui.h"

namespace headroom::platform {

namespace {

constexpr float kExportDisplayHeight = 4000.f;  // CSS px of room for a card drawn alone
constexpr int kMaxSettleFrames = 6;             // frames until a card's size stops changing

// Reads `w` x `h` device pixels of the bound framebuffer, top row first.
void read_rows(int w, int h, Picture& out) {
  out.width = w;
  out.height = h;
  out.rgba.assign(static_cast<size_t>(w) * h * 4, 0);
  std::vector<unsigned char> up(out.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, up.data());
  const size_t row = static_cast<size_t>(w) * 4;
  for (int y = 0; y < h; ++y) std::memcpy(&out.rgba[y * row], &up[(h - 1 - y) * row], row);
  for (size_t i = 3; i < out.rgba.size(); i += 4) out.rgba[i] = 255;  // the page is opaque
}

// Renders the last ImGui frame's `rect` (CSS px) into a framebuffer of
// w x h device pixels and reads it back.
Status render_rect(const ImVec4& rect, int w, int h, Picture& out) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  if (w <= 0 || h <= 0 || w > max_size || h > max_size)
    return Status::fail(refusals::png_too_big, w, h);
  GLuint tex = 0, fbo = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
  Status s = Status::ok();
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    s = Status::fail(refusals::png_no_framebuffer);
  } else {
    glViewport(0, 0, w, h);
    const ImVec4 clear = ImGui::ColorConvertU32ToFloat4(ui::palette().window);
    glClearColor(clear.x, clear.y, clear.z, 1.f);
    glClear(GL_COLOR_BUFFER_BIT);
    // The draw data of the card's frame, seen through the card's rect: the
    // backend maps DisplayPos..DisplayPos+DisplaySize onto the w x h target.
    ImDrawData* dd = ImGui::GetDrawData();
    dd->DisplayPos = ImVec2(rect.x, rect.y);
    dd->DisplaySize = ImVec2(rect.z - rect.x, rect.w - rect.y);
    // A hair over w / width, so the backend's (int)(size * scale) is w, not w - 1.
    dd->FramebufferScale = ImVec2((w + 0.01f) / dd->DisplaySize.x, (h + 0.01f) / dd->DisplaySize.y);
    ImGui_ImplOpenGL3_RenderDrawData(dd);
    read_rows(w, h, out);
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &tex);
  return s;
}

}  // namespace

Status export_png(app::Demo& demo, std::string_view view, Picture& out) {
  out = {};
  if (Status s = app::check_export(view, "png"); !s) return s;
  if (guest().context_lost) return Status::fail(refusals::png_context_lost);
  // A canvas never drawn (out of view since it started) has no size or GL objects yet.
  if (!draw_frame_now()) return Status::fail(refusals::png_not_drawn);
  const CanvasSize c = canvas_size();
  if (!ui::has_export_card(view)) {  // "lesson": the canvas as drawn, read before it is presented
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    read_rows(c.fb_w, c.fb_h, out);
    return Status::ok();
  }
  // The card's own frames, with the page's input kept aside.
  ImGuiContext& g = *ImGui::GetCurrentContext();
  ImGuiIO& io = g.IO;
  ImVector<ImGuiInputEvent> queued;
  queued.swap(g.InputEventsQueue);
  const ImVec2 mouse = io.MousePos;
  const ImVec2 display = io.DisplaySize;
  const float scale = c.css_w > 0 ? static_cast<float>(c.fb_w / c.css_w) : 1.f;
  ui::begin_export_frames(view);
  ImVec4 rect{}, last(-1, -1, -1, -1);
  for (int i = 0; i < kMaxSettleFrames; ++i) {
    io.DisplaySize = ImVec2(static_cast<float>(c.css_w), kExportDisplayHeight);
    io.DisplayFramebufferScale = ImVec2(scale, scale);
    io.DeltaTime = 1.f / 1000.f;
    io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    ui::draw_ui(demo);
    ImGui::Render();
    rect = ui::export_card_rect();
    if (rect.x == last.x && rect.y == last.y && rect.z == last.z && rect.w == last.w) break;
    last = rect;
  }
  const int w = static_cast<int>(std::lround((rect.z - rect.x) * scale));
  const int h = static_cast<int>(std::lround((rect.w - rect.y) * scale));
  const Status s = render_rect(rect, w, h, out);
  ui::end_export_frames();
  queued.swap(g.InputEventsQueue);
  io.MousePos = mouse;
  io.DisplaySize = display;
  draw_frame_now();  // the page's layout again (debug.layout, fit, the canvas)
  return s;
}

// clang-format off
// Hands a file to the page (headroom.mjs's Module.headroomOffer): PNG as
// top-down RGBA pixels (w x h), anything else as UTF-8 text.
EM_JS(void, js_offer_text, (const char* view, const char* format, const char* name, const char* text, int len), {
  if (Module["headroomOffer"]) {
    Module["headroomOffer"]({ view: UTF8ToString(view), format: UTF8ToString(format), name: UTF8ToString(name),
                              text: UTF8ArrayToString(HEAPU8, text, len) });
  }
});
EM_JS(void, js_offer_pixels, (const char* view, const char* name, const unsigned char* rgba, int w, int h), {
  if (Module["headroomOffer"]) {
    Module["headroomOffer"]({ view: UTF8ToString(view), format: "png", name: UTF8ToString(name),
                              pixels: HEAPU8.slice(rgba, rgba + w * h * 4), width: w, height: h });
  }
});
// clang-format on

void offer_text(const std::string& view, const std::string& format, const std::string& name, const std::string& text) {
  js_offer_text(view.c_str(), format.c_str(), name.c_str(), text.data(), static_cast<int>(text.size()));
}

void offer_requested_export(app::Demo& d) {
  const app::Demo::ExportRequest req = d.export_request;
  d.export_request = {};
  if (req.view.empty()) return;
  const std::string name = app::export_file_name(d, req.view, req.format);
  if (req.format == app::kExportFormats[0]) {
    Picture pic;
    if (const Status s = export_png(d, req.view, pic); !s) {
      d.reject(s);
      return;
    }
    js_offer_pixels(req.view.c_str(), name.c_str(), pic.rgba.data(), pic.width, pic.height);
    return;
  }
  std::string text;
  if (const Status s = app::export_view(d, req.view, req.format, text); !s) {
    d.reject(s);
    return;
  }
  offer_text(req.view, req.format, name, text);
}

}  // namespace headroom::platform
