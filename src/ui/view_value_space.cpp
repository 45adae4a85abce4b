// view_value_space.cpp: per head, the tokens' value vectors as labelled
// points in 2-D and the head's output for the query as a marker, with a line
// to every token it mixes (thickness = weight).
//
// The picture (engine/lesson/value_map.h): the plane through the origin spanned by
// the query's two lesson targets' value vectors. Inside it lengths and angles
// are exact (the angle at the origin between the output and a target is the
// cosine the readout prints); it changes only with V_h and the targets, not
// with the weights, so 1 and 2 heads share one frame; and it is linear, so
// the output's point IS the weighted average of the points it mixes: with one
// head split 50/50 the marker sits halfway between the two targets, and "the
// midpoint of two meanings" is something you can see. Other tokens are drawn
// by their projection onto the plane.
//
// Does: draw with ImDrawList at a uniform scale (distances are honest);
// label the output with what it measures (app::measure_output: "output:
// midpoint", "output: mush", "output: reads researcher"); place every label
// with label_place.h so none covers another or a marker (a leader line joins
// a label moved away from its point; a token label with no room is left out,
// its point keeps its tooltip); animate 1 -> H heads: each new head's marker
// starts at the one head's midpoint of its targets and slides to where that
// head's output really is (off when the page reports prefers-reduced-motion);
// after that a faint marker labelled "1 head's midpoint" stays there, to
// compare with, until the sentence or the query changes. Size: each plot
// takes its share of the card's width; on the full page one row of plots
// reaches down to the fold (the display's bottom with the page unscrolled),
// so the first screen shows the whole view; in the compact layout the plots
// fill the panel. Reports labels and markers as probes (probes.h) for tests.
// Does not: project, average or compute attention (Scene::value_maps()), or
// classify the output (app/lang/output_kind.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/state/view_rows.h"
#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/lang/output_kind.h"
#include "imgui_internal.h"  // the root window: where the fold is
#include "ui/label_place.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/frame.h"
#include "ui/view_state.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

constexpr double kSplitSeconds = 1.0;

ImVec2 lerp(ImVec2 a, ImVec2 b, float t) { return ImVec2(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t); }

// The line between a head's two targets: widgets.h dashed_line, its dashes
// and gaps equal and about 6 px, so a whole number of them fills the line.
void target_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 col) {
  const float len = std::hypot(b.x - a.x, b.y - a.y);
  const float dash = len / static_cast<float>(std::max(1, static_cast<int>(len / 6.f)));
  dashed_line(dl, a, b, col, 1.5f, dash, dash);
}

// Which sentence and query the one head's output was drawn for.
std::string model_key(const app::ModelShown& m) {
  std::string key = std::to_string(m.query);
  for (const Token& t : m.tokens) key += '\x1f' + t.text;
  return key;
}

// Tracks head-count changes and starts the split animation on 1 -> H;
// with one head, remembers its output (ViewState::split_from).
float split_progress(const Demo& demo, const app::ModelShown& m) {
  ViewState& vs = view_state();
  const int H = m.heads;
  if (H != vs.last_heads) {
    if (vs.last_heads == 1 && H > 1 && !demo.reduced_motion) vs.split_started = ImGui::GetTime();
    else vs.split_started = -1;
    vs.last_heads = H;
  }
  if (H == 1) {
    vs.split_from = m.head[0].readout.targets;
    vs.split_from_midpoint = m.head[0].output.kind == app::OutputKind::Midpoint;
    vs.split_from_key = model_key(m);
  } else if (vs.split_from_key != model_key(m)) {
    vs.split_from.clear();  // a new sentence or query: the one head's output is gone
    vs.split_from_key.clear();
  }
  if (vs.split_started < 0) return 1.f;
  const double t = (ImGui::GetTime() - vs.split_started) / kSplitSeconds;
  if (t >= 1.0) {
    vs.split_started = -1;
    return 1.f;
  }
  request_frames(2);  // keep drawing until the animation ends
  const float s = static_cast<float>(t);
  return s * s * (3.f - 2.f * s);  // smoothstep
}

Box box_around(ImVec2 c, float r) { return {c.x - r, c.y - r, c.x + r, c.y + r}; }
ImVec4 to_vec4(const Box& b) { return ImVec4(b.x0, b.y0, b.x1, b.y1); }

