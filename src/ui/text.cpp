// text.cpp: the two paths for drawing text (see text.h): ImGui's atlas, or an
// image of the whole string from the platform's TextRasterizer.
#include "ui/text.h"

#include <vector>

#include "imgui_internal.h"  // ImTextCharFromUtf8
#include "ui/frame.h"

namespace headroom::ui {

namespace {

TextRasterizer*& rasterizer() {
  static TextRasterizer* r = nullptr;
  return r;
}

// The browser's image of `utf8` in the current font and `color`, or texture 0.
TextImage image_of(std::string_view utf8, ImU32 color) {
  if (!rasterizer()) return {};
  ImFont* font = ImGui::GetFont();
  const float px = ImGui::GetFontSize();
  const float ascent = font->Ascent * px / font->FontSize;
  const bool bold = font == frame().fonts.bold || font == frame().fonts.big;
  return rasterizer()->rasterize(utf8, px, ascent, bold, color);
}

ImU32 text_color(ImU32 color) { return color ? color : ImGui::GetColorU32(ImGuiCol_Text); }

}  // namespace

void set_text_rasterizer(TextRasterizer* r) { rasterizer() = r; }

bool font_can_draw(std::string_view utf8) {
  const ImFont* font = ImGui::GetFont();
  const char* p = utf8.data();
  const char* end = p + utf8.size();
  while (p < end) {
    unsigned int c = 0;
    const int n = ImTextCharFromUtf8(&c, p, end);
    p += n > 0 ? n : 1;
    if (c == '\n' || c == '\r') continue;
    // ImWchar is 16 bits: ImGui decodes code points above U+FFFF as U+FFFD.
    if (c > IM_UNICODE_CODEPOINT_MAX || c == IM_UNICODE_CODEPOINT_INVALID) return false;
    if (!font->FindGlyphNoFallback(static_cast<ImWchar>(c))) return false;
  }
  return true;
}

ImVec2 text_size(std::string_view utf8) {
  if (font_can_draw(utf8)) return ImGui::CalcTextSize(utf8.data(), utf8.data() + utf8.size());
  const TextImage im = image_of(utf8, text_color(0));
  if (!im.texture) return ImGui::CalcTextSize(utf8.data(), utf8.data() + utf8.size());
  return ImVec2(im.size.x, ImGui::GetFontSize());
}

void text(std::string_view utf8, ImU32 color) {
  if (color) ImGui::PushStyleColor(ImGuiCol_Text, color);
  const TextImage im = font_can_draw(utf8) ? TextImage{} : image_of(utf8, text_color(color));
  if (!im.texture) {
    ImGui::TextUnformatted(utf8.data(), utf8.data() + utf8.size());
  } else {
    const ImVec2 pos = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(im.size.x, ImGui::GetFontSize()));
    const ImVec2 a(pos.x + im.offset.x, pos.y + im.offset.y);
    ImGui::GetWindowDrawList()->AddImage(im.texture, a, ImVec2(a.x + im.size.x, a.y + im.size.y));
  }
  if (color) ImGui::PopStyleColor();
}

void text_wrapped(std::string_view utf8) {
  if (font_can_draw(utf8)) {
    ImGui::TextWrapped("%.*s", static_cast<int>(utf8.size()), utf8.data());
    return;
  }
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float wrap_pos = ImGui::GetCurrentWindow()->DC.TextWrapPos;  // < 0: none set, wrap at the region's edge
  const float right = origin.x + ImGui::CalcWrapWidthForPos(origin, wrap_pos < 0 ? 0.f : wrap_pos);
  const float space = ImGui::CalcTextSize(" ").x;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(space, ImGui::GetStyle().ItemSpacing.y));
  bool first = true;
  size_t start = 0;
  while (start < utf8.size()) {
    size_t stop = utf8.find(' ', start);
    if (stop == std::string_view::npos) stop = utf8.size();
    const std::string_view word = utf8.substr(start, stop - start);
    start = stop + 1;
    if (word.empty()) continue;
    if (!first) {
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + text_size(word).x > right) ImGui::NewLine();
    }
    text(word);
    first = false;
  }
  ImGui::PopStyleVar();
}

void draw_text(ImDrawList* dl, ImVec2 pos, ImU32 color, std::string_view utf8) {
  const TextImage im = font_can_draw(utf8) ? TextImage{} : image_of(utf8, color);
  if (!im.texture) {
    dl->AddText(pos, color, utf8.data(), utf8.data() + utf8.size());
    return;
  }
  const ImVec2 a(pos.x + im.offset.x, pos.y + im.offset.y);
  dl->AddImage(im.texture, a, ImVec2(a.x + im.size.x, a.y + im.size.y));
}

