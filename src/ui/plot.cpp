// plot.cpp: drawing helpers the views share (views.h): section titles,
// the diverging colour map, vector strips, arcs; the ViewState, the frames
// the UI asks for, and the seam to the platform's heatmap renderer.
//
// Does: draw with ImDrawList in the current window.
// Does not: compute anything the lesson claims (values come from the Trace).
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "imgui_internal.h"  // the last item's flags: is it disabled
#include "ui/ui.h"
#include "ui/views.h"

namespace headroom::ui {

ViewState& view_state() {
  static ViewState s;
  return s;
}

namespace {
int g_frames_wanted = 0;  // request_frames / take_frame_request
HeatmapTextures* g_heatmaps = nullptr;
}  // namespace

void request_frames(int n) { g_frames_wanted = std::max(g_frames_wanted, n); }

bool take_frame_request() {
  if (g_frames_wanted <= 0) return false;
  --g_frames_wanted;
  return true;
}

void set_heatmap_textures(HeatmapTextures* renderer) { g_heatmaps = renderer; }

ImTextureID heatmap_texture(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px) {
  return g_heatmaps ? g_heatmaps->render(slot, weights, query, px_w, px_h, grid_px) : ImTextureID{};
}

void begin_card(const char* id, ImU32 tint) {
  ImGui::PushStyleColor(ImGuiCol_ChildBg, tint ? tint : palette().card);
  ImGui::PushStyleColor(ImGuiCol_Border, palette().card_border);
  ImGui::PushStyleVar(ImGuiStyleVar_ChildRounding, 8.f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(14, 10));
  ImGui::BeginChild(id, ImVec2(0, 0),
                    ImGuiChildFlags_Border | ImGuiChildFlags_AutoResizeY | ImGuiChildFlags_AlwaysUseWindowPadding,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  card_opened(id);  // save_menu.cpp: the card's view, for its Save menu
}

void end_card() {
  card_closing();
  ImGui::EndChild();
  ImGui::PopStyleVar(2);
  ImGui::PopStyleColor(2);
}

std::string wrap_at_spaces(const std::string& text, float width) {
  std::string out;
  size_t line_start = 0;  // in out
  size_t i = 0;
  while (i < text.size()) {
    size_t j = text.find(' ', i);
    if (j == std::string::npos) j = text.size();
    const std::string word = text.substr(i, j - i);
    const std::string candidate = out.substr(line_start) + (out.size() > line_start ? " " : "") + word;
    if (out.size() > line_start && ImGui::CalcTextSize(candidate.c_str()).x > width) {
      out += '\n';
      line_start = out.size();
    } else if (out.size() > line_start) {
      out += ' ';
    }
    out += word;
    i = j + 1;
  }
  return out;
}

void text_disabled_wrapped(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  ImGui::PushTextWrapPos(0.f);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextV(fmt, args);
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  va_end(args);
}

void section_title(const char* title, const char* help) {
  // Wrapped before the help marker's room, so a long title in a narrow card
  // takes two lines instead of widening the card.
  const float marker_w = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
  ImGui::PushFont(fonts().bold);
  ImGui::PushTextWrapPos(std::max(ImGui::GetCursorPosX() + 40.f, ImGui::GetContentRegionMax().x - marker_w));
  ImGui::TextUnformatted(title);
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::SameLine();
  help_marker(help);
}

ImU32 head_text_color(int head) {
  const auto& heads = palette().heads_text;
  return heads[static_cast<size_t>(head) % heads.size()];
}

SceneView scene_view(Demo& demo) {
  Scene& s = demo.scene;
  const std::vector<Token>& tokens = s.tokens();
  return {s.trace(), tokens, static_cast<int>(tokens.size()), s.query(), s.heads(), s.d_model(), s.d_head()};
}

SceneView open_view(Demo& demo, const char* title, const char* help) {
  section_title(title, help);
  return scene_view(demo);
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

int vector_strip(ImDrawList* dl, ImVec2 a, ImVec2 b, const float* v, int n, float scale) {
  if (n <= 0) return -1;
  const float cw = (b.x - a.x) / n;
  for (int i = 0; i < n; ++i) {
    const float x0 = a.x + cw * i, x1 = a.x + cw * (i + 1);
    dl->AddRectFilled(ImVec2(x0, a.y), ImVec2(x1, b.y), diverging_color(v[i], scale));
  }
  dl->AddRect(a, b, palette().rule);
  const ImVec2 m = ImGui::GetIO().MousePos;
  if (ImGui::IsWindowHovered() && m.x >= a.x && m.x < b.x && m.y >= a.y && m.y < b.y)
    return std::clamp(static_cast<int>((m.x - a.x) / cw), 0, n - 1);
  return -1;
}

void push_control_frames(float edge) {
  const Palette& pal = palette();
  ImGui::PushStyleColor(ImGuiCol_FrameBg, pal.frame);
  ImGui::PushStyleColor(ImGuiCol_FrameBgHovered, pal.frame_hovered);
  ImGui::PushStyleColor(ImGuiCol_FrameBgActive, pal.frame_active);
  ImGui::PushStyleColor(ImGuiCol_Border, pal.control_edge);
  ImGui::PushStyleColor(ImGuiCol_BorderShadow, IM_COL32(0, 0, 0, 0));
  ImGui::PushStyleVar(ImGuiStyleVar_FrameBorderSize, edge);
}

void pop_control_frames() {
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(5);
}

void record_control_frame(bool box) {
  // A disabled control is drawn faded on purpose (WCAG 1.4.11 exempts it).
  if (!ImGui::IsItemVisible() || (ImGui::GetCurrentContext()->LastItemData.InFlags & ImGuiItemFlags_Disabled)) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  const float side = ImGui::GetFrameHeight();
  if (box) layout().control_frames.emplace_back(a.x, a.y, a.x + side, a.y + side);
  else layout().control_frames.emplace_back(a.x, a.y, b.x, b.y);
}

bool slider_beside(const char* id, ImGuiDataType type, void* value, const void* lo, const void* hi, float width,
                   ImGuiSliderFlags flags) {
  push_control_frames();
  ImGui::SetNextItemWidth(width);
  // An empty format: nothing drawn on the slider (ImGui then does not round
  // the value to a format either).
  const bool changed = ImGui::SliderScalar(id, type, value, lo, hi, "", flags);
  record_control_frame(false);
  pop_control_frames();
  return changed;
}

void record_visible_item(std::vector<ImVec4>& list) {
  if (!ImGui::IsItemVisible()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  list.emplace_back(a.x, a.y, b.x, b.y);
}

void dashed_line(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 color, float thickness, float dash, float gap,
                 float phase) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f || dash <= 0) return;
  const float ux = dx / len, uy = dy / len;
  for (float t = std::fmod(phase, dash + gap); t < len; t += dash + gap) {
    const float e = std::min(len, t + dash);
    dl->AddLine(ImVec2(a.x + ux * t, a.y + uy * t), ImVec2(a.x + ux * e, a.y + uy * e), color, thickness);
  }
}

void dotted_polyline(ImDrawList* dl, const ImVec2* pts, int n, ImU32 color, float radius, float spacing) {
  if (n < 1 || spacing <= 0) return;
  dl->AddCircleFilled(pts[0], radius, color);
  float carry = 0.f;  // distance walked since the last dot
  for (int i = 1; i < n; ++i) {
    const float dx = pts[i].x - pts[i - 1].x, dy = pts[i].y - pts[i - 1].y;
    const float len = std::sqrt(dx * dx + dy * dy);
    if (len < 1e-4f) continue;
    float t = spacing - carry;
    for (; t <= len; t += spacing)
      dl->AddCircleFilled(ImVec2(pts[i - 1].x + dx * t / len, pts[i - 1].y + dy * t / len), radius, color);
    carry = len - (t - spacing);
  }
}

LogStepAxis::LogStepAxis(float left, float right, long long max_step)
    : x0(left), x1(right), max_log(std::log10(1.0 + static_cast<double>(std::max(1LL, max_step)))) {}

float LogStepAxis::x(long long step) const {
  const double t = std::log10(1.0 + static_cast<double>(std::max(0LL, step))) / max_log;
  return x0 + static_cast<float>(std::min(1.0, t)) * (x1 - x0);
}

void LogStepAxis::draw_ticks(ImDrawList* dl, float y_top, float y_bottom, ImU32 grid, ImU32 text) const {
  char label[16];
  for (long long s = 0;; s = s == 0 ? 1 : s * 10) {
    if (std::log10(1.0 + static_cast<double>(s)) > max_log + 1e-9) break;
    const float xs = x(s);
    dl->AddLine(ImVec2(xs, y_top), ImVec2(xs, y_bottom), grid);
    if (s >= 1000000) std::snprintf(label, sizeof label, "%lldM", s / 1000000);
    else if (s >= 10000) std::snprintf(label, sizeof label, "%lldk", s / 1000);
    else std::snprintf(label, sizeof label, "%lld", s);
    const float w = ImGui::CalcTextSize(label).x;
    // Centred under its tick, but kept inside the axis's ends (the last
    // label would run into what lies right of the plot).
    dl->AddText(ImVec2(std::clamp(xs - w * 0.5f, x0 - w * 0.5f, x1 - w), y_bottom + 2.f), text, label);
  }
}

void draw_arc(ImDrawList* dl, ImVec2 a, ImVec2 b, float bulge, ImU32 color, float thickness) {
  const float dx = b.x - a.x, dy = b.y - a.y;
  const float len = std::sqrt(dx * dx + dy * dy);
  if (len < 1e-3f) {  // self: a small loop
    dl->AddBezierCubic(a, ImVec2(a.x - bulge * 0.5f, a.y - bulge), ImVec2(a.x + bulge * 0.5f, a.y - bulge), a,
                       color, thickness);
    return;
  }
  const ImVec2 n(dy / len, -dx / len);  // left of a->b
  const ImVec2 c1(a.x + dx * 0.15f + n.x * bulge, a.y + dy * 0.15f + n.y * bulge);
  const ImVec2 c2(a.x + dx * 0.85f + n.x * bulge, a.y + dy * 0.85f + n.y * bulge);
  dl->AddBezierCubic(a, c1, c2, b, color, thickness);
}

}  // namespace headroom::ui
