// view_tour.cpp: the guided lesson's panel: the step's text, its
// question, the answer widget, Reveal, the result beside the guess, Replay,
// Try again, progress dots, Back / Next, and under them the reveal's picture.
//
// Does: draw the open step of app::Tour and send what the learner does
// through the Demo's tour verbs (the same as headroom.tour and postMessage):
// a marker dragged (or moved with the arrow keys) in the value-space plane,
// two markers for two heads, a choice, a number, a token per relationship,
// a label per head.
// After a reveal it eases the marker(s) from the guess (or the one head's
// output) to the engine's output(s) in about a second (at once with reduced
// motion), and draws the picture that proves the result (the options'
// plane here, the others in view_tour_pictures.cpp). Labels in the plane go
// through the label placer. Input: the hint under the buttons names what
// this step takes, in taps on a touch screen (a coarse pointer or a touch
// seen) and in keys elsewhere. Keys while the tour is open: arrows move the
// marker, the ring around a choice, the slider, or a match row's token (Up /
// Down pick the row); Enter reveals, sending first what the ring or the rows
// hold (a partial match is refused with its reason, not dropped); R replays,
// N / B next / back, Tab picks the marker the arrows move. Fits 360 x 560
// without scrolling: the plane takes the height the words leave.
// Does not: measure, score or keep the answer (app/tour/tour.h does); compute
// attention (the plane's points are Scene::value_maps()).
// Sections:
//   [SECTION] the answer widgets (plane, choice, number, match)
//   [SECTION] sending the answer, the hint, the progress dots
//   [SECTION] the panel
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "ui/label_place.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/frame.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

using app::AnswerKind;
using app::Prediction;
using app::TourRecord;
using app::TourStepInfo;

constexpr double kRevealSeconds = 1.0;
constexpr float kArcsRoom = 190.f;  // step two-heads' arcs under the plane (11 tokens at 15 px, and margins)

// What the learner has placed but not sent yet (markers before the second
// one, keyboard moves), per step; reset when the step changes.
struct Draft {
  int step = 0;
  float xy[4] = {0, 0, 0, 0};
  int placed = 0;      // markers placed (0..2)
  int selected = 0;    // the marker (or match row) the arrows move
  int dragging = -1;   // the marker under the mouse, -1: none
  float number = 0.5f;
  bool number_set = false;
  int match[4] = {-1, -1, -1, -1};
  int labels[4] = {-1, -1, -1, -1};  // step real-text: an index into its choices per head
  int choice = -1;     // keyboard cursor among the choices
  int anim_seen = -1;  // the tour's anim_generation last started
  double anim_start = -1;
};
Draft& draft() {
  static Draft d;
  return d;
}

float ease(float t) { return t * t * (3.f - 2.f * t); }

// Progress of the reveal animation, 0..1 (1 with reduced motion).
float reveal_progress(const Demo& demo) {
  Draft& d = draft();
  if (d.anim_seen != demo.tour.anim_generation()) {
    d.anim_seen = demo.tour.anim_generation();
    d.anim_start = ImGui::GetTime();
  }
  if (demo.reduced_motion || d.anim_start < 0) return 1.f;
  const double t = (ImGui::GetTime() - d.anim_start) / kRevealSeconds;
  if (t >= 1.0) return 1.f;
  request_frames(2);
  return ease(static_cast<float>(t));
}

Prediction point_prediction(const Draft& d, bool two) {
  Prediction p;
  p.kind = two ? AnswerKind::Points : AnswerKind::Point;
  p.xy.assign(d.xy, d.xy + (two ? 4 : 2));
  return p;
}

// [SECTION] the answer widgets (plane, choice, number, match)
// The plane's frame: its bounds (the origin and the two targets, padded;
// equal scale on both axes) and the mapping between plane and screen.
struct PlaneFrame {
  float x0 = 0, x1 = 0, y0 = 0, y1 = 0, scale = 1, cx = 0, cy = 0, mx = 0, my = 0;

  PlaneFrame(ImVec2 pa, ImVec2 pb, ImVec2 origin, float width, float height) {
    x0 = std::min({0.f, pa.x, pb.x}), x1 = std::max({0.f, pa.x, pb.x});
    y0 = std::min({0.f, pa.y, pb.y}), y1 = std::max({0.f, pa.y, pb.y});
    const float span = std::max({x1 - x0, y1 - y0, 1e-3f});
    x0 -= 0.3f * span; x1 += 0.3f * span; y0 -= 0.3f * span; y1 += 0.3f * span;
    scale = std::min(width / (x1 - x0), height / (y1 - y0));
    cx = origin.x + width * 0.5f, cy = origin.y + height * 0.5f;
    mx = 0.5f * (x0 + x1), my = 0.5f * (y0 + y1);
  }
  ImVec2 to_screen(float x, float y) const { return ImVec2(cx + (x - mx) * scale, cy - (y - my) * scale); }
  ImVec2 to_plane(ImVec2 s) const {
    return ImVec2(std::clamp(mx + (s.x - cx) / scale, x0, x1), std::clamp(my - (s.y - cy) / scale, y0, y1));
  }
  bool inside(float px, float py) const { return !(px < x0 || px > x1 || py < y0 || py > y1); }
};

