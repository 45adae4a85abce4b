// view_heads_control.cpp: the 1 / 2 / 4 / 8 heads control, the most
// prominent control on screen, with what each head gets in plain words:
// "each head gets 128 / 2 = 64 numbers (d_head)".
//
// Does: big buttons (keys 1, 2, 4, 8 do the same, see ui.cpp); records each
// button's rectangle as a probe (probes.h) so tests can click them for real.
// Does not: decide which head counts are valid (the engine refuses the rest).
#include <algorithm>
#include <cstdio>

#include "ui/probes.h"
#include "ui/frame.h"
#include "app/lang/lang.h"
#include "ui/views.h"

namespace headroom::ui {

void view_heads_control(Demo& demo) {
  const int heads = demo.scene.heads();
  const float narrow = ImGui::GetContentRegionAvail().x < 520.f;
  ImGui::PushFont(frame().fonts.big);
  ImGui::AlignTextToFramePadding();
  const char* title = app::tr("Heads");
  ImGui::TextUnformatted(title);
  ImGui::SameLine(0, narrow ? 12.f : 20.f);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(0, 8));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, 8);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(narrow ? 8.f : 10.f, 8));
  // Narrow: the four buttons share what the title (longer in some
  // languages) leaves, down to 44 px (a finger's target).
  const float room = ImGui::GetContentRegionAvail().x - 4 * 8.f;  // beside the title; 4 gaps: one after the last
  const float w = narrow ? std::max(44.f, std::min(52.f, room / 4.f)) : 64.f;
  probe_clear("heads");
  for (int n : kHeadCounts) {
    const bool selected = n == heads;
    push_button_colors(selected ? palette().accent : palette().heads_off);
    char label[16];
    std::snprintf(label, sizeof label, "%d##heads", n);
    if (ImGui::Button(label, ImVec2(w, 0))) demo.set_heads(n);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    probe("heads", ImVec4(a.x, a.y, b.x, b.y));
    ImGui::PopStyleColor(4);
    ImGui::SameLine();
  }
  ImGui::PopStyleVar(3);
  ImGui::PopFont();

  // The shapes beside the buttons when they fit there, else under them; the
  // keys' hint only in the full layout (a course page's frame is short).
  const std::string shapes_text = app::trf("each head gets {0} / {1} = {2} numbers (d_head)",
                                           {std::to_string(demo.scene.d_model()), std::to_string(heads),
                                            std::to_string(demo.scene.d_head())});
  const char* shapes = shapes_text.c_str();
  const char* keys = app::tr("keys 1 2 4 8 \xc2\xb7 left/right arrows move the query");
  const bool show_keys = !frame().compact;
  const float text_w = std::max(ImGui::CalcTextSize(shapes).x, show_keys ? ImGui::CalcTextSize(keys).x : 0.f);
  const float marker_w = ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
  if (narrow || ImGui::GetContentRegionAvail().x < 20.f + text_w + marker_w) ImGui::NewLine(); else ImGui::SameLine(0, 20);
  ImGui::BeginGroup();
  ImGui::TextUnformatted(shapes);
  if (show_keys) ImGui::TextDisabled("%s", keys);
  ImGui::EndGroup();
  ImGui::SameLine();
  help_marker(
      "Each token is a list of 128 numbers (d_model). The heads share them out: with H heads each head "
      "works with 128 / H of them (d_head), with its own three matrices to pick what to compare and what "
      "to read. Each head makes its own weighted average; the heads' results are placed side by side and "
      "mixed by one more matrix, W_O. Formula: out_h = softmax(Q_h K_h^T / sqrt(d_head)) V_h, with W_Q, "
      "W_K, W_V of d_model x d_head; d_head = d_model / H. Keys: 1 2 4 8 set the heads, left/right "
      "arrows move the query.");
}

}  // namespace headroom::ui
