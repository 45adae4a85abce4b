// views.h: one ImGui view per concept, and the little helpers they share.
//
// Does: declare the views ui.cpp lays out; each view reads the Demo and calls
// its verbs (never the Scene's setters directly, so errors are recorded).
// Declares the seam to the GL half of the heatmap views (HeatmapTextures,
// implemented by src/platform/heatmap_renderer), so src/ui includes no GL.
// Every view opens with a title and a "(?)" marker stating its maths in one
// line.
// Does not: compute attention, or own any state beyond what ImGui keeps and
// the few display choices in ViewState.
#pragma once
#include <string>
#include <vector>

#include "app/demo.h"
#include "app/describe.h"
#include "imgui.h"
#include "ui/palette.h"

namespace headroom::ui {

using app::Demo;
using app::head_verdict;
using app::kReadsCos;
using app::readout_sentence;

// Fonts set up by setup_fonts(): body text, the readout sentence, bold, and
// the big heads control.
struct Fonts {
  ImFont* body = nullptr;
  ImFont* medium = nullptr;
  ImFont* bold = nullptr;
  ImFont* big = nullptr;
};
Fonts& fonts();

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

// Display choices that last across frames but are not the demo's state.
struct ViewState {
  int reassign = -1;            // Relation armed for reassignment by the next token click, -1: none
  int step = 0;                 // step-through: which step is open
  int step_head = 0;            // step-through: which head
  bool zoom_targets = true;     // value space: fit the targets and outputs, other tokens at the rim
  // The 1 -> H heads animation: when it started (ImGui time, < 0: none).
  double split_started = -1;
  int last_heads = 0;
  // The one head's output as last drawn with one head: its targets (the
  // animation starts at their midpoint), whether it measured as a midpoint
  // (app::measure_output), and the sentence and query it was for. With 2+
  // heads a faint labelled marker stays at that midpoint until the sentence
  // or the query changes.
  std::vector<int> split_from;
  bool split_from_midpoint = false;
  std::string split_from_key;
};
ViewState& view_state();

// Ask the platform for at least `n` more frames (an animation is running;
// frames are otherwise drawn only after input). See take_frame_request() in ui.h.
void request_frames(int n);

// The GL half of the heatmap views (src/platform/heatmap_renderer): renders
// `weights` (rows x cols, values in [0, 1]) into slot `slot` at px_w x px_h
// physical pixels, frames row `query` (-1: none), and returns the texture for
// ImGui::Image, or 0 when GL refused or no renderer is installed (the view
// then says so). Slots: 0..H-1 the heads, 64 the legend, 96 stress.
class HeatmapTextures {
 public:
  virtual ~HeatmapTextures() = default;
  virtual ImTextureID render(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px) = 0;
};
// The platform installs its renderer once, after the GL context exists.
void set_heatmap_textures(HeatmapTextures* renderer);
ImTextureID heatmap_texture(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px);

// Puts the next item on this line if `width` px of room are left on it,
// else on the next line (a row of buttons that wraps in a narrow frame).
// `spacing` as ImGui::SameLine's (< 0: the style's).
void same_line_if_fits(float width, float spacing = -1.f);

// `text` with its spaces turned into line breaks where the current font's
// lines would pass `width` px (a word wider than that keeps a line of its own).
std::string wrap_at_spaces(const std::string& text, float width);

// TextDisabled wrapped at the content region's right edge (never cut by a
// narrow frame).
void text_disabled_wrapped(const char* fmt, ...) IM_FMTARGS(1);

// Appends the last item's rect (CSS px) to `list` if it is visible.
void record_visible_item(std::vector<ImVec4>& list);

// A "(?)" marker whose tooltip says what a view shows in plain words, then
// its maths in one line.
void help_marker(const char* text);

// Checkboxes, radio buttons, sliders and fields between these two get the
// palette's frame fill and a 1 px edge of contrast >= 3:1 against the card
// (palette().control_edge, WCAG 1.4.11); buttons are left alone. `edge`
// is the edge's width in px (a radio button's circle wants 2: anti-aliasing
// lightens a thin curve more than a straight edge).
void push_control_frames(float edge = 1.f);
void pop_control_frames();
// The last item's frame into layout().control_frames: `box` for a checkbox or
// radio button (the square at its left), else the whole item (a slider or
// field with a hidden "##" label).
void record_control_frame(bool box);
// A slider with no text under its thumb, framed as above and recorded; the
// caller writes the value beside it (ImGui::SameLine(), then the text), so
// the thumb never hides it. Returns whether the value changed.
bool slider_beside(const char* id, ImGuiDataType type, void* value, const void* lo, const void* hi, float width,
                   ImGuiSliderFlags flags = 0);

// A card around a view: begin_card, the view, end_card. `tint` is the
// background (0: palette().card).
void begin_card(const char* id, ImU32 tint = 0);
void end_card();

// The Save menu (save_menu.cpp). begin_card calls card_opened(id) and
// end_card card_closing(), which records the card's rect (Layout::card_rects)
// and draws the Save button of a card listed there (its view:
// card_export_view) at the card's top right.
// set_save_demo gives the menu the Demo its choices go to (draw_ui, each
// frame); downloads_may_be_dropped: the page said the frame is sandboxed.
const char* card_export_view(const char* card_id);
void card_opened(const char* card_id);
void card_closing();
// A card-like window of `view` (the compact panel): its rect and Save button.
void record_card(const char* view);
void save_control(const char* view);
void set_save_demo(Demo& demo);
bool downloads_may_be_dropped();
// Export frames (ui.h begin_export_frames): whether on, and the layout
// draw_ui draws then (the view alone, as one card).
bool export_frames();
void draw_export_card(Demo& demo);

// A view's title in bold, then its help marker on the same line.
void section_title(const char* title, const char* help);

// What the views read of the Scene, named as in their help formulas: the
// Trace, the tokens, L tokens, query q, H heads, D = d_model, dh = d_head.
//   const auto [tr, tokens, L, q, H, D, dh] = open_view(demo, title, help);
// The references are the Scene's: valid until a verb changes it. (C++17: a
// lambda cannot capture a binding; capture a copy, as in [&, D = D].)
struct SceneView {
  const Trace& tr;
  const std::vector<Token>& tokens;
  int L, q, H, D, dh;
};
SceneView scene_view(Demo& demo);
// A view's opening: section_title(title, help), then scene_view(demo).
SceneView open_view(Demo& demo, const char* title, const char* help);

// Colour of head h (of H), the same in every view (palette().heads).
ImU32 head_color(int head, float alpha = 1.f);
// Colour of the training run with `heads` heads (1, 2, 4): apart from the
// head colours, so a run's curve is not mistaken for a head.
ImU32 run_color(int heads, float alpha = 1.f);
// Colour of relationship r, the same in every view (palette().relations).
ImU32 relation_color(Relation r, float alpha = 1.f);
// Its shade for text on a card (as head_text_color).
ImU32 relation_text_color(Relation r);
// Colour of the training task's related-token slot r (subject, complement,
// previous token, coreference): the colour of that relationship
// (coreference: the antecedent's).
ImU32 slot_color(int slot, float alpha = 1.f);
// Head h's colour for text on a card (palette().heads_text: darker in the
// light theme, so a caption keeps WCAG AA contrast).
ImU32 head_text_color(int head);

// Pushes a button's four colours (ImGuiCol_Button, ...Hovered, ...Active,
// Text); pop them with ImGui::PopStyleColor(4).
void push_button_colors(const ButtonColors& c);

// Blue (negative) - neutral - red (positive), |v| / scale saturating at 1
// (palette().diverging_*: white in the light theme, the card in the dark).
ImU32 diverging_color(float v, float scale);

// A strip of n cells coloured by diverging_color(v[i], scale) in the given
// rectangle; returns the hovered cell or -1.
int vector_strip(ImDrawList* dl, ImVec2 a, ImVec2 b, const float* v, int n, float scale);

// A curve from a to b bulging sideways by `bulge` (perpendicular, to the
// left of a->b), thickness and colour given.
void draw_arc(ImDrawList* dl, ImVec2 a, ImVec2 b, float bulge, ImU32 color, float thickness);

// A dashed line from a to b (dash and gap in pixels).
// `phase` shifts the pattern along the line, so two dashed lines on the same
// spot can interleave their dashes.
void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float dash = 6.f, float gap = 4.f,
                 float phase = 0.f);

