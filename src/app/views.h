// views.h: one ImGui view per concept, and the little helpers they share.
//
// Does: declare the views ui.cpp lays out; each view reads the Demo and calls
// its verbs (never the Scene's setters directly, so errors are recorded).
// Does not: compute attention, or own any state beyond what ImGui keeps.
#pragma once
#include <vector>

#include "app/demo.h"
#include "imgui.h"

namespace headroom::app {

// Fonts set up by setup_fonts(): body text and the big heads control.
struct Fonts {
  ImFont* body = nullptr;
  ImFont* big = nullptr;
};
Fonts& fonts();

// What the last frame drew where (display = CSS pixels); see layout_json().
struct Layout {
  std::vector<ImVec4> token_rects;  // x0, y0, x1, y1 per token button
};
Layout& layout();

// A "(?)" marker whose tooltip states one line of maths.
void help_marker(const char* text);

// Colour of head h (of H), the same in every view.
ImU32 head_color(int head, float alpha = 1.f);

// Width of each token's column, shared by the sentence strip and the bar rows
// so a token's bars sit under its button.
std::vector<float> token_columns(const Demo& demo);

// The heads control: 1 / 2 / 4 / 8, the most prominent control on screen,
// and the single head's focus slider.
void view_heads_control(Demo& demo);

// The sentence box (type, Enter applies) and the last refusal, if any.
void view_sentence_input(Demo& demo);

// The tokens as buttons; clicking one makes it the query.
void view_sentence_strip(Demo& demo, const std::vector<float>& columns);

// Per head: its relationships, what its output reads back, and a bar per
// token of its attention weight from the query, with the number.
void view_head_bars(Demo& demo, const std::vector<float>& columns);

}  // namespace headroom::app
