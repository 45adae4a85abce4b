// view_heads_control.cpp: the 1 / 2 / 4 / 8 heads control and the single
// head's focus slider.
//
// Does: big buttons (keys 1, 2, 4, 8 do the same, see ui.cpp); with one head,
// a slider that moves it between all-on-one, split and spread.
// Does not: decide which head counts are valid (the engine refuses the rest).
#include <cstdio>

#include "app/views.h"

namespace headroom::app {

void view_heads_control(Demo& demo) {
  const int heads = demo.scene.heads();
  ImGui::PushFont(fonts().big);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Heads");
  ImGui::SameLine(0, 18);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(18, 6));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, 6);
  for (int n : kHeadChoices) {
    const bool selected = n == heads;
    if (selected) {
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.20f, 0.45f, 0.80f, 1));
      ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.25f, 0.50f, 0.85f, 1));
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    }
    char label[16];
    std::snprintf(label, sizeof label, "%d##heads", n);
    if (ImGui::Button(label)) demo.set_heads(n);
    if (selected) ImGui::PopStyleColor(3);
    ImGui::SameLine();
  }
  ImGui::PopStyleVar(2);
  ImGui::PopFont();

  ImGui::SameLine(0, 18);
  ImGui::BeginGroup();
  ImGui::Text("d_model = %d, d_head = %d", demo.scene.d_model(), demo.scene.d_head());
  ImGui::TextDisabled("keys 1 2 4 8; left/right move the query");
  ImGui::EndGroup();
  ImGui::SameLine();
  help_marker(
      "Each head h computes softmax(Q_h K_h^T / sqrt(d_head)) V_h with its own "
      "W_Q, W_K, W_V (d_model x d_head, d_head = d_model / H). A head's output for "
      "a token is ONE weighted average of value vectors. The heads' outputs are "
      "concatenated and mixed by W_O.");

  if (heads == 1) {
    float focus = demo.scene.focus();
    ImGui::SetNextItemWidth(280);
    if (ImGui::SliderFloat("single-head focus", &focus, 0.f, 1.f, "%.2f")) demo.set_focus(focus);
    ImGui::SameLine();
    help_marker(
        "One head holding two relationships can only: 0 = put its weight on one target "
        "and lose the other; 0.5 = split it, and output the midpoint of two value "
        "vectors; 1 = spread it thin over every token. Every weight still comes "
        "from the softmax.");
  }
}

}  // namespace headroom::app
