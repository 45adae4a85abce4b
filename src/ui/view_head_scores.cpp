// view_head_scores.cpp: the text model's heads over time, in the
// specialisation view: for every run (1, 2, 4, 8 heads) and layer, one row
// per head of nine small charts, one per behaviour (head_scores.h: previous
// word, itself, sentence start, earlier copy, induction, its determiner, its
// subject, its noun, punctuation), each the head's score over training, so
// the moment a previous-word head forms shows as its cell filling; then the
// label changes the page has seen, newest first. The tour's step real-text
// draws one run's rows alone (only_heads), without the changes.
//
// Does: draw each cell as the area under the score divided by its chance
// baseline (0 to 4x chance, on the loss chart's log step axis), filled more
// strongly the higher it is now, with a dashed line at kLabelRatio x chance
// (the label's test); outline the cells at or above it now, the label's own
// cell more strongly; caption
// each row with the head's label and score ("head 3: its determiner 0.31");
// a tooltip per cell gives the score and its baseline; record the cells
// and the change lines for the tests (probes.h: trainChart.headScoreCells,
// trainChart.labelChanges).
// Does not: measure anything: every score, baseline and label is the
// engine's (the run's per_head, and app/training/head_log.h's copies of
// earlier ones).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/lang/lang.h"
#include "app/training/head_log.h"
#include "app/training/live_training.h"
#include "ui/palette.h"
#include "ui/probes.h"
#include "ui/views.h"
#include "ui/widgets.h"

