// palette_colors.h: the numbers of the UI's two palettes (light and dark),
// as plain RGBA rows keyed by role name, with no ImGui in sight.
//
// Does: hold every colour value palette.cpp turns into ImGui colours, one
// row per role ("window", "card", ...: the names of Palette's fields) with
// its light and dark value side by side, the buttons' four colours per
// state, and the per-head, per-run and head-text arrays; color_row() and
// button_row() find a row by name at compile time (a name that is not in
// the table does not compile). Code that draws without ImGui (the build-time
// first picture, src/tools/first_picture/) reads the same rows, so the page
// before the wasm and the canvas after it use one set of numbers.
// Does not: pick the theme, convert to ImGui's ImU32 (palette.cpp does), or
// know what a role looks like on screen (palette.h says what each is for).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace headroom::ui::colors {

struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 255;
};
constexpr Rgba rgb(int r, int g, int b, int a = 255) {
  return {static_cast<uint8_t>(r), static_cast<uint8_t>(g), static_cast<uint8_t>(b), static_cast<uint8_t>(a)};
}

struct ColorRow {
  std::string_view name;  // Palette's field
  Rgba light, dark;
};
// Light values are the ones the views were first drawn with; dark values keep
// text readable on the dark cards (#1C1C20).
inline constexpr ColorRow kColorRows[] = {
    {"window", rgb(250, 250, 247), rgb(18, 18, 20)},
    {"card", rgb(255, 255, 255), rgb(28, 28, 32)},
    {"card_border", rgb(0, 0, 0, 28), rgb(255, 255, 255, 36)},
    {"readout_card", rgb(255, 248, 225), rgb(58, 50, 24)},
    {"panel", rgb(252, 252, 250), rgb(20, 20, 24)},
    {"panel_border", rgb(0, 0, 0, 35), rgb(255, 255, 255, 40)},
    {"highlight", rgb(0, 0, 0, 20), rgb(255, 255, 255, 24)},
    {"text", rgb(15, 15, 20), rgb(235, 235, 240)},
    {"text_secondary", rgb(80, 80, 80), rgb(190, 190, 198)},
    {"text_faint", rgb(128, 128, 128), rgb(140, 140, 150)},
    {"on_color", rgb(255, 255, 255), rgb(255, 255, 255)},
    {"error", rgb(179, 26, 26), rgb(255, 128, 128)},
    {"warning", rgb(179, 64, 26), rgb(255, 166, 102)},
    {"rule", rgb(0, 0, 0, 55), rgb(255, 255, 255, 70)},
    {"axis", rgb(0, 0, 0, 40), rgb(255, 255, 255, 60)},
    {"guide", rgb(0, 0, 0, 28), rgb(255, 255, 255, 40)},
    {"guide_strong", rgb(0, 0, 0, 70), rgb(255, 255, 255, 90)},
    {"point", rgb(120, 120, 125), rgb(150, 150, 158)},
    {"point_far", rgb(150, 150, 155), rgb(110, 110, 118)},
    {"point_ring", rgb(255, 255, 255), rgb(20, 20, 24)},
    {"ghost", rgb(60, 60, 60), rgb(205, 205, 210)},
    {"marker_edge", rgb(20, 20, 20), rgb(235, 235, 240)},
    {"diverging_low", rgb(33, 102, 171), rgb(90, 153, 230)},
    {"diverging_mid", rgb(255, 255, 255), rgb(28, 28, 32)},  // zero: white, or the card
    {"diverging_high", rgb(179, 23, 43), rgb(230, 89, 102)},
    {"frame", rgb(232, 235, 241), rgb(52, 52, 60)},
    {"frame_hovered", rgb(218, 224, 236), rgb(64, 64, 74)},
    {"frame_active", rgb(205, 214, 232), rgb(76, 76, 88)},
    // A 1 px line, which anti-aliasing lightens on screen (128 drew as 154 at
    // DPR 2): 5.7:1 on the white card as declared, about 4 as drawn; the
    // dark one 6:1 on the dark card as declared.
    {"control_edge", rgb(96, 100, 110), rgb(150, 150, 162)},
};

