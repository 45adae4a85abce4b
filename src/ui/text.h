// text.h: text that may hold glyphs the embedded fonts lack (CJK, Arabic,
// emoji, ...): the views draw tokens and sentences through these helpers.
//
// Does: draw a string with ImGui's font when every code point is in the
// current font's atlas; otherwise ask the platform's TextRasterizer (the
// browser's Canvas 2D fillText: shaping, bidi, colour emoji) for an image of
// the whole string at the current font's size, weight and colour, and lay it
// out with the same line height and baseline as ImGui text. Marks glyphs
// neither path could draw: the atlas's fallback is an outlined box (U+FFFD,
// added by add_missing_glyph_boxes), and missing_glyphs() counts the boxes in
// a frame's draw data.
// Does not: include GL or emscripten (the platform installs the rasterizer
// and owns the textures and their cache), shape text itself, or wrap inside
// a word.
#pragma once

#include <string>
#include <string_view>

#include "imgui.h"

namespace headroom::ui {

// An image of one string: its texture, its size in display (CSS) pixels, and
// where its top-left sits relative to the top-left of an ImGui text line of
// the same font (glyphs may rise above or hang below the line).
struct TextImage {
  ImTextureID texture = 0;
  ImVec2 size{0, 0};
  ImVec2 offset{0, 0};
};

class TextRasterizer {
 public:
  virtual ~TextRasterizer() = default;
  // `utf8` drawn at `px` display pixels (`ascent` of them above the
  // baseline), bold or regular, in `color` (ImU32); texture 0 if it cannot.
  virtual TextImage rasterize(std::string_view utf8, float px, float ascent, bool bold, ImU32 color) = 0;
};
// The platform installs its rasterizer once, after the GL context exists.
void set_text_rasterizer(TextRasterizer* rasterizer);

// Whether every code point of `utf8` has a glyph in the current font.
bool font_can_draw(std::string_view utf8);

// Like ImGui::CalcTextSize, for either path.
ImVec2 text_size(std::string_view utf8);
// Like ImGui::TextUnformatted (color 0: the style's text colour).
void text(std::string_view utf8, ImU32 color = 0);
// Like ImGui::TextWrapped: lays `utf8` out word by word, each word by either path.
void text_wrapped(std::string_view utf8);
// Like ImDrawList::AddText with the current font.
void draw_text(ImDrawList* dl, ImVec2 pos, ImU32 color, std::string_view utf8);
// draw_text turned a quarter turn to read upward: the first letter at
// `start`, the line rising from there, the glyphs' tops to the left. It
// covers x in [start.x, start.x + line height], y in [start.y - width, start.y]
// (column labels under a heatmap).
void draw_text_up(ImDrawList* dl, ImVec2 start, ImU32 color, std::string_view utf8);
// Like ImGui::Button(label, size); `id` keeps the ImGui ID stable.
bool text_button(const char* id, std::string_view label, ImVec2 size = ImVec2(0, 0));
// A tooltip over the last item holding `utf8` (ImGui::SetItemTooltip).
void item_tooltip(std::string_view utf8);

// Adds the outlined-box glyph U+FFFD to every font of the atlas (ImGui then
// draws it for any code point the font lacks); call after adding the fonts,
// before the platform builds the font texture.
void add_missing_glyph_boxes();
// How many missing-glyph boxes `draw_data` draws (after ImGui::Render()).
int missing_glyphs(const ImDrawData* draw_data);

}  // namespace headroom::ui
