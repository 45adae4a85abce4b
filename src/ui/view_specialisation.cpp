// view_specialisation.cpp: specialisation over time: for every training
// run (1, 2, 4 heads, and the tied runs when training ties query and key)
// and each of its heads, the held-out average weight the
// query puts on each related token (subject, complement, and with R = 4 the
// previous token and coreference), over the steps, so the moment a head
// "picks" a relationship shows as its line rising away from the others.
//
// Does: one small chart per run and head, lines coloured by slot (keyed
// above), the step axis log10(1 + step) like the loss chart, up to
// LiveTraining::chart_step(); names in each head's title the slot it serves (the
// one it puts most weight on at the latest evaluation) with that weight,
// marks where it settled there (its weight stays >= kPickWeight from that
// evaluation to the latest) or says it has not; the tooltip gives the whole
// split. Tied runs' rows are labelled "tied".
// The text task: the heads' behaviour scores (view_head_scores.cpp), then
// the lesson's midpoint found in held-out text: the best case of
// LiveTraining::splits() in words and a "Show it" button (split_line).
// Does not: compute a weight: every number is an EvalPoint::weight_on of the
// engine's Trainer history (the held-out average of softmax weights), or a
// case the engine found (engine/train/text_splits.h).
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "app/state/view_rows.h"
#include "engine/train/train_task.h"
#include "app/lang/lang.h"
#include "ui/palette.h"
#include "ui/probes.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

constexpr float kPickWeight = 0.5f;  // a head has picked slot r once its weight on r stays at least this

// The task's slot names (train_task.h task_slot_name) in the shown language.
const char* slot_word(int slot) {
  static constexpr const char* kSlots[] = {N_("subject"), N_("complement"), N_("previous token"), N_("coreference")};
  return slot >= 0 && slot < 4 ? app::tr(kSlots[slot]) : task_slot_name(slot);
}

// The evaluation from which head h's weight on slot `slot` stays >= kPickWeight
// up to index `last` (inclusive), or -1 when it is below at `last`.
int settled_from(const std::vector<EvalPoint>& hist, int last, int h, int slot, int R) {
  int from = -1;
  for (int i = last; i >= 0; --i) {
    if (hist[static_cast<size_t>(i)].weight_on[static_cast<size_t>(h * R + slot)] < kPickWeight) break;
    from = i;
  }
  return from;
}

void head_cell(const TrainRun& run, int h, int R, int last, long long max_step, float w,
               float hgt) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(w, hgt));
  const float lh = ImGui::GetTextLineHeight();
  const ImVec2 a(p.x + 2.f, p.y + lh + 4.f), b(p.x + w - 4.f, p.y + hgt - 4.f);
  const LogStepAxis axis(a.x, b.x, max_step);
  const ImU32 grid = palette().guide;
  dl->AddRectFilled(a, b, palette().panel);
  // A neutral frame: the lines inside are coloured by relationship, and a
  // head-coloured frame would clash with them (head 1 is the subject's blue).
  dl->AddRect(a, b, palette().rule, 0.f, 0, 1.f);
  dl->AddLine(ImVec2(a.x, a.y + (b.y - a.y) * 0.5f), ImVec2(b.x, a.y + (b.y - a.y) * 0.5f), grid);
  const auto Y = [&](float v) { return b.y - std::clamp(v, 0.f, 1.f) * (b.y - a.y); };

  // Lines: one per slot.
  std::vector<ImVec2> pts;
  for (int r = 0; r < R; ++r) {
    pts.clear();
    for (int i = 0; i <= last; ++i) {
      const EvalPoint& e = run.history[static_cast<size_t>(i)];
      pts.emplace_back(axis.x(e.step), Y(e.weight_on[static_cast<size_t>(h * R + r)]));
    }
    if (pts.size() >= 2) dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), slot_color(r), ImDrawFlags_None, 2.f);
  }

  // The title: head, and what it picked (or how it splits).
  const EvalPoint& now = run.history[static_cast<size_t>(last)];
  int best = 0;
  for (int r = 1; r < R; ++r)
    if (now.weight_on[static_cast<size_t>(h * R + r)] > now.weight_on[static_cast<size_t>(h * R + best)]) best = r;
  const int from = settled_from(run.history, last, h, best, R);
  const float top = now.weight_on[static_cast<size_t>(h * R + best)];
  std::string split;  // every slot's weight, for the tooltip
  for (int r = 0; r < R; ++r)
    split += std::string(r ? ", " : "") + slot_word(r) + " " + app::num(now.weight_on[static_cast<size_t>(h * R + r)], 2);
  const bool settled = from >= 0 && run.history[static_cast<size_t>(from)].step > 0;
  const std::string head = std::to_string(h + 1);
  const std::string title = app::trf(settled ? "head {0}: {1} {2}" : "head {0}: {1} {2}?", {head, slot_word(best), app::num(top, 2)});
  if (settled) {
    const float x = axis.x(run.history[static_cast<size_t>(from)].step);
    dashed_line(dl, ImVec2(x, a.y), ImVec2(x, b.y), slot_color(best), 1.5f, 3.f, 3.f);
  }
  dl->PushClipRect(p, ImVec2(p.x + w, p.y + lh + 2.f), true);
  dl->AddText(p, palette().text, title.c_str());
  dl->PopClipRect();
  if (ImGui::IsItemHovered()) {
    std::string tip;
    if (settled) {
      const std::vector<std::string> args = {head, slot_word(best), app::num(top, 2), app::num(kPickWeight, 1),
                                             std::to_string(run.history[static_cast<size_t>(from)].step), split};
      tip = app::trf(run.tie_qk ? "tied run, head {0} serves the {1}: {2} of its weight, at least {3} since step {4}\n({5})"
                                : "head {0} serves the {1}: {2} of its weight, at least {3} since step {4}\n({5})",
                     args);
    } else {
      const std::vector<std::string> args = {head, slot_word(best), app::num(top, 2), app::num(kPickWeight, 1), split};
      tip = app::trf(run.tie_qk ? "tied run, head {0} has not settled: most weight on the {1} ({2}), under {3} at some "
                                  "point up to now\n({4})"
                                : "head {0} has not settled: most weight on the {1} ({2}), under {3} at some point up "
                                  "to now\n({4})",
                     args);
    }
    ImGui::SetTooltip("%s", tip.c_str());
  }
}