// Round dots `spacing` pixels apart along the polyline pts[0..n-1] (the
// training charts' line style for tied query/key runs: dots, where floors
// are dashes and untied runs solid).
void dotted_polyline(ImDrawList* dl, const ImVec2* pts, int n, ImU32 color, float radius = 1.6f,
                     float spacing = 5.f);

// The training charts' step axis: x = log10(1 + step) over [0, max_step],
// so step 0 sits at the left edge and every decade gets the same width.
struct LogStepAxis {
  float x0 = 0, x1 = 1;
  double max_log = 1;  // log10(1 + max_step)
  LogStepAxis(float left, float right, long long max_step);
  float x(long long step) const;
  // Ticks at 0, 1, 10, 100, ... below the plot (from y), labels "0", "10",
  // "1000", "10k".
  void draw_ticks(ImDrawList* dl, float y_top, float y_bottom, ImU32 grid, ImU32 text) const;
};

// Width of each token's column, shared by the sentence strip and the bar rows
// so a token's bars sit under its button.
std::vector<float> token_columns(const Demo& demo);
// Whether the sentence reads right to left (app/text_direction.h): its token
// strip and token axes then run from right to left.
bool tokens_rtl(const Demo& demo);
// Left edge of each column of widths `cols` placed from x0 on, in reading
// order: left to right, or (rtl) from x0 + the total width back to x0.
std::vector<float> column_starts(const std::vector<float>& cols, float x0, bool rtl);