// One label or marker of head `head` into a value-space probe: {head, kind,
// text, rect, leader}.
void probe_plot_item(const char* probe_kind, int head, const std::string& kind, const std::string& text,
                     const ImVec4& rect, bool leader) {
  probe_item(probe_kind, [&](app::JsonObject& o) {
    o.field("head", head).field("kind", kind).field("text", text);
    append_rect(o.key("rect"), rect);
    o.field("leader", leader);
  });
}

// One label to place and draw: its words, font, colour and what it names.
struct PlotLabel {
  std::string text;
  bool bold = false;
  ImU32 color = 0;
  ImVec2 anchor;
  float marker_r = 0;  // the anchor's marker radius: a leader line starts at its edge
  LabelRequest request;
};

// A plot's place on screen (the panel from a to b, of `size`, centre c)
// and its uniform scale s about the plane point (mx, my).
struct PlotGeometry {
  ImVec2 a, b, c, size;
  float s = 1, mx = 0, my = 0;
  ImVec2 to_screen(float x, float y) const { return ImVec2(c.x + (x - mx) * s, c.y - (y - my) * s); }  // y up
  bool inside(ImVec2 v) const { return v.x >= a.x + 8 && v.x <= b.x - 8 && v.y >= a.y + 8 && v.y <= b.y - 8; }
  ImVec2 to_rim(ImVec2 v) const {  // along the ray from the centre to v, onto the panel's inner rim
    const float dx = v.x - c.x, dy = v.y - c.y;
    const float k = std::min(std::fabs(dx) > 1e-3f ? (size.x * 0.5f - 10) / std::fabs(dx) : 1e9f,
                             std::fabs(dy) > 1e-3f ? (size.y * 0.5f - 10) / std::fabs(dy) : 1e9f);
    return ImVec2(c.x + dx * std::min(k, 1.f), c.y + dy * std::min(k, 1.f));
  }
};

// Uniform scale fitting the `fit` tokens (all, or the query's targets) and
// the output, with room for labels; tokens outside sit on the rim.
PlotGeometry plot_geometry(const ValueMap& m, const std::vector<int>& fit, ImVec2 a, ImVec2 size, bool zoom) {
  PlotGeometry g;
  g.a = a;
  g.b = ImVec2(a.x + size.x, a.y + size.y);
  g.size = size;
  float x0 = m.output(0), x1 = x0, y0 = m.output(1), y1 = y0;
  for (int j : fit) {
    x0 = std::min(x0, m.points(j, 0)); x1 = std::max(x1, m.points(j, 0));
    y0 = std::min(y0, m.points(j, 1)); y1 = std::max(y1, m.points(j, 1));
  }
  const float pad = 30.f;
  const float sx = (size.x - 2 * pad) / std::max(x1 - x0, 1e-6f), sy = (size.y - 2 * pad) / std::max(y1 - y0, 1e-6f);
  g.s = std::min(sx, sy) * (zoom ? 0.8f : 1.f);
  g.c = ImVec2((g.a.x + g.b.x) * 0.5f, (g.a.y + g.b.y) * 0.5f);
  g.mx = (x0 + x1) * 0.5f, g.my = (y0 + y1) * 0.5f;
  return g;
}

// Every token's point on screen, pulled onto the rim where it falls outside.
struct TokenPoints {
  std::vector<ImVec2> p;
  std::vector<bool> on_rim;
};
TokenPoints token_points(const ValueMap& m, const PlotGeometry& g, int L) {
  TokenPoints t{std::vector<ImVec2>(static_cast<size_t>(L)), std::vector<bool>(static_cast<size_t>(L), false)};
  for (int j = 0; j < L; ++j) {
    t.p[static_cast<size_t>(j)] = g.to_screen(m.points(j, 0), m.points(j, 1));
    if (!g.inside(t.p[static_cast<size_t>(j)])) {
      t.p[static_cast<size_t>(j)] = g.to_rim(t.p[static_cast<size_t>(j)]);
      t.on_rim[static_cast<size_t>(j)] = true;
    }
  }
  return t;
}

// Where the output marker is drawn this frame, and the ghost: the one
// head's midpoint of its targets, in this head's plane, where the split
// animation starts, and (when the one head measured as a midpoint) the
// ghost marker that stays while the sentence and query do.
struct OutputAt {
  ImVec2 out;
  bool ghost = false;
  ImVec2 ghost_at{0, 0};
};
OutputAt output_at(const std::vector<ImVec2>& p, ImVec2 out_end, int H, int L, float progress) {
  const ViewState& vs = view_state();
  OutputAt o{out_end};
  if (H > 1 && !vs.split_from.empty()) {
    int n = 0;
    for (int t : vs.split_from)
      if (t >= 0 && t < L) { o.ghost_at.x += p[static_cast<size_t>(t)].x; o.ghost_at.y += p[static_cast<size_t>(t)].y; ++n; }
    if (n > 0) {
      o.ghost_at = ImVec2(o.ghost_at.x / n, o.ghost_at.y / n);
      if (progress < 1.f) o.out = lerp(o.ghost_at, out_end, progress);
      o.ghost = vs.split_from_midpoint && n >= 2;
    }
  }
  return o;
}