void draw_text_up(ImDrawList* dl, ImVec2 start, ImU32 color, std::string_view utf8) {
  // Drawn flat from `start`, then its vertices turned: offset (dx, dy)
  // becomes (dy, -dx), so "right along the line" becomes "up".
  const int first = dl->VtxBuffer.Size;
  draw_text(dl, start, color, utf8);
  for (int i = first; i < dl->VtxBuffer.Size; ++i) {
    ImVec2& p = dl->VtxBuffer[i].pos;
    const float dx = p.x - start.x, dy = p.y - start.y;
    p = ImVec2(start.x + dy, start.y - dx);
  }
}

bool text_button(const char* id, std::string_view label, ImVec2 size) {
  if (font_can_draw(label)) {
    const std::string full = std::string(label) + "##" + id;
    return ImGui::Button(full.c_str(), size);
  }
  const TextImage im = image_of(label, text_color(0));
  const ImVec2 pad = ImGui::GetStyle().FramePadding;
  const float w = size.x > 0 ? size.x : (im.texture ? im.size.x : text_size(label).x) + 2 * pad.x;
  const float h = size.y > 0 ? size.y : ImGui::GetFontSize() + 2 * pad.y;
  const bool pressed = ImGui::Button((std::string("##") + id).c_str(), ImVec2(w, h));
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const ImVec2 line((a.x + b.x - (im.texture ? im.size.x : text_size(label).x)) * 0.5f,
                    (a.y + b.y - ImGui::GetFontSize()) * 0.5f);
  draw_text(ImGui::GetWindowDrawList(), line, text_color(0), label);
  return pressed;
}

void item_tooltip(std::string_view utf8) {
  if (!ImGui::BeginItemTooltip()) return;
  text(utf8);
  ImGui::EndTooltip();
}

void add_missing_glyph_boxes() {
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  std::vector<int> rects;
  for (ImFont* font : atlas->Fonts) {
    const float size = font->FontSize;
    const int w = static_cast<int>(size * 0.55f + 0.5f), h = static_cast<int>(size * 0.72f + 0.5f);
    rects.push_back(atlas->AddCustomRectFontGlyph(font, IM_UNICODE_CODEPOINT_INVALID, w, h, static_cast<float>(w + 2),
                                                  ImVec2(1, size * 0.2f)));
  }
  atlas->Build();
  unsigned char* pixels = nullptr;
  int tex_w = 0, tex_h = 0;
  atlas->GetTexDataAsRGBA32(&pixels, &tex_w, &tex_h);
  for (int id : rects) {
    const ImFontAtlasCustomRect* r = atlas->GetCustomRectByIndex(id);
    for (int y = 0; y < r->Height; ++y)
      for (int x = 0; x < r->Width; ++x) {
        const bool edge = x == 0 || y == 0 || x == r->Width - 1 || y == r->Height - 1;
        unsigned char* p = pixels + 4 * ((r->Y + y) * tex_w + r->X + x);
        p[0] = p[1] = p[2] = 255;
        p[3] = edge ? 255 : 0;
      }
  }
}

int missing_glyphs(const ImDrawData* draw_data) {
  // A glyph quad's first three vertices carry (U0, V0), (U1, V0), (U1, V1)
  // (ImDrawList::PrimRectUV); an image quad's carry 0 and 1, so they differ.
  std::vector<const ImFontGlyph*> boxes;
  for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
    if (const ImFontGlyph* g = font->FindGlyphNoFallback(IM_UNICODE_CODEPOINT_INVALID)) boxes.push_back(g);
  const auto at = [](const ImDrawVert& v, float u, float w) { return v.uv.x == u && v.uv.y == w; };
  int n = 0;
  for (int l = 0; l < draw_data->CmdListsCount; ++l) {
    const ImVector<ImDrawVert>& vtx = draw_data->CmdLists[l]->VtxBuffer;
    for (int k = 0; k + 2 < vtx.Size; ++k)
      for (const ImFontGlyph* g : boxes)
        if (at(vtx[k], g->U0, g->V0) && at(vtx[k + 1], g->U1, g->V0) && at(vtx[k + 2], g->U1, g->V1)) ++n;
  }
  return n;
}

}  // namespace headroom::ui
