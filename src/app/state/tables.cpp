// tables.cpp: the lists and orders the page's JavaScript reads from the wasm
// (see tables.h).
#include "app/state/tables.h"

#include "app/state/export.h"
#include "app/lang/lang.h"
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

}  // namespace headroom::app
