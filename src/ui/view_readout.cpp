// view_readout.cpp: the readout: one plain sentence saying what each
// head's output holds, e.g. "1 head: said = 0.49 researcher + 0.47 it; its
// output is close to neither (similarity 0.64 / 0.64; cos, 1 = same
// direction)".
//
// Does: show describe.h's sentence in a large font, first thing under the
// heads control, then which weights made it (built, or the trained run:
// weights_statement in view_weights.cpp), and any refused input below it.
// Does not: compute the numbers (Scene::readout() does) or the words
// (describe.cpp does, so the aria-live region says the same thing).
#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/frame.h"
#include "ui/views.h"

namespace headroom::ui {

void view_readout(Demo& demo) {
  begin_card("##readout", palette().readout_card);
  // The compact layout (a course page's frame, a phone) leaves the gloss of
  // "similarity" to the help marker: one line less above its one view.
  const app::ModelShown& shown = demo.shown();
  const std::string& sentence = frame().compact ? shown.sentence : shown.sentence_glossed;
  ImGui::PushFont(frame().fonts.medium);
  // Wrapped at spaces only: ImGui's own wrap also breaks after a '.', which
  // splits "0.64" across two lines in a narrow frame. Tokens the font lacks:
  // text_wrapped lays words out one by one, also at spaces only.
  if (font_can_draw(sentence)) {
    const std::string lines = wrap_at_spaces(sentence, ImGui::GetContentRegionAvail().x - 28.f);
    ImGui::TextUnformatted(lines.c_str());
  } else {
    ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - 28.f);
    text_wrapped(sentence);
    ImGui::PopTextWrapPos();
  }
  ImGui::PopFont();
  ImGui::SameLine();
  help_marker(
      "The weights are how much the selected token takes from each token (they add up to 1); a head's "
      "output is the weighted average of the tokens' values. Similarity compares two vectors' directions: "
      "1 = the same direction, 0 = unrelated. A head \"reads X\" when its output's similarity to X's value "
      "is at least 0.90. Formulas: a_j = softmax_j(q . k_j / sqrt(d_head)); o = sum_j a_j v_j; "
      "similarity = cos(a, b) = a . b / (|a| |b|).");
  // Which weights produced it: built, or a named training run.
  // The compact layout (a course page's frame) says it only when the
  // weights are not the built ones: its lines are the value space's room.
  const std::string weights = weights_statement(demo);
  const bool fallback = demo.training.weights_choice() != demo.training.weights_shown();
  if (!frame().compact || fallback || demo.training.weights_shown() != "built") {
    ImGui::PushStyleColor(ImGuiCol_Text, fallback ? palette().warning : palette().text_faint);
    ImGui::TextUnformatted(wrap_at_spaces(weights, ImGui::GetContentRegionAvail().x).c_str());
    ImGui::PopStyleColor();
  }
  // A link's refusal is the page's to print (beside the canvas): said once.
  if (!demo.error.empty() && demo.error != demo.link_error) {
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::TextWrapped("%s", app::trf("Refused: {0}", {demo.error}).c_str());
    ImGui::PopStyleColor();
  }
  end_card();
}

}  // namespace headroom::ui
