// view_heatmap.cpp: [3b] per head, the full L x L attention matrix: row i =
// where token i looks, column j = how much it takes from token j.
//
// Does: ask the platform's heatmap renderer (heatmap_texture, views.h) for a texture at
// the image's physical pixel size (crisp at any devicePixelRatio), show it
// with ImGui::Image, label rows with tokens, frame the query's row, show the
// exact weight of the hovered cell; clicking a row makes it the query. A
// colour bar of the same program shows the scale 0..1. For a right-to-left
// sentence the columns (keys) run right to left, as its token strip does.
// Does not: compute or rescale weights (cell colour = viridis(a_h[i, j])).
#include <algorithm>
#include <cmath>

#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

constexpr int kLegendSlot = 64;  // renderer slot of the colour bar (heads use 0..H-1)

ImTextureID legend_texture(int px_w, int px_h) {
  static Mat ramp;
  if (ramp.cols() != 64) {
    ramp.resize(1, 64);
    for (int i = 0; i < 64; ++i) ramp(0, i) = (i + 0.5f) / 64.f;
  }
  return heatmap_texture(kLegendSlot, ramp, -1, px_w, px_h, 0.f);
}

}  // namespace

void view_heatmap(Demo& demo) {
  const auto [tr, tokens, L, q, H, D, dh] =
      open_view(demo, "Every token's attention, per head",
                "A_h = softmax(Q_h K_h^T / sqrt(d_head)), L x L: row i = query token i, column j = key token j, "
                "colour = viridis(a_ij) from 0 to 1; each row sums to 1. The framed row is the selected token.");
  const float dpr = ImGui::GetIO().DisplayFramebufferScale.x;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  const bool rtl = tokens_rtl(demo);
  float label_w = 0;
  for (const Token& t : tokens) label_w = std::max(label_w, text_size(t.text).x);
  label_w = std::min(label_w + 8.f, 90.f);
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = 16.f;
  const float min_img = 150.f;
  const int per_row = std::max(1, std::min(H, static_cast<int>((avail + gap) / (label_w + min_img + gap))));
  const float img = std::floor(std::min((avail - gap * (per_row - 1)) / per_row - label_w, 300.f));

  for (int h = 0; h < H; ++h) {
    if (h % per_row != 0) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushID(h);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
    ImGui::Text("Head %d", h + 1);
    ImGui::PopStyleColor();
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float cell = img / static_cast<float>(L);
    // Row labels (queries), right-aligned, only when rows are tall enough to read.
    if (cell >= ImGui::GetTextLineHeight() * 0.8f)
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
      dl->AddText(ImVec2(o.x + label_w + 6, o.y + 6), palette().error, "WebGL refused the heatmap shader");
    }
    if (ImGui::IsItemHovered()) {
      const ImVec2 m = ImGui::GetIO().MousePos, a = ImGui::GetItemRectMin();
      const int i = std::clamp(static_cast<int>((m.y - a.y) / cell), 0, L - 1);
      const int column = std::clamp(static_cast<int>((m.x - a.x) / cell), 0, L - 1);
      const int j = rtl ? L - 1 - column : column;
      char num[48];
      std::snprintf(num, sizeof num, " = %.4f", tr.heads[static_cast<size_t>(h)].weights(i, j));
      const std::string& ti = tokens[static_cast<size_t>(i)].text;
      ImGui::BeginTooltip();
      text("head " + std::to_string(h + 1) + ": " + ti + " \xe2\x86\x92 " + tokens[static_cast<size_t>(j)].text + num);
      text("(click: make " + ti + " the query)");
      ImGui::EndTooltip();
      if (ImGui::IsItemClicked()) demo.select_token(i);
    }
    ImGui::PopID();
    ImGui::EndGroup();
  }

  // Colour bar: the same program over a 0..1 ramp.
  const char* legend = "1   weight (viridis)";
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
