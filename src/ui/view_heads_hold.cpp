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

#include "app/state/view_rows.h"
#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

void view_heads_hold(Demo& demo) {
  section_title(app::view_row(app::ViewId::Heads).title, app::view_row(app::ViewId::Heads).help);
  const auto [m, tr, tokens, L, q, H, D, dh] = model_view(demo);
  const bool narrow = ImGui::GetContentRegionAvail().x < 480;
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##heads", narrow ? 4 : 5, flags)) return;
  ImGui::TableSetupColumn(app::tr("head"));
  ImGui::TableSetupColumn(app::tr("relationship"));
  ImGui::TableSetupColumn(app::tr("target (weight)"));
  ImGui::TableSetupColumn(app::tr("similarity"));
  if (!narrow) ImGui::TableSetupColumn(app::tr("nearest token"));
  ImGui::TableHeadersRow();
  for (int h = 0; h < H; ++h) {
    const HeadReadout& r = m.head[static_cast<size_t>(h)].readout;
    // A row per target: named by its relationship (the lesson's heads), or
    // the head's caption on its first row (a head measured, not built).
    for (size_t k = 0; k < r.targets.size(); ++k) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      if (k == 0) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
        ImGui::TextUnformatted(app::trf("head {0}", {std::to_string(h + 1)}).c_str());
        ImGui::PopStyleColor();
      }
      ImGui::TableNextColumn();
      if (k < r.relations.size()) {
        ImGui::TextUnformatted(app::relation_word(r.relations[k]));
        ImGui::SetItemTooltip("%s", app::relation_help_word(r.relations[k]));
      } else if (k == 0) {
        text(m.head[static_cast<size_t>(h)].caption);
      }
      ImGui::TableNextColumn();
      text(tokens[static_cast<size_t>(r.targets[k])].text + " (" + app::num(r.target_weight[k], 2) + ")");
      ImGui::TableNextColumn();
      const float c = r.target_cos[k];
      if (c >= kReadsCos) ImGui::TextUnformatted(app::num(c, 2).c_str());
      else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().warning), "%s", app::num(c, 2).c_str());
      if (!narrow) {
        ImGui::TableNextColumn();
        if (k == 0) {
          text(tokens[static_cast<size_t>(r.nearest)].text + " (" + app::num(r.nearest_cos, 2) + ")");
        }
      }
    }
  }
  ImGui::EndTable();
  if (H == 1)
    text_disabled_wrapped("%s", app::tr("one head holds two relationships at once: press 2 to give each its own head"));
}

}  // namespace headroom::ui
