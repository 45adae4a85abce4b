// ui.cpp: style, fonts, layout of the views, keyboard shortcuts.
//
// Does: one borderless window filling the display; the heads control at the
// top (the most prominent control), then the sentence, then the token strip
// and each head's bar row in one horizontally scrolling region so columns
// stay aligned.
// Does not: touch GL or the browser; compute attention.
#include "app/ui.h"

#include <algorithm>
#include <cstdio>

#include "app/views.h"
#include "imgui.h"

namespace headroom::app {

Fonts& fonts() {
  static Fonts f;
  return f;
}

Layout& layout() {
  static Layout l;
  return l;
}

std::string layout_json() {
  std::string out = "{\"tokens\":[";
  char buf[96];
  bool first = true;
  for (const ImVec4& r : layout().token_rects) {
    std::snprintf(buf, sizeof buf, "%s[%.1f,%.1f,%.1f,%.1f]", first ? "" : ",", r.x, r.y, r.z, r.w);
    out += buf;
    first = false;
  }
  out += "]}";
  return out;
}

void setup_style() {
  ImGui::StyleColorsLight();
  ImGuiStyle& s = ImGui::GetStyle();
  s.WindowPadding = ImVec2(18, 14);
  s.FramePadding = ImVec2(8, 5);
  s.ItemSpacing = ImVec2(8, 8);
  s.FrameRounding = 4;
  s.GrabRounding = 4;
  s.ScrollbarSize = 12;
  s.WindowBorderSize = 0;  // the main window is the whole canvas: no frame around it
  s.Colors[ImGuiCol_WindowBg] = ImVec4(0.98f, 0.98f, 0.97f, 1.f);
}

void setup_fonts(float density) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  // ProggyClean is a pixel font drawn for 13 px: keep to multiples of 13 so
  // it stays crisp; RasterizerDensity renders it at the display's pixels.
  ImFontConfig body;
  body.SizePixels = 13.f;
  body.RasterizerDensity = density;
  fonts().body = io.Fonts->AddFontDefault(&body);
  ImFontConfig big;
  big.SizePixels = 26.f;
  big.RasterizerDensity = density;
  fonts().big = io.Fonts->AddFontDefault(&big);
}

void help_marker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::BeginItemTooltip()) {
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 40.f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

ImU32 head_color(int head, float alpha) {
  static const ImVec4 palette[] = {
      {0.20f, 0.45f, 0.80f, 1}, {0.85f, 0.40f, 0.10f, 1}, {0.15f, 0.60f, 0.30f, 1},
      {0.70f, 0.20f, 0.55f, 1}, {0.55f, 0.45f, 0.10f, 1}, {0.10f, 0.60f, 0.65f, 1},
      {0.80f, 0.20f, 0.25f, 1}, {0.40f, 0.35f, 0.75f, 1}};
  ImVec4 c = palette[head % 8];
  c.w = alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

std::vector<float> token_columns(const Demo& demo) {
  std::vector<float> cols;
  const float pad = ImGui::GetStyle().FramePadding.x * 2 + 10.f;
  for (const Token& t : demo.scene.tokens())
    cols.push_back(std::max(52.f, ImGui::CalcTextSize(t.text.c_str()).x + pad));
  return cols;
}

namespace {

void handle_shortcuts(Demo& demo) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  for (int n : kHeadChoices)
    if (ImGui::IsKeyPressed(static_cast<ImGuiKey>(ImGuiKey_0 + n), false)) demo.set_heads(n);
  const int q = demo.scene.query();
  const int last = static_cast<int>(demo.scene.tokens().size()) - 1;
  if (ImGui::IsKeyPressed(ImGuiKey_LeftArrow) && q > 0) demo.select_token(q - 1);
  if (ImGui::IsKeyPressed(ImGuiKey_RightArrow) && q < last) demo.select_token(q + 1);
}

}  // namespace

void draw_ui(Demo& demo) {
  handle_shortcuts(demo);

  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->WorkPos);
  ImGui::SetNextWindowSize(vp->WorkSize);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("Headroom", nullptr, flags);

  ImGui::PushFont(fonts().big);
  ImGui::TextUnformatted("Headroom");
  ImGui::PopFont();
  ImGui::SameLine();
  ImGui::AlignTextToFramePadding();
  ImGui::TextDisabled("why attention has more than one head");
  ImGui::Spacing();

  view_heads_control(demo);
  ImGui::Separator();
  view_sentence_input(demo);
  ImGui::Spacing();

  const std::vector<float> columns = token_columns(demo);
  ImGui::BeginChild("##attention", ImVec2(0, 0), ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar);
  view_sentence_strip(demo, columns);
  view_head_bars(demo, columns);
  ImGui::EndChild();

  ImGui::End();
}

}  // namespace headroom::app
