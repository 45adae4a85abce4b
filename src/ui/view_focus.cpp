// view_focus.cpp: the single head's focus: the lesson's three bad options
// as one-click presets ("all on one", "split", "spread") plus a slider with
// its value beside it.
//
// Does: call Demo::set_focus (the engine rebuilds the single head's W_Q from
// it; weights still come out of the softmax). The row is drawn at every head
// count, so nothing below it moves when the heads change: it works with one
// head and the built weights, and is shown disabled otherwise, its label
// saying why (more heads: each relationship has a head of its own; trained
// weights: the split is whatever training found).
// Does not: touch any weight itself.
#include <cmath>
#include <cstdio>

#include "ui/views.h"
#include "app/lang/lang.h"

namespace headroom::ui {

void view_focus(Demo& demo) {
  const bool trained = demo.scene.weights_overridden();
  const bool usable = demo.scene.heads() == 1 && !trained;
  struct Preset { const char* label; float focus; };
  static const Preset presets[] = {{N_("all on one"), 0.f}, {N_("split"), 0.5f}, {N_("spread"), 1.f}};
  const float focus = demo.scene.focus();
  // Why the row is disabled: its label says it in a few words, the label's tooltip in full.
  const char* why = trained ? app::tr("focus shapes the built weights only: a trained head splits its weight as training left it")
                            : app::tr("focus is for one head holding two relationships; with more heads each relationship "
                                      "has a head of its own (press 1 to try it)");
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(usable ? app::tr("One head can only:") : trained ? app::tr("Built weights only:") : app::tr("With 1 head only:"));
  if (!usable && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why);
  ImGui::BeginDisabled(!usable);
  for (const Preset& p : presets) {
    const char* label = app::tr(p.label);
    same_line_if_fits(ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x);
    const bool on = usable && std::fabs(focus - p.focus) < 1e-3f;
    if (on) push_button_colors(palette().toggle_on);
    if (ImGui::Button(label)) demo.set_focus(p.focus);
    if (on) ImGui::PopStyleColor(4);
  }
  float f = focus;
  std::string value = app::trf("focus {0}", {app::num(f, 2)});
  const float value_w = ImGui::CalcTextSize(app::trf("focus {0}", {app::num(0, 2)}).c_str()).x + ImGui::GetStyle().ItemSpacing.x;
  same_line_if_fits(120.f + value_w);
  const float width = std::fmin(220.f, std::fmax(100.f, ImGui::GetContentRegionAvail().x - value_w - 30.f));
  const float lo = 0.f, hi = 1.f;
  if (slider_beside("##focus", ImGuiDataType_Float, &f, &lo, &hi, width)) {
    demo.set_focus(f);
    value = app::trf("focus {0}", {app::num(f, 2)});
  }
  ImGui::SameLine();
  ImGui::TextUnformatted(value.c_str());
  ImGui::EndDisabled();
  ImGui::SameLine();
  help_marker(
      "How one head shares its weight between the two tokens it should read. At 0 it puts all of it on the "
      "first and loses the second; at 0.5 it splits it and outputs the midpoint of their values, "
      "0.5 v_a + 0.5 v_b; at 1 it spreads it thin over every token and outputs their average (mush). "
      "The engine turns focus into the head's W_Q; the softmax still makes the weights.");
}

}  // namespace headroom::ui
