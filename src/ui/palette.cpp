// palette.cpp: the two palettes (see palette.h), one row per colour with its
// light and dark value side by side. Light values are the ones the views were
// first drawn with; dark values keep text readable on the dark cards (#1C1C20).
#include "ui/palette.h"

#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr ImU32 rgb(int r, int g, int b, int a = 255) { return IM_COL32(r, g, b, a); }

struct Row {
  ImU32 Palette::*field;
  ImU32 light, dark;
};
const Row kColors[] = {
    {&Palette::window, rgb(250, 250, 247), rgb(18, 18, 20)},
    {&Palette::card, rgb(255, 255, 255), rgb(28, 28, 32)},
    {&Palette::card_border, rgb(0, 0, 0, 28), rgb(255, 255, 255, 36)},
    {&Palette::readout_card, rgb(255, 248, 225), rgb(58, 50, 24)},
    {&Palette::panel, rgb(252, 252, 250), rgb(20, 20, 24)},
    {&Palette::panel_border, rgb(0, 0, 0, 35), rgb(255, 255, 255, 40)},
    {&Palette::highlight, rgb(0, 0, 0, 20), rgb(255, 255, 255, 24)},
    {&Palette::text, rgb(15, 15, 20), rgb(235, 235, 240)},
    {&Palette::text_secondary, rgb(80, 80, 80), rgb(190, 190, 198)},
    {&Palette::text_faint, rgb(128, 128, 128), rgb(140, 140, 150)},
    {&Palette::on_color, rgb(255, 255, 255), rgb(255, 255, 255)},
    {&Palette::error, rgb(179, 26, 26), rgb(255, 128, 128)},
    {&Palette::warning, rgb(179, 64, 26), rgb(255, 166, 102)},
    {&Palette::rule, rgb(0, 0, 0, 55), rgb(255, 255, 255, 70)},
    {&Palette::axis, rgb(0, 0, 0, 40), rgb(255, 255, 255, 60)},
    {&Palette::guide, rgb(0, 0, 0, 28), rgb(255, 255, 255, 40)},
    {&Palette::guide_strong, rgb(0, 0, 0, 70), rgb(255, 255, 255, 90)},
    {&Palette::point, rgb(120, 120, 125), rgb(150, 150, 158)},
    {&Palette::point_far, rgb(150, 150, 155), rgb(110, 110, 118)},
    {&Palette::point_ring, rgb(255, 255, 255), rgb(20, 20, 24)},
    {&Palette::ghost, rgb(60, 60, 60), rgb(205, 205, 210)},
    {&Palette::marker_edge, rgb(20, 20, 20), rgb(235, 235, 240)},
    {&Palette::diverging_low, rgb(33, 102, 171), rgb(90, 153, 230)},
    {&Palette::diverging_mid, rgb(255, 255, 255), rgb(28, 28, 32)},  // zero: white, or the card
    {&Palette::diverging_high, rgb(179, 23, 43), rgb(230, 89, 102)},
    {&Palette::frame, rgb(232, 235, 241), rgb(52, 52, 60)},
    {&Palette::frame_hovered, rgb(218, 224, 236), rgb(64, 64, 74)},
    {&Palette::frame_active, rgb(205, 214, 232), rgb(76, 76, 88)},
    // A 1 px line, which anti-aliasing lightens on screen (128 drew as 154 at
    // DPR 2): 5.7:1 on the white card as declared, about 4 as drawn; the
    // dark one 6:1 on the dark card as declared.
    {&Palette::control_edge, rgb(96, 100, 110), rgb(150, 150, 162)},
};

struct ButtonRow {
  ButtonColors Palette::*field;
  ButtonColors light, dark;  // bg, hovered, active, text
};
const ButtonRow kButtons[] = {
    {&Palette::accent, {rgb(33, 92, 184), rgb(46, 107, 204), rgb(26, 77, 166), rgb(255, 255, 255)},
     {rgb(46, 107, 204), rgb(64, 125, 222), rgb(33, 92, 184), rgb(255, 255, 255)}},
    {&Palette::heads_off, {rgb(219, 230, 247), rgb(194, 214, 245), rgb(26, 77, 166), rgb(26, 64, 140)},
     {rgb(36, 48, 72), rgb(48, 66, 100), rgb(33, 92, 184), rgb(179, 209, 255)}},
    {&Palette::chip_on, {rgb(31, 31, 41), rgb(64, 64, 77), rgb(179, 191, 217), rgb(255, 255, 255)},
     {rgb(255, 204, 89), rgb(255, 219, 128), rgb(179, 191, 217), rgb(26, 26, 26)}},  // amber on dark
    {&Palette::chip_off, {rgb(235, 235, 230), rgb(214, 219, 230), rgb(179, 191, 217), rgb(26, 26, 26)},
     {rgb(52, 52, 60), rgb(70, 72, 84), rgb(96, 104, 128), rgb(235, 235, 240)}},
    {&Palette::toggle_on, {rgb(64, 64, 77), rgb(89, 89, 102), rgb(64, 64, 77), rgb(255, 255, 255)},
     {rgb(214, 214, 222), rgb(240, 240, 245), rgb(214, 214, 222), rgb(20, 20, 24)}},
    {&Palette::play, {rgb(33, 128, 64), rgb(46, 153, 77), rgb(26, 107, 51), rgb(255, 255, 255)},
     {rgb(30, 120, 60), rgb(40, 140, 72), rgb(24, 100, 50), rgb(255, 255, 255)}},
    {&Palette::pause, {rgb(179, 64, 26), rgb(204, 82, 38), rgb(153, 51, 20), rgb(255, 255, 255)},
     {rgb(196, 80, 40), rgb(220, 100, 56), rgb(166, 64, 30), rgb(255, 255, 255)}},
};