// The plane's labels, gathered and placed at the end (label_place.h), clear
// of the markers and of each other.
struct PlaneLabels {
  std::vector<LabelRequest> requests;
  std::vector<TourLabel> labels;
  std::vector<Box> markers;
  void label_at(ImVec2 p, float radius, ImU32 col, const std::string& text, bool below = false) {
    const ImVec2 ts = text_size(text);
    requests.push_back({p.x, p.y, ts.x, ts.y, radius + 3.f, true, below});
    labels.push_back({text, col});
  }
  void marker(ImVec2 p, float radius) { markers.push_back({p.x - radius, p.y - radius, p.x + radius, p.y + radius}); }
};

// The plane's mapping for tests: plane (x, y) -> CSS px.
void probe_plane_map(const PlaneFrame& f) {
  const ImVec2 o = f.to_screen(0, 0), u = f.to_screen(1, 1);
  const float plane_map[] = {o.x, o.y, u.x - o.x, u.y - o.y};  // origin to 0.01 px, px per unit to 0.001
  std::string map;
  app::append_array_n(map, 4, [&](long long i) { app::append_fixed(map, plane_map[i], i < 2 ? 2 : 3); });
  probe_value("tourPlane.map", std::move(map));
}

// The panel, the origin's cross, the other tokens faint (where they fall
// inside the frame), and the two targets with their rays, labelled.
void plane_backdrop(ImDrawList* dl, const Scene& scene, const PlaneFrame& f, ImVec2 origin, ImVec2 size,
                    PlaneLabels& pl) {
  const ValueMap& m = scene.value_maps()[0];
  const int a = m.anchor_a, b = m.anchor_b;
  dl->AddRectFilled(origin, ImVec2(origin.x + size.x, origin.y + size.y), palette().panel, 6.f);
  const ImVec2 o = f.to_screen(0, 0);
  dl->AddLine(ImVec2(o.x - 6, o.y), ImVec2(o.x + 6, o.y), palette().axis);
  dl->AddLine(ImVec2(o.x, o.y - 6), ImVec2(o.x, o.y + 6), palette().axis);
  for (int j = 0; j < m.points.rows(); ++j) {
    if (j == a || j == b) continue;
    const float px = m.points(j, 0), py = m.points(j, 1);
    if (!f.inside(px, py)) continue;
    dl->AddCircleFilled(f.to_screen(px, py), 2.5f, palette().point_far);
  }
  const int targets[2] = {a, b};
  for (int k = 0; k < 2; ++k) {
    const ImVec2 p = f.to_screen(m.points(targets[k], 0), m.points(targets[k], 1));
    dl->AddLine(o, p, palette().guide, 1.f);
    dl->AddCircleFilled(p, 5.f, palette().point);
    dl->AddCircle(p, 8.f, palette().point_ring, 0, 1.5f);
    pl.marker(p, 8.f);
    pl.label_at(p, 8.f, palette().text_secondary, scene.tokens()[static_cast<size_t>(targets[k])].text);
  }
}

// The mouse on the plane (the last item): a click places the next marker,
// a drag moves the nearest one; the prediction is sent on release (once
// every marker is placed).
void plane_mouse(Demo& demo, Draft& d, const PlaneFrame& f, bool two) {
  if (ImGui::IsItemActivated()) {
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int nearest = -1;
    float best = 18.f;
    for (int k = 0; k < d.placed; ++k) {
      const ImVec2 s = f.to_screen(d.xy[2 * k], d.xy[2 * k + 1]);
      const float dist = std::hypot(s.x - mouse.x, s.y - mouse.y);
      if (dist < best) { best = dist; nearest = k; }
    }
    if (nearest < 0) nearest = d.placed < (two ? 2 : 1) ? d.placed++ : d.selected;
    d.dragging = nearest;
    d.selected = nearest;
  }
  if (d.dragging >= 0 && ImGui::IsItemActive()) {
    const ImVec2 p = f.to_plane(ImGui::GetIO().MousePos);
    d.xy[2 * d.dragging] = p.x;
    d.xy[2 * d.dragging + 1] = p.y;
  }
  if (d.dragging >= 0 && ImGui::IsItemDeactivated()) {
    d.dragging = -1;
    if (d.placed == (two ? 2 : 1)) demo.tour_predict(point_prediction(d, two));
  }
}

// The learner's markers, each a ringed cross labelled "guess" (the selected
// one bolder before the reveal).
void plane_guesses(ImDrawList* dl, const Draft& d, const PlaneFrame& f, bool two, bool revealed, PlaneLabels& pl) {
  for (int k = 0; k < d.placed; ++k) {
    const ImVec2 s = f.to_screen(d.xy[2 * k], d.xy[2 * k + 1]);
    const ImU32 col = two ? head_color(k) : palette().text;
    dl->AddCircle(s, 9.f, col, 0, d.selected == k && !revealed ? 3.f : 2.f);
    dl->AddLine(ImVec2(s.x - 5, s.y), ImVec2(s.x + 5, s.y), col, 1.5f);
    dl->AddLine(ImVec2(s.x, s.y - 5), ImVec2(s.x, s.y + 5), col, 1.5f);
    pl.marker(s, 9.f);
    const std::string label = two ? app::trf("guess {0}", {std::to_string(k + 1)}) : std::string(app::tr("guess"));
    pl.label_at(s, 9.f, palette().text_faint, label);
  }
}