// The lines under the markers: one head's two targets joined (the midpoint
// lies on that segment); faint rays from the origin to the targets and to
// the output (the plane keeps angles, so the angle between two rays is the
// one whose cosine the readout prints: "close to neither" is an angle you
// can see); and lines from the output to what it mixes (thickness = weight).
void plot_lines(ImDrawList* dl, const ModelView& v, int h, const std::vector<ImVec2>& p, ImVec2 origin, ImVec2 out,
                float progress) {
  const HeadReadout& r = v.m.head[static_cast<size_t>(h)].readout;
  if (r.targets.size() == 2)
    target_line(dl, p[static_cast<size_t>(r.targets[0])], p[static_cast<size_t>(r.targets[1])], head_color(h, 0.45f));
  for (int t : r.targets) dl->AddLine(origin, p[static_cast<size_t>(t)], palette().guide, 1.f);
  dl->AddLine(origin, out, palette().guide_strong, 1.f);
  const Mat& w = v.tr.heads[static_cast<size_t>(h)].weights;
  for (int j = 0; j < v.L; ++j) {
    const float wj = w(v.q, j);
    if (wj < 0.01f) continue;
    dl->AddLine(out, p[static_cast<size_t>(j)], head_color(h, (0.25f + 0.6f * wj) * progress), 1.f + 6.f * wj);
  }
}

// Head h's markers (each box an obstacle no label may cover, each reported
// as a probe) and the labels to place once every marker is down.
struct PlotMarks {
  int h = 0;
  std::vector<Box> obstacles;
  std::vector<PlotLabel> labels;
  void marker(const char* kind, const std::string& word, ImVec2 c, float radius) {
    obstacles.push_back(box_around(c, radius));
    probe_plot_item("valueSpace.markers", h, kind, word, to_vec4(obstacles.back()), false);
  }
  void add_label(std::string label, bool bold, ImU32 color, ImVec2 at, float marker_r, bool must, bool below) {
    ImGui::PushFont(bold ? frame().fonts.bold : frame().fonts.body);
    const ImVec2 ts = text_size(label);
    ImGui::PopFont();
    PlotLabel pl{std::move(label), bold, color, at, marker_r, {}};
    pl.request.ax = at.x, pl.request.ay = at.y, pl.request.w = ts.x, pl.request.h = ts.y;
    pl.request.gap = marker_r + 3.f, pl.request.must = must, pl.request.below_first = below;
    labels.push_back(std::move(pl));
  }
};

constexpr float kOutputR = 9.f;  // the output marker's half-diagonal
constexpr float kGhostR = 9.f;

