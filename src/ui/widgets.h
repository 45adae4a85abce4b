// widgets.h: the small widgets and drawing helpers every view shares.
//
// Does: cards, section titles and "(?)" help markers, framed inputs and
// sliders with their value beside them, rows of buttons that wrap, wrapped
// faint text, vector strips, arcs, dashed and dotted lines, the training
// charts' log step axis, the token columns shared by the sentence strip and
// the bar rows, and a view's opening (its title and what it reads of the
// Scene). All are defined in widgets.cpp; the fonts are set up by ui.cpp
// (setup_fonts; the fonts are in frame.h). The frames an animation asks for:
// frame.h request_frames. Cards around views: cards.h.
// Does not: compute anything the lesson claims (values come from the Trace),
// or choose colours (palette.h).
#pragma once
#include <string>
#include <vector>

#include "app/state/demo.h"
#include "imgui.h"
#include "ui/palette.h"
#include "ui/frame.h"

namespace headroom::ui {

using app::Demo;

// Puts the next item on this line if `width` px of room are left on it,
// else on the next line (a row of buttons that wraps in a narrow frame).
// `spacing` as ImGui::SameLine's (< 0: the style's).
void same_line_if_fits(float width, float spacing = -1.f);

// `text` with its spaces turned into line breaks where the current font's
// lines would pass `width` px (a word wider than that keeps a line of its own).
// Chinese and Japanese, written without spaces, break between any two
// characters (never before a closing mark like "，" or "）").
std::string wrap_at_spaces(const std::string& text, float width);

// TextDisabled wrapped at the content region's right edge (never cut by a
// narrow frame).
void text_disabled_wrapped(const char* fmt, ...) IM_FMTARGS(1);


// A "(?)" marker whose tooltip says what a view shows in plain words, then
// its maths in one line. Hover shows it; a click or a tap opens it as a
// popup (a finger cannot hover).
void help_marker(const char* text);

// A view's title in bold, then its help marker on the same line.
void section_title(const char* title, const char* help);

// What the views read of the model shown (app/state/model_shown.h: the
// lesson's Scene or the text model, never asked which), named as in their
// help formulas: the model, its shown layer's Trace, the tokens, L tokens,
// query q, H heads, D = d_model, dh = d_head.
//   const auto [m, tr, tokens, L, q, H, D, dh] = open_view(demo, title, help);
// The references are the Demo's: valid until a verb changes it. (C++17: a
// lambda cannot capture a binding; capture a copy, as in [&, D = D].)
struct ModelView {
  const app::ModelShown& m;
  const Trace& tr;
  const std::vector<Token>& tokens;
  int L, q, H, D, dh;
};
ModelView model_view(Demo& demo);
// A view's opening: section_title(title, help), then model_view(demo).
ModelView open_view(Demo& demo, const char* title, const char* help);

// Checkboxes, radio buttons, sliders and fields between these two get the
// palette's frame fill and a 1 px edge of contrast >= 3:1 against the card
// (palette().control_edge, WCAG 1.4.11); buttons are left alone. `edge`
// is the edge's width in px (a radio button's circle wants 2: anti-aliasing
// lightens a thin curve more than a straight edge).
void push_control_frames(float edge = 1.f);
void pop_control_frames();
// The last item's frame into the "controls.frames" probe: `box` for a checkbox or
// radio button (the square at its left), else the whole item (a slider or
// field with a hidden "##" label).
void record_control_frame(bool box);
// A slider with no text under its thumb, framed as above and recorded; the
// caller writes the value beside it (ImGui::SameLine(), then the text), so
// the thumb never hides it. Returns whether the value changed.
bool slider_beside(const char* id, ImGuiDataType type, void* value, const void* lo, const void* hi, float width,
                   ImGuiSliderFlags flags = 0);


// Pushes a button's four colours (ImGuiCol_Button, ...Hovered, ...Active,
// Text); pop them with ImGui::PopStyleColor(4).
void push_button_colors(const ButtonColors& c);

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
std::vector<float> token_columns(Demo& demo);
// Whether the sentence reads right to left (app/lang/text_direction.h): its token
// strip and token axes then run from right to left.
bool tokens_rtl(const Demo& demo);
// Left edge of each column of widths `cols` placed from x0 on, in reading
// order: left to right, or (rtl) from x0 + the total width back to x0.
std::vector<float> column_starts(const std::vector<float>& cols, float x0, bool rtl);

}  // namespace headroom::ui