// [1] The tokens as chips with each head's target marks; clicking a chip
// makes it the query, or (armed) reassigns a target.
void view_sentence_strip(Demo& demo);
// [2] The heads control: 1 / 2 / 4 / 8, d_model and d_head.
void view_heads_control(Demo& demo);
// [3a] Per head, the query's weights as bars with numbers, and arcs from the
// query to every key (thickness = weight, colour = head).
void view_attention(Demo& demo);
// [3b] Per head, the full L x L weights as a heatmap (GLSL program).
void view_heatmap(Demo& demo);
// [4] Per head, the value vectors in 2-D and the head's output among them.
void view_value_space(Demo& demo);
// [5] The readout sentence.
void view_readout(Demo& demo);
// [6] The concatenation of the heads' outputs and W_O's mix.
void view_concat(Demo& demo);
// [7] The forward pass step by step for the query.
void view_steps(Demo& demo);
// [8] The single head's focus: presets and slider.
void view_focus(Demo& demo);
// [9] What each head holds: relationships by name, targets, readout numbers.
void view_more_heads(Demo& demo);

// [10] Training: play / pause, step, new seed, learning rate, speed, R,
// steps/s, snapshot download, and the loss of every run on one chart with
// its floor dashed (view_train.cpp).
void view_train(Demo& demo);
// [11] Specialisation over time: per run and head, the held-out average
// weight its query puts on each related token, step by step
// (view_specialisation.cpp).
void view_specialisation(Demo& demo);
// [12] The "weights: built / trained" switch and which weights the views
// show (view_weights.cpp); also a one-line statement for the readout.
void view_weights_switch(Demo& demo);
// "built weights (dealt out by construction)" or "trained weights: the
// 2-head run at step 1200 (held-out loss 0.031)", or the note saying why the
// trained ones are not shown.
std::string weights_statement(const Demo& demo);

// [13] The lesson controls: knockout toggles per head, the query/key tie,
// and what the final output still carries of each target (view_controls.cpp).
void view_lesson_controls(Demo& demo);

// [14] The guided lesson's panel (view_tour.cpp): shown instead of the
// views while demo.tour is open.
void view_tour(Demo& demo);
// The open tour step in words for the screen-reader twin ("" when closed).
std::string tour_description(Demo& demo);

// Stress: up to 512 tokens; shows the app's per-frame forward timing
// (Demo::tick) and one head's L x L weights.
void view_stress(Demo& demo);

}  // namespace headroom::ui
