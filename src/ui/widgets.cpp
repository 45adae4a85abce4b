// widgets.cpp: the widgets and drawing helpers every view shares (widgets.h).
//
// Does: draw with ImGui and ImDrawList in the current window.
// Does not: compute anything the lesson claims (values come from the Trace).
#include "ui/widgets.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "app/lang/lang.h"
#include "app/lang/text_direction.h"
#include "imgui_internal.h"  // the last item's flags (is it disabled), the row's room (same_line_if_fits)
#include "ui/probes.h"
#include "ui/text.h"

namespace headroom::ui {

void same_line_if_fits(float width, float spacing) {
  // Decided before moving: SameLine and then NewLine would leave an empty
  // item at the row's far end, which widens the window's content past its
  // room (a sideways scroll range, found at 360 px in the training card).
  const ImGuiWindow* w = ImGui::GetCurrentWindow();
  const float gap = spacing < 0.f ? ImGui::GetStyle().ItemSpacing.x : spacing;
  if (w->DC.CursorPosPrevLine.x + gap + width <= w->WorkRect.Max.x) ImGui::SameLine(0, spacing);
}

// Hover shows the help as a tooltip; a click or a tap opens it as a popup
// that stays until the next click or tap elsewhere (a finger cannot hover).
void help_marker(const char* text) {
  text = app::tr(text);  // every help text is a catalogue key (app/lang/lang.h)
  ImGui::TextDisabled("(?)");
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  probe("help.markers", ImVec4(a.x, a.y, b.x, b.y));
  ImGui::PushID(text);
  const float wrap = std::min(ImGui::GetFontSize() * 40.f, ImGui::GetIO().DisplaySize.x - 40.f);
  auto body = [&] {
    ImGui::PushTextWrapPos(wrap);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
  };
  if (ImGui::IsItemClicked()) ImGui::OpenPopup("help");
  if (ImGui::BeginPopup("help")) {
    body();
    const ImVec2 p = ImGui::GetWindowPos(), q = ImGui::GetWindowSize();
    probe("help.open", ImVec4(p.x, p.y, p.x + q.x, p.y + q.y));
    ImGui::EndPopup();
  } else if (ImGui::BeginItemTooltip()) {
    body();
    ImGui::EndTooltip();
  }
  ImGui::PopID();
}

void push_button_colors(const ButtonColors& c) {
  ImGui::PushStyleColor(ImGuiCol_Button, c.bg);
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, c.hovered);
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, c.active);
  ImGui::PushStyleColor(ImGuiCol_Text, c.text);
}

std::vector<float> token_columns(Demo& demo) {
  std::vector<float> cols;
  const float pad = ImGui::GetStyle().FramePadding.x * 2 + 10.f;
  for (const Token& t : demo.shown().tokens)
    cols.push_back(std::max(52.f, text_size(t.text).x + pad));
  return cols;
}

bool tokens_rtl(const Demo& demo) { return app::paragraph_rtl(demo.scene.text()); }

std::vector<float> column_starts(const std::vector<float>& cols, float x0, bool rtl) {
  float total = 0;
  for (float c : cols) total += c;
  std::vector<float> starts;
  float x = x0;
  for (float c : cols) {
    starts.push_back(rtl ? x0 + total - (x - x0) - c : x);
    x += c;
  }
  return starts;
}

namespace {
// The UTF-8 code point at text[i] and its length in bytes (a stray byte: itself, 1).
unsigned code_point(const std::string& text, size_t i, size_t& len) {
  const unsigned char c = static_cast<unsigned char>(text[i]);
  len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  if (i + len > text.size() || len == 1) return len = 1, c;
  unsigned cp = c & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  return cp;
}
// CJK scripts and their full-width punctuation: a line may break between any two of them.
bool breaks_anywhere(unsigned cp) { return (cp >= 0x2E80 && cp <= 0x9FFF) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFFEF); }
// Full-width marks that close a phrase: never the first thing on a line.
bool closes(unsigned cp) {
  return cp == 0x3001 || cp == 0x3002 || cp == 0xFF0C || cp == 0xFF1A || cp == 0xFF1B || cp == 0xFF09 ||
         cp == 0x201D || cp == 0xFF01 || cp == 0xFF1F;
}
}  // namespace

std::string wrap_at_spaces(const std::string& text, float width) {
  // Units a line may end after: a run of text between spaces, or one CJK
  // character (with any closing marks after it); `spaced` when a space came before.
  struct Unit {
    std::string text;
    bool spaced;
  };
  std::vector<Unit> units;
  bool spaced = false;
  for (size_t i = 0; i < text.size();) {
    if (text[i] == ' ') {
      spaced = true;
      ++i;
      continue;
    }
    size_t len = 0;
    const unsigned cp = code_point(text, i, len);
    if (closes(cp) && !units.empty() && !spaced) {
      units.back().text += text.substr(i, len);
    } else if (breaks_anywhere(cp)) {
      units.push_back({text.substr(i, len), spaced});
    } else {  // a run up to the next space or CJK character
      size_t j = i + len, l = 0;
      while (j < text.size() && text[j] != ' ' && !breaks_anywhere(code_point(text, j, l))) j += l;
      units.push_back({text.substr(i, j - i), spaced});
      len = j - i;
    }
    i += len;
    spaced = false;
  }
  std::string out;
  size_t line_start = 0;  // in out
  for (const Unit& u : units) {
    const bool line_empty = out.size() == line_start;
    const std::string candidate = out.substr(line_start) + (u.spaced && !line_empty ? " " : "") + u.text;
    if (!line_empty && ImGui::CalcTextSize(candidate.c_str()).x > width) {
      out += '\n';
      line_start = out.size();
    } else if (u.spaced && !line_empty) {
      out += ' ';
    }
    out += u.text;
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
  ImGui::PushFont(frame().fonts.bold);
  ImGui::PushTextWrapPos(std::max(ImGui::GetCursorPosX() + 40.f, ImGui::GetContentRegionMax().x - marker_w));
  ImGui::TextUnformatted(app::tr(title));  // the catalogue's keyword (app/lang/lang.h); help_marker translates `help`
  ImGui::PopTextWrapPos();
  ImGui::PopFont();
  ImGui::SameLine();
  help_marker(help);
}

ModelView model_view(Demo& demo) {
  const app::ModelShown& m = demo.shown();
  return {m, *m.trace, m.tokens, m.token_count(), m.query, m.heads, m.d_model, m.d_head};
}

ModelView open_view(Demo& demo, const char* title, const char* help) {
  section_title(title, help);
  return model_view(demo);
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
  if (box) probe("controls.frames", ImVec4(a.x, a.y, a.x + side, a.y + side));
  else probe("controls.frames", ImVec4(a.x, a.y, b.x, b.y));
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