// "token" in the shown language's quotes (the case's words as the corpus spells them).
std::string quoted(const TextSplit& c, int i) {
  return app::trf("\"{0}\"", {c.words[static_cast<size_t>(i)]});
}

// The midpoint found in held-out text (engine/train/text_splits.h): the best
// case in words and a "Show it" button that puts the lesson's views on it
// (Demo::show_split), then, while they show it, the line that says where
// the sentence comes from; or the line that says no case was found yet.
// Probes: "trainSplit.shown" (the line as drawn with the number of cases,
// and the best case's numbers; null where the text task's view is not
// drawn), "trainSplit.button" (its rect), "trainSplit.heldOut" (the
// held-out line is drawn).
void split_line(Demo& demo) {
  const std::vector<TextSplit>& cases = demo.training.splits();
  ImGui::Spacing();
  if (cases.empty()) {
    const std::string none = app::trf("The midpoint, found in the text: not yet. No query of {0} held-out sentences has "
                                      "the 1-head model splitting its weight between two tokens that two heads of the "
                                      "4-head model take one each.",
                                      {std::to_string(kSplitSentences)});
    text_disabled_wrapped("%s", none.c_str());
    std::string shown;
    {
      app::JsonObject o(shown);
      o.field("text", none).field("cases", 0);
    }
    probe_value("trainSplit.shown", std::move(shown));
    return;
  }
  const TextSplit& c = cases.front();
  const std::string wa = app::num(c.one_a, 2), wb = app::num(c.one_b, 2);
  // The midpoint is claimed only where measured: the output's cosine with
  // the two values' midpoint beats its cosine with each value.
  const bool nearer_mid = c.cos_mid > std::max(c.cos_a, c.cos_b);
  const std::string line = app::trf(
      nearer_mid ? "The midpoint, found in the text: one head splits {0} between {1} ({2}) and {3} ({4}), and its "
                   "output is nearer their midpoint (similarity {7}) than either ({8} / {9}); with 4 heads, head {5} "
                   "takes {1} and head {6} takes {3}."
                 : "The midpoint, found in the text: one head splits {0} between {1} ({2}) and {3} ({4}); with 4 "
                   "heads, head {5} takes {1} and head {6} takes {3}.",
      {quoted(c, c.query), quoted(c, c.a), wa, quoted(c, c.b), wb, std::to_string(c.head_a + 1), std::to_string(c.head_b + 1),
       app::num(c.cos_mid, 2), app::num(c.cos_a, 2), app::num(c.cos_b, 2)});
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(line.c_str());
  ImGui::PopTextWrapPos();
  std::string shown;
  {
    app::JsonObject o(shown);
    o.field("text", line).field("query", c.query).field("a", c.a).field("b", c.b).field("weightA", wa).field("weightB", wb);
    o.field("headA", c.head_a + 1).field("headB", c.head_b + 1).field("step", c.step);
    o.field("cases", static_cast<long long>(cases.size()));
  }
  probe_value("trainSplit.shown", std::move(shown));
  const bool pressed = ImGui::Button(app::tr("Show it"));
  if (ImGui::IsItemVisible()) {
    const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
    probe("trainSplit.button", ImVec4(a.x, a.y, b.x, b.y));
  }
  ImGui::SetItemTooltip("%s", app::tr("the lesson's views on this sentence, this query, the text weights and one head"));
  if (pressed) demo.show_split(0);
  if (demo.shown_split()) {
    text_disabled_wrapped("%s", app::tr("Shown: a sentence from held-out text, which the model never trained on. "
                                        "Choose 4 heads to see two of them take the two tokens apart."));
    probe_value("trainSplit.heldOut", "true");
  }
}

}  // namespace

