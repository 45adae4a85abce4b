// view_attention.cpp: where each head looks from the query: arcs from
// the query to every key (thickness = weight, colour = head) and, per head, a
// bar per token with its weight printed.
//
// Does: lay tokens out in columns from a card 520 px wide (arcs above, one
// bar row per head below; a long sentence's columns are squeezed to fit, its
// names turned upward and its numbers left to the tooltip), and in rows below
// that width (phones: one row per token, arcs in a left gutter, one bar
// column per head). The arrangement depends on the card's width only, never
// on the sentence's length (the "attentionMode" probe says which). Every bar and arc
// is exactly w_h[query, j] from the Trace; hover shows it with 4 decimals.
// Reports its labels' boxes in the "attention" probe, the token names
// first, then the head captions (the theme test measures their contrast).
// Does not: compute or rescale any weight.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/state/view_rows.h"
#include "app/lang/lang.h"
#include "ui/probes.h"
#include "ui/text.h"
#include "ui/views.h"

namespace headroom::ui {

namespace {

constexpr float kMinArcWeight = 0.02f;  // thinner arcs are noise on screen
constexpr float kColumnsFrom = 520.f;   // card width (px) from which the view draws columns, rows below
constexpr float kMaxTurnedName = 84.f;  // a name turned upward shows at most this much of itself

float arc_thickness(float w) { return 1.f + 9.f * w; }

void weight_tooltip(const app::ModelShown& m, int h, int j, float w) {
  const auto& t = m.tokens;
  ImGui::BeginTooltip();
  text(app::trf("head {0}: {1} \xe2\x86\x92 {2} = {3}", {std::to_string(h + 1), t[static_cast<size_t>(m.query)].text,
                                                       t[static_cast<size_t>(j)].text, app::num(w, 4)}));
  ImGui::EndTooltip();
}

bool is_target(const HeadReadout& r, int j) { return std::find(r.targets.begin(), r.targets.end(), j) != r.targets.end(); }

// A label's box [min, max], padded by 3 px, into the "attention" probe when
// all of it is on screen (the theme test reads each one's contrast).
void report_label(ImVec2 min, ImVec2 max) {
  const ImVec2 a(min.x - 3, min.y - 3), b(max.x + 3, max.y + 3);
  if (ImGui::IsRectVisible(a, ImVec2(a.x + 1, a.y + 1)) && ImGui::IsRectVisible(ImVec2(b.x - 1, b.y - 1), b))
    probe("attention", ImVec4(a.x, a.y, b.x, b.y));
}

// The arcs from the query (at column centre cx[q], each head a little apart)
// to every key it weighs, standing on the line y = base.
void column_arcs(ImDrawList* dl, const ModelView& v, const std::vector<float>& cx, float arc_h, float base) {
  const auto& [m, tr, tokens, L, q, H, D, dh] = v;
  for (int h = 0; h < H; ++h) {
    for (int j = 0; j < L; ++j) {
      const float w = tr.heads[static_cast<size_t>(h)].weights(q, j);
      if (w < kMinArcWeight) continue;
      ImVec2 a(cx[static_cast<size_t>(q)] + (h - (H - 1) * 0.5f) * 3.f, base), b(cx[static_cast<size_t>(j)], base);
      if (b.x < a.x) std::swap(a, b);
      const float bulge = std::min((arc_h - 6.f) / 0.75f, 0.5f * (b.x - a.x) + 14.f);
      draw_arc(dl, a, b, j == q ? 24.f : bulge, head_color(h, 0.75f), arc_thickness(w));
    }
  }
}

// The token names under the arcs, the query's highlighted. A name wider
// than its column (a long sentence squeezed into the card) is turned to read
// upward in a band under the arcs. Returns the band's height.
float column_names(ImDrawList* dl, const ModelView& v, const std::vector<float>& cols, const std::vector<float>& cx,
                   float base) {
  const auto& [m, tr, tokens, L, q, H, D, dh] = v;
  const float line = ImGui::GetTextLineHeight();
  float band = line;
  for (int j = 0; j < L; ++j) {
    const float tw = text_size(tokens[static_cast<size_t>(j)].text).x;
    if (tw > cols[static_cast<size_t>(j)] - 4.f) band = std::max(band, std::min(tw, kMaxTurnedName));
  }
  for (int j = 0; j < L; ++j) {
    const std::string& name = tokens[static_cast<size_t>(j)].text;
    const float tw = text_size(name).x;
    const ImU32 col = j == q ? palette().text : palette().text_secondary;  // both >= 4.5:1 on the card
    const float c = cx[static_cast<size_t>(j)];
    if (tw <= cols[static_cast<size_t>(j)] - 4.f) {
      if (j == q) dl->AddRectFilled(ImVec2(c - tw * 0.5f - 5, base + 1), ImVec2(c + tw * 0.5f + 5, base + line + 5),
                                    palette().highlight, 4.f);
      const ImVec2 at(c - tw * 0.5f, base + 3);
      draw_text(dl, at, col, name);
      report_label(at, ImVec2(at.x + tw, at.y + line));
    } else {
      const float shown = std::min(tw, kMaxTurnedName);
      if (j == q) dl->AddRectFilled(ImVec2(c - line * 0.5f - 3, base + 1), ImVec2(c + line * 0.5f + 3, base + shown + 6),
                                    palette().highlight, 4.f);
      dl->PushClipRect(ImVec2(c - line, base + 2), ImVec2(c + line, base + 3 + shown), true);
      draw_text_up(dl, ImVec2(c - line * 0.5f, base + 3 + shown), col, name);
      dl->PopClipRect();
      report_label(ImVec2(c - line * 0.5f, base + 3), ImVec2(c + line * 0.5f, base + 3 + shown));
    }
  }
  return band;
}

// Head h's caption, then its row of bars (bar_h tall at weight 1), each
// with its weight above it; the targets framed.
void head_bar_row(ImDrawList* dl, const ModelView& v, int h, const std::vector<float>& cols, bool rtl, float width,
                  float bar_h) {
  const auto& [m, tr, tokens, L, q, H, D, dh] = v;
  const float line = ImGui::GetTextLineHeight();
  const HeadReadout& r = m.head[static_cast<size_t>(h)].readout;
  const Mat& wm = tr.heads[static_cast<size_t>(h)].weights;
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_text_color(h)));
  ImGui::TextUnformatted((app::trf("Head {0}", {std::to_string(h + 1)}) + " \xc2\xb7 " + m.head[static_cast<size_t>(h)].caption).c_str());
  ImGui::PopStyleColor();
  report_label(ImGui::GetItemRectMin(), ImGui::GetItemRectMax());
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float y_base = p.y + line + 2 + bar_h;
  const std::vector<float> bars = column_starts(cols, p.x, rtl);
  for (int j = 0; j < L; ++j) {
    const float bx = bars[static_cast<size_t>(j)];
    const float w = wm(q, j), cw = cols[static_cast<size_t>(j)] - 4;
    dl->AddRectFilled(ImVec2(bx, y_base), ImVec2(bx + cw, y_base + 1), palette().rule);
    dl->AddRectFilled(ImVec2(bx + 4, y_base - bar_h * w), ImVec2(bx + cw - 4, y_base), head_color(h, 0.85f), 2.f);
    if (is_target(r, j))
      dl->AddRect(ImVec2(bx + 1, p.y + line + 1), ImVec2(bx + cw - 1, y_base + 1), head_color(h), 3.f, 0, 1.5f);
    char num[16];
    std::snprintf(num, sizeof num, "%.2f", w);
    const float tw = ImGui::CalcTextSize(num).x;
    if (tw <= cw)  // a squeezed column keeps its number in the tooltip
      dl->AddText(ImVec2(bx + (cw - tw) * 0.5f, p.y), w >= 0.05f ? palette().text : palette().text_faint, num);
    if (ImGui::IsMouseHoveringRect(ImVec2(bx, p.y), ImVec2(bx + cw, y_base)) && ImGui::IsWindowHovered())
      weight_tooltip(m, h, j, w);
  }
  ImGui::Dummy(ImVec2(width, line + 2 + bar_h + 4));
}

