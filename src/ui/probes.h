// probes.h: the debug probes tests read through the page (debug.layout(),
// debug.fit()): what the last frame drew where, and whether it fits.
//
// Does: keep the Layout every view records its rects into (layout(), reset
// by draw_ui each frame), and write it, and the fit of the last drawn frame,
// as JSON with app/json_write.h (layout_probe.cpp, fit_probe.cpp).
// Does not: draw, or change a frame.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "imgui.h"

namespace headroom::ui {

// What the last frame drew where (display = CSS pixels); see layout_json().
struct Layout {
  std::vector<ImVec4> token_rects;  // x0, y0, x1, y1 per token chip
  std::vector<ImVec4> head_rects;   // per entry of kHeadCounts
  std::vector<ImVec4> view_rects;   // the compact layout's view buttons, in order (empty in the full layout)
  std::vector<ImVec4> help_rects;   // every "(?)" help marker drawn this frame, in drawing order
  ImVec4 help_open{};               // the help popup open this frame (zero when none)
  // The training views' buttons, those visible this frame (empty when not
  // drawn or scrolled away): each holds its label, like the rects above.
  std::vector<ImVec4> train_buttons;   // play / pause, step, new seed
  std::vector<ImVec4> download_rects;  // one per run, in run order
  std::vector<ImVec4> weights_rects;   // the switch: built, trained
  std::vector<ImVec4> weights_play;    // Play beside "not trained yet" (trained chosen at step 0)
  // The steps-per-frame cap's slider (zero when not drawn), and whether it
  // takes input: off where the runs train in a Worker (no frames pace it).
  ImVec4 train_cap{};
  bool train_cap_enabled = false;
  // What the loss chart drew (whether visible or not): its plot rect, and per
  // run its head count, how many history points its curve joined, the last
  // one's loss, and the floor's value and height (y in CSS px).
  struct ChartRun {
    int heads = 0;
    int points = 0;
    float last_loss = 0.f;
    float floor = 0.f, floor_y = 0.f;
    bool diverged = false;
  };
  ImVec4 chart_rect{};
  std::vector<ChartRun> chart_runs;
  // Specialisation: how many head cells it drew (one per run and head).
  int specialisation_cells = 0;
  // The attention view's labels (token names, head captions), each padded by
  // 3 px; only those wholly on screen, so each can be read from a screenshot.
  std::vector<ImVec4> attention_rects;
  // The lesson controls (view_controls.cpp): one knockout toggle per head,
  // the tie checkbox.
  std::vector<ImVec4> knockout_rects;
  std::vector<ImVec4> tie_rects;
  // Every enabled checkbox's or radio button's box and every slider's or
  // field's frame drawn between push_control_frames and pop_control_frames
  // (the theme test measures the contrast of their edges).
  std::vector<ImVec4> control_frames;
  // The attention view's arrangement this frame: "columns", "rows" or ""
  // (not drawn); it depends on the card's width only (view_attention.cpp).
  const char* attention_mode = "";
  // The heatmap view: each head's grid (image rect), and the cell a click or
  // tap pinned: head, row, column (-1 each: none).
  std::vector<ImVec4> heatmap_grids;
  int heatmap_pin[3] = {-1, -1, -1};
  // The tour panel (view_tour.cpp): the value-space plane's rect and its map
  // (origin x, y in CSS px, then CSS px per plane unit in x and y, y negative),
  // the choice buttons, the number slider, the match combos, the progress dots,
  // and the buttons (Leave, Back, Reveal or Replay, Next); the open-tour button.
  ImVec4 tour_plane{}, tour_plane_map{};
  std::vector<ImVec4> tour_choices, tour_number, tour_match, tour_dots, tour_buttons, tour_open;
  // The reveal's picture (view_tour_pictures.cpp): what it is ("plane",
  // "arcs", "concat", "scores", "loss", "recap" or "" when none), its rect,
  // every label it (or the tour's plane) placed, the recap's Try again
  // buttons, and the ring the arrow keys move (zero when none is drawn).
  const char* tour_picture_kind = "";
  const char* tour_hint = "";  // the input hint's key (English), "" when none
  ImVec4 tour_picture{}, tour_focus{};
  std::vector<ImVec4> tour_picture_labels, tour_retry;
  // The value space (view_value_space.cpp): the whole view (title to the
  // last footer line), each head's plot, every label it drew (text, rect,
  // whether a leader line joins it to its anchor) and every marker (what it
  // marks: "output", "ghost", "target", "token", "origin"; the token's word
  // or ""; the shape's bounding rect), so a test can check that no label
  // covers another or a marker.
  struct PlotItem {
    int head = 0;
    std::string kind, text;
    ImVec4 rect{};
    bool leader = false;
  };
  ImVec4 value_view{};
  std::vector<ImVec4> value_plots;
  std::vector<PlotItem> value_labels, value_markers;
  // The Save menus (save_menu.cpp): every visible Save button, the open
  // menu's items (PNG, CSV, JSON), and per view the rect of its first card.
  std::vector<ImVec4> save_rects, save_menu;
  std::vector<std::pair<std::string, ImVec4>> card_rects;
};
Layout& layout();

// Where the last frame drew things, in CSS pixels, as JSON:
// {"tokens":[[x0,y0,x1,y1],...], "heads":[...], "views":[...]} (one rect
// per token chip, one per heads button 1/2/4/8, one per view button of the
// compact layout, in the view table's order: app/view_table.h); the
// training views' visible buttons:
// "trainButtons" (play/pause, step, new seed), "download" (one per run),
// "weights" (built, trained), "weightsPlay" (Play beside "not trained yet").
// Every list holds rects with a label inside. Objects that are not labels:
// "controls": {"frames": [...]} (every checkbox's or radio button's box and
// every slider's or field's frame: widgets.h push_control_frames) and
// "attentionMode": "columns" | "rows" | "" (the attention view's arrangement),
// "heatmap": {"grids": [...] (one per head drawn), "pin": [head, row, column]
// (the cell a click or tap pinned, -1s: none)}.
// Also "save" (every visible Save button), "saveMenu" (the open Save menu's
// items: PNG, CSV, JSON), "cards" ({view: rect}: each view's first card, or
// the compact panel, as drawn).
// Then "trainChart": {rect, runs: [{heads, points, lastLoss, floor, floorY,
// diverged}], specialisationCells}, what the training charts drew (rect all
// 0 when not drawn). Lets browser tests click through the real mouse path
// and check the drawing without guessing a layout.
std::string layout_json();

// Whether the last drawn frame fits its display, as JSON (fit_probe.cpp):
// {"drawn", "display":[w,h], "compact", "windows":[{name, child, pos, size,
// content, room, scroll, scrollMax, scrollbar:[x,y]}], "clipped":[{text,
// rect, clip, axis:"x"|"y"|"xy"}]}: every run of text the scissor cuts.
// Reads what ImGui keeps between frames; call it between frames only.
std::string fit_json();

// A rect [x0, y0, x1, y1] and a pair [x, y] of CSS px, to 0.1 px.
void append_rect(std::string& out, const ImVec4& r);
void append_pair(std::string& out, ImVec2 v);

}  // namespace headroom::ui
