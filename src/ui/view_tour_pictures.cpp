// view_tour_pictures.cpp: the picture under a revealed tour step, the view
// that proves what the step's result line says, in the panel's full width
// and the height the words leave.
//
// Does: per step (app::tour_steps() ids)
//   two-heads    the arcs of the two heads from the query: head 1 to one
//                target, head 2 to the other;
//   coordinates  the concatenation and W_O (view_concat) as the reveal left
//                the Demo: two heads, head 2 knocked out;
//   more-heads   the four heads' arcs, each from the token its relationship
//                is asked from, all read from one trace (one model);
//   query-key    the head's score matrix before and after the tie, from the
//                record (as measured), each token's score with itself ringed;
//   training     the live loss chart of the runs (view_train's), floors drawn;
//   real-text    the text model's heads x behaviours as it trains (view_train's
//                specialisation table), the judged labels among them;
//   recap        the table of answers: step, your answer, what was measured,
//                the mark and its reason, and Try again per step.
// Arcs grow in with the reveal's progress (at once with reduced motion).
// Labels go through the label placer (label_place.h), so none covers another
// or a marker; what was drawn is recorded for tests (probes.h tour_picture).
// Does not: measure or mark anything (app/tour/tour_measure.cpp did); compute attention
// (weights are the Scene's trace; scores are the record's).

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "app/lang/lang.h"
#include "ui/label_place.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

using app::TourRecord;
using app::TourStepInfo;

ImVec4 rect4(const Box& b) { return ImVec4(b.x0, b.y0, b.x1, b.y1); }

// One arc of the arcs picture: from token `query`, head `head`'s largest
// weight, captioned.
struct Arc {
  int query = 0, head = 0;
  std::string caption;
};

// The token each arc's head looks at most from its query (its weights' peak).
std::vector<int> arc_ends(const Scene& s, const std::vector<Arc>& arcs) {
  std::vector<int> looks(arcs.size());
  for (size_t k = 0; k < arcs.size(); ++k) {
    const auto& w = s.trace().heads[static_cast<size_t>(arcs[k].head)].weights.row(arcs[k].query);
    Eigen::Index at = 0;
    w.maxCoeff(&at);
    looks[k] = static_cast<int>(at);
  }
  return looks;
}

// Each arc's label: its caption, the weight and the token it looks at.
std::vector<TourLabel> arc_labels(const Scene& s, const std::vector<Arc>& arcs, const std::vector<int>& looks) {
  std::vector<TourLabel> labels;
  for (size_t k = 0; k < arcs.size(); ++k) {
    const float weight = s.trace().heads[static_cast<size_t>(arcs[k].head)].weights(arcs[k].query, looks[k]);
    labels.push_back({app::trf("{0}: weight {1} on {2}",
                               {arcs[k].caption, app::num(weight, 2), s.tokens()[static_cast<size_t>(looks[k])].text}),
                      head_text_color(arcs[k].head)});
  }
  return labels;
}

// Shorter arcs inside longer ones: each arc's rank among the spans (ties
// by order), which sets how far it bulges.
std::vector<int> span_ranks(const std::vector<Arc>& arcs, const std::vector<int>& looks) {
  std::vector<int> rank(arcs.size(), 0);
  for (size_t k = 0; k < arcs.size(); ++k)
    for (size_t j = 0; j < arcs.size(); ++j) {
      const int sk = std::abs(looks[k] - arcs[k].query), sj = std::abs(looks[j] - arcs[j].query);
      if (sj < sk || (sj == sk && j < k)) ++rank[k];
    }
  return rank;
}

// One arc from a to b (a loop where they are one row) bulging right by
// `bulge`, drawn up to t of its length, the arrow's head at b once whole.
// Returns its apex, where its label points.
ImVec2 draw_picture_arc(ImDrawList* dl, ImVec2 a, ImVec2 b, bool loop, float bulge, ImU32 col, float thick, float t) {
  if (loop) {  // the head looks at the query itself
    const ImVec2 c(a.x + 0.5f * bulge, a.y);
    dl->PathArcTo(c, 0.5f * bulge, 3.14159265f, 3.14159265f + 2.f * 3.14159265f * t, 24);
    dl->PathStroke(col, 0, thick);
    return ImVec2(a.x + bulge, a.y);
  }
  // a cubic from a to b bulging right, drawn up to t of its length
  const ImVec2 c1(a.x + bulge * 1.33f, a.y), c2(b.x + bulge * 1.33f, b.y);
  const int n = 32;
  const int upto = std::max(1, static_cast<int>(std::lround(n * t)));
  auto at = [&](float u) {
    const float v = 1.f - u;
    return ImVec2(v * v * v * a.x + 3 * v * v * u * c1.x + 3 * v * u * u * c2.x + u * u * u * b.x,
                  v * v * v * a.y + 3 * v * v * u * c1.y + 3 * v * u * u * c2.y + u * u * u * b.y);
  };
  for (int i = 0; i <= upto; ++i) dl->PathLineTo(at(static_cast<float>(i) / n));
  dl->PathStroke(col, 0, thick);
  if (t >= 1.f) {  // the arrow's head at the target
    dl->AddTriangleFilled(ImVec2(b.x - 1.f, b.y), ImVec2(b.x + 8.f, b.y - 5.f), ImVec2(b.x + 8.f, b.y + 5.f), col);
  }
  return at(0.5f);
}