// After the reveal: the output(s), eased from where the animation starts
// (t of the way); for step options one point per option, labelled with its
// words; for a point step, the targets' midpoint (pa, pb halfway), hollow.
void plane_outputs(ImDrawList* dl, const TourStepInfo& info, const TourRecord& rec, const PlaneFrame& f, ImVec2 pa,
                   ImVec2 pb, float t, PlaneLabels& pl) {
  const bool options = info.kind == AnswerKind::Choice;
  if (info.kind == AnswerKind::Point) {  // the midpoint, hollow
    const ImVec2 mid = f.to_screen(0.5f * (pa.x + pb.x), 0.5f * (pa.y + pb.y));
    dl->AddCircle(mid, 5.f, palette().ghost, 0, 1.5f);
  }
  for (size_t k = 0; k + 1 < rec.to.size(); k += 2) {
    const float x = rec.from[k] + (rec.to[k] - rec.from[k]) * t, y = rec.from[k + 1] + (rec.to[k + 1] - rec.from[k + 1]) * t;
    const ImVec2 s = f.to_screen(std::clamp(x, f.x0, f.x1), std::clamp(y, f.y0, f.y1));
    const int i = static_cast<int>(k / 2);
    const bool chosen = options && rec.predicted && static_cast<size_t>(i) < info.choices.size() &&
                        rec.prediction.choice == info.choices[static_cast<size_t>(i)].id;
    const ImU32 col = options ? (chosen ? palette().accent.bg : palette().guide_strong) : head_color(i);
    dl->AddCircleFilled(s, 7.f, col);
    dl->AddCircle(s, 7.f, palette().marker_edge, 0, 1.5f);
    pl.marker(s, 7.f);
    if (t < 1.f) continue;
    std::string label;
    if (options && static_cast<size_t>(i) < info.choices.size())
      label = app::trf("{0}: output", {app::tr(info.choices[static_cast<size_t>(i)].label)});
    else
      label = rec.to.size() > 2 ? app::trf("head {0}", {std::to_string(i + 1)}) : std::string(app::tr("output"));
    pl.label_at(s, 7.f, palette().text, label, true);
  }
}

// The plane of the value space (Scene::value_maps()[0]): the origin, the two
// targets, the other tokens faint; the learner's markers; after the reveal
// the output(s), eased in from where the animation starts.
void plane_widget(Demo& demo, const TourStepInfo& info, const TourRecord& rec, float height) {
  Draft& d = draft();
  const ValueMap& m = demo.scene.value_maps()[0];
  const bool two = info.kind == AnswerKind::Points;
  const ImVec2 pa(m.points(m.anchor_a, 0), m.points(m.anchor_a, 1)), pb(m.points(m.anchor_b, 0), m.points(m.anchor_b, 1));
  const float width = ImGui::GetContentRegionAvail().x;
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const PlaneFrame f(pa, pb, origin, width, height);

  PlaneLabels pl;
  ImGui::InvisibleButton("##tour_plane", ImVec2(width, height));
  probe("tourPlane.rect", ImVec4(origin.x, origin.y, origin.x + width, origin.y + height));
  probe_plane_map(f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  plane_backdrop(dl, demo.scene, f, origin, ImVec2(width, height), pl);

  // The learner's markers: the sent prediction, or the draft.
  const bool predicted = rec.predicted && (rec.prediction.kind == AnswerKind::Point || rec.prediction.kind == AnswerKind::Points);
  if (predicted && d.dragging < 0) {
    for (size_t i = 0; i < rec.prediction.xy.size(); ++i) d.xy[i] = rec.prediction.xy[i];
    d.placed = two ? 2 : 1;
  }
  if (!rec.revealed) plane_mouse(demo, d, f, two);
  const float t = rec.revealed ? reveal_progress(demo) : 0.f;
  plane_guesses(dl, d, f, two, rec.revealed, pl);
  if (rec.revealed && rec.to.size() >= 2 && rec.from.size() == rec.to.size())
    plane_outputs(dl, info, rec, f, pa, pb, t, pl);
  draw_tour_labels(dl, pl.requests, pl.labels, pl.markers,
                   Box{origin.x + 2.f, origin.y + 2.f, origin.x + width - 2.f, origin.y + height - 2.f}, false);
}

// The arrows move the selected marker (Shift: finer); Tab picks the other.
void plane_keys(Demo& demo, const TourStepInfo& info, const TourRecord& rec) {
  Draft& d = draft();
  const bool two = info.kind == AnswerKind::Points;
  if (rec.revealed) return;
  if (ImGui::IsKeyPressed(ImGuiKey_Tab, false) && two) d.selected = 1 - d.selected;
  const ValueMap& m = demo.scene.value_maps()[0];
  const float span = std::max(1e-3f, std::hypot(m.points(m.anchor_a, 0) - m.points(m.anchor_b, 0),
                                                m.points(m.anchor_a, 1) - m.points(m.anchor_b, 1)));
  const float step = (ImGui::GetIO().KeyShift ? 0.02f : 0.08f) * span;
  float dx = 0, dy = 0;
  if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) dx -= step;
  if (ImGui::IsKeyPressed(ImGuiKey_RightArrow)) dx += step;
  if (ImGui::IsKeyPressed(ImGuiKey_UpArrow)) dy += step;
  if (ImGui::IsKeyPressed(ImGuiKey_DownArrow)) dy -= step;
  if (dx == 0 && dy == 0) return;
  while (d.placed <= d.selected) {  // the first press places the marker between the targets
    d.xy[2 * d.placed] = 0.5f * (m.points(m.anchor_a, 0) + m.points(m.anchor_b, 0));
    d.xy[2 * d.placed + 1] = 0.5f * (m.points(m.anchor_a, 1) + m.points(m.anchor_b, 1)) - 0.3f * span * d.placed;
    ++d.placed;
  }
  d.xy[2 * d.selected] += dx;
  d.xy[2 * d.selected + 1] += dy;
  if (d.placed == (two ? 2 : 1)) demo.tour_predict(point_prediction(d, two));
}