namespace headroom::ui {

namespace {

constexpr int kShownChanges = 8;
constexpr float kTopRatio = 4.f;  // a cell's height: 0 to 4x chance (the label's test, 2x, halfway)

struct CellBox {
  ImVec2 a, b;
};

// A kind's chance baseline (head_scores.h: the query's weight spread evenly
// over what it sees). It depends on the sample's positions only, not on the
// head or its weights, so today's baseline is every earlier point's too.
float baseline_of(const HeadSlot& now, int kind) {
  for (const auto& [k, v] : now.baselines)
    if (k == kHeadKinds[static_cast<size_t>(kind)]) return v;
  return std::nanf("");
}

// One behaviour of one head over the logged points: its score as a multiple
// of chance, 0 .. kTopRatio, the area under it filled more strongly the
// higher it is now; a dashed line at the label's test (kLabelRatio).
void score_cell(ImDrawList* dl, const CellBox& box, const app::HeadLogRun& log, size_t slot, int kind,
                const LogStepAxis& axis, const HeadSlot& now) {
  const Palette& pal = palette();
  const size_t at = slot * kHeadKindCount + static_cast<size_t>(kind);
  const float latest = log.points.back().scores[at], baseline = baseline_of(now, kind);
  const bool known = !std::isnan(latest) && baseline > 0.f;
  const auto Y = [&](float score) {
    return box.b.y - std::clamp(score / baseline / kTopRatio, 0.f, 1.f) * (box.b.y - box.a.y);
  };
  dl->AddRectFilled(box.a, box.b, pal.panel);
  if (known) {
    const ImU32 fill = with_alpha(pal.text, 0.2f + 0.6f * std::clamp(latest / baseline / kTopRatio, 0.f, 1.f));
    float x_prev = 0.f, y_prev = 0.f;
    bool have = false;
    for (const app::HeadLogPoint& p : log.points) {
      const float v = p.scores[at];
      if (std::isnan(v)) continue;
      const float x = axis.x(p.step), y = Y(v);
      if (have && x > x_prev)
        dl->AddQuadFilled(ImVec2(x_prev, box.b.y), ImVec2(x_prev, y_prev), ImVec2(x, y), ImVec2(x, box.b.y), fill);
      if (!have || x > x_prev) x_prev = x, y_prev = y;
      have = true;
    }
    if (have && x_prev < box.b.x)  // the latest score held to the cell's right edge
      dl->AddRectFilled(ImVec2(x_prev, y_prev), box.b, fill);
    const float y2 = Y(kLabelRatio * baseline);
    dashed_line(dl, ImVec2(box.a.x, y2), ImVec2(box.b.x, y2), pal.guide_strong, 1.f, 3.f, 3.f);
  }
  const bool beats = known && latest >= kLabelRatio * baseline;
  const bool is_label = now.label == kHeadKinds[static_cast<size_t>(kind)];
  dl->AddRect(box.a, box.b, beats ? pal.accent.bg : pal.rule, 0.f, 0, is_label ? 2.5f : beats ? 1.5f : 1.f);
  if (ImGui::IsMouseHoveringRect(box.a, box.b)) {
    const std::string score = known ? app::num(latest, 2) : "-";
    const std::string chance = baseline > 0.f ? app::num(baseline, 2) : "-";
    ImGui::SetTooltip("%s", app::trf("{0}: {1} (chance {2})", {app::head_kind_word(kind), score, chance}).c_str());
  }
}

// One head's row: its nine cells, then its caption.
int head_row(const app::HeadLogRun& log, const TrainRun& run, size_t slot, float cell_w, float cell_h,
             long long max_step) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float gap = 3.f;
  const float row_w = kHeadKindCount * (cell_w + gap);
  ImGui::Dummy(ImVec2(row_w, cell_h));
  const HeadSlot& now = run.per_head[slot];
  for (int k = 0; k < kHeadKindCount; ++k) {
    const float x = p.x + static_cast<float>(k) * (cell_w + gap);
    const CellBox box{ImVec2(x, p.y), ImVec2(x + cell_w, p.y + cell_h)};
    score_cell(dl, box, log, slot, k, LogStepAxis(box.a.x + 1.f, box.b.x - 1.f, max_step), now);
  }
  const int label = app::head_kind_index(now.label);
  const std::string caption = label < 0 ? app::trf("head {0}: {1}", {std::to_string(now.head + 1), app::head_kind_word(-1)})
                                        : app::trf("head {0}: {1} {2}", {std::to_string(now.head + 1), app::head_kind_word(label),
                                                                         app::num(now.label_score, 2)});
  same_line_if_fits(ImGui::CalcTextSize(caption.c_str()).x, 10.f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(caption.c_str());
  return kHeadKindCount;
}

// The key: which column is which behaviour.
void columns_key(float cell_w) {
  text_disabled_wrapped("%s", app::tr("Each small chart is one behaviour over training: the head's mean weight on "
                                      "the word the behaviour names, on held-out text, as a multiple of chance (the "
                                      "same weight spread evenly), from 0 to 4 times; the dashed line is twice "
                                      "chance. Outlined: at least twice chance now; thick: the head's label."));
  std::string key;
  for (int k = 0; k < kHeadKindCount; ++k) key += (k ? "   " : "") + std::to_string(k + 1) + " " + app::head_kind_word(k);
  ImGui::PushTextWrapPos(0.f);
  ImGui::TextUnformatted(key.c_str());
  ImGui::PopTextWrapPos();
  // The columns' numbers, over the cells.
  const ImVec2 p = ImGui::GetCursorScreenPos();
  for (int k = 0; k < kHeadKindCount; ++k) {
    const std::string n = std::to_string(k + 1);
    const float x = p.x + static_cast<float>(k) * (cell_w + 3.f) + (cell_w - ImGui::CalcTextSize(n.c_str()).x) * 0.5f;
    ImGui::GetWindowDrawList()->AddText(ImVec2(x, p.y), palette().text_faint, n.c_str());
  }
  ImGui::Dummy(ImVec2(kHeadKindCount * (cell_w + 3.f), ImGui::GetTextLineHeight()));
}

void label_changes(const app::HeadScoreLog& log, int layers) {
  ImGui::Spacing();
  ImGui::TextUnformatted(app::tr("Label changes, newest first"));
  const auto& changes = log.changes();
  if (changes.empty()) {
    text_disabled_wrapped("%s", app::tr("No head has changed its label yet."));
    return;
  }
  int shown = 0;
  for (auto it = changes.rbegin(); it != changes.rend() && shown < kShownChanges; ++it, ++shown) {
    const app::LabelChange& c = *it;
    const std::vector<std::string> args = {std::to_string(c.step), std::to_string(c.heads), std::to_string(c.layer + 1),
                                           std::to_string(c.head + 1), app::head_kind_word(c.from), app::head_kind_word(c.to),
                                           app::num(c.score, 2)};
    const std::string line = layers > 1 ? app::trf("step {0}: {1} heads, layer {2}, head {3}: {4} \xE2\x86\x92 {5} {6}", args)
                                        : app::trf("step {0}: {1} heads, head {3}: {4} \xE2\x86\x92 {5} {6}", args);
    ImGui::TextWrapped("%s", line.c_str());
    probe_item("trainChart.labelChanges", [&](app::JsonObject& o) {
      o.field("heads", c.heads).field("layer", c.layer + 1).field("head", c.head + 1).field("step", c.step);
      o.field("to", c.to < 0 ? std::string("mixed") : std::string(kHeadKinds[static_cast<size_t>(c.to)]));
    });
  }
}

}  // namespace

void view_text_specialisation(const app::LiveTraining& t, int only_heads) {
  const app::HeadScoreLog& log = t.head_log();
  const float avail = ImGui::GetContentRegionAvail().x;
  // Nine cells and the caption beside them ("head 3: its determiner 0.31")
  // where there is room for both, else the caption below.
  const float caption_w = avail >= 480.f ? 190.f : 0.f;
  const float cell_w = std::clamp((avail - caption_w - 8.f) / kHeadKindCount - 3.f, 18.f, 40.f);
  const float cell_h = ImGui::GetTextLineHeight() + 6.f;
  const long long max_step = std::max<int64_t>(1000, t.chart_step());
  columns_key(cell_w);
  int cells = 0;
  const std::vector<TrainRun>& runs = t.runs();
  for (size_t i = 0; i < runs.size() && i < log.runs().size(); ++i) {
    const TrainRun& run = runs[i];
    const app::HeadLogRun& logged = log.runs()[i];
    if (only_heads > 0 && run.heads != only_heads) continue;
    if (logged.points.empty() || run.per_head.size() != logged.points.back().labels.size()) continue;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(run_color(run.heads)));
    ImGui::TextUnformatted(app::trf(run.heads == 1 ? "{0} head" : "{0} heads", {std::to_string(run.heads)}).c_str());
    ImGui::PopStyleColor();
    for (size_t s = 0; s < run.per_head.size(); ++s) {
      if (logged.layers > 1 && run.per_head[s].head == 0)
        text_disabled_wrapped("%s", app::trf("layer {0}", {std::to_string(run.per_head[s].layer + 1)}).c_str());
      cells += head_row(logged, run, s, cell_w, cell_h, max_step);
    }
  }
  probe_value("trainChart.headScoreCells", std::to_string(cells));
  if (only_heads == 0) label_changes(log, t.layers());
}

}  // namespace headroom::ui
