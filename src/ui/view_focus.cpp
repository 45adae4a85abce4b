// view_focus.cpp: [8] the single head's focus: the lesson's three bad options
// as one-click presets ("all on one", "split", "spread") plus a slider.
//
// Does: call Demo::set_focus (the engine rebuilds the single head's W_Q from
// it; weights still come out of the softmax). Shown only with one head and
// the built weights (trained weights say so instead).
// Does not: touch any weight itself.
#include <cmath>

#include "ui/views.h"

namespace headroom::ui {

void view_focus(Demo& demo) {
  if (demo.scene.heads() != 1) return;
  if (demo.scene.weights_overridden()) {  // trained: the split is whatever training found
    ImGui::TextDisabled("focus shapes the built weights only: the trained head splits its weight as training left it");
    return;
  }
  struct Preset { const char* label; float focus; };
  static const Preset presets[] = {{"all on one", 0.f}, {"split", 0.5f}, {"spread", 1.f}};
  const float focus = demo.scene.focus();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("One head can only:");
  for (const Preset& p : presets) {
    same_line_if_fits(ImGui::CalcTextSize(p.label).x + 2 * ImGui::GetStyle().FramePadding.x);
    const bool on = std::fabs(focus - p.focus) < 1e-3f;
    if (on) push_button_colors(palette().toggle_on);
    if (ImGui::Button(p.label)) demo.set_focus(p.focus);
    if (on) ImGui::PopStyleColor(4);
  }
  float f = focus;
  same_line_if_fits(160.f);
  ImGui::SetNextItemWidth(std::fmin(220.f, std::fmax(120.f, ImGui::GetContentRegionAvail().x - 40.f)));
  if (ImGui::SliderFloat("##focus", &f, 0.f, 1.f, "focus %.2f")) demo.set_focus(f);
  ImGui::SameLine();
  help_marker(
      "one head holding two relationships: focus 0 puts all its weight on the first target and "
      "loses the second; 0.5 splits it, out = 0.5 v_a + 0.5 v_b, the midpoint; 1 spreads it "
      "thin, out = mean of all v_j. The engine sets W_Q from focus; softmax makes the weights.");
}

}  // namespace headroom::ui