// The ring the arrow keys move: around the last item, in the accent colour,
// recorded for tests.
void focus_ring() {
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 3, a.y - 3), ImVec2(b.x + 3, b.y + 3), palette().accent.bg, 5.f, 0, 2.5f);
  probe("tourPicture.focus", ImVec4(a.x - 3, a.y - 3, b.x + 3, b.y + 3));
}

// One button per choice; the chosen one lit. Up/Down move, Space picks.
void choice_widget(Demo& demo, const TourStepInfo& info, const TourRecord& rec, bool keys) {
  Draft& d = draft();
  const int n = static_cast<int>(info.choices.size());
  if (keys && !rec.revealed) {
    if (ImGui::IsKeyPressed(ImGuiKey_DownArrow) || ImGui::IsKeyPressed(ImGuiKey_RightArrow)) d.choice = (d.choice + 1) % n;
    if (ImGui::IsKeyPressed(ImGuiKey_UpArrow) || ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) d.choice = (d.choice + n - 1) % n;
    if (d.choice >= 0 && ImGui::IsKeyPressed(ImGuiKey_Space, false)) {
      Prediction p;
      p.kind = AnswerKind::Choice;
      p.choice = info.choices[static_cast<size_t>(d.choice)].id;
      demo.tour_predict(p);
    }
  }
  for (int i = 0; i < n; ++i) {
    const app::TourChoice& c = info.choices[static_cast<size_t>(i)];
    const bool on = rec.predicted && rec.prediction.kind == AnswerKind::Choice && rec.prediction.choice == c.id;
    const char* label = app::tr(c.label);
    if (i > 0) same_line_if_fits(ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x + 4.f);
    push_button_colors(on ? palette().toggle_on : palette().heads_off);
    ImGui::BeginDisabled(rec.revealed);
    const std::string id = std::string(label) + "##choice_" + c.id;
    if (ImGui::Button(id.c_str())) {
      Prediction p;
      p.kind = AnswerKind::Choice;
      p.choice = c.id;
      d.choice = i;
      demo.tour_predict(p);
    }
    ImGui::EndDisabled();
    if (d.choice == i && keys && !rec.revealed) focus_ring();
    ImGui::PopStyleColor(4);
    probe_visible_item("tourChoices");
  }
}

// A slider 0..1; Left/Right move it by 0.05 (Shift 0.01); sent on release.
void number_widget(Demo& demo, const TourRecord& rec, bool keys) {
  Draft& d = draft();
  if (rec.predicted && rec.prediction.kind == AnswerKind::Number && !ImGui::IsAnyItemActive()) {
    d.number = rec.prediction.number;
    d.number_set = true;
  }
  ImGui::BeginDisabled(rec.revealed);
  ImGui::SetNextItemWidth(std::min(320.f, ImGui::GetContentRegionAvail().x));
  // The slider's text is the language's: the value through num(), '%' doubled for ImGui's format.
  std::string shown = d.number_set ? app::trf("loss {0}", {app::num(d.number, 2)}) : std::string(app::tr("drag to guess"));
  for (size_t at = shown.find('%'); at != std::string::npos; at = shown.find('%', at + 2)) shown.insert(at, 1, '%');
  ImGui::SliderFloat("##tour_number", &d.number, 0.f, 1.f, shown.c_str());
  if (keys && !rec.revealed) focus_ring();
  probe_visible_item("tourNumber");
  const bool sent = ImGui::IsItemDeactivatedAfterEdit();
  ImGui::EndDisabled();
  bool moved = false;
  if (keys && !rec.revealed) {
    const float step = ImGui::GetIO().KeyShift ? 0.01f : 0.05f;
    if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) { d.number = std::max(0.f, d.number - step); moved = true; }
    if (ImGui::IsKeyPressed(ImGuiKey_RightArrow)) { d.number = std::min(1.f, d.number + step); moved = true; }
  }
  if (sent || moved) {
    d.number_set = true;
    Prediction p;
    p.kind = AnswerKind::Number;
    p.number = d.number;
    demo.tour_predict(p);
  }
}