// Every token's point (tokens sharing a value vector are one point with one
// merged label, "The, the"), targets first so their labels are placed
// first; a hovered point's tooltip gives its weight and coordinates.
void token_markers(ImDrawList* dl, const ModelView& v, int h, const TokenPoints& pts, bool hovered_panel,
                   PlotMarks& marks) {
  const auto& [m, tr, tokens, L, q, H, D, dh] = v;
  const HeadReadout& r = m.head[static_cast<size_t>(h)].readout;
  const ValueMap& map = m.head[static_cast<size_t>(h)].map;
  const Mat& w = tr.heads[static_cast<size_t>(h)].weights;
  const std::vector<ImVec2>& p = pts.p;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const auto is_target = [&](int j) { return std::find(r.targets.begin(), r.targets.end(), j) != r.targets.end(); };
  std::vector<bool> done(static_cast<size_t>(L), false);
  std::vector<int> order;  // targets first, so their labels are placed first
  for (int j = 0; j < L; ++j)
    if (is_target(j)) order.push_back(j);
  for (int j = 0; j < L; ++j)
    if (!is_target(j)) order.push_back(j);
  for (int j : order) {
    if (done[static_cast<size_t>(j)]) continue;
    std::string label = tokens[static_cast<size_t>(j)].text;
    bool target = is_target(j);
    float wsum = w(q, j);
    for (int k = j + 1; k < L; ++k) {
      if (done[static_cast<size_t>(k)]) continue;
      const ImVec2 d(p[static_cast<size_t>(k)].x - p[static_cast<size_t>(j)].x, p[static_cast<size_t>(k)].y - p[static_cast<size_t>(j)].y);
      if (d.x * d.x + d.y * d.y < 2.f) {
        done[static_cast<size_t>(k)] = true;
        if (label.find(tokens[static_cast<size_t>(k)].text) == std::string::npos) label += ", " + tokens[static_cast<size_t>(k)].text;
        target = target || is_target(k);
        wsum += w(q, k);
      }
    }
    const ImVec2 pj = p[static_cast<size_t>(j)];
    float radius = 4.f;
    if (target) {
      radius = 6.5f;
      dl->AddCircleFilled(pj, radius, head_color(h));
      dl->AddCircle(pj, radius, palette().point_ring, 0, 1.5f);
    } else if (pts.on_rim[static_cast<size_t>(j)]) {
      dl->AddCircle(pj, radius, palette().point_far, 0, 1.5f);  // beyond the zoomed view
    } else {
      dl->AddCircleFilled(pj, radius, palette().point);
    }
    marks.marker(target ? "target" : "token", label, pj, radius + 1.f);
    marks.add_label(label, target, target ? palette().text : palette().text_faint, pj, radius + 1.f, target, false);
    if (hovered_panel && std::hypot(mouse.x - pj.x, mouse.y - pj.y) < 8.f) {
      ImGui::BeginTooltip();
      text(label);
      text(app::trf("weight from {0}: {1}", {tokens[static_cast<size_t>(q)].text, app::num(wsum, 4)}));
      text(app::trf("in-plane point ({0}, {1})", {app::num(map.points(j, 0), 3), app::num(map.points(j, 1), 3)}));
      ImGui::EndTooltip();
    }
  }
}

// The ghost of the single head's midpoint (faint, to compare with), then
// the output marker on top, its tooltip when hovered.
void output_marker(ImDrawList* dl, const ModelView& v, int h, const OutputAt& o, bool hovered_panel, PlotMarks& marks) {
  const app::ShownHead& sh = v.m.head[static_cast<size_t>(h)];
  const ImVec2 out = o.out;
  const float R = kOutputR;
  if (o.ghost) {
    dl->AddCircle(o.ghost_at, kGhostR, with_alpha(palette().ghost, 0.6f), 0, 2.f);
    dl->AddCircleFilled(o.ghost_at, 2.5f, with_alpha(palette().ghost, 0.6f));
    marks.marker("ghost", "", o.ghost_at, kGhostR + 1.f);
  }
  dl->AddQuadFilled(ImVec2(out.x, out.y - R), ImVec2(out.x + R, out.y), ImVec2(out.x, out.y + R), ImVec2(out.x - R, out.y), head_color(h));
  dl->AddQuad(ImVec2(out.x, out.y - R), ImVec2(out.x + R, out.y), ImVec2(out.x, out.y + R), ImVec2(out.x - R, out.y), palette().marker_edge, 2.f);
  marks.marker("output", "", out, R + 1.f);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (hovered_panel && std::hypot(mouse.x - out.x, mouse.y - out.y) < R + 2) {
    ImGui::BeginTooltip();
    text(app::trf("head {0}'s output for {1}: {2}", {std::to_string(h + 1), v.tokens[static_cast<size_t>(v.q)].text, sh.output.words}));
    text(app::trf("in-plane point ({0}, {1})", {app::num(sh.map.output(0), 3), app::num(sh.map.output(1), 3)}));
    ImGui::EndTooltip();
  }
}

