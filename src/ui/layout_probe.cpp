// layout_probe.cpp: the Layout the views record, and its JSON (probes.h).
//
// Does: hold the one Layout, and write it with app/json_write.h in a fixed
// order (pixel positions to 0.1 px).
// Does not: record anything itself (the views and draw_ui do).
#include <string>
#include <vector>

#include "app/json_write.h"
#include "app/lang.h"
#include "ui/probes.h"

namespace headroom::ui {

using app::append_array;
using app::append_fixed;
using app::JsonObject;

Layout& layout() {
  static Layout l;
  return l;
}

void append_rect(std::string& out, const ImVec4& r) {
  const float v[] = {r.x, r.y, r.z, r.w};
  append_array(out, v, [&](float x) { append_fixed(out, x, 1); });
}

void append_pair(std::string& out, ImVec2 p) {
  const float v[] = {p.x, p.y};
  append_array(out, v, [&](float x) { append_fixed(out, x, 1); });
}

namespace {

void rects(JsonObject& o, const char* name, const std::vector<ImVec4>& list) {
  std::string& out = o.key(name);
  append_array(out, list, [&](const ImVec4& r) { append_rect(out, r); });
}

// The value space's labels and markers: {head, kind, text, rect, leader}.
void plot_items(JsonObject& o, const char* name, const std::vector<Layout::PlotItem>& list) {
  std::string& out = o.key(name);
  append_array(out, list, [&](const Layout::PlotItem& it) {
    JsonObject item(out);
    item.field("head", it.head).field("kind", it.kind).field("text", it.text);
    append_rect(item.key("rect"), it.rect);
    item.field("leader", it.leader);
  });
}

void write_layout(std::string& out) {
  const Layout& l = layout();
  JsonObject o(out);
  rects(o, "tokens", l.token_rects);
  rects(o, "heads", l.head_rects);
  rects(o, "views", l.view_rects);
  {  // an object, not a list of labelled rects: "(?)" is a marker, not a label
    JsonObject help(o.key("help"));
    rects(help, "markers", l.help_rects);
    append_rect(help.key("open"), l.help_open);
  }
  {  // objects, not lists of labelled rects: a control's frame holds no text to measure
    JsonObject controls(o.key("controls"));
    rects(controls, "frames", l.control_frames);
  }
  o.field("attentionMode", l.attention_mode);
  {
    JsonObject heatmap(o.key("heatmap"));
    rects(heatmap, "grids", l.heatmap_grids);
    app::append_values(heatmap.key("pin"), l.heatmap_pin);
  }
  rects(o, "attention", l.attention_rects);
  rects(o, "knockout", l.knockout_rects);
  rects(o, "tie", l.tie_rects);
  rects(o, "tourChoices", l.tour_choices);
  rects(o, "tourNumber", l.tour_number);
  rects(o, "tourMatch", l.tour_match);
  rects(o, "tourDots", l.tour_dots);
  rects(o, "tourButtons", l.tour_buttons);
  rects(o, "tourOpen", l.tour_open);
  {  // the plane's rect, and its map: origin to 0.01 px, px per unit to 0.001
    JsonObject plane(o.key("tourPlane"));
    append_rect(plane.key("rect"), l.tour_plane);
    std::string& map = plane.key("map");
    const ImVec4& m = l.tour_plane_map;
    const float v[] = {m.x, m.y, m.z, m.w};
    app::append_array_n(map, 4, [&](long long i) { append_fixed(map, v[i], i < 2 ? 2 : 3); });
  }
  {  // the reveal's picture: what it is, its rect, the labels it placed; the recap's buttons; the keyboard's ring
    JsonObject picture(o.key("tourPicture"));
    picture.field("kind", l.tour_picture_kind);
    picture.field("hint", l.tour_hint);
    append_rect(picture.key("rect"), l.tour_picture);
    rects(picture, "labels", l.tour_picture_labels);
    rects(picture, "retry", l.tour_retry);
    append_rect(picture.key("focus"), l.tour_focus);
  }
  {  // the value space: an object of its view, plots, labels and markers
    JsonObject value_space(o.key("valueSpace"));
    append_rect(value_space.key("view"), l.value_view);
    rects(value_space, "plots", l.value_plots);
    plot_items(value_space, "labels", l.value_labels);
    plot_items(value_space, "markers", l.value_markers);
  }
  // The Save menus: the buttons, the open menu's items (PNG, CSV, JSON), and
  // per view the rect of its first card (an object: {"values": [...], ...}).
  rects(o, "save", l.save_rects);
  rects(o, "saveMenu", l.save_menu);
  {
    JsonObject cards(o.key("cards"));
    for (const auto& [view, r] : l.card_rects) append_rect(cards.key(view.c_str()), r);
  }
  // The training views: their buttons, then what the loss chart drew (an
  // object, not a list of labelled rects).
  rects(o, "trainButtons", l.train_buttons);
  rects(o, "download", l.download_rects);
  rects(o, "weights", l.weights_rects);
  rects(o, "weightsPlay", l.weights_play);
  {
    JsonObject cap(o.key("trainCap"));
    append_rect(cap.key("rect"), l.train_cap);
    cap.field("enabled", l.train_cap_enabled);
  }
  {
    JsonObject chart(o.key("trainChart"));
    append_rect(chart.key("rect"), l.chart_rect);
    std::string& runs = chart.key("runs");
    append_array(runs, l.chart_runs, [&](const Layout::ChartRun& r) {
      JsonObject run(runs);
      run.field("heads", r.heads).field("points", r.points);
      append_fixed(run.key("lastLoss"), r.last_loss, 5);
      append_fixed(run.key("floor"), r.floor, 4);
      append_fixed(run.key("floorY"), r.floor_y, 1);
      run.field("diverged", r.diverged);
    });
    chart.field("specialisationCells", l.specialisation_cells);
  }
  // The English keys the shown language lacked (getState().missingStrings counts them).
  std::string& missing = o.key("missingKeys");
  app::append_array(missing, app::missing_keys(), [&](const std::string& k) { app::append_json_string(missing, k); });
}

}  // namespace

std::string layout_json() {
  std::string out;
  write_layout(out);
  return out;
}

}  // namespace headroom::ui
