// view_heads_hold.cpp: what each head holds: its relationships by name
// (subject, complement, previous token, antecedent, ...), its target for the
// selected token, the weight on it, the cosine of its output to the target's
// value vector, and the token its output is nearest to. At 4 and 8 heads the
// extra heads take further named relationships.
//
// Does: a table from Scene::readout() and relation_name/relation_help.
// Does not: compute any number.
#include <cstdio>
#include <string>

#include "app/describe.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

void view_heads_hold(Demo& demo) {
  section_title("What each head holds",
                "Each head is built to look for one relationship (the verb's subject, the token before, ...): "
                "its matrices give that relationship's target the highest score. With H heads they are dealt "
                "out one per head; one head has to hold two at once. Similarity: how closely the head's output "
                "points the same way as the target's value (1 = same direction); nearest: the token whose value "
                "it is most similar to. In symbols: relationship = bilinear form x_i W_Q W_K^T x_j; similarity "
                "= cos(o_h, v_target); nearest = argmax_j cos(o_h, v_j).");
  const std::vector<HeadReadout>& readout = demo.scene.readout();
  const auto& tokens = demo.scene.tokens();
  const int H = demo.scene.heads();
  const bool narrow = ImGui::GetContentRegionAvail().x < 480;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##heads", narrow ? 4 : 5, flags)) return;
  ImGui::TableSetupColumn("head");
  ImGui::TableSetupColumn("relationship");
  ImGui::TableSetupColumn("target (weight)");
  ImGui::TableSetupColumn("similarity");
  if (!narrow) ImGui::TableSetupColumn("nearest token");
  ImGui::TableHeadersRow();
  for (int h = 0; h < H; ++h) {
    const HeadReadout& r = readout[static_cast<size_t>(h)];
    for (size_t k = 0; k < r.relations.size(); ++k) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (k == 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
        ImGui::Text("head %d", h + 1);
        ImGui::PopStyleColor();
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(relation_name(r.relations[k]));
      ImGui::SetItemTooltip("%s", relation_help(r.relations[k]));
      ImGui::TableNextColumn();
      char num[32];
      std::snprintf(num, sizeof num, " (%.2f)", r.target_weight[k]);
      text(tokens[static_cast<size_t>(r.targets[k])].text + num);
      ImGui::TableNextColumn();
      const float c = r.target_cos[k];
      if (c >= kReadsCos) ImGui::Text("%.2f", c);
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().warning), "%.2f", c);
      if (!narrow) {
        ImGui::TableNextColumn();
        if (k == 0) {
          std::snprintf(num, sizeof num, " (%.2f)", r.nearest_cos);
          text(tokens[static_cast<size_t>(r.nearest)].text + num);
        }
      }
    }
  }
  ImGui::EndTable();
  if (H == 1)
    text_disabled_wrapped("one head holds two relationships at once: press 2 to give each its own head");
}

}  // namespace headroom::ui
