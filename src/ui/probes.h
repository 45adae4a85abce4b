// probes.h: the debug probes tests read through the page (debug.layout(),
// debug.fit()): what the last frame drew where, and whether it fits.
//
// Does: record what each frame drew where (probe, probe_item, probe_value:
// the views call them; draw_ui starts each frame with begin_probe_frame),
// and write it, and the fit of the last drawn frame, as JSON with
// app/wire/json_write.h (layout_probe.cpp, fit_probe.cpp).
// Does not: draw, or change a frame.
#pragma once
#include <functional>
#include <string>
#include <string_view>

#include "app/wire/json_write.h"
#include "imgui.h"

namespace headroom::ui {

// The probe recorder, as ImGui's test engine hooks its items: a view says
// what it drew under a kind (a path in layout_json's output, like "tokens",
// "help.open" or "valueSpace.labels"), and the recorder keeps it for the
// tests until draw_ui starts the next frame (begin_probe_frame). The kinds,
// their shapes and what each holds are one table (layout_probe.cpp
// kProbeKinds); recording a kind the table lacks is a programming error
// (an assertion in debug builds, dropped otherwise).
//
// One more rect of a list kind ("tokens", "tourChoices", ...), or the one
// rect of a rect kind ("help.open", "tourPicture.rect", ...).
void probe(const char* kind, const ImVec4& rect);
// The last item's rect, if it is visible, into a list kind (a button the
// tests click: hidden or scrolled away, it is not recorded).
void probe_visible_item(const char* kind);
// One more object of an item kind, written by `write` (a JsonObject's
// fields): the value space's labels and markers, the chart's runs.
void probe_item(const char* kind, const std::function<void(app::JsonObject&)>& write);
// The value of a value kind as JSON ("\"columns\"", "[0,2,3]", "true", "12"):
// the attention view's mode, the heatmap's pin, the chart's cell count ...
void probe_value(const char* kind, std::string json);
// probe_value with a JSON string ("columns" -> "\"columns\"").
void probe_string(const char* kind, std::string_view text);
// Empties one kind (a view drawn twice in a frame keeps only its last drawing).
void probe_clear(const char* kind);
// A rect kind's or a value kind's last recording this frame (for a view that
// reuses what another part of it recorded); a zero rect / "" when none.
ImVec4 probed_rect(const char* kind);
const std::string& probed_value(const char* kind);
// One rect of a named kind ("cards": an object {name: rect}); the first
// recording of a name in a frame is kept. Returns whether this one was.
bool probe_named(const char* kind, const std::string& name, const ImVec4& rect);
// A new frame: every kind empties, except, in the export frames (a page drawn
// alone for its picture), the kinds that describe the layout shown, which
// keep the last layout frame's (the export frames draw no Save button and
// record no card).
void begin_probe_frame(bool exporting);

// Where the last frame drew things, in CSS pixels, as JSON:
// {"tokens":[[x0,y0,x1,y1],...], "heads":[...], "views":[...]} (one rect
// per token chip, one per heads button 1/2/4/8, one per view button of the
// compact layout, in the view table's order: app/state/view_rows.h); the
// training views' visible buttons:
// "trainButtons" (play/pause, step, new seed), "download" (one per run),
// "weights" (built, trained), "weightsPlay" (Play beside "not trained yet").
// Every list holds rects with a label inside. Objects that are not labels:
// "controls": {"frames": [...]} (every checkbox's or radio button's box and
// every slider's or field's frame: widgets.h push_control_frames) and
// "attentionMode": "columns" | "rows" | "" (the attention view's arrangement),
// "heatmap": {"grids": [...] (one per head drawn), "pin": [head, row, column]
// (the cell a click or tap pinned, -1s: none)}.
// Also "save" (every visible Save button), "saveMenu" (the open Save menu's
// items: PNG, CSV, JSON), "cards" ({view: rect}: each view's first card, or
// the compact panel, as drawn).
// Then "trainChart": {rect, runs: [{heads, points, lastLoss, floor, floorY,
// diverged}], specialisationCells, headScoreCells (the text heads' score
// cells), labelChanges: [{heads, layer, head, step, to}] (the change lines
// shown)}, what the training charts drew (rect all 0 when not drawn).
// "trainKnockout": {buttons: [{heads, layer, head, rect}]
// (the text task's knockout buttons, 1-based), shown: null or {heads, layer,
// head, lossBefore, lossAfter, change, text} (the last knockout's line, its
// numbers as drawn)}. Lets browser tests click through the real mouse path
// and check the drawing without guessing a layout.
std::string layout_json();

// Whether the last drawn frame fits its display, as JSON (fit_probe.cpp):
// {"drawn", "display":[w,h], "compact", "windows":[{name, child, pos, size,
// content, room, scroll, scrollMax, scrollbar:[x,y]}], "clipped":[{text,
// rect, clip, axis:"x"|"y"|"xy"}]}: every run of text the scissor cuts.
// Reads what ImGui keeps between frames; call it between frames only.
std::string fit_json();

// A rect [x0, y0, x1, y1] and a pair [x, y] of CSS px, to 0.1 px.
void append_rect(std::string& out, const ImVec4& r);
void append_pair(std::string& out, ImVec2 v);

}  // namespace headroom::ui
