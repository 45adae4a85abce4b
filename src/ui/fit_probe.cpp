// fit_probe.cpp: does the last drawn frame fit its display? (probes.h, fit_json)
//
// Does: read what ImGui kept of the last drawn frame (its windows and the
// draw lists, valid until the next NewFrame) and report, as JSON, for tests:
// each active window's size, content size (this frame's cursor extent),
// scroll and scroll range; and every run of text whose glyph quads the
// scissor cuts (a glyph drawn partly outside its draw command's clip
// rectangle), with the run's characters, so a test can say "d_model = 128"
// is cut at the right edge.
// Does not: change the frame, or see text that ImGui clipped on the CPU
// (RenderTextClipped's fine clip, used inside buttons) or skipped whole
// (a glyph entirely outside the clip rectangle is never emitted; the
// window's content size still shows an item wider than its window).
//
// How a glyph is recognised: ImFont::RenderText writes each glyph as one
// quad whose first vertex carries the glyph's (U0, V0) and third vertex its
// (U1, V1), exactly; a table of every font's glyph UVs finds them among the
// draw lists' vertices.
#include <cfloat>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>

#include "imgui.h"
#include "imgui_internal.h"
#include "app/wire/json_write.h"
#include "ui/probes.h"
#include "ui/frame.h"

