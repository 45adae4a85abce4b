// view_heatmap.cpp: per head, the full L x L attention matrix: row i =
// where token i looks, column j = how much it takes from token j.
//
// Does: ask the platform's heatmap renderer (heatmap_texture, heatmap_textures.h) for a texture at
// the image's physical pixel size (crisp at any devicePixelRatio), show it
// with ImGui::Image, name rows with tokens beside them and columns (keys)
// with tokens turned a quarter to read upward below them, frame the query's
// row, show the exact weight of the hovered cell; a click or a tap on a cell
// pins it: outlined, its weight written on a line under the grids (a phone
// cannot hover), and its row becomes the query. A
// colour bar of the same program shows the scale 0..1. For a right-to-left
// sentence the columns (keys) run right to left, as its token strip does.
// Does not: compute or rescale weights (cell colour = viridis(a_h[i, j])).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/state/view_rows.h"
#include "app/lang/lang.h"
#include "ui/heatmap_textures.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

ImTextureID legend_texture(int px_w, int px_h) {
  static Mat ramp;
  if (ramp.cols() != 64) {
    ramp.resize(1, 64);
    for (int i = 0; i < 64; ++i) ramp(0, i) = (i + 0.5f) / 64.f;
  }
  return heatmap_texture(kHeatmapLegendSlot, ramp, -1, px_w, px_h, 0.f);
}

}  // namespace