// The labels, placed clear of each other and of every marker inside the
// panel from a to b (a leader line to one moved away from its point).
void plot_labels(ImDrawList* dl, const PlotMarks& marks, ImVec2 a, ImVec2 b) {
  std::vector<LabelRequest> requests;
  for (const PlotLabel& pl : marks.labels) requests.push_back(pl.request);
  const std::vector<Placement> placed = place_labels(requests, marks.obstacles, {a.x + 3, a.y + 3, b.x - 3, b.y - 3});
  for (size_t i = 0; i < marks.labels.size(); ++i) {
    if (!placed[i].placed) continue;
    const PlotLabel& pl = marks.labels[i];
    const Box& rb = placed[i].rect;
    if (placed[i].leader) {
      float ex, ey;
      nearest_point(rb, pl.anchor.x, pl.anchor.y, ex, ey);
      const float dx = ex - pl.anchor.x, dy = ey - pl.anchor.y, len = std::max(std::hypot(dx, dy), 1e-3f);
      dl->AddLine(ImVec2(pl.anchor.x + dx / len * pl.marker_r, pl.anchor.y + dy / len * pl.marker_r), ImVec2(ex, ey),
                  with_alpha(pl.color, 0.8f), 1.f);
    }
    ImGui::PushFont(pl.bold ? frame().fonts.bold : frame().fonts.body);
    draw_text(dl, ImVec2(rb.x0, rb.y0), pl.color, pl.text);
    ImGui::PopFont();
    probe_plot_item("valueSpace.labels", marks.h, pl.bold ? "bold" : "body", pl.text, to_vec4(rb), placed[i].leader);
  }
}

// Under the plot: what the output is, and how much of it the plane holds.
void plot_footer(const app::ShownHead& sh, float width) {
  const std::string foot = app::trf("output {0}", {sh.verdict});
  // Wrapped at spaces only: ImGui's wrap also breaks after a ',' (a decimal comma).
  ImGui::TextUnformatted(wrap_at_spaces(foot, width).c_str());
  const std::string plane = app::trf("drawn in the plane of the two targets' values, which holds {0}% of this output",
                                     {app::num(100.f * sh.map.output_in_plane, 0)});
  ImGui::TextDisabled("%s", wrap_at_spaces(plane, width).c_str());
}

// Head h's plot: its caption, the panel with the origin, the lines, the
// markers and the labels, and its footer.
void panel(Demo& demo, int h, const std::vector<int>& fit, ImVec2 size, float progress) {
  const ModelView v = model_view(demo);
  const app::ShownHead& sh = v.m.head[static_cast<size_t>(h)];
  const ValueMap& m = sh.map;
  ImDrawList* dl = ImGui::GetWindowDrawList();

  const std::string caption = app::trf("Head {0}", {std::to_string(h + 1)}) + " \xc2\xb7 " + sh.caption;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
  ImGui::TextUnformatted(caption.c_str());
  ImGui::PopStyleColor();

  const ImVec2 a = ImGui::GetCursorScreenPos();
  const ImVec2 b(a.x + size.x, a.y + size.y);
  dl->AddRectFilled(a, b, palette().panel, 6.f);
  dl->AddRect(a, b, palette().panel_border, 6.f);
  const PlotGeometry g = plot_geometry(m, fit, a, size, view_state().zoom_targets);
  dl->PushClipRect(a, b, true);
  // The origin (the zero vector) as a faint cross.
  const ImVec2 origin = g.to_screen(0, 0);
  dl->AddLine(ImVec2(origin.x - 5, origin.y), ImVec2(origin.x + 5, origin.y), palette().axis);
  dl->AddLine(ImVec2(origin.x, origin.y - 5), ImVec2(origin.x, origin.y + 5), palette().axis);

  const TokenPoints pts = token_points(m, g, v.L);
  const OutputAt o = output_at(pts.p, g.to_screen(m.output(0), m.output(1)), v.H, v.L, progress);
  plot_lines(dl, v, h, pts.p, origin, o.out, progress);

  // Markers: every point, the ghost, the output; the output's label first
  // (it wins any contest), then the ghost's, then the points'.
  PlotMarks marks;
  marks.h = h;
  marks.marker("origin", "", origin, 5.5f);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const bool hovered_panel = ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y;
  marks.add_label(app::trf("output: {0}", {sh.output.words}), true, palette().text, o.out, kOutputR + 1.f, true, true);
  if (o.ghost) marks.add_label(app::tr("1 head's midpoint"), false, palette().ghost, o.ghost_at, kGhostR + 1.f, true, true);
  token_markers(dl, v, h, pts, hovered_panel, marks);
  output_marker(dl, v, h, o, hovered_panel, marks);
  plot_labels(dl, marks, a, b);

  dl->PopClipRect();
  probe("valueSpace.plots", ImVec4(a.x, a.y, b.x, b.y));
  ImGui::Dummy(size);
  plot_footer(sh, size.x);
}

}  // namespace