// Head colours; the dark ones are the light ones lifted towards white.
constexpr std::array<ImU32, 8> kHeadsLight = {rgb(51, 115, 204), rgb(217, 102, 26), rgb(38, 153, 77),
                                              rgb(179, 51, 140), rgb(140, 115, 26), rgb(26, 153, 166),
                                              rgb(204, 51, 64),  rgb(102, 89, 191)};
constexpr std::array<ImU32, 8> kHeadsDark = {rgb(110, 160, 230), rgb(240, 140, 70), rgb(90, 200, 120),
                                             rgb(220, 110, 190), rgb(205, 180, 80), rgb(70, 200, 210),
                                             rgb(240, 100, 110), rgb(150, 140, 240)};

// Training runs (1, 2, 4 heads): charcoal (light grey on dark), magenta,
// amber-brown.
constexpr std::array<ImU32, 3> kRunsLight = {rgb(56, 56, 66), rgb(219, 41, 153), rgb(158, 112, 0)};
constexpr std::array<ImU32, 3> kRunsDark = {rgb(210, 210, 218), rgb(240, 90, 190), rgb(225, 175, 50)};
// Head colours as text: the light ones darkened (same hue) to a contrast of at
// least 4.6 on a table's shaded row (#EBEBEB), 5.4 on the white card; the
// dark ones already have 5.4 or more on the dark card.
constexpr std::array<ImU32, 8> kHeadsTextLight = {rgb(46, 103, 184), rgb(167, 79, 20), rgb(30, 119, 60),
                                                  rgb(179, 51, 140), rgb(125, 102, 23), rgb(20, 116, 126),
                                                  rgb(194, 48, 61),  rgb(102, 89, 191)};

Palette make(bool dark) {
  Palette p;
  p.dark = dark;
  for (const Row& r : kColors) p.*r.field = dark ? r.dark : r.light;
  for (const ButtonRow& r : kButtons) p.*r.field = dark ? r.dark : r.light;
  p.heads = dark ? kHeadsDark : kHeadsLight;
  p.runs = dark ? kRunsDark : kRunsLight;
  p.relations = p.heads;  // relationship r is dealt to head r (palette.h)
  p.heads_text = dark ? kHeadsDark : kHeadsTextLight;
  return p;
}

const Palette* g_current = nullptr;

}  // namespace

const Palette& palette_for(bool dark) {
  static const Palette light = make(false), dim = make(true);
  return dark ? dim : light;
}

const Palette& palette() { return g_current ? *g_current : palette_for(false); }

void use_palette(bool dark) { g_current = &palette_for(dark); }

ImU32 with_alpha(ImU32 c, float alpha) {
  const float a = static_cast<float>((c >> IM_COL32_A_SHIFT) & 0xFF) * alpha;
  const ImU32 a8 = static_cast<ImU32>(a < 0 ? 0 : a > 255 ? 255 : a + 0.5f);
  return (c & ~IM_COL32_A_MASK) | (a8 << IM_COL32_A_SHIFT);
}

ImU32 head_color(int head, float alpha) {
  const auto& heads = palette().heads;
  return with_alpha(heads[static_cast<size_t>(head) % heads.size()], alpha);
}

ImU32 head_text_color(int head) {
  const auto& heads = palette().heads_text;
  return heads[static_cast<size_t>(head) % heads.size()];
}

ImU32 run_color(int heads, float alpha) {
  const size_t i = heads <= 1 ? 0 : heads == 2 ? 1 : 2;
  return with_alpha(palette().runs[i], alpha);
}

ImU32 relation_color(Relation r, float alpha) {
  const auto& rel = palette().relations;
  return with_alpha(rel[static_cast<size_t>(r) % rel.size()], alpha);
}

ImU32 relation_text_color(Relation r) {
  const auto& text = palette().heads_text;  // relationship r has head r's colour (palette.h)
  return text[static_cast<size_t>(r) % text.size()];
}

ImU32 slot_color(int slot, float alpha) {
  // The training task's slots are these relationships (engine/train/train_task.h).
  constexpr Relation kSlots[] = {Relation::Subject, Relation::Complement, Relation::Previous, Relation::Antecedent};
  return relation_color(kSlots[static_cast<size_t>(slot) % 4], alpha);
}

ImU32 diverging_color(float v, float scale) {
  const float t = scale > 0 ? std::clamp(v / scale, -1.f, 1.f) : 0.f;
  // The neutral colour at 0; towards the low end below, the high end above
  // (light theme: white to the RdBu ends).
  const float a = std::fabs(t);
  const Palette& pal = palette();
  const ImVec4 mid = ImGui::ColorConvertU32ToFloat4(pal.diverging_mid);
  const ImVec4 end = ImGui::ColorConvertU32ToFloat4(t < 0 ? pal.diverging_low : pal.diverging_high);
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(mid.x + (end.x - mid.x) * a, mid.y + (end.y - mid.y) * a, mid.z + (end.z - mid.z) * a, 1));
}

}  // namespace headroom::ui
