// view_stress.cpp: [stress] the engine at real sizes, live: repeat the
// sentence up to 512 tokens, recompute the whole forward pass every frame,
// and show the engine's time per forward beside one head's L x L heatmap.
//
// Does: switch the Scene's stress length (Demo::set_stress), call
// Scene::recompute() once per frame while on and time it with a steady clock
// (median of the last 60 frames; FLOPs = 2 L D^2 4 + 4 L^2 D), keep frames
// coming while on, show head h's weights through heatmap_renderer.
// Does not: compute attention (recompute() is the engine's forward pass), or
// run when off: then the app is idle again.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>

#include "app/heatmap_renderer.h"
#include "app/host_signals.h"
#include "app/views.h"

namespace headroom::app {

namespace {

struct StressState {
  int tokens = SceneConfig::kMaxStressTokens;
  int head = 0;
  std::array<double, 60> ms{};  // ring of the last forward times
  int count = 0;
};

StressState& stress_state() {
  static StressState s;
  return s;
}

double median_ms(const StressState& s) {
  const int n = std::min(s.count, static_cast<int>(s.ms.size()));
  if (n == 0) return 0;
  std::array<double, 60> sorted = s.ms;
  std::sort(sorted.begin(), sorted.begin() + n);
  return sorted[static_cast<size_t>(n / 2)];
}

constexpr int kStressSlot = 96;  // heatmap_renderer slot (views use 0..H-1 and 64)

}  // namespace

void view_stress(Demo& demo) {
  StressState& st = stress_state();
  section_title("Stress: the engine at real sizes",
                "Every frame: the full forward pass Y = concat_h(softmax(Q_h K_h^T / sqrt(d_head)) V_h) W_O for L tokens; "
                "FLOPs = 2 L D^2 * 4 + 4 L^2 D; time = median of the last 60 frames.");
  bool on = demo.scene.stress() > 0;
  if (on && st.tokens != demo.scene.stress()) {  // switched on elsewhere (JS API, link)
    st.tokens = demo.scene.stress();
    st.count = 0;
  }
  if (ImGui::Checkbox("recompute every frame", &on)) {
    st.count = 0;
    demo.forward_count = 0;
    demo.set_stress(on ? st.tokens : 0);
  }
  ImGui::SameLine(0, 16);
  ImGui::SetNextItemWidth(std::min(260.f, ImGui::GetContentRegionAvail().x * 0.5f));
  if (ImGui::SliderInt("tokens", &st.tokens, 12, SceneConfig::kMaxStressTokens, "%d", ImGuiSliderFlags_AlwaysClamp) &&
      on) {
    st.count = 0;
    demo.set_stress(st.tokens);
  }
  if (!on) {
    ImGui::TextDisabled("off: the sentence repeated up to %d tokens, recomputed every frame", SceneConfig::kMaxStressTokens);
    return;
  }

  // The engine's forward pass, timed on its own (not the frame, not GL).
  const auto t0 = std::chrono::steady_clock::now();
  const Trace& tr = demo.scene.recompute();
  const auto t1 = std::chrono::steady_clock::now();
  st.ms[static_cast<size_t>(st.count % static_cast<int>(st.ms.size()))] =
      std::chrono::duration<double, std::milli>(t1 - t0).count();
  ++st.count;
  request_frames(2);

  const double L = static_cast<double>(demo.scene.tokens().size()), D = demo.scene.d_model();
  const double ms = median_ms(st);
  demo.forward_ms = ms;
  demo.forward_count = st.count;
  const double gflops = ms > 0 ? (8.0 * L * D * D + 4.0 * L * L * D) / (ms * 1e6) : 0;
  const int H = demo.scene.heads();
  st.head = std::clamp(st.head, 0, H - 1);
  ImGui::Text("%d tokens, D = %d, H = %d: %.3f ms per forward (%.1f GFLOP/s), %s kernels",
              static_cast<int>(L), static_cast<int>(D), H, ms, gflops, backend_name(default_backend()));
  if (H > 1) {
    int shown = st.head + 1;  // heads are numbered from 1 on screen
    ImGui::SetNextItemWidth(160.f);
    if (ImGui::SliderInt("##stress_head", &shown, 1, H, "head %d", ImGuiSliderFlags_AlwaysClamp)) st.head = shown - 1;
  }
  const float dpr = ImGui::GetIO().DisplayFramebufferScale.x;
  const float side = std::min(ImGui::GetContentRegionAvail().x, 520.f);
  const int px = std::max(1, static_cast<int>(side * dpr));
  const ImTextureID tex =
      heatmap_renderer().render(kStressSlot, tr.heads[static_cast<size_t>(st.head)].weights, demo.scene.query(), px, px, 0.f);
  if (tex) ImGui::Image(tex, ImVec2(side, side));
  else ImGui::TextColored(ImVec4(0.7f, 0.1f, 0.1f, 1), "WebGL refused the heatmap texture");
}

}  // namespace headroom::app