// Rows of combos, one value per row (-1: none picked): row i's label, then
// a combo of the options. Up/Down pick the row, Left/Right its option.
// Returns whether a value changed.
bool combo_rows(const std::vector<std::string>& rows, const std::vector<std::string>& options, int* values, bool keys,
                bool revealed, const char* unpicked, const char* probe_key) {
  Draft& d = draft();
  const int n = static_cast<int>(rows.size()), m = static_cast<int>(options.size());
  bool changed = false;
  if (keys && !revealed) {
    if (ImGui::IsKeyPressed(ImGuiKey_DownArrow)) d.selected = (d.selected + 1) % n;
    if (ImGui::IsKeyPressed(ImGuiKey_UpArrow)) d.selected = (d.selected + n - 1) % n;
    int& v = values[d.selected];
    if (ImGui::IsKeyPressed(ImGuiKey_RightArrow)) { v = std::min(m - 1, v + 1); changed = true; }
    if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow)) { v = std::max(0, v < 0 ? 0 : v - 1); changed = true; }
  }
  const float label_w = std::min(170.f, ImGui::GetContentRegionAvail().x * 0.5f);
  ImGui::BeginDisabled(revealed);
  for (int i = 0; i < n; ++i) {
    ImGui::PushID(i);
    ImGui::AlignTextToFramePadding();
    text(rows[static_cast<size_t>(i)]);
    ImGui::SameLine(label_w);
    ImGui::SetNextItemWidth(std::min(160.f, ImGui::GetContentRegionAvail().x));
    const int v = values[i];
    if (ImGui::BeginCombo("##row", v >= 0 && v < m ? options[static_cast<size_t>(v)].c_str() : unpicked)) {
      for (int j = 0; j < m; ++j) {
        if (ImGui::Selectable(options[static_cast<size_t>(j)].c_str(), v == j)) {
          values[i] = j;
          d.selected = i;
          changed = true;
        }
        // the open list's items, in order, each where it is (the list scrolls: some are outside it)
        probe("tourComboItems", ImVec4(ImGui::GetItemRectMin().x, ImGui::GetItemRectMin().y, ImGui::GetItemRectMax().x,
                                       ImGui::GetItemRectMax().y));
      }
      ImGui::EndCombo();
    }
    if (d.selected == i && keys && !revealed) focus_ring();
    probe_visible_item(probe_key);
    ImGui::PopID();
  }
  ImGui::EndDisabled();
  return changed;
}

// Per relationship, a row of the tokens it could look at.
void match_widget(Demo& demo, const TourRecord& rec, bool keys) {
  Draft& d = draft();
  // Each row's label is a whole phrase around the word (word order differs between languages).
  static constexpr const char* kRows[4] = {N_("subject of {0}"), N_("complement of {0}"), N_("token before {0}"),
                                           N_("what {0} refers to")};
  const auto& tokens = demo.scene.tokens();
  if (rec.predicted && rec.prediction.kind == AnswerKind::Match)
    for (int i = 0; i < 4; ++i) d.match[i] = rec.prediction.match[static_cast<size_t>(i)];
  std::vector<std::string> rows, options;
  for (int i = 0; i < 4; ++i)
    rows.push_back(app::trf(kRows[i], {tokens[static_cast<size_t>(app::tour_match_query(demo.scene, i))].text}));
  for (const auto& t : tokens) options.push_back(t.text);
  const bool changed = combo_rows(rows, options, d.match, keys, rec.revealed, app::tr("pick a token"), "tourMatch");
  if (changed && std::all_of(d.match, d.match + 4, [](int v) { return v >= 0; })) {
    Prediction p;
    p.kind = AnswerKind::Match;
    p.match.assign(d.match, d.match + 4);
    demo.tour_predict(p);
  }
}

// Step real-text: per head of the 4-head text model, a row of the labels.
Prediction labels_prediction(const TourStepInfo& info, const int* picked) {
  Prediction p;
  p.kind = AnswerKind::Labels;
  for (int h = 0; h < app::kTourTextHeads; ++h)
    p.labels.emplace_back(picked[h] >= 0 ? info.choices[static_cast<size_t>(picked[h])].id : "");
  return p;
}

void labels_widget(Demo& demo, const TourStepInfo& info, const TourRecord& rec, bool keys) {
  Draft& d = draft();
  if (rec.predicted && rec.prediction.kind == AnswerKind::Labels)
    for (int h = 0; h < app::kTourTextHeads; ++h)
      for (size_t j = 0; j < info.choices.size(); ++j)
        if (rec.prediction.labels[static_cast<size_t>(h)] == info.choices[j].id) d.labels[h] = static_cast<int>(j);
  std::vector<std::string> rows, options;
  for (int h = 0; h < app::kTourTextHeads; ++h) rows.push_back(app::trf("head {0}", {std::to_string(h + 1)}));
  for (const app::TourChoice& c : info.choices) options.emplace_back(app::tr(c.label));
  const bool changed = combo_rows(rows, options, d.labels, keys, rec.revealed, app::tr("pick a label"), "tourLabels");
  if (changed && std::all_of(d.labels, d.labels + app::kTourTextHeads, [](int v) { return v >= 0; }))
    demo.tour_predict(labels_prediction(info, d.labels));
}

