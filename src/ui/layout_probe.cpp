// layout_probe.cpp: the probe recorder (probes.h) and its JSON.
//
// Does: hold what the views recorded this frame, by kind, and write it with
// app/wire/json_write.h in the fixed order of kProbeKinds (pixel positions to
// 0.1 px): a kind "a.b" is field b of object a, and consecutive kinds with
// the same object share it. A kind nothing recorded this frame writes its
// empty value ([] for a list, a zero rect, the value kind's default).
// Does not: record anything itself (the views and draw_ui do).
#include <cassert>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/wire/json_write.h"
#include "app/lang/lang.h"
#include "imgui.h"
#include "ui/probes.h"

namespace headroom::ui {

using app::append_array;
using app::append_fixed;
using app::JsonObject;

namespace {

enum class Shape {
  Rects,  // a list of rects
  Rect,   // one rect
  Items,  // a list of objects (probe_item)
  Value,  // one JSON value (probe_value)
  Named,  // an object {name: rect} (probe_named)
};

struct ProbeKind {
  const char* kind;
  Shape shape;
  const char* empty = "";    // a value kind's value when nothing recorded it
  bool layout_kind = true;   // kept through the export frames (see begin_probe_frame)
};

// Every kind, in the order layout_json writes them. What each holds is in
// probes.h's layout_json comment.
const ProbeKind kProbeKinds[] = {
    {"tokens", Shape::Rects},
    {"heads", Shape::Rects},
    {"views", Shape::Rects},
    {"help.markers", Shape::Rects},
    {"help.open", Shape::Rect},
    {"controls.frames", Shape::Rects},
    {"attentionMode", Shape::Value, "\"\""},
    {"heatmap.grids", Shape::Rects},
    {"heatmap.pin", Shape::Value, "[-1,-1,-1]"},
    {"attention", Shape::Rects},
    {"knockout", Shape::Rects},
    {"tie", Shape::Rects},
    {"tourChoices", Shape::Rects},
    {"tourNumber", Shape::Rects},
    {"tourMatch", Shape::Rects},
    {"tourLabels", Shape::Rects},
    {"tourComboItems", Shape::Rects},
    {"tourDots", Shape::Rects},
    {"tourButtons", Shape::Rects},
    {"tourOpen", Shape::Rects},
    {"tourPlane.rect", Shape::Rect},
    {"tourPlane.map", Shape::Value, "[0.00,0.00,0.000,0.000]"},
    {"tourPicture.kind", Shape::Value, "\"\""},
    {"tourPicture.hint", Shape::Value, "\"\""},
    {"tourPicture.rect", Shape::Rect},
    {"tourPicture.labels", Shape::Rects},
    {"tourPicture.retry", Shape::Rects},
    {"tourPicture.focus", Shape::Rect},
    {"valueSpace.view", Shape::Rect},
    {"valueSpace.plots", Shape::Rects},
    {"valueSpace.labels", Shape::Items},
    {"valueSpace.markers", Shape::Items},
    {"save", Shape::Rects, "", false},
    {"saveMenu", Shape::Rects, "", false},
    {"cards", Shape::Named, "", false},
    {"trainButtons", Shape::Rects},
    {"download", Shape::Rects},
    {"weights", Shape::Rects},
    {"weightsPlay", Shape::Rects},
    {"textLayer", Shape::Rects},
    {"trainCap.rect", Shape::Rect},
    {"trainCap.enabled", Shape::Value, "false"},
    {"trainNotice", Shape::Value, "null"},
    {"trainChart.rect", Shape::Rect},
    {"trainChart.runs", Shape::Items},
    {"trainChart.specialisationCells", Shape::Value, "0"},
    {"trainChart.headScoreCells", Shape::Value, "0"},
    {"trainChart.labelChanges", Shape::Items},
    {"trainKnockout.buttons", Shape::Items},
    {"trainKnockout.shown", Shape::Value, "null"},
    {"trainSplit.button", Shape::Rect},
    {"trainSplit.shown", Shape::Value, "null"},
    {"trainSplit.heldOut", Shape::Value, "false"},
};

// What one kind holds this frame.
struct Recorded {
  std::vector<ImVec4> rects;                         // Rects, Rect (the last)
  std::vector<std::string> items;                    // Items (objects), Value (the last)
  std::vector<std::pair<std::string, ImVec4>> named;  // Named
};

std::map<std::string, Recorded, std::less<>>& recorded() {
  static std::map<std::string, Recorded, std::less<>> r;
  return r;
}

void forget(std::string_view kind) {
  const auto it = recorded().find(kind);
  if (it != recorded().end()) recorded().erase(it);
}

const ProbeKind* find_kind(std::string_view kind) {
  for (const ProbeKind& k : kProbeKinds)
    if (kind == k.kind) return &k;
  return nullptr;
}

// The kind's record, or nullptr for a kind the table lacks (or of another shape).
Recorded* slot(const char* kind, Shape shape) {
  const ProbeKind* k = find_kind(kind);
  const bool known = k && (k->shape == shape || (shape == Shape::Rects && k->shape == Shape::Rect));
  assert(known && "a probe kind missing from kProbeKinds, or recorded in another shape");
  return known ? &recorded()[kind] : nullptr;
}

}  // namespace

void probe(const char* kind, const ImVec4& rect) {
  if (Recorded* r = slot(kind, Shape::Rects)) r->rects.push_back(rect);
}

void probe_visible_item(const char* kind) {
  if (!ImGui::IsItemVisible()) return;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  probe(kind, ImVec4(a.x, a.y, b.x, b.y));
}

void probe_item(const char* kind, const std::function<void(JsonObject&)>& write) {
  Recorded* r = slot(kind, Shape::Items);
  if (!r) return;
  std::string out;
  {
    JsonObject o(out);
    write(o);
  }
  r->items.push_back(std::move(out));
}

void probe_value(const char* kind, std::string json) {
  if (Recorded* r = slot(kind, Shape::Value)) r->items.assign(1, std::move(json));
}

void probe_string(const char* kind, std::string_view text) {
  std::string json;
  app::append_json_string(json, text);
  probe_value(kind, std::move(json));
}

void probe_clear(const char* kind) {
  assert(find_kind(kind) && "a probe kind missing from kProbeKinds");
  forget(kind);
}

bool probe_named(const char* kind, const std::string& name, const ImVec4& rect) {
  Recorded* r = slot(kind, Shape::Named);
  if (!r) return false;
  for (const auto& [n, unused] : r->named)
    if (n == name) return false;
  r->named.emplace_back(name, rect);
  return true;
}

ImVec4 probed_rect(const char* kind) {
  const auto it = recorded().find(std::string_view(kind));
  return it == recorded().end() || it->second.rects.empty() ? ImVec4() : it->second.rects.back();
}

const std::string& probed_value(const char* kind) {
  static const std::string none;
  const auto it = recorded().find(std::string_view(kind));
  return it == recorded().end() || it->second.items.empty() ? none : it->second.items.back();
}

void begin_probe_frame(bool exporting) {
  for (const ProbeKind& k : kProbeKinds)
    if (!exporting || !k.layout_kind) forget(k.kind);
}

void append_rect(std::string& out, const ImVec4& r) {
  const float v[] = {r.x, r.y, r.z, r.w};
  append_array(out, v, [&](float x) { append_fixed(out, x, 1); });
}

void append_pair(std::string& out, ImVec2 p) {
  const float v[] = {p.x, p.y};
  append_array(out, v, [&](float x) { append_fixed(out, x, 1); });
}

namespace {

// One kind's value, as recorded this frame or empty.
void write_kind(std::string& out, const ProbeKind& k) {
  static const Recorded kNothing;
  const auto it = recorded().find(std::string_view(k.kind));
  const Recorded& r = it == recorded().end() ? kNothing : it->second;
  switch (k.shape) {
    case Shape::Rects: append_array(out, r.rects, [&](const ImVec4& x) { append_rect(out, x); }); break;
    case Shape::Rect: append_rect(out, r.rects.empty() ? ImVec4() : r.rects.back()); break;
    case Shape::Items: append_array(out, r.items, [&](const std::string& x) { out += x; }); break;
    case Shape::Value: out += r.items.empty() ? std::string(k.empty) : r.items.back(); break;
    case Shape::Named: {
      JsonObject o(out);
      for (const auto& [name, rect] : r.named) append_rect(o.key(name.c_str()), rect);
      break;
    }
  }
}

void write_layout(std::string& out) {
  JsonObject o(out);
  for (size_t i = 0; i < std::size(kProbeKinds); ++i) {
    const char* kind = kProbeKinds[i].kind;
    const char* dot = std::strchr(kind, '.');
    if (!dot) {
      write_kind(o.key(kind), kProbeKinds[i]);
      continue;
    }
    // An object: this kind and the next ones with the same "object." prefix.
    const std::string object(kind, dot);
    JsonObject inner(o.key(object.c_str()));
    for (; i < std::size(kProbeKinds); ++i) {
      const char* k = kProbeKinds[i].kind;
      if (std::strncmp(k, kind, object.size() + 1) != 0) break;
      write_kind(inner.key(k + object.size() + 1), kProbeKinds[i]);
    }
    --i;
  }
  // The English keys the shown language lacked (getState().missingStrings counts them).
  std::string& missing = o.key("missingKeys");
  append_array(missing, app::missing_keys(), [&](const std::string& k) { app::append_json_string(missing, k); });
}

}  // namespace

std::string layout_json() {
  std::string out;
  write_layout(out);
  return out;
}

}  // namespace headroom::ui
