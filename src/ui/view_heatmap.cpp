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

}  // namespace

void view_heatmap(Demo& demo) {
  const auto [m, tr, tokens, L, q, H, D, dh] =
      open_view(demo, app::view_row(app::ViewId::Heatmap).title, app::view_row(app::ViewId::Heatmap).help);
  const float dpr = ImGui::GetIO().DisplayFramebufferScale.x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  text_disabled_wrapped("%s", app::tr("rows: the token that looks \xc2\xb7 columns (names below): the token it reads"));

  const bool rtl = tokens_rtl(demo);
  float label_w = 0;
  for (const Token& t : tokens) label_w = std::max(label_w, text_size(t.text).x);
  const float name_room = std::min(label_w, 84.f);  // the column labels' band below each grid
  label_w = std::min(label_w + 8.f, 90.f);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = 16.f;
  const float min_img = 150.f;
  const int per_row = std::max(1, std::min(H, static_cast<int>((avail + gap) / (label_w + min_img + gap))));
  const float img = std::floor(std::min((avail - gap * (per_row - 1)) / per_row - label_w, 300.f));
  const float lh = ImGui::GetTextLineHeight();
  const float cell = img / static_cast<float>(L);
  // Names when a row or column is tall (wide) enough to read one; else every
  // k-th column, so the key axis is still named.
  const bool row_names = cell >= lh * 0.8f;
  const int col_every = std::max(1, static_cast<int>(std::ceil(lh * 0.9f / cell)));
  PinnedCell& pin = pinned();
  if (pin.tokens != L || pin.head >= H) pin = PinnedCell{};

  for (int h = 0; h < H; ++h) {
    if (h % per_row != 0) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushID(h);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
    ImGui::TextUnformatted(app::trf("Head {0}", {std::to_string(h + 1)}).c_str());
    ImGui::PopStyleColor();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    // Row labels (the tokens that look), right-aligned beside their rows.
    if (row_names)
      for (int i = 0; i < L; ++i) {
        const std::string& name = tokens[static_cast<size_t>(i)].text;
        const ImVec2 ts = text_size(name);
        dl->PushClipRect(ImVec2(o.x, o.y), ImVec2(o.x + label_w - 4, o.y + img), true);
        draw_text(dl, ImVec2(o.x + label_w - 6 - ts.x, o.y + cell * (i + 0.5f) - ts.y * 0.5f),
                  i == q ? palette().text : palette().text_faint, name);
        dl->PopClipRect();
      }
    ImGui::SetCursorScreenPos(ImVec2(o.x + label_w, o.y));
    const int px = std::max(1, static_cast<int>(std::lround(img * dpr)));
    const ImTextureID tex = heatmap_texture(h, tr.heads[static_cast<size_t>(h)].weights, q, px, px, std::max(1.f, dpr));
    if (tex) {
      // A right-to-left sentence's key axis runs right to left, as its token strip.
      if (rtl) ImGui::Image(tex, ImVec2(img, img), ImVec2(1, 0), ImVec2(0, 1));
      else ImGui::Image(tex, ImVec2(img, img));
    } else {
      ImGui::Dummy(ImVec2(img, img));
      dl->AddText(ImVec2(o.x + label_w + 6, o.y + 6), palette().error, app::tr("WebGL refused the heatmap shader"));
    }
    const ImVec2 a = ImGui::GetItemRectMin();
    probe("heatmap.grids", ImVec4(a.x, a.y, a.x + img, a.y + img));
    const auto cell_at = [&, last = L - 1](ImVec2 at, int* i, int* j) {  // (a lambda cannot capture a binding)
      *i = std::clamp(static_cast<int>((at.y - a.y) / cell), 0, last);
      const int column = std::clamp(static_cast<int>((at.x - a.x) / cell), 0, last);
      *j = rtl ? last - column : column;
    };
    if (ImGui::IsItemHovered()) {
      int i = 0, j = 0;
      cell_at(ImGui::GetIO().MousePos, &i, &j);
      const std::string weight = app::num(tr.heads[static_cast<size_t>(h)].weights(i, j), 4);
      const std::string& ti = tokens[static_cast<size_t>(i)].text;
      if (ImGui::GetIO().MouseSource != ImGuiMouseSource_TouchScreen) {
        ImGui::BeginTooltip();
        text(app::trf("head {0}: {1} \xe2\x86\x92 {2} = {3}", {std::to_string(h + 1), ti, tokens[static_cast<size_t>(j)].text, weight}));
        text(app::trf("(click: read it below, and make {0} the query)", {ti}));
        ImGui::EndTooltip();
      }
      if (ImGui::IsItemClicked()) {
        pin = PinnedCell{h, i, j, L};
        demo.select_token(i);
      }
    }
    // The pinned cell, outlined.
    if (pin.head == h) {
      const int column = rtl ? L - 1 - pin.col : pin.col;
      const ImVec2 c0(a.x + cell * column, a.y + cell * pin.row);
      dl->AddRect(c0, ImVec2(c0.x + cell, c0.y + cell), palette().point_ring, 0.f, 0, 2.f);
      dl->AddRect(ImVec2(c0.x - 1, c0.y - 1), ImVec2(c0.x + cell + 1, c0.y + cell + 1), palette().marker_edge, 0.f, 0, 1.f);
    }
    // Column labels (the tokens read), turned to read upward under their columns.
    const ImVec2 band(a.x, a.y + img + 3.f);
    dl->PushClipRect(ImVec2(band.x - 2.f, band.y), ImVec2(band.x + img + lh, band.y + name_room + 2.f), true);
    for (int j = 0; j < L; j += col_every) {
      const std::string& name = tokens[static_cast<size_t>(j)].text;
      const float tw = std::min(text_size(name).x, name_room);
      const int column = rtl ? L - 1 - j : j;
      const float cx = a.x + cell * (column + 0.5f);
      draw_text_up(dl, ImVec2(cx - lh * 0.5f, band.y + tw), j == q ? palette().text : palette().text_faint, name);
    }
    dl->PopClipRect();
    ImGui::SetCursorScreenPos(ImVec2(o.x, band.y));
    ImGui::Dummy(ImVec2(label_w + img, name_room + 4.f));
    ImGui::PopID();
    ImGui::EndGroup();
  }

  probe_value("heatmap.pin", "[" + std::to_string(pin.head) + "," + std::to_string(pin.row) + "," +
                                std::to_string(pin.col) + "]");
  // The pinned cell's reading, on a line of its own (always there, so
  // nothing moves when a cell is tapped).
  if (pin.head >= 0) {
    text(app::trf("head {0}: {1} takes {2} of its weight from {3}",
                  {std::to_string(pin.head + 1), tokens[static_cast<size_t>(pin.row)].text,
                   app::num(tr.heads[static_cast<size_t>(pin.head)].weights(pin.row, pin.col), 4),
                   tokens[static_cast<size_t>(pin.col)].text}));
  } else {
    ImGui::TextDisabled("%s", app::tr("tap or click a square's cell to read its weight here"));
  }

  // Colour bar: the same program over a 0..1 ramp.
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

}  // namespace headroom::ui
