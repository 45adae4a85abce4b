// view_controls.cpp: the lesson controls: knock heads out, tie query
// and key, and what the final output still carries of the query's targets.
//
// Does: one toggle per head ("knock out" head h: Demo::set_knockout), one
// checkbox for the tie (Demo::set_tie_qk), and the carried numbers the
// engine measured (Scene::carried(), readout.h), with their definition in a
// help marker. Records the toggles' and the checkbox's rects as probes (probes.h) so
// browser tests click them for real.
// Does not: zero anything or compute what is carried (the engine does).
#include <algorithm>
#include <cstdio>

#include "app/state/view_rows.h"
#include "app/lang/lang.h"
#include "engine/common/words.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

void view_lesson_controls(Demo& demo) {
  const Scene& scene = demo.scene;
  const int H = scene.heads();
  std::vector<int> knocked = scene.knockout();
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(7, 3));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(6, 6));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(app::tr("Knock out"));
  for (int h = 0; h < H; ++h) {
    const bool off = std::find(knocked.begin(), knocked.end(), h) != knocked.end();
    const std::string label = app::trf(off ? "x head {0}" : "head {0}", {std::to_string(h + 1)}) + "##knock" + std::to_string(h);
    same_line_if_fits(ImGui::CalcTextSize(label.c_str(), nullptr, true).x + 16.f);
    push_button_colors(off ? palette().toggle_on : palette().heads_off);
    if (ImGui::Button(label.c_str())) {
      std::vector<int> next = knocked;
      if (off) next.erase(std::find(next.begin(), next.end(), h));
      else next.push_back(h);
      demo.set_knockout(next);
    }
    ImGui::PopStyleColor(4);
    probe_visible_item("knockout");
  }
  // The checkbox, its label and the help marker stay on one row.
  const std::string tie_label = std::string(app::tr("tie query = key")) + "##tie";
  same_line_if_fits(std::max(150.f, ImGui::GetFrameHeight() + ImGui::CalcTextSize(tie_label.c_str(), nullptr, true).x + 40.f), 14.f);
  bool tie = scene.tie_qk();
  push_control_frames();
  if (ImGui::Checkbox(tie_label.c_str(), &tie)) demo.set_tie_qk(tie);
  pop_control_frames();
  probe_visible_item("tie");
  record_control_frame(true);
  ImGui::SameLine();
  help_marker(app::view_row(app::ViewId::Controls).help);
  ImGui::PopStyleVar(2);

  // What the final output carries of each of the query's two lesson targets.
  const std::vector<int> targets = scene.lesson_targets();
  const std::vector<float>& carried = scene.carried();
  std::vector<std::string> parts;  // "researcher 0.98"
  for (size_t i = 0; i < targets.size(); ++i)
    parts.push_back(scene.tokens()[static_cast<size_t>(targets[i])].text + " " + app::num(carried[i], 2));
  text_wrapped(app::trf("output carries {0}", {join_words(parts, ", ")}));
  ImGui::SameLine();
  help_marker(
      "How much of each target's value the final output still holds, from 0 to 1. 1: some head holds the "
      "target's whole value; 0.5: half of it (a split); 0: no head holds any of it (knocked out, or never "
      "read). How: map the final output back through W_O to the heads' slices, write each slice as a mix "
      "a_1 v_1 + a_2 v_2 of the two targets' values (least squares), and take the largest a_t over the heads.");
}

}  // namespace headroom::ui