void view_value_space(Demo& demo) {
  const ImVec2 view_top = ImGui::GetCursorScreenPos();
  section_title(app::view_row(app::ViewId::Values).title, app::view_row(app::ViewId::Values).help);
  const app::ModelShown& shown = demo.shown();
  const float progress = split_progress(demo, shown);
  const int H = shown.heads;
  ViewState& vs = view_state();
  ImGui::SameLine(0, 16);
  ImGui::Checkbox(app::tr("zoom to the targets"), &vs.zoom_targets);
  ImGui::SetItemTooltip("%s", app::tr("on: fit the picture to the selected token's targets and the outputs (same scale on both "
                        "axes); other tokens sit on the rim, hollow. off: fit every token."));
  // Tokens the picture fits: every head's targets (so each panel shows the
  // same pair the single head had to split), or every token.
  std::vector<int> fit;
  const int L = shown.token_count();
  for (int j = 0; j < L; ++j) {
    bool want = !vs.zoom_targets;
    for (const app::ShownHead& sh : shown.head)
      want = want || std::find(sh.readout.targets.begin(), sh.readout.targets.end(), j) != sh.readout.targets.end();
    if (want) fit.push_back(j);
  }
  const float avail = ImGui::GetContentRegionAvail().x;
  const float gap = ImGui::GetStyle().ItemSpacing.x + 8.f;
  const float min_w = H == 1 ? 280.f : H == 2 ? 230.f : 170.f;
  const int per_row = std::max(1, std::min(H, static_cast<int>((avail + gap) / (min_w + gap))));
  const int rows = (H + per_row - 1) / per_row;
  const float w = (avail - gap * (per_row - 1)) / per_row;  // each plot's share of the card's width
  ImVec2 size(w, std::min(w * 0.78f, 360.f));
  // The height around a plot: its caption and footer, as tall as last
  // frame's (the way ImGui sizes things).
  static float text_around = 4.f * ImGui::GetTextLineHeightWithSpacing();
  // A card grows with what it holds (AutoResizeY): the room is the display's
  // below it, not the card's.
  const bool in_card = (ImGui::GetCurrentWindow()->ChildFlags & ImGuiChildFlags_AutoResizeY) != 0;
  if (frame().compact) {
    // The view has a panel of fixed height (a tab), or is a frame's only
    // view (a card down to the frame's bottom): the plots fill it, down to
    // kMinPlot (then the panel or the frame scrolls).
    constexpr float kMinPlot = 120.f;
    constexpr float kSlack = 4.f;  // rounding must not make the panel scroll (then its width changes)
    constexpr float kBelow = 28.f;  // a card's bottom padding and border, the window's padding, a hair
    float room = ImGui::GetContentRegionAvail().y - kSlack;  // below the title row
    if (in_card) {
      const ImGuiWindow* root = ImGui::GetCurrentWindow()->RootWindow;
      room = root->Size.y - (ImGui::GetCursorScreenPos().y + root->Scroll.y - root->Pos.y) - kBelow;
    }
    const float per_plot = (room - rows * text_around - (rows - 1) * ImGui::GetStyle().ItemSpacing.y) / rows;
    size.y = std::max(kMinPlot, std::min(w * 0.9f, per_plot));
  } else if (rows == 1) {
    // The full page: one row of plots reaches down to the fold (the bottom
    // of the display with the page unscrolled), so the first screen shows
    // the whole view; never shorter than kMinFull (the page then scrolls
    // to it) nor taller than w * 0.9.
    constexpr float kMinFull = 220.f;
    constexpr float kBelow = 16.f;  // the card's bottom padding and border, and a hair
    const ImGuiWindow* root = ImGui::GetCurrentWindow()->RootWindow;
    const float top = ImGui::GetCursorScreenPos().y + root->Scroll.y - root->Pos.y;
    const float room = root->Size.y - top - text_around - kBelow;
    size.y = std::clamp(room, kMinFull, std::max(kMinFull, w * 0.9f));
  }
  // Whole pixels: ImGui rounds the items around the plot, so a fraction
  // here would change text_around and the next frame's size, for ever.
  size = ImVec2(std::floor(size.x), std::floor(size.y));
  float bottom = view_top.y;
  for (int h = 0; h < H; ++h) {
    if (h % per_row != 0) ImGui::SameLine(0, gap);
    ImGui::BeginGroup();
    ImGui::PushID(h);
    panel(demo, h, fit, size, progress);
    ImGui::PopID();
    ImGui::EndGroup();
    if (h == 0) text_around = ImGui::GetItemRectSize().y - size.y;
    bottom = std::max(bottom, ImGui::GetItemRectMax().y);
  }
  probe("valueSpace.view", ImVec4(view_top.x, view_top.y, view_top.x + avail, bottom));
}

}  // namespace headroom::ui