namespace headroom::ui {

using app::JsonObject;

namespace {

// A glyph by the UVs of its quad's first vertex.
struct GlyphKey {
  float u, v;
  bool operator==(const GlyphKey& o) const { return u == o.u && v == o.v; }
};
struct GlyphKeyHash {
  size_t operator()(const GlyphKey& k) const {
    unsigned a, b;
    std::memcpy(&a, &k.u, 4);
    std::memcpy(&b, &k.v, 4);
    return static_cast<size_t>(a) * 2654435761u ^ b;
  }
};
struct GlyphInfo {
  unsigned codepoint;
  float u1, v1;
};
using GlyphTable = std::unordered_map<GlyphKey, GlyphInfo, GlyphKeyHash>;

GlyphTable glyph_table() {
  GlyphTable table;
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  for (const ImFont* font : atlas->Fonts)
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible) table[{g.U0, g.V0}] = {g.Codepoint, g.U1, g.V1};
  return table;
}

void append_utf8(std::string& out, unsigned c) {
  char buf[5] = {};
  ImTextCharToUtf8(buf, c);
  out += buf;
}

// One line of glyphs drawn one after the other under one clip rectangle.
struct Run {
  std::string text;
  ImVec4 rect{FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX};
  ImVec4 clip;
  bool cut_x = false, cut_y = false;
  float baseline = 0;
  float height = 0;  // the tallest glyph so far
};

// Pixels a glyph may poke past its clip rectangle before it counts as cut
// (anti-aliased edges, rounding).
constexpr float kCutSlack = 0.75f;

// Writes the run (as {text, rect, clip, axis}) if the scissor cut it, then
// starts a new one.
void close_run(Run& run, std::string& out, bool& first) {
  if (!run.text.empty() && (run.cut_x || run.cut_y)) {
    if (!first) out += ',';
    first = false;
    JsonObject o(out);
    o.field("text", run.text);
    append_rect(o.key("rect"), run.rect);
    append_rect(o.key("clip"), run.clip);
    o.field("axis", run.cut_x && run.cut_y ? "xy" : run.cut_x ? "x" : "y");
  }
  run = Run{};
}

std::string clipped_runs(const ImDrawData& data) {
  const GlyphTable table = glyph_table();
  const ImTextureID font_tex = ImGui::GetIO().Fonts->TexID;
  std::string out = "[";
  bool first = true;
  for (const ImDrawList* list : data.CmdLists) {
    for (const ImDrawCmd& cmd : list->CmdBuffer) {
      if (cmd.UserCallback || cmd.GetTexID() != font_tex) continue;
      Run run;
      const ImDrawIdx* idx = list->IdxBuffer.Data + cmd.IdxOffset;
      const ImDrawVert* vtx = list->VtxBuffer.Data + cmd.VtxOffset;
      float last_x2 = 0;
      // A glyph quad is two triangles (a, a+1, a+2), (a, a+2, a+3).
      for (unsigned i = 0; i + 6 <= cmd.ElemCount; i += 3) {
        const unsigned a = idx[i];
        if (idx[i + 1] != a + 1 || idx[i + 2] != a + 2 || idx[i + 3] != a || idx[i + 4] != a + 2 ||
            idx[i + 5] != a + 3)
          continue;
        const ImDrawVert& v0 = vtx[a];
        const ImDrawVert& v2 = vtx[a + 2];
        const auto it = table.find({v0.uv.x, v0.uv.y});
        if (it == table.end() || it->second.u1 != v2.uv.x || it->second.v1 != v2.uv.y) continue;
        const float x1 = v0.pos.x, y1 = v0.pos.y, x2 = v2.pos.x, y2 = v2.pos.y;
        // A new run when the line or the clip changes, or the glyph jumps back.
        const float baseline = y2;
        const bool same_run = !run.text.empty() && std::fabs(baseline - run.baseline) < 6.f &&
                              x1 >= last_x2 - 4.f && x1 <= last_x2 + 24.f &&
                              cmd.ClipRect.x == run.clip.x && cmd.ClipRect.z == run.clip.z &&
                              cmd.ClipRect.y == run.clip.y && cmd.ClipRect.w == run.clip.w;
        if (!same_run) close_run(run, out, first);
        if (run.text.empty()) {
          run.clip = cmd.ClipRect;
          run.baseline = baseline;
        } else if (x1 > last_x2 + 0.2f * run.height) {
          run.text += ' ';  // spaces have no quad: a gap of a fifth of the line is one
        }
        run.height = ImMax(run.height, y2 - y1);
        append_utf8(run.text, it->second.codepoint);
        run.rect = ImVec4(ImMin(run.rect.x, x1), ImMin(run.rect.y, y1), ImMax(run.rect.z, x2), ImMax(run.rect.w, y2));
        if (x1 < cmd.ClipRect.x - kCutSlack || x2 > cmd.ClipRect.z + kCutSlack) run.cut_x = true;
        if (y1 < cmd.ClipRect.y - kCutSlack || y2 > cmd.ClipRect.w + kCutSlack) run.cut_y = true;
        last_x2 = x2;
        i += 3;  // the quad's second triangle
      }
      close_run(run, out, first);
    }
  }
  return out + "]";
}

std::string windows_json() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  std::string out = "[";
  bool first = true;
  for (const ImGuiWindow* w : g.Windows) {
    if (!w->Active || w->Hidden) continue;
    if (w->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)) continue;
    // This frame's content: how far the items reached from where they started.
    const ImVec2 content(w->DC.CursorMaxPos.x - w->DC.CursorStartPos.x, w->DC.CursorMaxPos.y - w->DC.CursorStartPos.y);
    const ImVec2 room(w->ContentRegionRect.GetWidth(), w->ContentRegionRect.GetHeight());
    if (!first) out += ',';
    first = false;
    JsonObject o(out);
    o.field("name", w->Name).field("child", (w->Flags & ImGuiWindowFlags_ChildWindow) != 0);
    append_pair(o.key("pos"), w->Pos);
    append_pair(o.key("size"), w->Size);
    append_pair(o.key("content"), content);
    append_pair(o.key("room"), room);
    append_pair(o.key("scroll"), w->Scroll);
    append_pair(o.key("scrollMax"), w->ScrollMax);
    const bool bars[] = {w->ScrollbarX, w->ScrollbarY};
    app::append_values(o.key("scrollbar"), bars);
  }
  return out + "]";
}

}  // namespace

std::string fit_json() {
  const ImDrawData* data = ImGui::GetDrawData();
  std::string out;
  {
    JsonObject o(out);
    o.field("drawn", data && data->Valid);
    if (data && data->Valid) {
      append_pair(o.key("display"), ImGui::GetIO().DisplaySize);
      o.field("compact", frame().compact);
      o.key("windows") += windows_json();
      o.key("clipped") += clipped_runs(*data);
    }
  }
  return out;
}

}  // namespace headroom::ui
