// view_weights.cpp: the "weights: built / trained" switch, and the
// statement of which weights the lesson's views show.
//
// Does: call Demo::set_weights (app::LiveTraining::sync_scene: the Scene then runs
// its forward pass on the run's trained weights, so the value space,
// attention bars, heatmaps, readout, concatenation and steps all show the
// trained model); say which weights are shown, naming the run, its step and
// its held-out loss, or the app's note when the chosen weights cannot be
// shown (no run with the scene's head count), in weights_statement(), which
// the readout card shows under its sentence. "trained" chosen before any
// training step says that its weights are the random starting ones and
// offers Play beside the words (Demo::train_play).
// Does not: swap any weight itself (app::LiveTraining::sync_scene does) or pick
// which run fits (the run with the scene's head count, or none).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/lang/lang.h"
#include "ui/palette.h"
#include "ui/probes.h"
#include "ui/frame.h"
#include "ui/views.h"

namespace headroom::ui {

std::string weights_statement(Demo& demo) {
  const app::LiveTraining& tr = demo.training;
  if (tr.weights_shown() == "text") {
    const app::ModelShown& m = demo.shown();
    return app::trf("the language model trained on English: the {0}-head run, step {1}, layer {2} of {3}",
                    {std::to_string(m.heads), std::to_string(tr.weights_step()), std::to_string(m.layer + 1),
                     std::to_string(m.layers)});
  }
  if (tr.weights_shown() == "trained") {
    const int H = demo.scene.heads();
    const TrainRun* run = tr.run(H);
    if (run != nullptr) {
      // The scene took the weights the chart last showed (or the run's last
      // good step, if it diverged before that).
      const int64_t step = std::min<int64_t>(tr.weights_step(), run->steps);
      float loss = run->history.front().loss;
      for (const EvalPoint& e : run->history)
        if (e.step <= step) loss = e.loss;
      return app::trf("trained weights: the {0}-head run, seed {1}, step {2} (held-out loss {3})",
                      {std::to_string(H), std::to_string(tr.seed()), std::to_string(step), app::num(loss, 3)});
    }
  }
  // The note is a code (getState().trainedWeights.note has its English): worded in the language.
  if (!tr.weights_note().is_ok()) return app::trf("built weights: {0}", {app::tr_status(tr.weights_note())});
  return app::tr("built weights: relationships dealt out to heads by construction");
}

void view_weights_switch(Demo& demo) {
  app::LiveTraining& tr = demo.training;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(app::tr("Weights:"));
  // The choices' names as the buttons show them (the API's values stay "built" / "trained" / "text").
  static constexpr const char* kShown[] = {N_("built"), N_("trained"), N_("English text")};
  static_assert(sizeof kShown / sizeof kShown[0] == app::kWeightChoices.size(), "one name per weight choice");
  for (size_t i = 0; i < app::kWeightChoices.size(); ++i) {
    const char* choice = app::kWeightChoices[i];
    // A narrow frame (a phone, a long language) wraps the buttons rather than cut them.
    const float wide = ImGui::CalcTextSize(app::tr(kShown[i])).x + 2 * ImGui::GetStyle().FramePadding.x;
    same_line_if_fits(wide);
    const bool on = tr.weights_choice() == choice;
    push_button_colors(on ? palette().toggle_on : palette().heads_off);
    const std::string label = std::string(app::tr(kShown[i])) + "##weights_" + choice;
    if (ImGui::Button(label.c_str()) && !on) {
      demo.set_weights(choice);  // the Scene follows (app::LiveTraining::sync_scene)
      request_frames(3);
    }
    ImGui::PopStyleColor(4);
    probe_visible_item("weights");
  }
  // The text model's layers: which one the views show.
  const app::ModelShown& shown = demo.shown();
  if (shown.layers > 1) {
    same_line_if_fits(ImGui::CalcTextSize(app::tr("layer:")).x + 2 * ImGui::GetFrameHeight(), 14.f);
    ImGui::TextUnformatted(app::tr("layer:"));
    for (int l = 1; l <= shown.layers; ++l) {
      ImGui::SameLine();
      const bool on = shown.layer + 1 == l;
      push_button_colors(on ? palette().toggle_on : palette().heads_off);
      if (ImGui::Button((std::to_string(l) + "##text_layer").c_str()) && !on) {
        demo.set_text_layer(l);
        request_frames(3);
      }
      ImGui::PopStyleColor(4);
      probe_visible_item("textLayer");
    }
  }
  same_line_if_fits(ImGui::CalcTextSize("(?)").x);
  help_marker(
      "Where the heads' matrices come from. Built: made by rule, so that each head looks for one "
      "relationship (one head has to hold them all). Trained: learned from examples by the training run "
      "with this many heads (1, 2 or 4), exactly as training left them. English text: the language model "
      "the training panel trains on real English (task \"text\"), its run with this many heads, on the "
      "sentence typed; a word it never saw is drawn faint. Every view runs the same forward pass on them: "
      "softmax(Q_h K_h^T / sqrt(d_head)) V_h, then W_O.");
  // What the two mean, in a line beside them; a small frame (compact layout)
  // leaves it to the help marker: its lines are the chart's room.
  if (!frame().compact) {
    const char* what = app::tr("built: made by rule, one relationship per head \xc2\xb7 trained: learned from examples");
    same_line_if_fits(ImGui::CalcTextSize(what).x, 12.f);
    text_disabled_wrapped("%s", what);
  }
  // "trained" before any training: the runs' random starting weights. Say so
  // and offer Play right here.
  if (tr.weights_choice() == "trained" && tr.weights_shown() == "trained" && !tr.running() &&
      tr.step_count() == 0) {
    ImGui::AlignTextToFramePadding();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().warning);
    ImGui::TextUnformatted(app::tr("Not trained yet: these are the random weights training starts from."));
    ImGui::PopStyleColor();
    const char* play = app::tr("Play");
    same_line_if_fits(ImGui::CalcTextSize(play).x + 2 * ImGui::GetStyle().FramePadding.x);
    push_button_colors(palette().play);
    if (ImGui::Button((std::string(play) + "##weights").c_str())) {
      demo.train_play();
      request_frames(3);
    }
    ImGui::PopStyleColor(4);
    probe_visible_item("weightsPlay");
  }
  // Which weights are shown, and why if not the chosen ones, is the readout
  // card's line right below (weights_statement).
}

}  // namespace headroom::ui