// Tokens one per row (any width fits), arcs on their right: head h's arc
// from its query's row to the token its weights peak on, as thick as that
// weight, bulging further right for each arc so none hides another.
void arcs_picture(const Demo& demo, const std::vector<Arc>& arcs, ImVec2 size, float t) {
  // (size.y shrinks to the rows drawn)
  const Scene& s = demo.scene;
  const auto& tokens = s.tokens();
  const int L = static_cast<int>(tokens.size());
  const std::vector<int> looks = arc_ends(s, arcs);
  std::vector<bool> marked(static_cast<size_t>(L), false);
  for (size_t k = 0; k < arcs.size(); ++k)
    marked[static_cast<size_t>(arcs[k].query)] = marked[static_cast<size_t>(looks[k])] = true;
  // One row per token; where the sentence does not fit at kMinRow a row,
  // only the tokens the arcs join, in the sentence's order.
  constexpr float kMinRow = 15.f;
  std::vector<int> row_of(static_cast<size_t>(L), -1);
  int rows = 0;
  const bool all = size.y - 16.f >= kMinRow * static_cast<float>(L);
  for (int i = 0; i < L; ++i)
    if (all || marked[static_cast<size_t>(i)]) row_of[static_cast<size_t>(i)] = rows++;
  const float row = std::clamp((size.y - 16.f) / static_cast<float>(std::max(rows, 1)), kMinRow, 26.f);
  size.y = std::min(size.y, 16.f + row * static_cast<float>(rows));
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(o, ImVec2(o.x + size.x, o.y + size.y), palette().panel, 6.f);
  float words_w = 0;
  for (const auto& tok : tokens) words_w = std::max(words_w, text_size(tok.text).x);
  const float x_words = o.x + 12.f + words_w;  // words end here, right-aligned
  const float x_arc = x_words + 10.f;
  auto row_y = [&](int i) { return o.y + 8.f + (static_cast<float>(row_of[static_cast<size_t>(i)]) + 0.5f) * row; };
  for (int i = 0; i < L; ++i) {
    if (row_of[static_cast<size_t>(i)] < 0) continue;
    const std::string& word = tokens[static_cast<size_t>(i)].text;
    const float w = text_size(word).x;
    draw_text(dl, ImVec2(x_words - w, row_y(i) - 0.5f * ImGui::GetFontSize()),
              marked[static_cast<size_t>(i)] ? palette().text : palette().text_faint, word);
  }
  std::vector<LabelRequest> requests;
  const std::vector<TourLabel> labels = arc_labels(s, arcs, looks);
  std::vector<Box> obstacles;
  // The labels go right of every arc: the arcs' spacing is what the widest
  // label leaves (12 to 44 px an arc).
  float label_w = 0;
  for (const TourLabel& l : labels) label_w = std::max(label_w, text_size(l.text).x);
  const float room = o.x + size.x - x_arc - 8.f;
  const float n_arcs = static_cast<float>(std::max<size_t>(arcs.size(), 1));
  const float step = std::clamp((room - label_w - 16.f) / n_arcs, 12.f, 44.f);
  const float labels_x = x_arc + step * n_arcs + 8.f;
  const std::vector<int> rank = span_ranks(arcs, looks);
  for (size_t k = 0; k < arcs.size(); ++k) {
    const auto& w = s.trace().heads[static_cast<size_t>(arcs[k].head)].weights.row(arcs[k].query);
    const float weight = w[looks[k]];
    const ImVec2 a(x_arc, row_y(arcs[k].query)), b(x_arc, row_y(looks[k]));
    const ImU32 col = head_color(arcs[k].head);
    const ImVec2 apex = draw_picture_arc(dl, a, b, looks[k] == arcs[k].query, step * static_cast<float>(rank[k] + 1), col,
                                         1.5f + 4.f * weight, t);
    dl->AddCircleFilled(a, 3.5f, col);
    obstacles.push_back({apex.x - 3.f, apex.y - 3.f, apex.x + 3.f, apex.y + 3.f});
    const ImVec2 ts = text_size(labels[k].text);
    requests.push_back({std::max(apex.x, labels_x), apex.y, ts.x, ts.y, 4.f, true, false});
  }
  if (t < 1.f) return;
  draw_tour_labels(dl, requests, labels, obstacles, Box{labels_x, o.y + 2.f, o.x + size.x - 4.f, o.y + size.y - 2.f}, true);
}

