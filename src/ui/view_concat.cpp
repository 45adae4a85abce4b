// view_concat.cpp: the concatenation and W_O: the query's row of
// concat = [o_1 | o_2 | ... | o_H] as a strip of D coordinates in H coloured
// blocks (each labelled with what that head read), then W_O's mix: head h
// contributes o_h W_O[rows of h] to y = concat W_O, one strip per head, and
// the final y from the Trace.
//
// Does: read concat and out from the Trace, and each head's share of y from
// the engine (output_parts, attention.h: y = concat W_O taken apart by row
// blocks); print how far the shares' sum is from the Trace's y.
// Does not: compute attention or any product of its own.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/state/view_rows.h"
#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

float max_abs(const Vec& v) { return v.size() ? v.cwiseAbs().maxCoeff() : 0.f; }

void strip_tooltip(int hovered, const char* what, const Vec& v) {
  if (hovered >= 0) ImGui::SetTooltip("%s[%d] = %s", what, hovered, app::num(v(hovered), 4).c_str());
}

}  // namespace

void view_concat(Demo& demo) {
  const auto [m, tr, tokens, L, q, H, D, dh] =
      open_view(demo, app::view_row(app::ViewId::Concat).title, app::view_row(app::ViewId::Concat).help);
  const AttentionWeights& w = *m.weights;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float label_w = avail > 560 ? 150.f : 0.f;
  const float strip_w = avail - label_w, strip_h = 22.f, line = ImGui::GetTextLineHeight();

  // The concatenation, blocks labelled.
  const Vec concat = tr.concat.row(q);
  const float scale = std::max(max_abs(concat), 1e-6f);
  if (label_w > 0) {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(app::tr("side by side"));
    ImGui::SameLine(label_w);
  } else {
    ImGui::TextUnformatted(app::tr("side by side"));
  }
  ImVec2 a = ImGui::GetCursorScreenPos();
  const int hovered = vector_strip(dl, ImVec2(a.x, a.y + line + 4), ImVec2(a.x + strip_w, a.y + line + 4 + strip_h),
                                   concat.data(), D, scale);
  for (int h = 0; h < H; ++h) {
    const float x0 = a.x + strip_w * h / H, x1 = a.x + strip_w * (h + 1) / H;
    dl->AddRectFilled(ImVec2(x0 + 1, a.y + line + 1), ImVec2(x1 - 1, a.y + line + 4), head_color(h));
    dl->AddRect(ImVec2(x0, a.y + line + 4), ImVec2(x1, a.y + line + 4 + strip_h), head_color(h), 0.f, 0, 2.f);
    const HeadReadout& r = m.head[static_cast<size_t>(h)].readout;
    std::string what = "o" + std::to_string(h + 1);
    if (H <= 4) {
      what += ": ";
      for (size_t k = 0; k < r.targets.size(); ++k) what += (k ? "+" : "") + tokens[static_cast<size_t>(r.targets[k])].text;
    }
    dl->PushClipRect(ImVec2(x0, a.y), ImVec2(x1 - 2, a.y + line), true);
    draw_text(dl, ImVec2(x0 + 2, a.y), head_text_color(h), what);
    dl->PopClipRect();
  }
  strip_tooltip(hovered, "concat", concat);
  ImGui::Dummy(ImVec2(strip_w, line + 4 + strip_h + 4));

  // W_O's mix: one strip per head, then y.
  ImGui::Spacing();
  text_disabled_wrapped("%s", app::tr("mixed by W_O (\xc3\x97 W_O, D x D): each head's block of rows turns its result o_h "
                                      "into its share of the output y"));
  Mat parts;  // row h = o_h W_O[rows of h], the engine's product taken apart
  output_parts(tr, w, q, parts);
  const Vec sum = parts.colwise().sum();
  const Vec y = tr.out.row(q);
  const float yscale = std::max(max_abs(y), 1e-6f);
  auto row = [&, D = D](const char* label, ImU32 color, const Vec& v, const char* what) {
    if (label_w > 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color));
      ImGui::TextUnformatted(label);
      ImGui::PopStyleColor();
      ImGui::SameLine(label_w);
    } else {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(color));
      ImGui::TextUnformatted(label);
      ImGui::PopStyleColor();
    }
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const int hv = vector_strip(dl, p, ImVec2(p.x + strip_w, p.y + strip_h * 0.7f), v.data(), D, yscale);
    strip_tooltip(hv, what, v);
    ImGui::Dummy(ImVec2(strip_w, strip_h * 0.7f));
  };
  for (int h = 0; h < H; ++h) {
    const std::string label = app::trf("head {0}", {std::to_string(h + 1)}) + "  |" + app::num(parts.row(h).norm(), 2) + "|";
    row(label.c_str(), head_text_color(h), parts.row(h), "o_h W_O");
  }
  const std::string ylabel = "= y  |" + app::num(y.norm(), 2) + "|";
  row(ylabel.c_str(), palette().text, y, "y");
  text_disabled_wrapped("%s", app::trf("the shares add up to the engine's y (largest difference {0}); colours: blue below 0, red above",
                                       {app::num_sci((sum - y).cwiseAbs().maxCoeff(), 1)}).c_str());
}

}  // namespace headroom::ui
