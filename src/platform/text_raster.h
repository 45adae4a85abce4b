// text_raster.h: the browser's half of text.h: strings the embedded fonts
// cannot draw are drawn by the page's own font stack through Canvas 2D
// (fillText: shaping, bidi, colour emoji) at the device pixel ratio, and kept
// as GL textures for ImGui.
//
// Does: rasterize(text, px, ascent, bold, colour) returns a cached texture
// (key: all five + the device pixel ratio); the cache holds at most
// kMaxEntries strings and kMaxPixels texels and drops the least recently used
// first; after a lost WebGL context comes back (Guest::gl_generation) it
// forgets every texture (they died with the context) and draws them again;
// uploads() counts the textures made (web_main.cpp's frame fingerprint).
// Does not: lay text out (src/ui/text.cpp does) or decide which strings need
// the browser (the font atlas does).
//
// Build: web only (WebGL2 / GLES 3.0, Canvas 2D); cmake/web.cmake.
#pragma once
#include <string>
#include <unordered_map>

#include "ui/text.h"

namespace headroom::platform {

class BrowserText : public ui::TextRasterizer {
 public:
  static constexpr int kMaxEntries = 512;
  static constexpr long long kMaxPixels = 16ll << 20;

  ~BrowserText() override;
  ui::TextImage rasterize(std::string_view utf8, float px, float ascent, bool bold, ImU32 color) override;
  int entries() const { return static_cast<int>(cache_.size()); }
  // Textures made so far (a new one may reuse an evicted one's GL name).
  unsigned long long uploads() const { return uploads_; }

 private:
  struct Entry {
    unsigned texture = 0;
    ui::TextImage image;
    long long pixels = 0;
    unsigned long long used = 0;  // use counter at the last lookup
  };
  void evict_one();

  std::unordered_map<std::string, Entry> cache_;
  long long pixels_ = 0;
  unsigned long long clock_ = 0;
  unsigned long long uploads_ = 0;
  int generation_ = 0;  // Guest::gl_generation the textures belong to
};

}  // namespace headroom::platform
