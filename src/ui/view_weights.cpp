// view_weights.cpp: [12] the "weights: built / trained" switch, and the
// statement of which weights the lesson's views show.
//
// Does: call Demo::set_weights (app::Training::sync_scene: the Scene then runs
// its forward pass on the run's trained weights, so the value space,
// attention bars, heatmaps, readout, concatenation and steps all show the
// trained model); say which weights are shown, naming the run, its step and
// its held-out loss, or the app's note when the chosen weights cannot be
// shown (no run with the scene's head count), in weights_statement(), which
// the readout card shows under its sentence.
// Does not: swap any weight itself (app::Training::sync_scene does) or pick
// which run fits (the run with the scene's head count, or none).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "ui/palette.h"
#include "ui/views.h"

namespace headroom::ui {

std::string weights_statement(const Demo& demo) {
  const app::Training& tr = demo.training;
  if (tr.weights_shown() == "trained") {
    const int H = demo.scene.heads();
    const TrainRun* run = tr.trainer().run(H);
    if (run != nullptr) {
      // The scene took the weights the chart last showed (or the run's last
      // good step, if it diverged before that).
      const int64_t step = std::min<int64_t>(tr.chart_step(), run->steps);
      float loss = run->history.front().loss;
      for (const EvalPoint& e : run->history)
        if (e.step <= step) loss = e.loss;
      char buf[160];
      std::snprintf(buf, sizeof buf, "trained weights: the %d-head run, seed %lld, step %lld (held-out loss %.3f)", H,
                    static_cast<long long>(tr.trainer().seed()), static_cast<long long>(step), loss);
      return buf;
    }
  }
  if (!tr.weights_note().empty()) return "built weights: " + tr.weights_note();
  return "built weights: relationships dealt out to heads by construction";
}

void view_weights_switch(Demo& demo) {
  const app::Training& tr = demo.training;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Weights:");
  for (const char* choice : app::kWeightChoices) {
    ImGui::SameLine();
    const bool on = tr.weights_choice() == choice;
    push_button_colors(on ? palette().toggle_on : palette().heads_off);
    char label[32];
    std::snprintf(label, sizeof label, "%s##weights", choice);
    if (ImGui::Button(label) && !on) {
      demo.set_weights(choice);  // the Scene follows (app::Training::sync_scene)
      request_frames(3);
    }
    ImGui::PopStyleColor(4);
    record_visible_item(layout().weights_rects);
  }
  ImGui::SameLine();
  help_marker(
      "built: W_Q, W_K, W_V, W_O made by the scene, one relationship per head (one head holds them all). "
      "trained: the weights of the training run with this many heads (1, 2 or 4), exactly as training left "
      "them; every view then runs the same softmax(Q_h K_h^T / sqrt(d_head)) V_h forward pass on them.");
  // Which weights are shown, and why if not the chosen ones, is the readout
  // card's line right below (weights_statement).
}

}  // namespace headroom::ui
