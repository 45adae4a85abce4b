// tables.h: the lists and orders the page's JavaScript needs, as one JSON
// object the wasm hands over once (js_api.cpp headroom_tables_json;
// headroom.mjs reads it at start, headroom.tables()).
//
// Does: write the hash's apply order (url_state.h kApplyOrder: the embed's
// headroom:set applies its fields in it) and the values the verbs accept
// (heads, the training task's r, head counts, seed, learning rate and steps
// per call, weights choices, themes, views, tabs, export formats,
// languages, tour steps), each from its one
// C++ definition, so the JS never types a copy of them.
// Also makes the JS side's refusals from their codes (js_refusal).
// Does not: write anything of the platform's (js_api.cpp adds the wheel's
// bits, web_app.h), or change with the state: the tables are fixed.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "app/wire/json_write.h"
#include "engine/core/status.h"

namespace headroom::app {

// The tables' fields into `o`:
//   applyOrder  [{key, field}, ...]  hash key, and getState()/headroom:set name
//   heads, trainR, trainHeads        [numbers]
//   maxSeed, maxStepsPerCall         numbers (training's seed and step(n) caps)
//   lrRange                          the learning rate's range as messages say it
//   weights, themes, views, tabs, exportFormats, languages  [strings]
//   tourSteps                        a number
void append_tables(JsonObject& o);

// A refusal the page's JavaScript made (app/lang/refusals.h
// HEADROOM_JS_REFUSALS): `code` and the values JS quotes, in order; the
// values the tables hold (a list of head counts, a cap) come first, from
// here. js_not_text and js_no_memory take the name of what JS could not
// pass ("the sentence", ...) as a phrase the catalogue translates. Another
// table's code takes the values as they are; an unknown code is
// js_unknown, naming it.
Status js_refusal(std::string_view code, const std::vector<std::string>& values);

}  // namespace headroom::app
