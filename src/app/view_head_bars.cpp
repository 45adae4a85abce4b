// view_head_bars.cpp: per head, a bar per token of its attention weight from
// the selected token, with the numbers.
//
// Does: for each head h, a label (its relationships and what its output reads
// back, from Scene::readout()) and a row of bars, bar j's height = weight
// w_h[query, j] read from the Trace, its value printed above it; the head's
// targets are outlined. Columns line up with the token strip.
// Does not: compute or rescale any weight: a bar is exactly the Trace's number.
#include <cstdio>
#include <string>

#include "app/views.h"

namespace headroom::app {

namespace {

std::string head_label(const Demo& demo, int h, const HeadReadout& r) {
  const auto& tokens = demo.scene.tokens();
  std::string s = "Head " + std::to_string(h + 1) + ": ";
  for (size_t i = 0; i < r.relations.size(); ++i) {
    if (i) s += " + ";
    s += relation_name(r.relations[i]);
    const int t = i < r.targets.size() ? r.targets[i] : -1;
    if (t >= 0 && t < static_cast<int>(tokens.size())) s += " (\"" + tokens[t].text + "\")";
  }
  return s;
}

// "output vs value vectors: "researcher" cos 0.64, "it" cos 0.64; their midpoint
// cos 1.00; nearest token: "researcher""
std::string readout_line(const Demo& demo, const HeadReadout& r) {
  const auto& tokens = demo.scene.tokens();
  const int L = static_cast<int>(tokens.size());
  std::string s = "output vs value vectors:";
  char buf[96];
  for (size_t i = 0; i < r.targets.size() && i < r.target_cos.size(); ++i) {
    const int t = r.targets[i];
    if (t < 0 || t >= L) continue;
    std::snprintf(buf, sizeof buf, " cos %.2f", r.target_cos[i]);
    s += std::string(i ? ", \"" : " \"") + tokens[t].text + "\"" + buf;
  }
  if (r.targets.size() >= 2) {
    std::snprintf(buf, sizeof buf, "; their midpoint cos %.2f", r.midpoint_cos);
    s += buf;
  }
  if (r.nearest >= 0 && r.nearest < L) s += "; nearest token: \"" + tokens[r.nearest].text + "\"";
  return s;
}

}  // namespace

void view_head_bars(Demo& demo, const std::vector<float>& columns) {
  const Trace& trace = demo.scene.trace();
  const std::vector<HeadReadout> readout = demo.scene.readout();
  const auto& tokens = demo.scene.tokens();
  const int q = demo.scene.query();
  const int H = static_cast<int>(trace.heads.size());
  const float bar_h = 56.f;
  const float line_h = ImGui::GetTextLineHeight();
  ImDrawList* dl = ImGui::GetWindowDrawList();

  for (int h = 0; h < H; ++h) {
    const Mat& w = trace.heads[h].weights;
    const HeadReadout& r = readout[h];
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(head_color(h)));
    ImGui::TextUnformatted(head_label(demo, h, r).c_str());
    ImGui::PopStyleColor();
    ImGui::TextDisabled("%s", readout_line(demo, r).c_str());

    // Row: numbers (one line), bars (bar_h), token names (one line).
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    float x = origin.x;
    const float base = origin.y + line_h + 2 + bar_h;
    for (int j = 0; j < static_cast<int>(tokens.size()); ++j) {
      const float wj = w(q, j);
      const float bw = columns[j] - 4;
      bool target = false;
      for (int t : r.targets) target = target || t == j;
      if (j == q) dl->AddRectFilled(ImVec2(x, origin.y), ImVec2(x + bw, base + line_h + 2), IM_COL32(0, 0, 0, 14));
      dl->AddRectFilled(ImVec2(x, base - 1), ImVec2(x + bw, base), IM_COL32(0, 0, 0, 60));
      dl->AddRectFilled(ImVec2(x + 3, base - bar_h * wj), ImVec2(x + bw - 3, base), head_color(h, 0.85f));
      if (target)
        dl->AddRect(ImVec2(x + 1, origin.y + line_h + 1), ImVec2(x + bw - 1, base + 1), head_color(h), 2.f, 0, 2.f);
      char num[16];
      std::snprintf(num, sizeof num, "%.2f", wj);
      const float tw = ImGui::CalcTextSize(num).x;
      dl->AddText(ImVec2(x + (bw - tw) * 0.5f, origin.y), IM_COL32(30, 30, 30, 255), num);
      const char* name = tokens[j].text.c_str();
      const float nw = ImGui::CalcTextSize(name).x;
      dl->AddText(ImVec2(x + (bw - nw) * 0.5f, base + 2), IM_COL32(110, 110, 110, 255), name);
      x += columns[j];
    }
    ImGui::Dummy(ImVec2(x - origin.x, line_h + 2 + bar_h + line_h + 4));
  }
}

}  // namespace headroom::app