// One L x L score matrix in a square of side `side` at `o`: cells coloured
// by the diverging scale of the matrix's own largest |score|, the diagonal
// (each token's score with itself) ringed, the two cells the question names
// outlined in the text colour.
void score_matrix(ImDrawList* dl, ImVec2 o, float side, const Mat& m, int q, int k, const std::string& title) {
  const int L = static_cast<int>(m.rows());
  if (L == 0) return;
  const float cell = side / static_cast<float>(L);
  const float scale = std::max(1e-6f, m.cwiseAbs().maxCoeff());
  // the title above the matrix, wrapped to its width (two lines at most: the caller keeps room for them)
  const ImVec2 ts = ImGui::CalcTextSize(title.c_str(), nullptr, false, side);
  dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(o.x, o.y - ts.y - 4.f), palette().text_secondary,
              title.c_str(), nullptr, side);
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      const ImVec2 a(o.x + cell * j, o.y + cell * i), b(a.x + cell, a.y + cell);
      dl->AddRectFilled(a, b, diverging_color(m(i, j), scale));
    }
  for (int i = 0; i < L; ++i) {
    const ImVec2 c(o.x + cell * (i + 0.5f), o.y + cell * (i + 0.5f));
    dl->AddCircle(c, 0.42f * cell, palette().text, 0, 1.5f);
  }
  const int cells[2][2] = {{q, k}, {k, q}};
  for (const auto& c : cells) {
    const ImVec2 a(o.x + cell * c[1], o.y + cell * c[0]);
    dl->AddRect(a, ImVec2(a.x + cell, a.y + cell), palette().accent.bg, 0, 0, 2.5f);
  }
  dl->AddRect(o, ImVec2(o.x + side, o.y + side), palette().rule);
}

// Step query-key: the scores before and after the tie, side by side, the
// row words on the left; the captions say what the rings and boxes mark.
void scores_picture(const Demo& demo, const TourRecord& rec, ImVec2 size) {
  const Scene& s = demo.scene;
  const auto& tokens = s.tokens();
  const int L = static_cast<int>(rec.scores_before.rows());
  if (L == 0 || rec.scores_after.rows() != L || static_cast<int>(tokens.size()) != L) return;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float words_w = 0;
  for (const auto& tok : tokens) words_w = std::max(words_w, text_size(tok.text).x);
  const float fh = ImGui::GetFontSize();
  const int q = s.query(), k = std::max(0, s.target(q, Relation::Subject));
  const std::string note = wrap_at_spaces(
      app::trf("ringed: each token's score with itself; boxed: {0} -> {1} and back",
               {tokens[static_cast<size_t>(q)].text, tokens[static_cast<size_t>(k)].text}),
      size.x);
  const float note_h = ImGui::CalcTextSize(note.c_str(), nullptr, false, size.x).y;
  const float side = std::max(40.f, std::min((size.x - words_w - 32.f) / 2.f, size.y - note_h - 2.f * fh - 16.f));
  const float top = o.y + (side < text_size(app::tr("scores, tied (W_K = W_Q)")).x ? 2.f : 1.f) * fh + 8.f;
  const float cell = side / static_cast<float>(L);
  if (cell >= fh * 0.8f)
    for (int i = 0; i < L; ++i) {
      const std::string& word = tokens[static_cast<size_t>(i)].text;
      draw_text(dl, ImVec2(o.x + words_w - text_size(word).x, top + cell * (i + 0.5f) - 0.5f * fh),
                i == s.query() ? palette().text : palette().text_faint, word);
    }
  const float x0 = o.x + words_w + 8.f;
  score_matrix(dl, ImVec2(x0, top), side, rec.scores_before, q, k, app::tr("scores, untied"));
  score_matrix(dl, ImVec2(x0 + side + 16.f, top), side, rec.scores_after, q, k, app::tr("scores, tied (W_K = W_Q)"));
  probe("tourPicture.labels", ImVec4(x0, top, x0 + side, top + side));
  probe("tourPicture.labels", ImVec4(x0 + side + 16.f, top, x0 + 2.f * side + 16.f, top + side));
  ImGui::SetCursorScreenPos(ImVec2(o.x, top + side + 6.f));
  ImGui::PushStyleColor(ImGuiCol_Text, palette().text_secondary);
  ImGui::TextUnformatted(note.c_str());
  ImGui::PopStyleColor();
}

