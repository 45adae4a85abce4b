// view_stress.cpp: the engine at real sizes, live: repeat the
// sentence up to 512 tokens, recompute the whole forward pass every frame,
// and show the engine's time per forward beside one head's L x L heatmap.
//
// Does: switch the stress length (Demo::set_stress), show the app's timing
// (Demo::tick runs and times the forward pass once per frame; median of the
// last 60 frames; FLOPs = 2 L D^2 4 + 4 L^2 D), show head h's weights through
// the platform's heatmap renderer (heatmap_texture).
// Does not: run the engine (the app's tick does), or keep frames coming (the
// platform asks for them while tick says stress is on).
#include <algorithm>
#include <cstdio>

#include "app/state/view_rows.h"
#include "app/lang/lang.h"
#include "ui/heatmap_textures.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

struct StressView {
  int tokens = SceneConfig::kMaxStressTokens;  // the length switching on uses
  int head = 0;
};

StressView& stress_view() {
  static StressView s;
  return s;
}

}  // namespace

void view_stress(Demo& demo) {
  StressView& st = stress_view();
  section_title(app::view_row(app::ViewId::Stress).title, app::view_row(app::ViewId::Stress).help);
  bool on = demo.scene.stress() > 0;
  if (on) st.tokens = demo.scene.stress();  // may be switched on elsewhere (JS API, link)
  push_control_frames();
  if (ImGui::Checkbox((std::string(app::tr("recompute every frame")) + "##stress").c_str(), &on))
    demo.set_stress(on ? st.tokens : 0);
  record_control_frame(true);
  pop_control_frames();
  same_line_if_fits(200.f, 16.f);
  const int lo = 12, hi = SceneConfig::kMaxStressTokens;
  const auto tokens_words = [](int n) { return app::trf("{0} tokens", {std::to_string(n)}); };
  const float width = std::min(260.f, ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(tokens_words(512).c_str()).x - 16.f);
  if (slider_beside("##stress_tokens", ImGuiDataType_S32, &st.tokens, &lo, &hi, std::max(80.f, width),
                    ImGuiSliderFlags_AlwaysClamp) && on)
    demo.set_stress(st.tokens);
  ImGui::SameLine();
  ImGui::TextUnformatted(tokens_words(st.tokens).c_str());
  if (!on) {
    text_disabled_wrapped("%s", app::trf("off: the sentence repeated up to {0} tokens, recomputed every frame",
                                         {std::to_string(SceneConfig::kMaxStressTokens)}).c_str());
    return;
  }

  const Trace& tr = demo.scene.trace();
  const double L = static_cast<double>(demo.scene.tokens().size()), D = demo.scene.d_model();
  const double ms = demo.stress.median_ms;
  const double gflops = ms > 0 ? (8.0 * L * D * D + 4.0 * L * L * D) / (ms * 1e6) : 0;
  const int H = demo.scene.heads();
  st.head = std::clamp(st.head, 0, H - 1);
  const std::vector<std::string> args = {std::to_string(static_cast<int>(L)), std::to_string(static_cast<int>(D)),
                                         std::to_string(H), app::num(ms, 3), app::num(gflops, 1),
                                         backend_name(default_backend())};
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(app::trf(H == 1 ? "{0} tokens of {1} numbers (D), {2} head: {3} ms per forward pass ({4} GFLOP/s), {5} kernels"
                                              : "{0} tokens of {1} numbers (D), {2} heads: {3} ms per forward pass ({4} GFLOP/s), {5} kernels",
                                       args).c_str());
  ImGui::PopTextWrapPos();
  if (H > 1) {
    int shown = st.head + 1;  // heads are numbered from 1 on screen
    const int first = 1;
    if (slider_beside("##stress_head", ImGuiDataType_S32, &shown, &first, &H, 160.f, ImGuiSliderFlags_AlwaysClamp))
      st.head = shown - 1;
    ImGui::SameLine();
    ImGui::TextUnformatted(app::trf("head {0}", {std::to_string(st.head + 1)}).c_str());
  }
  const float dpr = ImGui::GetIO().DisplayFramebufferScale.x;
  const float side = std::min(ImGui::GetContentRegionAvail().x, 520.f);
  const int px = std::max(1, static_cast<int>(side * dpr));
  const ImTextureID tex =
      heatmap_texture(kHeatmapStressSlot, tr.heads[static_cast<size_t>(st.head)].weights, demo.scene.query(), px, px, 0.f);
  if (tex) ImGui::Image(tex, ImVec2(side, side));
  else ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette().error), "%s", app::tr("WebGL refused the heatmap texture"));
}

}  // namespace headroom::ui