// [SECTION] sending the answer, the hint, the progress dots
// Before a reveal (Enter or the button): what the keys selected but did not
// send yet is sent, so the reveal marks it: the ringed choice, or a match
// with some rows picked (a partial one is refused, saying what is missing,
// and nothing is revealed). Returns whether to reveal.
bool send_draft(Demo& demo, const TourStepInfo& info, const TourRecord& rec) {
  const Draft& d = draft();
  if (info.kind == AnswerKind::Choice && d.choice >= 0 && d.choice < static_cast<int>(info.choices.size())) {
    const std::string& id = info.choices[static_cast<size_t>(d.choice)].id;
    if (rec.predicted && rec.prediction.choice == id) return true;
    Prediction p;
    p.kind = AnswerKind::Choice;
    p.choice = id;
    return demo.tour_predict(p);
  }
  if (info.kind == AnswerKind::Labels && std::any_of(d.labels, d.labels + app::kTourTextHeads, [](int v) { return v >= 0; })) {
    const Prediction p = labels_prediction(info, d.labels);
    if (rec.predicted && rec.prediction.labels == p.labels) return true;
    return demo.tour_predict(p);
  }
  if (info.kind == AnswerKind::Match && std::any_of(d.match, d.match + 4, [](int v) { return v >= 0; })) {
    if (rec.predicted && std::equal(d.match, d.match + 4, rec.prediction.match.begin())) return true;
    Prediction p;
    p.kind = AnswerKind::Match;
    p.match.assign(d.match, d.match + 4);
    return demo.tour_predict(p);
  }
  return true;
}

// The line under the buttons: what the step's input takes, in taps on a
// touch screen and in keys elsewhere.
const char* input_hint(const TourStepInfo& info, const TourRecord& rec, bool touch) {
  if (touch) {
    if (rec.revealed && info.kind == AnswerKind::None) return N_("tap Try again beside a step to answer it once more");
    if (rec.revealed) return N_("tap Next to go on, Try again to answer once more");
    switch (info.kind) {
      case AnswerKind::Point: return N_("tap the plane where you expect the output, or tap an answer; then Reveal");
      case AnswerKind::Points: return N_("tap the plane twice, once per head; then Reveal");
      case AnswerKind::Choice: return N_("tap an answer, then Reveal");
      case AnswerKind::Number: return N_("drag the slider, then Reveal");
      case AnswerKind::Match: return N_("pick a token in each row, then Reveal");
      case AnswerKind::Labels: return N_("pick a label in each row, then Reveal");
      default: return N_("tap Reveal");
    }
  }
  if (rec.revealed && info.kind == AnswerKind::None) return N_("keys: B back; Try again beside a step answers it once more");
  if (rec.revealed) return N_("keys: R replays, N next, B back");
  switch (info.kind) {
    case AnswerKind::Point: return N_("keys: arrows move the marker, Enter reveals");
    case AnswerKind::Points: return N_("keys: arrows move a marker, Tab picks the other, Enter reveals");
    case AnswerKind::Choice: return N_("keys: arrows move the ring, Enter reveals the ringed answer");
    case AnswerKind::Number: return N_("keys: left and right arrows move the slider, Enter reveals");
    case AnswerKind::Match: return N_("keys: up and down pick a row, left and right its token, Enter reveals");
    case AnswerKind::Labels: return N_("keys: up and down pick a head, left and right its label, Enter reveals");
    default: return N_("keys: Enter reveals");
  }
}

// Height of `text` wrapped at `width` in the current font.
float wrapped_height(const std::string& text, float width) {
  return ImGui::CalcTextSize(text.c_str(), nullptr, false, width).y;
}

// The progress dots: one per step of the range, the open one filled; a click
// opens that step.
void dots(Demo& demo) {
  const int first = demo.tour.first(), last = demo.tour.last();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  for (int n = first; n <= last; ++n) {
    if (n > first) ImGui::SameLine(0, 4.f);
    char id[16];
    std::snprintf(id, sizeof id, "##dot%d", n);
    const ImVec2 p = ImGui::GetCursorScreenPos();
    if (ImGui::InvisibleButton(id, ImVec2(16, 16))) demo.tour_go(n);
    const bool here = n == demo.tour.step();
    const bool done = demo.tour.record(n).revealed;
    const ImVec2 c(p.x + 8, p.y + 8);
    if (here) dl->AddCircleFilled(c, 6.f, palette().accent.bg);
    else if (done) dl->AddCircleFilled(c, 4.5f, palette().text_faint);
    else dl->AddCircle(c, 4.5f, palette().text_faint, 0, 1.5f);
    probe_visible_item("tourDots");
  }
}

// [SECTION] the panel
// Keys while the step is open: Enter reveals, R replays, N / B next and
// back. Returns whether the step changed (the next frame draws the new one).
bool step_keys(Demo& demo, const TourStepInfo& info, const TourRecord& rec) {
  app::Tour& tour = demo.tour;
  const int n = tour.step();
  if ((ImGui::IsKeyPressed(ImGuiKey_Enter, false) || ImGui::IsKeyPressed(ImGuiKey_KeypadEnter, false)) && !rec.revealed) {
    if (send_draft(demo, info, rec)) demo.tour_reveal();
  }
  else if (ImGui::IsKeyPressed(ImGuiKey_R, false) && rec.revealed) demo.tour_replay();
  else if (ImGui::IsKeyPressed(ImGuiKey_N, false) && n < tour.last()) demo.tour_go(n + 1);
  else if (ImGui::IsKeyPressed(ImGuiKey_B, false) && n > tour.first()) demo.tour_go(n - 1);
  return tour.step() != n;
}

