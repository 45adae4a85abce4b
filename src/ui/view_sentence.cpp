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

namespace {

constexpr float kMarkH = 5.f;  // a target mark's height under its chip

// Where the chips go, one after another: left to right with ImGui's own
// wrapping, or for a right-to-left sentence from the right, on one line in
// the same columns as the attention bars (column_starts) or wrapped from
// the right edge.
struct ChipFlow {
  bool rtl = false;
  float left = 0, right = 0, total = 0, line_y = 0, rx = 0;
  std::vector<float> starts;

  ChipFlow(Demo& demo, const std::vector<float>& columns, float right_edge) : rtl(tokens_rtl(demo)), right(right_edge) {
    left = ImGui::GetCursorScreenPos().x;
    for (float c : columns) total += c;
    starts = column_starts(columns, left, true);
    line_y = ImGui::GetCursorScreenPos().y;
    rx = right;
  }

  // Puts the cursor where chip i, w px wide, goes.
  void place(int i, float w) {
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
  }
};

// Token i's chip, w px wide: a click makes it the query, or (a target armed)
// moves the armed target to it. Recorded as a "tokens" probe.
void token_chip(Demo& demo, const ModelView& v, ViewState& vs, int i, float w) {
  const bool selected = i == v.q;
  // The query chip is the one in reverse video: dark on the light theme,
  // light (amber) on the dark one.
  push_button_colors(selected ? palette().chip_on : palette().chip_off);
  // A word the model has no vector for is shown faint (it reads as <unk>).
  const bool unknown = v.m.unknown[static_cast<size_t>(i)];
  if (unknown && !selected) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette().text_faint));
  ImGui::PushID(i);
  if (text_button("chip", v.tokens[static_cast<size_t>(i)].text, ImVec2(w, 0))) {
    if (vs.reassign >= 0) {
      demo.set_target(static_cast<Relation>(vs.reassign), i);
      vs.reassign = -1;
    } else {
      demo.select_token(i);
    }
  }
  const std::string& note = v.m.notes[static_cast<size_t>(i)];
  if (ImGui::IsItemHovered() && !note.empty())
    item_tooltip(app::trf("{0}: {1} (token {2})", {v.tokens[static_cast<size_t>(i)].text, note, std::to_string(i)}));
  ImGui::PopID();
  ImGui::PopStyleColor(unknown && !selected ? 5 : 4);
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  probe("tokens", ImVec4(a.x, a.y, b.x, b.y));
}

// Target marks under the last chip: one segment per head that targets its token.
void target_marks(ImDrawList* dl, const std::vector<int>& heads) {
  if (heads.empty()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const float seg = (b.x - a.x - 8) / static_cast<float>(heads.size());
  for (size_t k = 0; k < heads.size(); ++k) {
    const float x0 = a.x + 4 + seg * static_cast<float>(k);
    dl->AddRectFilled(ImVec2(x0 + 1, b.y + 3), ImVec2(x0 + seg - 1, b.y + 3 + kMarkH), head_color(heads[k]), 2.f);
  }
}

// The chips, wrapped onto more lines when the width runs out, each with its target marks.
void token_chips(Demo& demo, const ModelView& v, ViewState& vs) {
  const auto& [m, tr, tokens, L, q, H, D, dh] = v;
  // Which heads target each token.
  std::vector<std::vector<int>> marks(static_cast<size_t>(L));
  for (int h = 0; h < H; ++h)
    for (int t : m.head[static_cast<size_t>(h)].readout.targets)
      if (t >= 0 && t < L) marks[static_cast<size_t>(t)].push_back(h);

  const std::vector<float> columns = token_columns(demo);
  const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  probe_clear("tokens");
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(4, 4 + kMarkH + 6));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameRounding, 12.f);
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, ImVec2(8, 6));
  ChipFlow flow(demo, columns, right);
  for (int i = 0; i < L; ++i) {
    const float w = columns[static_cast<size_t>(i)] - 4;
    flow.place(i, w);
    token_chip(demo, v, vs, i, w);
    target_marks(dl, marks[static_cast<size_t>(i)]);
  }
  ImGui::PopStyleVar(3);
}

// Head h's relationship k as a button in the relationship's colour: a click
// arms it (the next token click moves this target), a second disarms it.
void relation_button(const ModelView& v, ViewState& vs, int h, size_t k) {
  const HeadReadout& r = v.m.head[static_cast<size_t>(h)].readout;
  const Relation rel = r.relations[k];
  const int t = r.targets[k];
  const bool armed = vs.reassign == static_cast<int>(rel);
  // A relationship the word does not have (Scene::fits) is shown in
  // parentheses: its head looks at the word itself (Scene::looks_at).
  const bool fits = v.m.head[static_cast<size_t>(h)].relation_fits[k];
  const std::string name = fits ? app::relation_word(rel) : "(" + std::string(app::relation_word(rel)) + ")";
  const std::string label =
      name + " \xe2\x86\x92 " + (armed ? std::string("?") : v.tokens[static_cast<size_t>(t)].text);
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
  const std::string& query = v.tokens[static_cast<size_t>(v.q)].text;
  const std::string tip =
      fits ? app::trf("head {0}, {1}: {2}. Click, then click a token to move this target.",
                      {std::to_string(h + 1), app::relation_word(rel), app::relation_help_word(rel)})
           : app::trf("head {0}, {1}: \"{2}\" has none, so this head looks at \"{2}\" itself. Click, "
                      "then click a token to give it one.",
                      {std::to_string(h + 1), app::relation_word(rel), query});
  ImGui::SetItemTooltip("%s", tip.c_str());
}

// The query's targets, reassignable by name (a model with relationships:
// the lesson's; the text model's heads have none to move), and reset.
void reassignable_targets(Demo& demo, const ModelView& v, ViewState& vs) {
  bool any = false;
  for (const app::ShownHead& sh : v.m.head)
    for (Relation rel : sh.readout.relations) any = any || relation_reassignable(rel);
  if (!any) return;
  ImGui::AlignTextToFramePadding();
  text(app::trf("targets of \"{0}\":", {v.tokens[static_cast<size_t>(v.q)].text}), ImGui::GetColorU32(ImGuiCol_TextDisabled));
  for (int h = 0; h < v.H; ++h) {
    const HeadReadout& r = v.m.head[static_cast<size_t>(h)].readout;
    for (size_t k = 0; k < r.relations.size(); ++k)
      if (relation_reassignable(r.relations[k])) relation_button(v, vs, h, k);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton((std::string(app::tr("reset")) + "##targets").c_str())) {
    demo.reset_targets();
    vs.reassign = -1;
  }
  if (vs.reassign >= 0 && ImGui::IsKeyPressed(ImGuiKey_Escape)) vs.reassign = -1;
}

}  // namespace

void view_sentence_strip(Demo& demo) {
  const ModelView v = model_view(demo);
  ViewState& vs = view_state();

  section_title(app::view_row(app::ViewId::Sentence).title, app::view_row(app::ViewId::Sentence).help);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", app::tr(vs.reassign >= 0 ? "click the token that should be the new target"
                                                     : "click a token to make it the query"));
  token_chips(demo, v, vs);
  reassignable_targets(demo, v, vs);
}

}  // namespace headroom::ui
