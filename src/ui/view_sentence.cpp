// view_sentence.cpp: the sentence strip: tokens as chips; click one to
// make it the query; under each chip a mark in a head's colour for every
// head whose target it is; and the query's reassignable targets, each a
// button that arms "the next token click moves this target".
//
// Does: wrap chips onto more lines when the width runs out (phones); record
// each chip's rectangle as a probe (probes.h) for tests. The sentence itself is edited
// in the page's HTML text field (mobile keyboards do not reach ImGui fields).
// Does not: tokenize or decide targets (the engine parses and validates).
#include <string>

#include "app/state/view_rows.h"
#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/view_state.h"
#include "ui/views.h"

namespace headroom::ui {

void view_sentence_strip(Demo& demo) {
  const auto [m, tr, tokens, L, q, H, D, dh] = model_view(demo);
  ViewState& vs = view_state();

  section_title(app::view_row(app::ViewId::Sentence).title, app::view_row(app::ViewId::Sentence).help);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", app::tr(vs.reassign >= 0 ? "click the token that should be the new target"
                                                     : "click a token to make it the query"));

  // Which heads target each token.
  std::vector<std::vector<int>> marks(static_cast<size_t>(L));
  for (int h = 0; h < H; ++h)
    for (int t : m.head[static_cast<size_t>(h)].readout.targets)
      if (t >= 0 && t < L) marks[static_cast<size_t>(t)].push_back(h);

  const std::vector<float> columns = token_columns(demo);
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  const float mark_h = 5.f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  probe_clear("tokens");
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(4, 4 + mark_h + 6));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, 12.f);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(8, 6));
  // A right-to-left sentence runs from the right: on one line in the same
  // columns as the attention bars (column_starts), or wrapped from the right edge.
  const bool rtl = tokens_rtl(demo);
  const float left = ImGui::GetCursorScreenPos().x;
  float total = 0;
  for (float c : columns) total += c;
  const std::vector<float> starts = column_starts(columns, left, true);
  float line_y = ImGui::GetCursorScreenPos().y, rx = right;
  for (int i = 0; i < L; ++i) {
    const float w = columns[static_cast<size_t>(i)] - 4;
    if (rtl) {
      float x = starts[static_cast<size_t>(i)];
      if (total > right - left) {
        if (i > 0 && rx - w < left) {
          line_y += ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y;
          rx = right;
        }
        x = rx - w;
        rx -= w + 4;
      }
      ImGui::SetCursorScreenPos(ImVec2(x, line_y));
    } else if (i > 0) {
      ImGui::SameLine();
      if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine();
    }
    const bool selected = i == q;
    // The query chip is the one in reverse video: dark on the light theme,
    // light (amber) on the dark one.
    push_button_colors(selected ? palette().chip_on : palette().chip_off);
    // A word the model has no vector for is shown faint (it reads as <unk>).
    const bool unknown = m.unknown[static_cast<size_t>(i)];
    if (unknown && !selected) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().text_faint));
    ImGui::PushID(i);
    if (text_button("chip", tokens[static_cast<size_t>(i)].text, ImVec2(w, 0))) {
      if (vs.reassign >= 0) {
        demo.set_target(static_cast<Relation>(vs.reassign), i);
        vs.reassign = -1;
      } else {
        demo.select_token(i);
      }
    }
    const std::string& note = m.notes[static_cast<size_t>(i)];
    if (ImGui::IsItemHovered() && !note.empty())
      item_tooltip(app::trf("{0}: {1} (token {2})", {tokens[static_cast<size_t>(i)].text, note, std::to_string(i)}));
    ImGui::PopID();
    ImGui::PopStyleColor(unknown && !selected ? 5 : 4);
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    probe("tokens", ImVec4(a.x, a.y, b.x, b.y));
    // Target marks: one segment per head that targets this token.
    const auto& heads = marks[static_cast<size_t>(i)];
    if (!heads.empty()) {
      const float seg = (b.x - a.x - 8) / static_cast<float>(heads.size());
      for (size_t k = 0; k < heads.size(); ++k) {
        const float x0 = a.x + 4 + seg * static_cast<float>(k);
        dl->AddRectFilled(ImVec2(x0 + 1, b.y + 3), ImVec2(x0 + seg - 1, b.y + 3 + mark_h), head_color(heads[k]), 2.f);
      }
    }
  }
  ImGui::PopStyleVar(3);

  // The query's targets, reassignable by name (a model with relationships:
  // the lesson's; the text model's heads have none to move).
  bool any = false;
  for (const app::ShownHead& sh : m.head)
    for (Relation rel : sh.readout.relations) any = any || relation_reassignable(rel);
  if (!any) return;
  ImGui::AlignTextToFramePadding();
  text(app::trf("targets of \"{0}\":", {tokens[static_cast<size_t>(q)].text}), ImGui::GetColorU32(ImGuiCol_TextDisabled));
  for (int h = 0; h < H; ++h) {
    const HeadReadout& r = m.head[static_cast<size_t>(h)].readout;
    for (size_t k = 0; k < r.relations.size(); ++k) {
      const Relation rel = r.relations[k];
      if (!relation_reassignable(rel)) continue;
      const int t = r.targets[k];
      const bool armed = vs.reassign == static_cast<int>(rel);
      // A relationship the word does not have (Scene::fits) is shown in
      // parentheses: its head looks at the word itself (Scene::looks_at).
      const bool fits = m.head[static_cast<size_t>(h)].relation_fits[k];
      const std::string name = fits ? app::relation_word(rel) : "(" + std::string(app::relation_word(rel)) + ")";
      const std::string label =
          name + " \xe2\x86\x92 " + (armed ? std::string("?") : tokens[static_cast<size_t>(t)].text);
      const std::string id = "rel" + std::to_string(static_cast<int>(rel));
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < text_size(label).x + 24) ImGui::NewLine();
      // The relationship's colour, the same in every view (palette.h).
      ImGui::PushStyleColor(ImGuiCol_Button, armed ? relation_color(rel) : relation_color(rel, 0.15f));
      ImGui::PushStyleColor(ImGuiCol_ButtonHovered, relation_color(rel, 0.35f));
      ImGui::PushStyleColor(ImGuiCol_Text, armed ? palette().on_color : relation_text_color(rel));
      ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(ImGui::GetStyle().FramePadding.x, 0));
      const bool clicked = text_button(id.c_str(), label);
      ImGui::PopStyleVar();
      if (clicked) vs.reassign = armed ? -1 : static_cast<int>(rel);
      ImGui::PopStyleColor(3);
      const std::string tip =
          fits ? app::trf("head {0}, {1}: {2}. Click, then click a token to move this target.",
                          {std::to_string(h + 1), app::relation_word(rel), app::relation_help_word(rel)})
               : app::trf("head {0}, {1}: \"{2}\" has none, so this head looks at \"{2}\" itself. Click, "
                          "then click a token to give it one.",
                          {std::to_string(h + 1), app::relation_word(rel), tokens[static_cast<size_t>(q)].text});
      ImGui::SetItemTooltip("%s", tip.c_str());
    }
  }
  ImGui::SameLine();
  if (ImGui::SmallButton((std::string(app::tr("reset")) + "##targets").c_str())) {
    demo.reset_targets();
    vs.reassign = -1;
  }
  if (vs.reassign >= 0 && ImGui::IsKeyPressed(ImGuiKey_Escape)) vs.reassign = -1;
}

}  // namespace headroom::ui
