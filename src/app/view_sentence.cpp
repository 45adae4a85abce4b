// view_sentence.cpp: the sentence box and the token strip.
//
// Does: a text box (Enter applies the sentence, the engine tokenizes it), the
// last refused input's message, and one button per token in columns shared
// with the bar rows; clicking a token makes it the query.
// Does not: tokenize (the engine does) or check lengths (the engine refuses).
#include "app/views.h"

namespace headroom::app {

void view_sentence_input(Demo& demo) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Sentence");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-90);
  const bool entered = ImGui::InputText("##sentence", demo.draft.data(), demo.draft.size(),
                                        ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  if (ImGui::Button("Apply") || entered) {
    const std::string text(demo.draft.data());
    demo.set_sentence(text);
  }
  if (!demo.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.75f, 0.10f, 0.10f, 1));
    ImGui::TextWrapped("Refused: %s", demo.error.c_str());
    ImGui::PopStyleColor();
  }
}

void view_sentence_strip(Demo& demo, const std::vector<float>& columns) {
  const auto& tokens = demo.scene.tokens();
  const int q = demo.scene.query();
  ImGui::TextDisabled("Click a token to see where each head looks from it.");
  // Column i is columns[i] wide: a button of columns[i] - 4 plus 4 of spacing.
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(4, 6));
  std::vector<ImVec4>& rects = layout().token_rects;
  rects.clear();
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    if (i) ImGui::SameLine();
    const bool selected = i == q;
    if (selected) {
      ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.15f, 0.15f, 0.20f, 1));
      ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(0.25f, 0.25f, 0.30f, 1));
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    }
    ImGui::PushID(i);
    if (ImGui::Button(tokens[i].text.c_str(), ImVec2(columns[i] - 4, 0))) demo.select_token(i);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    rects.emplace_back(a.x, a.y, b.x, b.y);
    ImGui::PopID();
    if (selected) ImGui::PopStyleColor(3);
  }
  ImGui::PopStyleVar();
}

}  // namespace headroom::app
