// text_raster.cpp: see text_raster.h. The JS below runs in the module's scope.
#include "platform/text_raster.h"

#include <emscripten.h>
#include <emscripten/html5.h>
#include <GLES3/gl3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "platform/web_app.h"

namespace headroom::platform {

namespace {

// clang-format off
// Draws `utf8` on a 2-D canvas with the page canvas's font family at px * dpr
// pixels; returns malloc'd RGBA rows (not premultiplied, as getImageData
// gives them), or 0. out: width, height, baseline row, left bearing column.
EM_JS(unsigned char*, js_raster_text, (const char* utf8, float px, int bold, int r, int g, int b, int a, float dpr, int* out), {
  var text = UTF8ToString(utf8);
  var canvas = Module["headroomTextCanvas"] || (Module["headroomTextCanvas"] = document.createElement("canvas"));
  var ctx = canvas.getContext("2d", { willReadFrequently: true });
  if (!ctx) return 0;
  var family = getComputedStyle(Module["canvas"]).fontFamily || "sans-serif";
  var font = (bold ? "bold " : "") + (px * dpr) + "px " + family;
  // The paragraph direction: the first strong character decides (Unicode's P2).
  var strong = text.match(/[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u0900-\u0DFF\u3040-\u30FF\u3400-\u9FFF\uAC00-\uD7AF]|[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/);
  var rtl = !!strong && /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(strong[0]);
  ctx.font = font;
  ctx.direction = rtl ? "rtl" : "ltr";
  var m = ctx.measureText(text);
  var left = Math.ceil(Math.max(0, m.actualBoundingBoxLeft || 0));
  var ascent = Math.ceil(Math.max(m.actualBoundingBoxAscent || 0, m.fontBoundingBoxAscent || px * dpr));
  var descent = Math.ceil(Math.max(m.actualBoundingBoxDescent || 0, m.fontBoundingBoxDescent || 0));
  var w = Math.max(1, Math.ceil(Math.max(m.width, (m.actualBoundingBoxRight || 0) + left)) + 2);
  var h = Math.max(1, ascent + descent + 2);
  if (w > 8192 || h > 8192) return 0;
  canvas.width = w;
  canvas.height = h;
  ctx.font = font;
  ctx.direction = rtl ? "rtl" : "ltr";
  ctx.textAlign = "left";
  ctx.textBaseline = "alphabetic";
  ctx.fillStyle = "rgba(" + r + "," + g + "," + b + "," + (a / 255) + ")";
  ctx.clearRect(0, 0, w, h);
  ctx.fillText(text, 1 + left, 1 + ascent);
  var pixels = ctx.getImageData(0, 0, w, h).data;
  var p = _malloc(pixels.length);
  if (!p) return 0;
  HEAPU8.set(pixels, p);
  HEAP32[out >> 2] = w;
  HEAP32[(out >> 2) + 1] = h;
  HEAP32[(out >> 2) + 2] = 1 + ascent;
  HEAP32[(out >> 2) + 3] = 1 + left;
  return p;
});
// clang-format on

}  // namespace

BrowserText::~BrowserText() {
  for (auto& [key, e] : cache_) glDeleteTextures(1, &e.texture);
}

void BrowserText::evict_one() {
  auto oldest = cache_.begin();
  for (auto it = cache_.begin(); it != cache_.end(); ++it)
    if (it->second.used < oldest->second.used) oldest = it;
  glDeleteTextures(1, &oldest->second.texture);
  pixels_ -= oldest->second.pixels;
  cache_.erase(oldest);
}

ui::TextImage BrowserText::rasterize(std::string_view utf8, float px, float ascent, bool bold, ImU32 color) {
  if (generation_ != guest().gl_generation) {  // the textures died with the old context
    cache_.clear();
    pixels_ = 0;
    generation_ = guest().gl_generation;
  }
  const float dpr = static_cast<float>(emscripten_get_device_pixel_ratio());
  char head[64];
  std::snprintf(head, sizeof head, "%g|%g|%d|%08x|%g|", px, ascent, bold ? 1 : 0, color, dpr);
  std::string key = head;
  key.append(utf8);
  ++clock_;
  if (auto it = cache_.find(key); it != cache_.end()) {
    it->second.used = clock_;
    return it->second.image;
  }

  const std::string text(utf8);
  int out[4] = {0, 0, 0, 0};
  unsigned char* rgba = js_raster_text(text.c_str(), px, bold ? 1 : 0, static_cast<int>(color & 0xFF),
                                       static_cast<int>((color >> 8) & 0xFF), static_cast<int>((color >> 16) & 0xFF),
                                       static_cast<int>((color >> 24) & 0xFF), dpr, out);
  if (!rgba) return {};
  Entry e;
  GLint previous = 0;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous);
  glGenTextures(1, &e.texture);
  glBindTexture(GL_TEXTURE_2D, e.texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, out[0], out[1], 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
  ++uploads_;
  glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previous));
  std::free(rgba);

  // Display pixels: the baseline row sits on the ImGui line's baseline.
  e.image.texture = reinterpret_cast<ImTextureID>(static_cast<intptr_t>(e.texture));
  e.image.size = ImVec2(out[0] / dpr, out[1] / dpr);
  e.image.offset = ImVec2(-out[3] / dpr, ascent - out[2] / dpr);
  e.pixels = static_cast<long long>(out[0]) * out[1];
  e.used = clock_;
  while (!cache_.empty() && (static_cast<int>(cache_.size()) >= kMaxEntries || pixels_ + e.pixels > kMaxPixels)) evict_one();
  pixels_ += e.pixels;
  const ui::TextImage image = e.image;
  cache_.emplace(std::move(key), e);
  return image;
}

}  // namespace headroom::platform
