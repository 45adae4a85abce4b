// palette.h: every colour the UI draws with, for the light and the dark theme.
//
// Does: name each colour by its role (card, muted text, heads button, ...)
// and give it one value per theme; setup_style() (ui.h) picks the theme from
// app::Demo::theme, and palette() returns the current one. ImGui's own style
// colours (window, text) are set from it too, and the platform clears the GL
// canvas with `window`. The colour of a head, a run, a relationship, a
// training slot and a signed value, the same in every view (all defined in
// palette.cpp).
// Does not: decide the theme (the app does: Demo::set_theme, the URL's
// theme=dark), or hold the heatmap's colour map (viridis, in the shader).
#pragma once
#include <array>

#include "engine/lesson/relation.h"
#include "imgui.h"

namespace headroom::ui {

// A button's four colours.
struct ButtonColors {
  ImU32 bg, hovered, active, text;
};

struct Palette {
  bool dark = false;
  // Surfaces.
  ImU32 window = 0;    // the main window, and the GL clear colour
  ImU32 card, card_border;
  ImU32 readout_card;  // the readout sentence's tinted card
  ImU32 panel, panel_border;  // the value space's plot area
  ImU32 highlight;     // the band behind the query's label or row
  // Text.
  ImU32 text;          // body text, the query's label
  ImU32 text_secondary;  // token labels beside the query's
  ImU32 text_faint;    // labels that step back (non-targets, tiny weights)
  ImU32 on_color;      // text on a filled head-coloured button
  ImU32 error;         // refusals, GL failures
  ImU32 warning;       // a cosine that does not read its target
  // Lines and marks.
  ImU32 rule;          // bar baselines, vector-strip borders
  ImU32 axis, guide, guide_strong;  // value space: origin cross, target lines, output line
  ImU32 point, point_far, point_ring;  // value space: tokens, tokens beyond the zoom, ring on targets
  ImU32 ghost;         // the single head's midpoint during the split animation
  ImU32 marker_edge;   // outline of a head's output marker
  // Buttons.
  ButtonColors accent;      // the selected heads count, the open step
  ButtonColors heads_off;   // the other heads counts
  ButtonColors chip_on;     // the query's token chip (reverse video)
  ButtonColors chip_off;    // the other token chips
  ButtonColors toggle_on;   // the focus preset in use, the weights choice in use
  ButtonColors play, pause;  // the train panel's play / pause button
  // Inputs on a card (checkboxes, sliders, radio buttons, the seed field):
  // their fill, and the edge that bounds them (contrast >= 3:1 against the
  // card and the window, WCAG 1.4.11: a white box on a white card would not
  // be seen).
  ImU32 frame, frame_hovered, frame_active;
  ImU32 control_edge;
  // Colour maps.
  ImU32 diverging_low, diverging_mid, diverging_high;  // negative - zero - positive
  std::array<ImU32, 8> heads;  // head h's colour is heads[h % 8]
  // Training runs of 1, 2 and 4 heads (none is a head colour).
  std::array<ImU32, 3> runs;
  // One colour per relationship, the same in every view, in the order of
  // enum Relation (subject, complement, previous token, antecedent, next
  // token, object, self, first token). They are the head colours in that
  // order, because the built weights deal relationship r to head r: the
  // lesson's subject head is blue and its complement head orange, and so are
  // the training task's subject and complement slots (its coreference slot
  // is the antecedent's colour).
  std::array<ImU32, 8> relations;
  std::array<ImU32, 8> heads_text;  // the same hues for text: contrast >= 4.5 on the card and on a table's shaded row
};

// The current theme's palette (light until setup_style says otherwise).
const Palette& palette();
// The palette of either theme (tests of contrast, the platform's clear colour).
const Palette& palette_for(bool dark);
// Makes `dark`'s palette current; setup_style() calls it.
void use_palette(bool dark);

// `c` with its alpha multiplied by `alpha` (0..1).
ImU32 with_alpha(ImU32 c, float alpha);

// Colour of head h (of H), the same in every view (palette().heads).
ImU32 head_color(int head, float alpha = 1.f);
// Head h's colour for text on a card (palette().heads_text: darker in the
// light theme, so a caption keeps WCAG AA contrast).
ImU32 head_text_color(int head);
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
// Blue (negative) - neutral - red (positive), |v| / scale saturating at 1
// (palette().diverging_*: white in the light theme, the card in the dark).
ImU32 diverging_color(float v, float scale);

}  // namespace headroom::ui
