// view_table.h: the page's views, one row each: the names the URL hash,
// the compact layout's buttons, the full layout's cards and the Save menus
// know them by.
//
// Does: list every view once (kViewTable: id, the hash's tab= name and its
// button's label, the hash's view= page it belongs to, its card's id, what
// it shows), and derive from it the values the hash's `tab` accepts
// (kTabs: the rows' tabs in button order). `view` accepts kViews: the whole
// lesson (kLessonPage) or one page of rows (a single-view embed); a check
// below ties the two lists together, so a page nobody draws, or a row whose
// page the hash refuses, does not compile. Adding a view is one row here
// (and its draw function in src/ui/view_table.cpp, bound by id).
// Does not: draw (src/ui binds each row's draw function; this header
// includes no ImGui), or decide where the full layout puts a card (ui.cpp).
#pragma once
#include <array>
#include <cstddef>

#include "app/lang_mark.h"  // labels are catalogue keys (app/lang.h)

namespace headroom::app {

enum class ViewId { Values, Sentence, Attention, Heatmap, Heads, Concat, Steps, Train, Specialisation, Controls, Stress };

struct ViewRow {
  ViewId id;
  const char* tab;    // the hash's tab= name and the compact layout's button (nullptr: not a tab)
  const char* label;  // that button's label
  // The hash's view= page the view belongs to: a single-view embed of that
  // page shows it, and its card's Save menu exports that page (nullptr: none).
  const char* page;
  const char* card;  // its card's ImGui id in the full layout
  const char* help;  // what it shows, in one line
};

// In the order of the compact layout's buttons; the first tab is the default
// (the value space, where the single head's midpoint is). Views without a
// tab after them.
constexpr ViewRow kViewTable[] = {
    {ViewId::Values, "values", N_("Value space"), "values", "##value_space",
     "per head, the value vectors in 2-D and the head's output among them"},
    {ViewId::Sentence, "tokens", N_("Tokens"), "lesson", "##sentence",
     "the tokens as chips with each head's target marks; a click makes a chip the query, or (armed) reassigns a "
     "target"},
    {ViewId::Attention, "attention", N_("Attention"), "attention", "##attention",
     "per head, the query's weights as bars with numbers, and arcs from the query to every key"},
    {ViewId::Heatmap, "heatmap", N_("Heatmap"), "attention", "##heatmap",
     "per head, the full L x L weights as a heatmap (a GLSL program)"},
    {ViewId::Heads, "heads", N_("Heads hold"), "readout", "##heads_hold",
     "what each head holds: its relationships by name, their targets, the readout's numbers"},
    {ViewId::Concat, "concat", N_("Concat"), "concat", "##concat",
     "the concatenation of the heads' outputs, and W_O's mix of it"},
    {ViewId::Steps, "steps", N_("Steps"), "steps", "##steps", "the forward pass for the query, step by step"},
    {ViewId::Train, "train", N_("Train"), "train", "##train",
     "training: run buttons, settings, and every run's loss on one chart with its floor dashed"},
    {ViewId::Specialisation, nullptr, nullptr, "train", "##specialisation",
     "per run and head, the held-out weight its query puts on each related token, step by step"},
    {ViewId::Controls, nullptr, nullptr, nullptr, "##controls",
     "knockout toggles per head, the query/key tie, and what the output still carries of each target"},
    {ViewId::Stress, nullptr, nullptr, nullptr, "##stress",
     "up to 512 tokens: the forward pass's time per frame and one head's L x L weights"},
};
constexpr size_t kViewCount = sizeof kViewTable / sizeof kViewTable[0];

// The row of `id`.
constexpr const ViewRow& view_row(ViewId id) {
  for (const ViewRow& r : kViewTable)
    if (r.id == id) return r;
  return kViewTable[0];  // unreachable: every id has a row (checked below)
}

// The values `view` accepts, in the order refusals list them; the first is
// the default. kLessonPage is every view (the full or compact layout); each
// other one is a page of rows above (a single-view embed); kTrainPage, the
// training page, has its own tabs (kTrainTabs).
constexpr std::array<const char*, 7> kViews = {"lesson", "attention", "values", "readout", "concat", "steps", "train"};
constexpr const char* kLessonPage = kViews[0];
constexpr const char* kTrainPage = kViews[6];

// view=train in a small frame: the loss chart (the default), what each head
// came to attend to, and the attention bars, as tabs whose names are
// kTabs' (tab= keeps the open one; any other opens the chart).
struct PageTab {
  const char* tab;
  const char* label;
  ViewId id;
};
constexpr PageTab kTrainTabs[] = {
    {"train", N_("Loss"), ViewId::Train},
    {"heads", N_("Heads over time"), ViewId::Specialisation},
    {"attention", N_("Attention"), ViewId::Attention},
};

namespace view_table_detail {
constexpr bool same(const char* a, const char* b) {
  if (!a || !b) return a == b;
  while (*a && *a == *b) ++a, ++b;
  return *a == *b;
}
constexpr size_t tab_count() {
  size_t n = 0;
  for (const ViewRow& r : kViewTable) n += r.tab != nullptr;
  return n;
}
constexpr std::array<const char*, tab_count()> tabs() {
  std::array<const char*, tab_count()> out{};
  size_t i = 0;
  for (const ViewRow& r : kViewTable)
    if (r.tab) out[i++] = r.tab;
  return out;
}
constexpr bool has_page(const char* page) {
  for (const ViewRow& r : kViewTable)
    if (same(r.page, page)) return true;
  return false;
}
constexpr bool is_view(const char* page) {
  for (const char* v : kViews)
    if (same(v, page)) return true;
  return false;
}
constexpr bool pages_agree() {
  for (const char* v : kViews)
    if (!has_page(v)) return false;
  for (const ViewRow& r : kViewTable)
    if (r.page && !is_view(r.page)) return false;
  return true;
}
constexpr bool one_row_per_id() {
  for (size_t i = 0; i < kViewCount; ++i)
    for (size_t j = i + 1; j < kViewCount; ++j)
      if (kViewTable[i].id == kViewTable[j].id || same(kViewTable[i].card, kViewTable[j].card) ||
          (kViewTable[i].tab && same(kViewTable[i].tab, kViewTable[j].tab)))
        return false;
  return static_cast<size_t>(ViewId::Stress) + 1 == kViewCount;
}
constexpr bool train_tabs_are_tabs() {
  for (const PageTab& t : kTrainTabs) {
    bool found = false;
    for (const ViewRow& r : kViewTable) found = found || same(r.tab, t.tab);
    if (!found) return false;
  }
  return true;
}
}  // namespace view_table_detail

// The values `tab` accepts: the rows' tabs, in button order.
constexpr std::array<const char*, view_table_detail::tab_count()> kTabs = view_table_detail::tabs();

static_assert(view_table_detail::pages_agree(), "every page of kViews has a row, every row's page is in kViews");
static_assert(view_table_detail::one_row_per_id(), "one row per ViewId, ids, cards and tabs unique");
static_assert(view_table_detail::train_tabs_are_tabs(), "the training page's tabs are names kTabs accepts");

}  // namespace headroom::app