// The recap: one row per question step. Wide: a table (step, your answer,
// measured, mark and reason, Try again); narrow: the same as stacked lines.
void recap_table(Demo& demo, float width) {
  const app::Tour& tour = demo.tour;
  const bool wide = width >= 620.f;
  int retry = 0;
  auto mark = [](const TourRecord& r) -> std::string {
    if (!r.revealed) return app::tr("not revealed yet");
    if (r.pending) return app::tr("still training");
    if (r.correct.empty()) return app::tr("not answered");
    const bool all = std::all_of(r.correct.begin(), r.correct.end(), [](bool c) { return c; });
    return app::tr(all ? "right" : "not right");
  };
  auto mark_color = [](const TourRecord& r) {
    if (r.correct.empty()) return palette().text_faint;
    return std::all_of(r.correct.begin(), r.correct.end(), [](bool c) { return c; }) ? palette().text : palette().error;
  };
  const int last = app::kTourSteps - 1;  // the recap itself has no row
  if (wide && ImGui::BeginTable("##recap", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn(app::tr("step"), ImGuiTableColumnFlags_WidthStretch, 1.3f);
    ImGui::TableSetupColumn(app::tr("your answer"), ImGuiTableColumnFlags_WidthStretch, 1.2f);
    ImGui::TableSetupColumn(app::tr("measured"), ImGuiTableColumnFlags_WidthStretch, 1.6f);
    ImGui::TableSetupColumn(app::tr("mark and reason"), ImGuiTableColumnFlags_WidthStretch, 2.6f);
    ImGui::TableSetupColumn("##retry", ImGuiTableColumnFlags_WidthFixed);
    ImGui::TableHeadersRow();
    for (int n = 1; n <= last; ++n) {
      const TourRecord& r = tour.record(n);
      const TourStepInfo& info = app::tour_steps()[static_cast<size_t>(n - 1)];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%d. %s", n, app::tr(info.title));
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", r.predicted ? r.answer_text.str().c_str() : "-");
      ImGui::TableNextColumn();
      ImGui::TextWrapped("%s", r.revealed ? r.measured_text.str().c_str() : "-");
      ImGui::TableNextColumn();
      ImGui::PushStyleColor(ImGuiCol_Text, mark_color(r));
      ImGui::TextUnformatted(mark(r).c_str());
      ImGui::PopStyleColor();
      if (!r.reason.empty()) ImGui::TextWrapped("%s", r.reason.str().c_str());
      ImGui::TableNextColumn();
      ImGui::PushID(n);
      if (ImGui::SmallButton(app::tr("Try again"))) retry = n;
      probe_visible_item("tourPicture.retry");
      ImGui::PopID();
    }
    ImGui::EndTable();
  } else if (!wide) {
    for (int n = 1; n <= last; ++n) {
      const TourRecord& r = tour.record(n);
      const TourStepInfo& info = app::tour_steps()[static_cast<size_t>(n - 1)];
      ImGui::PushID(n);
      ImGui::PushFont(frame().fonts.bold);
      ImGui::TextUnformatted(wrap_at_spaces(std::to_string(n) + ". " + app::tr(info.title), width).c_str());
      ImGui::PopFont();
      const std::string m = mark(r);
      same_line_if_fits(ImGui::CalcTextSize(m.c_str()).x);
      ImGui::PushStyleColor(ImGuiCol_Text, mark_color(r));
      ImGui::TextUnformatted(m.c_str());
      ImGui::PopStyleColor();
      same_line_if_fits(ImGui::CalcTextSize(app::tr("Try again")).x + 2.f * ImGui::GetStyle().FramePadding.x);
      if (ImGui::SmallButton(app::tr("Try again"))) retry = n;
      probe_visible_item("tourPicture.retry");
      if (r.predicted)
        ImGui::TextUnformatted(wrap_at_spaces(app::trf("your answer: {0}", {r.answer_text.str()}), width).c_str());
      if (r.revealed)
        ImGui::TextUnformatted(wrap_at_spaces(app::trf("measured: {0}", {r.measured_text.str()}), width).c_str());
      if (!r.reason.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, palette().text_secondary);
        ImGui::TextUnformatted(wrap_at_spaces(r.reason.str(), width).c_str());
        ImGui::PopStyleColor();
      }
      ImGui::PopID();
      ImGui::Spacing();
    }
  }
  if (retry > 0) demo.tour_retry(retry);
}

}  // namespace