// The header row: the dots, "step 2 of 8" where the row has room for it
// beside Leave (the dots say it too), and Leave. Returns false once Leave
// closed the tour.
bool header_row(Demo& demo) {
  const int n = demo.tour.step();
  dots(demo);
  const char* leave = app::tr("Leave tour");
  const std::string count = app::trf("step {0} of {1}", {std::to_string(n), std::to_string(app::kTourSteps)});
  const float leave_w = ImGui::CalcTextSize(leave).x + 2 * ImGui::GetStyle().FramePadding.x + 16.f;
  ImGui::SameLine(0, 10.f);
  if (ImGui::GetContentRegionAvail().x >= ImGui::CalcTextSize(count.c_str()).x + ImGui::GetStyle().ItemSpacing.x + leave_w) {
    ImGui::TextDisabled("%s", count.c_str());
    ImGui::SameLine();
  }
  ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), ImGui::GetContentRegionMax().x - ImGui::CalcTextSize(leave).x - 16.f));
  if (ImGui::SmallButton((std::string(leave) + "##leave").c_str())) {
    demo.tour_close();
    return false;
  }
  probe_visible_item("tourButtons");
  return true;
}

// The step's title in bold; before the reveal the claim and the question,
// after it the question (a small frame has room for one of claim and
// result; a frame under about 700 px tall keeps the claim's room for the picture).
void step_words(const TourStepInfo& info, const TourRecord& rec, float wrap) {
  const bool narrow = wrap < 420.f;
  ImGui::PushFont(frame().fonts.bold);
  ImGui::TextUnformatted(wrap_at_spaces(app::tr(info.title), wrap).c_str());
  ImGui::PopFont();
  const bool short_frame = ImGui::GetContentRegionAvail().y < 640.f;
  const bool show_text = !rec.revealed || (!narrow && !short_frame);
  if (show_text) ImGui::TextUnformatted(wrap_at_spaces(app::tr(info.text), wrap).c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, palette().text_secondary);
  ImGui::TextUnformatted(wrap_at_spaces(app::tr(info.question), wrap).c_str());
  ImGui::PopStyleColor();
}

// The result's lines, wrapped, in the language shown now (the recap's
// picture is its table), and their height, known before the widget so the
// plane can take the rest.
std::vector<std::string> result_lines(const TourStepInfo& info, const TourRecord& rec, float wrap, float* height) {
  std::vector<std::string> result;
  if (rec.revealed && info.kind != AnswerKind::None)
    for (const app::Phrase& l : rec.result) result.push_back(l.str());
  if (rec.revealed && !rec.feedback.empty()) result.push_back(rec.feedback.str());
  if (rec.revealed && rec.score >= 0) {
    result.push_back(app::trf("score {0} (1 = spot on)", {app::num(rec.score, 2)}));
  }
  *height = 0;
  for (std::string& l : result) {
    l = wrap_at_spaces(l, wrap);
    *height += wrapped_height(l, wrap) + ImGui::GetStyle().ItemSpacing.y * 0.5f;
  }
  return result;
}

float button_width(const char* label) { return ImGui::CalcTextSize(label).x + 2.f * ImGui::GetStyle().FramePadding.x; }

// The buttons' row's height (two rows where a narrow frame wraps Try again and Next).
float buttons_height(const TourStepInfo& info, const TourRecord& rec, float wrap) {
  float row_w = button_width(app::tr("< Back")) + button_width(app::tr(rec.revealed ? "Replay" : "Reveal")) +
                button_width(app::tr("Next >")) + 3.f * ImGui::GetStyle().ItemSpacing.x;
  if (rec.revealed && info.kind != AnswerKind::None) row_w += button_width(app::tr("Try again")) + ImGui::GetStyle().ItemSpacing.x;
  return (row_w > wrap ? 2.f : 1.f) * (ImGui::GetFrameHeight() + ImGui::GetStyle().ItemSpacing.y);
}

// The heights of what goes under the answer widget: the result's lines,
// the buttons' row(s), the hint.
struct Below {
  float result = 0, buttons = 0, hint = 0;
};

// The step's answer widget; a plane takes the height the words under it leave (clamped).
void answer_widget(Demo& demo, const TourStepInfo& info, const TourRecord& rec, bool keys, const Below& below) {
  switch (info.kind) {
    case AnswerKind::Point:
    case AnswerKind::Points: {
      if (info.kind == AnswerKind::Point && !rec.revealed) choice_widget(demo, info, rec, false);
      // step two-heads keeps room for its arcs under the plane after the reveal
      const float arcs_h = rec.revealed && info.kind == AnswerKind::Points ? kArcsRoom : 0.f;
      const float room = ImGui::GetContentRegionAvail().y - below.result - below.buttons - below.hint - arcs_h - 20.f;
      const float h = std::clamp(room, 90.f, 300.f);
      plane_widget(demo, info, rec, h);
      if (keys) plane_keys(demo, info, rec);
      break;
    }
    case AnswerKind::Choice: choice_widget(demo, info, rec, keys); break;
    case AnswerKind::Number: number_widget(demo, rec, keys); break;
    case AnswerKind::Match: match_widget(demo, rec, keys); break;
    case AnswerKind::Labels: labels_widget(demo, info, rec, keys); break;
    default: break;
  }
}

// The result, beside the guess: its lines, then the feedback in the secondary colour.
void result_rows(const TourRecord& rec, const std::vector<std::string>& result) {
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(8, ImGui::GetStyle().ItemSpacing.y * 0.5f));
  for (size_t i = 0; i < result.size(); ++i) {
    const bool feedback = i >= rec.result.size();
    if (feedback) ImGui::PushStyleColor(ImGuiCol_Text, palette().text_secondary);
    ImGui::TextUnformatted(result[i].c_str());
    if (feedback) ImGui::PopStyleColor();
  }
  ImGui::PopStyleVar();
}