namespace {

// The cell a click or tap pinned (a phone has no hover): head, row, column,
// for the sentence it was read on (its token count), -1: none.
struct PinnedCell {
  int head = -1, row = -1, col = -1, tokens = 0;
};
PinnedCell& pinned() {
  static PinnedCell c;
  return c;
}

// The grids' sizes, the same for every head: the row names' width, the
// column names' band, the square image and its cells, and which names fit.
struct GridLayout {
  bool rtl = false;
  float label_w = 0, name_room = 0, avail = 0, gap = 16.f, img = 0, lh = 0, cell = 0;
  int per_row = 1, col_every = 1;
  bool row_names = false;
};

GridLayout grid_layout(Demo& demo, const ModelView& v) {
  GridLayout g;
  g.rtl = tokens_rtl(demo);
  float label_w = 0;
  for (const Token& t : v.tokens) label_w = std::max(label_w, text_size(t.text).x);
  g.name_room = std::min(label_w, 84.f);  // the column labels' band below each grid
  g.label_w = std::min(label_w + 8.f, 90.f);
  g.avail = ImGui::GetContentRegionAvail().x;
  const float min_img = 150.f;
  g.per_row = std::max(1, std::min(v.H, static_cast<int>((g.avail + g.gap) / (g.label_w + min_img + g.gap))));
  g.img = std::floor(std::min((g.avail - g.gap * (g.per_row - 1)) / g.per_row - g.label_w, 300.f));
  g.lh = ImGui::GetTextLineHeight();
  g.cell = g.img / static_cast<float>(v.L);
  // Names when a row or column is tall (wide) enough to read one; else every
  // k-th column, so the key axis is still named.
  g.row_names = g.cell >= g.lh * 0.8f;
  g.col_every = std::max(1, static_cast<int>(std::ceil(g.lh * 0.9f / g.cell)));
  return g;
}

// Row labels (the tokens that look), right-aligned beside their rows from o.
void row_labels(ImDrawList* dl, const ModelView& v, const GridLayout& g, ImVec2 o) {
  for (int i = 0; i < v.L; ++i) {
    const std::string& name = v.tokens[static_cast<size_t>(i)].text;
    const ImVec2 ts = text_size(name);
    dl->PushClipRect(ImVec2(o.x, o.y), ImVec2(o.x + g.label_w - 4, o.y + g.img), true);
    draw_text(dl, ImVec2(o.x + g.label_w - 6 - ts.x, o.y + g.cell * (i + 0.5f) - ts.y * 0.5f),
              i == v.q ? palette().text : palette().text_faint, name);
    dl->PopClipRect();
  }
}

// Head h's weights as an image (or, refused, an empty square saying so).
void grid_image(ImDrawList* dl, const ModelView& v, const GridLayout& g, int h, ImVec2 o, float dpr) {
  const int px = std::max(1, static_cast<int>(std::lround(g.img * dpr)));
  const ImTextureID tex = heatmap_texture(h, v.tr.heads[static_cast<size_t>(h)].weights, v.q, px, px, std::max(1.f, dpr));
  if (tex) {
    // A right-to-left sentence's key axis runs right to left, as its token strip.
    if (g.rtl) ImGui::Image(tex, ImVec2(g.img, g.img), ImVec2(1, 0), ImVec2(0, 1));
    else ImGui::Image(tex, ImVec2(g.img, g.img));
  } else {
    ImGui::Dummy(ImVec2(g.img, g.img));
    dl->AddText(ImVec2(o.x + g.label_w + 6, o.y + 6), palette().error, app::tr("WebGL refused the heatmap shader"));
  }
}

// The grid (the last item, its top left at a) hovered: the cell's weight in
// a tooltip; clicked or tapped: the cell pinned and its row the query.
void grid_hover(Demo& demo, const ModelView& v, const GridLayout& g, int h, ImVec2 a, PinnedCell& pin) {
  if (!ImGui::IsItemHovered()) return;
  const int last = v.L - 1;
  const ImVec2 at = ImGui::GetIO().MousePos;
  const int i = std::clamp(static_cast<int>((at.y - a.y) / g.cell), 0, last);
  const int column = std::clamp(static_cast<int>((at.x - a.x) / g.cell), 0, last);
  const int j = g.rtl ? last - column : column;
  const std::string weight = app::num(v.tr.heads[static_cast<size_t>(h)].weights(i, j), 4);
  const std::string& ti = v.tokens[static_cast<size_t>(i)].text;
  if (ImGui::GetIO().MouseSource != ImGuiMouseSource_TouchScreen) {
    ImGui::BeginTooltip();
    text(app::trf("head {0}: {1} \xe2\x86\x92 {2} = {3}", {std::to_string(h + 1), ti, v.tokens[static_cast<size_t>(j)].text, weight}));
    text(app::trf("(click: read it below, and make {0} the query)", {ti}));
    ImGui::EndTooltip();
  }
  if (ImGui::IsItemClicked()) {
    pin = PinnedCell{h, i, j, v.L};
    demo.select_token(i);
  }
}

// Column labels (the tokens read), turned to read upward under their
// columns in the band from `band`.
void column_labels(ImDrawList* dl, const ModelView& v, const GridLayout& g, ImVec2 a, ImVec2 band) {
  dl->PushClipRect(ImVec2(band.x - 2.f, band.y), ImVec2(band.x + g.img + g.lh, band.y + g.name_room + 2.f), true);
  for (int j = 0; j < v.L; j += g.col_every) {
    const std::string& name = v.tokens[static_cast<size_t>(j)].text;
    const float tw = std::min(text_size(name).x, g.name_room);
    const int column = g.rtl ? v.L - 1 - j : j;
    const float cx = a.x + g.cell * (column + 0.5f);
    draw_text_up(dl, ImVec2(cx - g.lh * 0.5f, band.y + tw), j == v.q ? palette().text : palette().text_faint, name);
  }
  dl->PopClipRect();
}

// Head h's caption, row names, grid, pinned cell and column names, as one group.
void head_grid(Demo& demo, const ModelView& v, const GridLayout& g, int h, PinnedCell& pin, float dpr) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImGui::BeginGroup();
  ImGui::PushID(h);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
  ImGui::TextUnformatted(app::trf("Head {0}", {std::to_string(h + 1)}).c_str());
  ImGui::PopStyleColor();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  if (g.row_names) row_labels(dl, v, g, o);
  ImGui::SetCursorScreenPos(ImVec2(o.x + g.label_w, o.y));
  grid_image(dl, v, g, h, o, dpr);
  const ImVec2 a = ImGui::GetItemRectMin();
  probe("heatmap.grids", ImVec4(a.x, a.y, a.x + g.img, a.y + g.img));
  grid_hover(demo, v, g, h, a, pin);
  // The pinned cell, outlined.
  if (pin.head == h) {
    const int column = g.rtl ? v.L - 1 - pin.col : pin.col;
    const ImVec2 c0(a.x + g.cell * column, a.y + g.cell * pin.row);
    dl->AddRect(c0, ImVec2(c0.x + g.cell, c0.y + g.cell), palette().point_ring, 0.f, 0, 2.f);
    dl->AddRect(ImVec2(c0.x - 1, c0.y - 1), ImVec2(c0.x + g.cell + 1, c0.y + g.cell + 1), palette().marker_edge, 0.f, 0, 1.f);
  }
  const ImVec2 band(a.x, a.y + g.img + 3.f);
  column_labels(dl, v, g, a, band);
  ImGui::SetCursorScreenPos(ImVec2(o.x, band.y));
  ImGui::Dummy(ImVec2(g.label_w + g.img, g.name_room + 4.f));
  ImGui::PopID();
  ImGui::EndGroup();
}