void draw_tour_labels(ImDrawList* dl, const std::vector<LabelRequest>& requests, const std::vector<TourLabel>& labels,
                      const std::vector<Box>& markers, const Box& bounds, bool backdrop) {
  const std::vector<Placement> placed = place_labels(requests, markers, bounds);
  for (size_t k = 0; k < placed.size(); ++k) {
    if (!placed[k].placed) continue;
    const Box& r = placed[k].rect;
    if (placed[k].leader) {
      float ex = 0, ey = 0;
      nearest_point(r, requests[k].ax, requests[k].ay, ex, ey);
      dl->AddLine(ImVec2(requests[k].ax, requests[k].ay), ImVec2(ex, ey), palette().guide, 1.f);
    }
    if (backdrop)
      dl->AddRectFilled(ImVec2(r.x0 - 2, r.y0 - 1), ImVec2(r.x1 + 2, r.y1 + 1), with_alpha(palette().panel, 0.85f), 3.f);
    draw_text(dl, ImVec2(r.x0, r.y0), labels[k].color, labels[k].text);
    probe("tourPicture.labels", rect4(r));
  }
}

void tour_picture(Demo& demo, const TourStepInfo& info, const TourRecord& rec, float t) {
  if (!rec.revealed) return;
  const std::string_view id = info.id;
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = ImGui::GetContentRegionAvail().y - 4.f;  // the room left: a picture never scrolls the panel
  if (height < 80.f && id != "recap") return;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const char* kind = "";
  if (id == "two-heads" && ImGui::GetContentRegionAvail().y < 140.f) return;  // its plane took the room
  if (id == "two-heads" || id == "more-heads") {
    std::vector<Arc> arcs;
    const Scene& s = demo.scene;
    if (id == "two-heads") {
      for (int h = 0; h < std::min(2, s.heads()); ++h) arcs.push_back({s.query(), h, app::trf("head {0}", {std::to_string(h + 1)})});
    } else {
      for (int i = 0; i < 4; ++i)
        if (app::tour_match_head(s, i) < s.heads())
          arcs.push_back({app::tour_match_query(s, i), app::tour_match_head(s, i),
                          app::trf("head {0}", {std::to_string(app::tour_match_head(s, i) + 1)})});
    }
    const float need = 16.f + 26.f * static_cast<float>(s.tokens().size());
    arcs_picture(demo, arcs, ImVec2(width, std::min(height, need)), t);
    kind = "arcs";
  } else if (id == "coordinates") {
    // scrolls inside where the words left too little room (as a compact tab does)
    ImGui::BeginChild("##tour_concat", ImVec2(width, height), ImGuiChildFlags_None);
    view_concat(demo);
    ImGui::EndChild();
    kind = "concat";
  } else if (id == "query-key") {
    scores_picture(demo, rec, ImVec2(width, std::min(height, width * 0.5f + 80.f)));
    kind = "scores";
  } else if (id == "training") {
    // 320 px of plot where there is room; else down to the panel's bottom
    // (the chart's legend comes above the plot)
    training_loss_chart(demo, width, height > 400.f ? 320.f : -6.f);
    kind = "loss";
  } else if (id == "real-text") {  // the heads' scores as the text model trains (view_train's table)
    ImGui::BeginChild("##tour_text_heads", ImVec2(width, height), ImGuiChildFlags_None);
    view_text_specialisation(demo.training, app::kTourTextHeads);
    ImGui::EndChild();
    kind = "specialisation";
  } else if (id == "recap") {  // scrolls within the room left (wheel, drag or Tab)
    ImGui::BeginChild("##tour_recap", ImVec2(width, height), ImGuiChildFlags_None);
    recap_table(demo, ImGui::GetContentRegionAvail().x);
    ImGui::EndChild();
    kind = "recap";
  }
  probe_string("tourPicture.kind", kind);
  if (*kind == '\0') return;  // step average: its plane is above, in view_tour.cpp
  const ImVec2 end = ImGui::GetItemRectMax();
  probe("tourPicture.rect", ImVec4(at.x, at.y, at.x + width, std::max(end.y, at.y)));
}

}  // namespace headroom::ui