// Columns: arcs above a row of token names, then one bar row per head.
void draw_columns(Demo& demo, const std::vector<float>& cols) {
  const ModelView v = model_view(demo);
  const int L = v.L, H = v.H;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 o = ImGui::GetCursorScreenPos();
  // Token j's column starts at x0[j] (right to left for an RTL sentence).
  const bool rtl = tokens_rtl(demo);
  const std::vector<float> x0 = column_starts(cols, o.x, rtl);
  std::vector<float> cx(static_cast<size_t>(L));
  float width = 0;
  for (int j = 0; j < L; ++j) {
    cx[static_cast<size_t>(j)] = x0[static_cast<size_t>(j)] + (cols[static_cast<size_t>(j)] - 4) * 0.5f;
    width += cols[static_cast<size_t>(j)];
  }

  // Arcs, then token names under them.
  const float arc_h = 78.f, base = o.y + arc_h;
  column_arcs(dl, v, cx, arc_h, base);
  const float band = column_names(dl, v, cols, cx, base);
  ImGui::Dummy(ImVec2(width, arc_h + band + 8));

  const float bar_h = H <= 2 ? 54.f : H == 4 ? 34.f : 24.f;
  for (int h = 0; h < H; ++h) head_bar_row(dl, v, h, cols, rtl, width, bar_h);
}

