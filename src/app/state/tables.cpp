// tables.cpp: the lists and orders the page's JavaScript reads from the wasm
// (see tables.h).
#include "app/state/tables.h"

#include <algorithm>
#include <type_traits>

#include "app/state/export.h"
#include "app/lang/lang.h"
#include "app/lang/refusals.h"
#include "app/tour/tour.h"
#include "app/state/url_state.h"
#include "app/state/view_rows.h"
#include "engine/lesson/scene.h"
#include "engine/train/trainer.h"
#include "engine/train/text_trainer.h"

namespace headroom::app {

void append_tables(JsonObject& o) {
  std::string& order = o.key("applyOrder");
  append_array(order, kApplyOrder, [&](const ApplyStep& s) {
    JsonObject step(order);
    step.field("key", s.key).field("field", s.field);
  });
  append_values(o.key("heads"), kHeadCounts);
  append_values(o.key("trainR"), kTrainRelations);
  append_values(o.key("trainHeads"), kTrainHeads);
  o.field("maxSeed", kMaxSeed).field("lrRange", kLrRangeText).field("maxStepsPerCall", kMaxStepsPerCall);
  append_values(o.key("trainTasks"), kTrainTasks);
  append_values(o.key("textLayers"), kTextLayers);
  o.field("textLr", kTextDefaultLr);
  append_values(o.key("weights"), kWeightChoices);
  append_values(o.key("themes"), kThemes);
  append_values(o.key("views"), kViews);
  append_values(o.key("tabs"), kTabs);
  append_values(o.key("exportFormats"), kExportFormats);
  std::string& langs = o.key("languages");
  append_array(langs, language_code_list(), [&](const std::string& code) { append_json_string(langs, code); });
  o.field("tourSteps", kTourSteps);
}

namespace {

template <class List>
StatusArg list_arg(const List& items, bool quoted = false) {
  std::vector<std::string> words;
  for (const auto& v : items) {
    std::string w;
    if constexpr (std::is_arithmetic_v<std::decay_t<decltype(v)>>) w = std::to_string(v);
    else w = v;
    words.push_back(quoted ? "\"" + w + "\"" : w);
  }
  return StatusArg::list(std::move(words), " or ");
}

// What JS names in js_not_text and js_no_memory (headroom.mjs passText and
// the arrays it passes): phrases of the catalogue.
constexpr const char* kJsWhat[] = {N_("the sentence"), N_("the link"),   N_("the weights choice"),
                                   N_("the language code"), N_("the choice"), N_("the knockout"),
                                   N_("the answer")};

// One row per JS refusal whose template names a table's values first.
struct JsLead {
  const Refusal& refusal;
  std::vector<StatusArg> (*lead)();
};
const JsLead kJsLeads[] = {
    {refusals::js_heads, [] { return std::vector<StatusArg>{list_arg(kHeadCounts)}; }},
    {refusals::js_weights, [] { return std::vector<StatusArg>{list_arg(kWeightChoices, true)}; }},
    {refusals::js_tour_go, [] { return std::vector<StatusArg>{kTourSteps}; }},
    {refusals::js_tour_retry, [] { return std::vector<StatusArg>{kTourSteps}; }},
    {refusals::js_task, [] { return std::vector<StatusArg>{list_arg(kTrainTasks, true)}; }},
    {refusals::js_layers, [] { return std::vector<StatusArg>{list_arg(kTextLayers)}; }},
    {refusals::js_seed, [] { return std::vector<StatusArg>{kMaxSeed}; }},
    {refusals::js_r, [] { return std::vector<StatusArg>{list_arg(kTrainRelations)}; }},
    {refusals::js_steps, [] { return std::vector<StatusArg>{kMaxStepsPerCall}; }},
    {refusals::js_download, [] { return std::vector<StatusArg>{list_arg(kTrainHeads)}; }},
};

}  // namespace

Status js_refusal(std::string_view code, const std::vector<std::string>& values) {
#define HEADROOM_JS_ROW(name, english) &refusals::name,
  static const Refusal* const kRows[] = {HEADROOM_JS_REFUSALS(HEADROOM_JS_ROW)};
#undef HEADROOM_JS_ROW
  const auto row = std::find_if(std::begin(kRows), std::end(kRows), [&](const Refusal* r) { return code == r->code; });
  if (row == std::end(kRows)) {  // another table's code (the page repeats a C++ refusal): the values as given
    const Refusal* other = find_refusal(code);
    if (other == nullptr) return Status::fail(refusals::js_unknown, shown_value(code));
    return Status::fail_with(*other, std::vector<StatusArg>(values.begin(), values.end()));
  }
  if (*row == &refusals::js_unknown) return Status::fail(refusals::js_unknown, shown_value(code));
  const Refusal& r = **row;
  std::vector<StatusArg> args;
  for (const JsLead& l : kJsLeads)
    if (&l.refusal == &r) args = l.lead();
  for (const std::string& v : values) {
    const bool what = args.empty() && (&r == &refusals::js_not_text || &r == &refusals::js_no_memory);
    const auto key = std::find_if(std::begin(kJsWhat), std::end(kJsWhat), [&](const char* k) { return v == k; });
    args.push_back(what && key != std::end(kJsWhat) ? StatusArg::phrase(*key) : StatusArg(v));
  }
  return Status::fail_with(r, std::move(args));
}

}  // namespace headroom::app