// A button's four colours.
struct ButtonRgba {
  Rgba bg, hovered, active, text;
};
struct ButtonRow {
  std::string_view name;  // Palette's field
  ButtonRgba light, dark;
};
inline constexpr ButtonRow kButtonRows[] = {
    {"accent", {rgb(33, 92, 184), rgb(46, 107, 204), rgb(26, 77, 166), rgb(255, 255, 255)},
     {rgb(46, 107, 204), rgb(64, 125, 222), rgb(33, 92, 184), rgb(255, 255, 255)}},
    {"heads_off", {rgb(219, 230, 247), rgb(194, 214, 245), rgb(26, 77, 166), rgb(26, 64, 140)},
     {rgb(36, 48, 72), rgb(48, 66, 100), rgb(33, 92, 184), rgb(179, 209, 255)}},
    {"chip_on", {rgb(31, 31, 41), rgb(64, 64, 77), rgb(179, 191, 217), rgb(255, 255, 255)},
     {rgb(255, 204, 89), rgb(255, 219, 128), rgb(179, 191, 217), rgb(26, 26, 26)}},  // amber on dark
    {"chip_off", {rgb(235, 235, 230), rgb(214, 219, 230), rgb(179, 191, 217), rgb(26, 26, 26)},
     {rgb(52, 52, 60), rgb(70, 72, 84), rgb(96, 104, 128), rgb(235, 235, 240)}},
    {"toggle_on", {rgb(64, 64, 77), rgb(89, 89, 102), rgb(64, 64, 77), rgb(255, 255, 255)},
     {rgb(214, 214, 222), rgb(240, 240, 245), rgb(214, 214, 222), rgb(20, 20, 24)}},
    {"play", {rgb(33, 128, 64), rgb(46, 153, 77), rgb(26, 107, 51), rgb(255, 255, 255)},
     {rgb(30, 120, 60), rgb(40, 140, 72), rgb(24, 100, 50), rgb(255, 255, 255)}},
    {"pause", {rgb(179, 64, 26), rgb(204, 82, 38), rgb(153, 51, 20), rgb(255, 255, 255)},
     {rgb(196, 80, 40), rgb(220, 100, 56), rgb(166, 64, 30), rgb(255, 255, 255)}},
};

// Head colours; the dark ones are the light ones lifted towards white.
inline constexpr std::array<Rgba, 8> kHeadsLight = {rgb(51, 115, 204), rgb(217, 102, 26), rgb(38, 153, 77),
                                                    rgb(179, 51, 140), rgb(140, 115, 26), rgb(26, 153, 166),
                                                    rgb(204, 51, 64),  rgb(102, 89, 191)};
inline constexpr std::array<Rgba, 8> kHeadsDark = {rgb(110, 160, 230), rgb(240, 140, 70), rgb(90, 200, 120),
                                                   rgb(220, 110, 190), rgb(205, 180, 80), rgb(70, 200, 210),
                                                   rgb(240, 100, 110), rgb(150, 140, 240)};
// Training runs (1, 2, 4 heads): charcoal (light grey on dark), magenta,
// amber-brown.
inline constexpr std::array<Rgba, 3> kRunsLight = {rgb(56, 56, 66), rgb(219, 41, 153), rgb(158, 112, 0)};
inline constexpr std::array<Rgba, 3> kRunsDark = {rgb(210, 210, 218), rgb(240, 90, 190), rgb(225, 175, 50)};
// Head colours as text: the light ones darkened (same hue) to a contrast of at
// least 4.6 on a table's shaded row (#EBEBEB), 5.4 on the white card; the
// dark ones already have 5.4 or more on the dark card.
inline constexpr std::array<Rgba, 8> kHeadsTextLight = {rgb(46, 103, 184), rgb(167, 79, 20), rgb(30, 119, 60),
                                                        rgb(179, 51, 140), rgb(125, 102, 23), rgb(20, 116, 126),
                                                        rgb(194, 48, 61),  rgb(102, 89, 191)};
inline constexpr const std::array<Rgba, 8>& heads_text(bool dark) { return dark ? kHeadsDark : kHeadsTextLight; }

// The row named `name`. A name that is not in the table does not compile
// where the lookup is a constant expression (palette.cpp's tables), and
// throws elsewhere.
template <class Row, size_t N>
constexpr const Row& find_row(const Row (&rows)[N], std::string_view name) {
  for (const Row& r : rows)
    if (r.name == name) return r;
  throw "palette_colors.h: no row of that name";
}
constexpr const ColorRow& color_row(std::string_view name) { return find_row(kColorRows, name); }
constexpr const ButtonRow& button_row(std::string_view name) { return find_row(kButtonRows, name); }

}  // namespace headroom::ui::colors