// Back, Reveal / Replay, Try again (once revealed), Next, and a refusal's
// mark, for step n (the one this frame draws, even if a dot opened another).
// Returns whether Try again was pressed.
bool step_buttons(Demo& demo, const TourStepInfo& info, const TourRecord& rec, int n) {
  const app::Tour& tour = demo.tour;
  ImGui::BeginDisabled(n <= tour.first());
  if (ImGui::Button((std::string(app::tr("< Back")) + "##back").c_str())) demo.tour_go(n - 1);
  ImGui::EndDisabled();
  probe_visible_item("tourButtons");
  ImGui::SameLine();
  if (!rec.revealed) {
    push_button_colors(palette().accent);
    if (ImGui::Button((std::string(app::tr("Reveal")) + "##reveal").c_str()) && send_draft(demo, info, rec))
      demo.tour_reveal();
    ImGui::PopStyleColor(4);
  } else {
    if (ImGui::Button((std::string(app::tr("Replay")) + "##replay").c_str())) demo.tour_replay();
  }
  probe_visible_item("tourButtons");
  bool retry = false;
  // Try again and Next go on the next line where a narrow frame has no room
  if (rec.revealed && info.kind != AnswerKind::None) {
    same_line_if_fits(button_width(app::tr("Try again")));
    retry = ImGui::Button((std::string(app::tr("Try again")) + "##retry").c_str());
    probe_visible_item("tourPicture.retry");
  }
  same_line_if_fits(button_width(app::tr("Next >")));
  ImGui::BeginDisabled(n >= tour.last());
  if (ImGui::Button((std::string(app::tr("Next >")) + "##next").c_str())) demo.tour_go(n + 1);
  ImGui::EndDisabled();
  probe_visible_item("tourButtons");
  if (!demo.tour_error.empty()) {
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, palette().error);
    ImGui::TextUnformatted(app::tr("refused (see below)"));
    ImGui::PopStyleColor();
  }
  return retry;
}

}  // namespace

std::string tour_description(Demo& demo) {
  if (!demo.tour.open()) return {};
  const int n = demo.tour.step();
  const TourStepInfo& info = app::tour_steps()[static_cast<size_t>(n - 1)];
  const TourRecord& rec = demo.tour.record(n);
  std::string s = app::trf("Guided tour, step {0} of {1}: {2}. {3} Question: {4}",
                           {std::to_string(n), std::to_string(app::kTourSteps), app::tr(info.title),
                            app::tr(info.text), app::tr(info.question)});
  if (rec.predicted) s += std::string(" ") + app::tr("You have answered.");
  if (rec.revealed) {
    s += std::string(" ") + app::tr("Result:");
    for (const app::Phrase& l : rec.result) s += " " + l.str();
    if (!rec.feedback.empty()) s += " " + rec.feedback.str();
  }
  return s;
}

void view_tour(Demo& demo) {
  app::Tour& tour = demo.tour;
  const int n = tour.step();
  if (Draft& d = draft(); d.step != n) {
    d = Draft{};
    d.step = n;
    d.anim_seen = tour.anim_generation();  // a step entered is not a reveal to animate
  }
  const TourStepInfo& info = app::tour_steps()[static_cast<size_t>(n - 1)];
  const TourRecord& rec = tour.record(n);
  const bool keys = !ImGui::GetIO().WantTextInput && ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
  probe_clear("tourButtons");
  if (keys && step_keys(demo, info, rec)) return;  // the next frame draws the new step

  const float wrap = ImGui::GetContentRegionAvail().x;
  if (!header_row(demo)) return;
  step_words(info, rec, wrap);
  Below below;
  const std::vector<std::string> result = result_lines(info, rec, wrap, &below.result);
  below.buttons = buttons_height(info, rec, wrap);
  // The line under the buttons: what this step's input takes.
  const bool touch = demo.coarse_pointer || ImGui::GetIO().MouseSource == ImGuiMouseSource_TouchScreen;
  const char* hint_key = input_hint(info, rec, touch);
  probe_string("tourPicture.hint", hint_key);
  const char* hint = app::tr(hint_key);
  below.hint = wrapped_height(hint, wrap) + ImGui::GetStyle().ItemSpacing.y;

  answer_widget(demo, info, rec, keys, below);
  result_rows(rec, result);
  const bool retry = step_buttons(demo, info, rec, n);
  text_disabled_wrapped("%s", hint);
  if (retry) {
    demo.tour_retry(n);
    return;
  }
  // The reveal's picture, in the room left: the plane of the three options,
  // or the view of view_tour_pictures.cpp.
  if (rec.revealed && std::string_view(info.id) == "options") {
    plane_widget(demo, info, rec, std::clamp(ImGui::GetContentRegionAvail().y - 8.f, 120.f, 360.f));
    probe_string("tourPicture.kind", "plane");
    probe("tourPicture.rect", probed_rect("tourPlane.rect"));
  } else if (rec.revealed) {
    tour_picture(demo, info, rec, reveal_progress(demo));  // for the point steps, what goes under their plane
  }
}

}  // namespace headroom::ui
