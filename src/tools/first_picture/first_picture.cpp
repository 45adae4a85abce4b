// first_picture.cpp: the default state read from a fresh Demo, and written
// as markup (see first_picture.h).
//
// Index of this file
//   [SECTION] the numbers and words: make_picture
//   [SECTION] the value plane: a window on the plane, its marks
//   [SECTION] the rest of the picture: heads, readout, tokens
//   [SECTION] the palette as CSS
#include "tools/first_picture/first_picture.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/lang/output_kind.h"
#include "app/state/demo.h"
#include "app/state/view_rows.h"
#include "ui/palette_colors.h"

namespace headroom::tools {

namespace colors = ui::colors;

namespace {

// A number as the data-* attributes carry it: enough digits that a float
// reads back to the value the engine gave.
std::string exact(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  return buf;
}

// A CSS length or percentage: two decimals.
std::string css(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", static_cast<double>(v));
  return buf;
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

//-----------------------------------------------------------------------------
// [SECTION] the numbers and words: make_picture
//-----------------------------------------------------------------------------
namespace {

// The words the canvas shows around the numbers, in the shown language.
Picture::Words words_of(const app::Demo& demo, const Picture& p) {
  const Scene& scene = demo.scene;
  const HeadReadout& r = scene.readout()[0];
  Picture::Words w;
  w.tagline = app::tr("why attention has more than one head");
  w.tour = app::tr("Guided tour");
  w.tour_short = app::tr("Tour");
  w.heads = app::tr("Heads");
  w.shapes = app::trf("each head gets {0} / {1} = {2} numbers (d_head)",
                      {std::to_string(p.d_model), std::to_string(p.heads), std::to_string(p.d_head)});
  w.keys = app::tr("keys 1 2 4 8 \xc2\xb7 left/right arrows move the query");
  w.weights = app::tr("Weights:");
  w.built = app::tr("built");
  w.trained = app::tr("trained");
  w.weights_what = app::tr("built: made by rule, one relationship per head \xc2\xb7 trained: learned from examples");
  w.weights_line = app::tr("built weights: relationships dealt out to heads by construction");
  w.focus_title = app::tr("One head can only:");
  for (const char* preset : {N_("all on one"), N_("split"), N_("spread")}) w.focus_presets.push_back(app::tr(preset));
  w.focus_value = app::trf("focus {0}", {app::num(p.focus, 2)});
  w.readout = app::readout_sentence(scene, true);
  w.readout_short = app::readout_sentence(scene, false);
  w.values_title = app::tr(app::view_row(app::ViewId::Values).title);
  w.zoom = app::tr("zoom to the targets");
  w.head_caption = app::trf("Head {0}", {"1"}) + " \xc2\xb7 " + app::head_caption(scene, r, 0);
  w.output_label = app::trf("output: {0}", {app::measure_output(scene, r).words});
  w.foot = app::trf("output {0}", {app::head_verdict(scene, r)});
  w.plane_note = app::trf("drawn in the plane of the two targets' values, which holds {0}% of this output",
                          {app::num(100.f * p.output_in_plane, 0)});
  w.sentence_title = app::tr(app::view_row(app::ViewId::Sentence).title);
  w.sentence_hint = app::tr("click a token to make it the query");
  w.targets_of = app::trf("targets of \"{0}\":", {p.tokens[static_cast<size_t>(p.query)]});
  for (Relation rel : r.relations) w.relations.push_back(app::relation_word(rel));
  w.description = app::describe_state(scene);
  for (const app::ViewRow& row : app::kViewTable)
    if (row.tab) w.tabs.push_back(app::tr(row.label));
  return w;
}

}  // namespace

Picture make_picture(std::string_view lang) {
  app::Demo demo;
  (void)demo.set_language(lang);  // the page applies its link's lang= the same way
  const Scene& scene = demo.scene;
  Picture p;
  p.lang = app::language().code;
  for (const Token& t : scene.tokens()) p.tokens.push_back(t.text);
  p.query = scene.query();
  p.heads = scene.heads();
  p.d_model = scene.d_model();
  p.d_head = scene.d_head();
  p.focus = scene.focus();
  const HeadReadout& r = scene.readout()[0];
  p.targets = r.targets;
  for (Relation rel : r.relations) p.relations.push_back(static_cast<int>(rel));
  const Mat& w = scene.trace().heads[0].weights;
  for (int j = 0; j < w.cols(); ++j) p.weights.push_back(w(p.query, j));
  const ValueMap& m = scene.value_maps()[0];
  for (int j = 0; j < m.points.rows(); ++j) p.points.push_back({m.points(j, 0), m.points(j, 1)});
  p.output = {m.output(0), m.output(1)};
  p.output_in_plane = m.output_in_plane;
  p.words = words_of(demo, p);
  return p;
}

//-----------------------------------------------------------------------------
// [SECTION] the value plane: a window on the plane, its marks
//-----------------------------------------------------------------------------
// The plot fits the plane as the canvas does with "zoom to the targets" on
// (its default, src/ui/view_value_space.cpp): the targets and the output
// fill kZoom of the panel less 30 px each side along the axis that binds,
// one scale for both axes, centred. In CSS: a box of the window's shape
// (width:height = ratio, picture_css), as large as fits in the panel less
// those 30 px, and every mark at its % of that box. No style attributes (a
// strict CSP forbids them): positions are SVG attributes, sizes in px.
namespace {

constexpr float kZoom = 0.8f;
// The window's shape is kept within these (a flat or tall pair of targets
// would leave a sliver), by widening the narrow side.
constexpr float kMinRatio = 0.5f, kMaxRatio = 3.f;

// The part of the plane the plot shows: centre and half-sizes.
struct Window {
  float cx = 0, cy = 0, hw = 1, hh = 1;
};

Window plot_window(const Picture& p) {
  float x0 = p.output.x, x1 = x0, y0 = p.output.y, y1 = y0;
  for (int t : p.targets) {
    const PlanePoint& q = p.points[static_cast<size_t>(t)];
    x0 = std::min(x0, q.x), x1 = std::max(x1, q.x), y0 = std::min(y0, q.y), y1 = std::max(y1, q.y);
  }
  float dx = std::max(x1 - x0, 1e-6f), dy = std::max(y1 - y0, 1e-6f);
  dx = std::max(dx, dy * kMinRatio);
  dy = std::max(dy, dx / kMaxRatio);
  return {(x0 + x1) / 2, (y0 + y1) / 2, dx / 2 / kZoom, dy / 2 / kZoom};
}

// Where a plane point falls in the plot box, in % from its left and top;
// a point far outside is pulled along the ray from the centre to kRim
// (the panel clips what its box does not hold, as the canvas's does).
struct Spot {
  float left = 50, top = 50;
  bool rim = false;
};

Spot spot(const Window& w, PlanePoint q) {
  float dx = (q.x - w.cx) / w.hw, dy = (q.y - w.cy) / w.hh;  // -1..1 inside the box
  constexpr float kRim = 1.3f;
  const float k = std::max(std::fabs(dx), std::fabs(dy)) / kRim;
  const bool rim = k > 1.f;
  if (rim) dx /= k, dy /= k;
  return {50.f + 50.f * dx, 50.f - 50.f * dy, rim};
}

std::string pct(float v) { return css(v) + "%"; }
std::string at_xy(const char* x, const char* y, const Spot& a) {
  return " " + std::string(x) + "=\"" + pct(a.left) + "\" " + y + "=\"" + pct(a.top) + "\"";
}

// A label beside its mark: away from `from` (the output, for a target), on
// the side the line between them leaves free; px offsets from the mark.
std::string label(const Spot& at, const std::string& words, const char* side) {
  struct Place {
    const char* side;
    int dx, dy;
    const char* anchor;
  };
  static const Place kPlaces[] = {{"right", 12, 5, "start"}, {"left", -12, 5, "end"},
                                  {"below", 0, 26, "middle"}, {"above", 0, -14, "middle"}};
  const Place* pl = &kPlaces[0];
  for (const Place& k : kPlaces)
    if (std::string_view(k.side) == side) pl = &k;
  return "<text class=\"fp-label\"" + at_xy("x", "y", at) + " dx=\"" + std::to_string(pl->dx) + "\" dy=\"" +
         std::to_string(pl->dy) + "\" text-anchor=\"" + pl->anchor + "\">" + html_escape(words) + "</text>";
}

const char* side_away(const Spot& at, const Spot& from, float ratio) {
  const float dx = (at.left - from.left) * ratio, dy = at.top - from.top;
  if (std::fabs(dx) >= std::fabs(dy)) return dx >= 0 ? "right" : "left";
  return dy >= 0 ? "below" : "above";
}

// The lines: the targets' segment, the rays from the origin, and from the
// output one line per token it mixes (width and opacity as the canvas's).
std::string plot_lines(const Picture& p, const std::vector<Spot>& at, const Spot& out, const Spot& origin) {
  const auto line = [](const Spot& a, const Spot& b, const char* cls) {
    return "<line class=\"" + std::string(cls) + "\"" + at_xy("x1", "y1", a) + at_xy("x2", "y2", b);
  };
  std::string s;
  if (p.targets.size() == 2)
    s += line(at[static_cast<size_t>(p.targets[0])], at[static_cast<size_t>(p.targets[1])], "fp-segment") + "/>";
  for (int t : p.targets) s += line(origin, at[static_cast<size_t>(t)], "fp-ray") + "/>";
  s += line(origin, out, "fp-ray fp-ray-out") + "/>";
  for (size_t j = 0; j < p.weights.size(); ++j) {
    const float wj = p.weights[j];
    if (wj < 0.01f) continue;
    s += line(out, at[j], "fp-mix") + " stroke-width=\"" + css(1.f + 6.f * wj) + "\" stroke-opacity=\"" +
         css(0.25f + 0.6f * wj) + "\" data-token=\"" + std::to_string(j) + "\" data-weight=\"" + exact(wj) + "\"/>";
  }
  return s;
}

// The marks: the origin's cross, every token's point (the targets large,
// the others small, those beyond the window hollow), the output's diamond;
// each point carries its plane coordinates.
std::string plot_marks(const Picture& p, const std::vector<Spot>& at, const Spot& out, const Spot& origin) {
  std::string s = "<svg class=\"fp-origin\"" + at_xy("x", "y", origin) +
                  " overflow=\"visible\"><path d=\"M-5 0H5M0 -5V5\"/></svg>";
  for (size_t j = 0; j < at.size(); ++j) {
    const bool target = std::find(p.targets.begin(), p.targets.end(), static_cast<int>(j)) != p.targets.end();
    const std::string cls = target ? "fp-target" : at[j].rim ? "fp-token fp-far" : "fp-token";
    s += "<circle class=\"" + cls + "\"" + at_xy("cx", "cy", at[j]) + " r=\"" + (target ? "6.5" : "4") +
         "\" data-token=\"" + std::to_string(j) + "\" data-x=\"" + exact(p.points[j].x) + "\" data-y=\"" +
         exact(p.points[j].y) + "\"/>";
  }
  return s + "<svg class=\"fp-output\"" + at_xy("x", "y", out) + " overflow=\"visible\" data-output=\"1\" data-x=\"" +
         exact(p.output.x) + "\" data-y=\"" + exact(p.output.y) + "\"><path d=\"M0 -9L9 0L0 9L-9 0Z\"/></svg>";
}

// The value plane: lines, marks, then the labels of the targets and the
// output (the output's across the targets' segment: below it when the
// segment runs more across than up).
std::string plot_html(const Picture& p) {
  const Window win = plot_window(p);
  const float ratio = win.hw / win.hh;
  std::vector<Spot> at;
  for (const PlanePoint& q : p.points) at.push_back(spot(win, q));
  const Spot out = spot(win, p.output), origin = spot(win, {0, 0});
  std::string labels;
  const char* out_side = "below";
  if (p.targets.size() == 2) {
    const Spot& a = at[static_cast<size_t>(p.targets[0])];
    const Spot& b = at[static_cast<size_t>(p.targets[1])];
    out_side = std::fabs(a.left - b.left) * ratio >= std::fabs(a.top - b.top) ? "below" : "right";
  }
  for (int t : p.targets)
    labels += label(at[static_cast<size_t>(t)], p.tokens[static_cast<size_t>(t)], side_away(at[static_cast<size_t>(t)], out, ratio));
  labels += label(out, p.words.output_label, out_side);
  return "<div class=\"fp-plot\"><svg class=\"fp-svg\" width=\"100%\" height=\"100%\" overflow=\"visible\" "
         "aria-hidden=\"true\">" + plot_lines(p, at, out, origin) + plot_marks(p, at, out, origin) + labels +
         "</svg></div>";
}

}  // namespace

std::string picture_css(const Picture& p) {
  const Window win = plot_window(p);
  const std::string ratio = exact(win.hw / win.hh);
  return ".first-picture[lang=\"" + html_escape(p.lang) + "\"] .fp-plot { aspect-ratio: " + ratio +
         "; width: min(100cqw - 60px, (100cqh - 60px) * " + ratio + "); }\n";
}

//-----------------------------------------------------------------------------
// [SECTION] the rest of the picture: heads, readout, tokens
//-----------------------------------------------------------------------------
namespace {

std::string tag(const char* name, const std::string& cls, const std::string& inner) {
  return "<" + std::string(name) + " class=\"" + cls + "\">" + inner + "</" + name + ">";
}
std::string text(const char* name, const std::string& cls, const std::string& words) {
  return tag(name, cls, html_escape(words));
}

// The title row (the full layout only), then the heads control: 1 selected.
std::string heads_html(const Picture& p) {
  std::string s = tag("div", "fp-header fp-full",
                      text("b", "fp-title", "Headroom") + text("span", "fp-tagline", p.words.tagline) +
                          text("span", "fp-button fp-toggle", p.words.tour));
  std::string buttons;
  for (int n : kHeadCounts) {
    const std::string cls = n == p.heads ? "fp-head-button fp-on" : "fp-head-button";
    buttons += "<span class=\"" + cls + "\" data-heads=\"" + std::to_string(n) + "\">" + std::to_string(n) + "</span>";
  }
  const std::string shapes = text("span", "fp-shapes-line", p.words.shapes) + text("span", "fp-faint fp-full", p.words.keys);
  return s + tag("div", "fp-heads", text("b", "fp-heads-title", p.words.heads) + buttons + tag("span", "fp-shapes", shapes));
}

// The single head's focus: the three presets (split on, at focus 0.5) and
// the slider's track with its thumb at the focus.
std::string focus_html(const Picture& p) {
  static const float kPresets[] = {0.f, 0.5f, 1.f};
  std::string presets;
  for (size_t i = 0; i < p.words.focus_presets.size(); ++i)
    presets += text("span", std::fabs(p.focus - kPresets[i]) < 1e-3f ? "fp-button fp-toggle" : "fp-button",
                    p.words.focus_presets[i]);
  // The thumb's place along the track: 11 stops, the nearest to the focus.
  const int stop = static_cast<int>(std::lround(std::clamp(p.focus, 0.f, 1.f) * 10.f));
  const std::string slider = "<span class=\"fp-slider\" data-focus=\"" + exact(p.focus) +
                             "\"><span class=\"fp-thumb fp-stop" + std::to_string(stop) + "\"></span></span>";
  return tag("div", "fp-row", text("span", "", p.words.focus_title) + presets + slider + text("span", "", p.words.focus_value));
}

// The weights switch (built chosen; the full layout only), the readout card
// (with the gloss of "similarity" in the full layout), then
// the compact layout's row of view buttons, the value space's first.
std::string readout_html(const Picture& p) {
  std::string s = tag("div", "fp-row fp-full",
                      text("span", "", p.words.weights) + text("span", "fp-button fp-toggle", p.words.built) +
                          text("span", "fp-button", p.words.trained) + text("span", "fp-faint", p.words.weights_what));
  s += tag("div", "fp-card fp-readout",
           text("span", "fp-full", p.words.readout) + text("span", "fp-compact", p.words.readout_short) +
               text("div", "fp-faint fp-full fp-weights-line", p.words.weights_line));
  s += focus_html(p);
  std::string tabs;
  for (size_t i = 0; i < p.words.tabs.size(); ++i)
    tabs += text("span", i == 0 ? "fp-button fp-on" : "fp-button", p.words.tabs[i]);
  tabs += text("span", "fp-button fp-toggle", p.words.tour_short);
  return s + tag("div", "fp-tabs fp-compact", tabs);
}

// The value space's card: title, the head's caption, the plane, the verdict.
std::string values_html(const Picture& p) {
  return tag("div", "fp-card fp-values",
             tag("div", "fp-card-title", text("b", "", p.words.values_title) +
                                             tag("span", "fp-checked", html_escape(p.words.zoom))) +
                 text("div", "fp-caption", p.words.head_caption) + tag("div", "fp-plot-box", plot_html(p)) +
                 text("div", "fp-foot", p.words.foot) + text("div", "fp-faint", p.words.plane_note));
}

// The sentence's card (the full layout's right column): the tokens as
// chips, the query's in reverse, a mark under each target.
std::string tokens_html(const Picture& p) {
  std::string chips;
  for (size_t i = 0; i < p.tokens.size(); ++i) {
    std::string cls = static_cast<int>(i) == p.query ? "fp-chip fp-query" : "fp-chip";
    if (std::find(p.targets.begin(), p.targets.end(), static_cast<int>(i)) != p.targets.end()) cls += " fp-marked";
    chips += "<span class=\"" + cls + "\" data-token=\"" + std::to_string(i) + "\">" + html_escape(p.tokens[i]) + "</span>";
  }
  // The query's targets, each in its relationship's colour (the head colours
  // in relationship order: palette.h).
  std::string targets;
  for (size_t k = 0; k < p.targets.size() && k < p.words.relations.size(); ++k) {
    const std::string words = p.words.relations[k] + " \xe2\x86\x92 " + p.tokens[static_cast<size_t>(p.targets[k])];
    targets += text("span", "fp-relation fp-relation" + std::to_string(p.relations[k] + 1), words);
  }
  return tag("div", "fp-card fp-tokens fp-full",
             tag("div", "fp-card-title", text("b", "", p.words.sentence_title) + text("span", "fp-faint", p.words.sentence_hint)) +
                 tag("div", "fp-chips", chips) +
                 tag("div", "fp-targets", text("span", "fp-faint", p.words.targets_of) + targets));
}

}  // namespace

std::string picture_html(const Picture& p) {
  std::string s = "<div class=\"first-picture\" lang=\"" + html_escape(p.lang) + "\" role=\"img\" aria-label=\"" +
                  html_escape(p.words.description) + "\" data-query=\"" + std::to_string(p.query) + "\" data-heads=\"" +
                  std::to_string(p.heads) + "\">";
  s += heads_html(p) + readout_html(p);
  s += tag("div", "fp-columns", values_html(p) + tokens_html(p));
  // Last, the end mark: headroom.css shows a picture only once its parser has
  // reached this (:has(> .fp-end)), so a frame painted while the rest is
  // still arriving shows no half picture whose cards then move (a layout
  // shift, seen in 2 of 25 loads of the compact embed on a busy machine).
  return s + "<i class=\"fp-end\"></i></div>";
}

std::string placeholder_html() {
  return "<div class=\"first-placeholder\" aria-hidden=\"true\"><div class=\"fp-card\"></div></div>";
}

//-----------------------------------------------------------------------------
// [SECTION] the palette as CSS
//-----------------------------------------------------------------------------
namespace {

std::string css_color(colors::Rgba c) {
  char buf[48];
  if (c.a == 255) std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  else std::snprintf(buf, sizeof buf, "rgba(%d,%d,%d,%.3f)", c.r, c.g, c.b, c.a / 255.0);
  return buf;
}

// One theme's custom properties.
std::string theme_properties(bool dark) {
  std::string s;
  const auto prop = [&](std::string_view name, colors::Rgba c) {
    std::string n(name);
    std::replace(n.begin(), n.end(), '_', '-');
    s += "--hr-" + n + ":" + css_color(c) + ";";
  };
  for (const colors::ColorRow& r : colors::kColorRows) prop(r.name, dark ? r.dark : r.light);
  for (const colors::ButtonRow& r : colors::kButtonRows) {
    const colors::ButtonRgba& b = dark ? r.dark : r.light;
    prop(std::string(r.name) + "_bg", b.bg);
    prop(std::string(r.name) + "_text", b.text);
  }
  const auto& heads = dark ? colors::kHeadsDark : colors::kHeadsLight;  // (the relationships' too)
  for (size_t h = 0; h < heads.size(); ++h) {
    prop("head" + std::to_string(h + 1), heads[h]);
    prop("head" + std::to_string(h + 1) + "_text", colors::heads_text(dark)[h]);
  }
  return s;
}

}  // namespace

std::string palette_css() {
  std::string s = "/* The UI's palette (src/ui/palette_colors.h), written by src/tools/first_picture. */\n:root{" +
                  theme_properties(false) + "}\n:root[data-theme=\"dark\"]{" + theme_properties(true) + "}\n";
  for (size_t h = 1; h <= colors::kHeadsLight.size(); ++h) {
    const std::string n = std::to_string(h);
    s += ".fp-relation" + n + "{color:var(--hr-head" + n + "-text);background:color-mix(in srgb,var(--hr-head" + n +
         ") 15%,transparent)}\n";
  }
  return s;
}

}  // namespace headroom::tools
