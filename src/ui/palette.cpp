// palette.cpp: the two palettes (see palette.h) as ImGui colours, made from
// the numbers in palette_colors.h (one row per colour, light and dark side
// by side; no ImGui there, so the build-time first picture reads them too).
#include "ui/palette.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "ui/palette_colors.h"

namespace headroom::ui {

namespace {

constexpr ImU32 im(colors::Rgba c) { return IM_COL32(c.r, c.g, c.b, c.a); }
constexpr ButtonColors im(const colors::ButtonRgba& b) { return {im(b.bg), im(b.hovered), im(b.active), im(b.text)}; }
template <size_t N>
constexpr std::array<ImU32, N> im(const std::array<colors::Rgba, N>& cs) {
  std::array<ImU32, N> out{};
  for (size_t i = 0; i < N; ++i) out[i] = im(cs[i]);
  return out;
}

// Each field and its row in palette_colors.h (found by name when this compiles).
struct Row {
  ImU32 Palette::*field;
  colors::ColorRow row;
};
constexpr Row kColors[] = {
    {&Palette::window, colors::color_row("window")},
    {&Palette::card, colors::color_row("card")},
    {&Palette::card_border, colors::color_row("card_border")},
    {&Palette::readout_card, colors::color_row("readout_card")},
    {&Palette::panel, colors::color_row("panel")},
    {&Palette::panel_border, colors::color_row("panel_border")},
    {&Palette::highlight, colors::color_row("highlight")},
    {&Palette::text, colors::color_row("text")},
    {&Palette::text_secondary, colors::color_row("text_secondary")},
    {&Palette::text_faint, colors::color_row("text_faint")},
    {&Palette::on_color, colors::color_row("on_color")},
    {&Palette::error, colors::color_row("error")},
    {&Palette::warning, colors::color_row("warning")},
    {&Palette::rule, colors::color_row("rule")},
    {&Palette::axis, colors::color_row("axis")},
    {&Palette::guide, colors::color_row("guide")},
    {&Palette::guide_strong, colors::color_row("guide_strong")},
    {&Palette::point, colors::color_row("point")},
    {&Palette::point_far, colors::color_row("point_far")},
    {&Palette::point_ring, colors::color_row("point_ring")},
    {&Palette::ghost, colors::color_row("ghost")},
    {&Palette::marker_edge, colors::color_row("marker_edge")},
    {&Palette::diverging_low, colors::color_row("diverging_low")},
    {&Palette::diverging_mid, colors::color_row("diverging_mid")},
    {&Palette::diverging_high, colors::color_row("diverging_high")},
    {&Palette::frame, colors::color_row("frame")},
    {&Palette::frame_hovered, colors::color_row("frame_hovered")},
    {&Palette::frame_active, colors::color_row("frame_active")},
    {&Palette::control_edge, colors::color_row("control_edge")},
};
// As many fields as rows: a row added there needs its field here.
static_assert(std::size(kColors) == std::size(colors::kColorRows));

struct ButtonRow {
  ButtonColors Palette::*field;
  colors::ButtonRow row;
};
constexpr ButtonRow kButtons[] = {
    {&Palette::accent, colors::button_row("accent")},
    {&Palette::heads_off, colors::button_row("heads_off")},
    {&Palette::chip_on, colors::button_row("chip_on")},
    {&Palette::chip_off, colors::button_row("chip_off")},
    {&Palette::toggle_on, colors::button_row("toggle_on")},
    {&Palette::play, colors::button_row("play")},
    {&Palette::pause, colors::button_row("pause")},
};
static_assert(std::size(kButtons) == std::size(colors::kButtonRows));

Palette make(bool dark) {
  Palette p;
  p.dark = dark;
  for (const Row& r : kColors) p.*r.field = im(dark ? r.row.dark : r.row.light);
  for (const ButtonRow& r : kButtons) p.*r.field = im(dark ? r.row.dark : r.row.light);
  p.heads = im(dark ? colors::kHeadsDark : colors::kHeadsLight);
  p.runs = im(dark ? colors::kRunsDark : colors::kRunsLight);
  p.relations = p.heads;  // relationship r is dealt to head r (palette.h)
  p.heads_text = im(colors::heads_text(dark));
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