void view_specialisation(Demo& demo) {
  section_title(app::view_row(app::ViewId::Specialisation).title, app::view_row(app::ViewId::Specialisation).help);
  const app::LiveTraining& tr = demo.training;
  const app::LiveTraining& t = tr;
  // The text task's runs have no related tokens to put weight on (no
  // weightOn): their heads are scored by behaviour instead.
  if (t.text_task()) {
    view_text_specialisation(t);  // view_head_scores.cpp: what each head does, measured on held-out text
    split_line(demo);
    return;
  }
  const int R = t.relations();
  const int64_t shown_step = tr.chart_step();

  // Key: slot colours.
  for (int r = 0; r < R; ++r) {
    if (r > 0) same_line_if_fits(24.f + ImGui::CalcTextSize(slot_word(r)).x, 16.f);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float cy = p.y + ImGui::GetTextLineHeight() * 0.5f;
    dl->AddLine(ImVec2(p.x, cy), ImVec2(p.x + 16, cy), slot_color(r), 2.5f);
    ImGui::Dummy(ImVec2(20, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, 2);
    ImGui::TextUnformatted(slot_word(r));
  }
  const char* what = app::tr("weight (0 .. 1) the query puts on each related token");
  same_line_if_fits(ImGui::CalcTextSize(what).x, 16.f);
  text_disabled_wrapped("%s", what);

  const float avail = ImGui::GetContentRegionAvail().x;
  const float label_w = 64.f;
  int max_heads = 1;
  for (const TrainRun& run : t.runs()) max_heads = std::max(max_heads, run.heads);
  const bool phone = avail < 520.f;
  // A phone: one cell a row, so each head's title ("head 1: complement
  // 0.97") fits its cell (two a row cut it at 360 px).
  const int per_row = phone ? 1 : max_heads;
  const float cell_w = std::max(90.f, (avail - label_w) / static_cast<float>(per_row) - 8.f);
  const float cell_h = phone ? 76.f : 88.f;
  const long long max_step = std::max<int64_t>(1000, shown_step);  // as the loss chart's axis
  int cells = 0;
  for (const TrainRun& run : t.runs()) {
    int last = -1;
    for (size_t i = 0; i < run.history.size() && run.history[i].step <= shown_step; ++i) last = static_cast<int>(i);
    ImGui::BeginGroup();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(run_color(run.heads)));
    ImGui::TextUnformatted(app::trf(run.heads == 1 ? "{0} head" : "{0} heads", {std::to_string(run.heads)}).c_str());
    ImGui::PopStyleColor();
    if (run.tie_qk) ImGui::TextUnformatted(app::tr("tied"));
    ImGui::Dummy(ImVec2(label_w - 8.f, 1.f));
    ImGui::EndGroup();
    ImGui::SameLine(label_w);
    ImGui::BeginGroup();
    for (int h = 0; h < run.heads; ++h) {
      if (h > 0 && h % per_row != 0) ImGui::SameLine(0, 8);
      if (last < 0) {
        ImGui::Dummy(ImVec2(cell_w, cell_h));
        continue;
      }
      head_cell(run, h, R, last, max_step, cell_w, cell_h);
      ++cells;
    }
    ImGui::EndGroup();
  }
  probe_value("trainChart.specialisationCells", std::to_string(cells));
  if (R >= 2)
    text_disabled_wrapped("%s", app::tr("one head has one query: it can rise toward one related token only by leaving the others"));
}

}  // namespace headroom::ui