// The pinned cell's reading, on a line of its own (always there, so
// nothing moves when a cell is tapped).
void pinned_reading(const ModelView& v, const PinnedCell& pin) {
  if (pin.head >= 0) {
    text(app::trf("head {0}: {1} takes {2} of its weight from {3}",
                  {std::to_string(pin.head + 1), v.tokens[static_cast<size_t>(pin.row)].text,
                   app::num(v.tr.heads[static_cast<size_t>(pin.head)].weights(pin.row, pin.col), 4),
                   v.tokens[static_cast<size_t>(pin.col)].text}));
  } else {
    ImGui::TextDisabled("%s", app::tr("tap or click a square's cell to read its weight here"));
  }
}

// Colour bar: the same program over a 0..1 ramp.
void colour_bar(float avail, float dpr) {
  const std::string legend_text = std::string("1   ") + app::tr("weight (viridis)");
  const char* legend = legend_text.c_str();
  const float beside = ImGui::CalcTextSize("0").x + ImGui::CalcTextSize(legend).x + 2 * ImGui::GetStyle().ItemSpacing.x;
  const float bar_w = std::max(40.f, std::min(220.f, avail - beside)), bar_h = 10.f;
  ImGui::TextDisabled("0");
  ImGui::SameLine();
  const ImVec2 lp = ImGui::GetCursorScreenPos();
  const ImTextureID lt = legend_texture(std::max(1, static_cast<int>(bar_w * dpr)), std::max(1, static_cast<int>(bar_h * dpr)));
  ImGui::SetCursorScreenPos(ImVec2(lp.x, lp.y + (ImGui::GetTextLineHeight() - bar_h) * 0.5f));
  if (lt) ImGui::Image(lt, ImVec2(bar_w, bar_h)); else ImGui::Dummy(ImVec2(bar_w, bar_h));
  ImGui::SameLine();
  ImGui::TextDisabled("%s", legend);
}

}  // namespace

void view_heatmap(Demo& demo) {
  const ModelView v =
      open_view(demo, app::view_row(app::ViewId::Heatmap).title, app::view_row(app::ViewId::Heatmap).help);
  const float dpr = ImGui::GetIO().DisplayFramebufferScale.x;
  text_disabled_wrapped("%s", app::tr("rows: the token that looks \xc2\xb7 columns (names below): the token it reads"));

  const GridLayout g = grid_layout(demo, v);
  PinnedCell& pin = pinned();
  if (pin.tokens != v.L || pin.head >= v.H) pin = PinnedCell{};

  for (int h = 0; h < v.H; ++h) {
    if (h % g.per_row != 0) ImGui::SameLine(0, g.gap);
    head_grid(demo, v, g, h, pin, dpr);
  }

  probe_value("heatmap.pin", "[" + std::to_string(pin.head) + "," + std::to_string(pin.row) + "," +
                                std::to_string(pin.col) + "]");
  pinned_reading(v, pin);
  colour_bar(g.avail, dpr);
}

}  // namespace headroom::ui