// Rows (narrow screens): one row per token, arcs in a gutter on the left,
// one bar column per head.
void draw_rows(Demo& demo) {
  const auto [m, tr, tokens, L, q, H, D, dh] = model_view(demo);
  const float line = ImGui::GetTextLineHeight(), row_h = line + 10.f;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  float name_w = 0;
  for (const Token& t : tokens) name_w = std::max(name_w, text_size(t.text).x);
  name_w = std::min(name_w + 12.f, 110.f);
  const float gutter = 56.f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float col_w = std::max(24.f, (avail - gutter - name_w) / static_cast<float>(H));
  const float bars_x = o.x + gutter + name_w;

  // Header: which head each column is (reported after the token names, so
  // both arrangements report the names first).
  std::vector<std::pair<ImVec2, ImVec2>> headers;
  for (int h = 0; h < H; ++h) {
    const std::string label = H <= 4 ? app::trf("head {0}", {std::to_string(h + 1)}) : std::to_string(h + 1);
    const ImVec2 at(bars_x + col_w * h + 2, o.y);
    dl->AddText(at, head_text_color(h), label.c_str());
    headers.emplace_back(at, ImVec2(at.x + ImGui::CalcTextSize(label.c_str()).x, at.y + line));
  }
  const float top = o.y + line + 6;
  for (int j = 0; j < L; ++j) {
    const float y = top + row_h * j;
    if (j == q) dl->AddRectFilled(ImVec2(o.x + gutter - 4, y), ImVec2(o.x + avail, y + row_h - 2), palette().highlight, 4.f);
    const std::string& name = tokens[static_cast<size_t>(j)].text;
    const ImVec2 at(o.x + gutter, y + 5);
    draw_text(dl, at, j == q ? palette().text : palette().text_secondary, name);
    report_label(at, ImVec2(at.x + text_size(name).x, at.y + line));
    for (int h = 0; h < H; ++h) {
      const float w = tr.heads[static_cast<size_t>(h)].weights(q, j);
      const float x0 = bars_x + col_w * h, x1 = x0 + col_w - 4;
      dl->AddRectFilled(ImVec2(x0, y + 3), ImVec2(x0 + (x1 - x0) * w, y + row_h - 5), head_color(h, 0.8f), 2.f);
      if (is_target(m.head[static_cast<size_t>(h)].readout, j))
        dl->AddRect(ImVec2(x0, y + 2), ImVec2(x1, y + row_h - 4), head_color(h), 3.f, 0, 1.5f);
      if (col_w >= 44.f && w >= 0.005f) {
        char num[16];
        std::snprintf(num, sizeof num, "%.2f", w);
        dl->AddText(ImVec2(x0 + 3, y + 5), palette().text, num);
      }
      if (ImGui::IsMouseHoveringRect(ImVec2(x0, y), ImVec2(x1, y + row_h)) && ImGui::IsWindowHovered())
        weight_tooltip(m, h, j, w);
    }
  }
  for (const auto& [a, b] : headers) report_label(a, b);
  // Arcs from the query's row to every key's row, bulging left.
  const float ax = o.x + gutter - 8;
  for (int h = 0; h < H; ++h)
    for (int j = 0; j < L; ++j) {
      const float w = tr.heads[static_cast<size_t>(h)].weights(q, j);
      if (w < kMinArcWeight) continue;
      ImVec2 a(ax, top + row_h * q + row_h * 0.5f + (h - (H - 1) * 0.5f) * 2.f), b(ax, top + row_h * j + row_h * 0.5f);
      if (b.y > a.y) std::swap(a, b);  // from lower to upper bulges left
      const float bulge = std::min((gutter - 12.f) / 0.75f, 0.45f * (a.y - b.y) + 8.f);
      draw_arc(dl, a, b, j == q ? 16.f : bulge, head_color(h, 0.75f), arc_thickness(w));
    }
  ImGui::Dummy(ImVec2(avail, line + 6 + row_h * L));
}

}  // namespace

void view_attention(Demo& demo) {
  section_title(app::view_row(app::ViewId::Attention).title, app::view_row(app::ViewId::Attention).help);
  // One arrangement per card width, whatever the sentence's length: columns
  // (arcs above the names, a bar row per head) from kColumnsFrom px, squeezed
  // to fit when the sentence is long; rows (a row per token) below.
  const float avail = ImGui::GetContentRegionAvail().x;
  if (avail >= kColumnsFrom) {
    std::vector<float> cols = token_columns(demo);
    float total = 0;
    for (float c : cols) total += c;
    if (total > avail)
      for (float& c : cols) c *= avail / total;
    probe_string("attentionMode", "columns");
    draw_columns(demo, cols);
  } else {
    probe_string("attentionMode", "rows");
    draw_rows(demo);
  }
}

}  // namespace headroom::ui
