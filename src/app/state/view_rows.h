// view_rows.h: the page's views, one row each: the names the URL hash,
// the compact layout's buttons, the full layout's cards and the Save menus
// know them by.
//
// Does: list every view once (kViewTable: id, the hash's tab= name and its
// button's label, the hash's view= page it belongs to, its card's id, its
// card's title and "(?)" help as the views draw them, what it shows), and
// derive from it the values the hash's `tab` accepts
// (kTabs: the rows' tabs in button order). `view` accepts kViews: the whole
// lesson (kLessonPage) or one page of rows (a single-view embed); a check
// below ties the two lists together, so a page nobody draws, or a row whose
// page the hash refuses, does not compile. Adding a view is one row here
// (and its draw function in src/ui/view_draws.cpp, bound by id).
// Does not: draw (src/ui binds each row's draw function; this header
// includes no ImGui), or decide where the full layout puts a card (ui.cpp).
#pragma once
#include <array>
#include <cstddef>

#include "app/lang/lang_mark.h"  // labels are catalogue keys (app/lang/lang.h)

namespace headroom::app {

enum class ViewId { Values, Sentence, Attention, Heatmap, Heads, Concat, Steps, Train, Specialisation, Controls, Stress };

struct ViewRow {
  ViewId id;
  const char* tab;    // the hash's tab= name and the compact layout's button (nullptr: not a tab)
  const char* label;  // that button's label
  // The hash's view= page the view belongs to: a single-view embed of that
  // page shows it, and its card's Save menu exports that page (nullptr: none).
  const char* page;
  const char* card;   // its card's ImGui id in the full layout
  const char* title;  // its card's title (a catalogue key; nullptr: the card has none)
  // Its "(?)" help, in the learner's words first and symbols after (a
  // catalogue key; view_table_tests checks every one starts in words).
  const char* help;
  const char* shows;  // what it shows, in one line (for this file's readers)
};

// In the order of the compact layout's buttons; the first tab is the default
// (the value space, where the single head's midpoint is). Views without a
// tab after them.
constexpr ViewRow kViewTable[] = {
    {ViewId::Values, "values", N_("Value space"), "values", "##value_space", N_("Value space"),
     N_("Each head hands on ONE weighted average of the tokens' values (what each token passes on): its "
        "output is a blend, not a choice. Drawn in the plane of the selected token's two targets' values, "
        "with true lengths and angles; the average is linear, so the output lands at the same blend of the "
        "points. Formula: o_h = sum_j a_j v_j, with v_j = x_j W_V^h."),
     "per head, the value vectors in 2-D and the head's output among them"},
    {ViewId::Sentence, "tokens", N_("Tokens"), "lesson", "##sentence", N_("Sentence"),
     N_("The sentence's words and marks (tokens). The selected token asks the question (the query): "
        "each head compares it with every token to decide how much to take from each. A mark under "
        "a token: that head's target. The buttons below name the selected token's relationships "
        "and their targets, each in its relationship's colour. In symbols: tokens x_1..x_L "
        "(L x d_model); q_h = x W_Q^h is compared with every key k_j = x_j W_K^h."),
     "the tokens as chips with each head's target marks; a click makes a chip the query, or (armed) reassigns a "
     "target"},
    {ViewId::Attention, "attention", N_("Attention"), "attention", "##attention", N_("Attention from the selected token"),
     N_("Where each head looks from the selected token: one bar per token and head, as tall (or long) "
        "as the weight the head gives that token, and an arc of that thickness; each head's weights "
        "add up to 1. Outlined: the token that head should read (its target). Formula: a_h[q, j] = "
        "softmax_j(q_h . k_j / sqrt(d_head))."),
     "per head, the query's weights as bars with numbers, and arcs from the query to every key"},
    {ViewId::Heatmap, "heatmap", N_("Heatmap"), "attention", "##heatmap", N_("Every token's attention, per head"),
     N_("Each square is a grid of weights: row i is the token that looks, column j the token it takes "
        "from, and the colour says how much (dark 0, yellow 1); every row adds up to 1. The framed "
        "row is the selected token. Tap or click a square to read it (and to select that row's token). "
        "Formula: A_h = softmax(Q_h K_h^T / sqrt(d_head)), L x L, colour = viridis(a_ij)."),
     "per head, the full L x L weights as a heatmap (a GLSL program)"},
    {ViewId::Heads, "heads", N_("Heads hold"), "readout", "##heads_hold", N_("What each head holds"),
     N_("Each head is built to look for one relationship (the verb's subject, the token before, ...): "
        "its matrices give that relationship's target the highest score. With H heads they are dealt "
        "out one per head; one head has to hold two at once. Similarity: how closely the head's output "
        "points the same way as the target's value (1 = same direction); nearest: the token whose value "
        "it is most similar to. In symbols: relationship = bilinear form x_i W_Q W_K^T x_j; similarity "
        "= cos(o_h, v_target); nearest = argmax_j cos(o_h, v_j)."),
     "what each head holds: its relationships by name, their targets, the readout's numbers"},
    {ViewId::Concat, "concat", N_("Concat"), "concat", "##concat", N_("Heads side by side, then mixed"),
     N_("The heads' results for the selected token, laid side by side in one list of 128 numbers: "
        "each head fills its own stretch, so none is averaged away. Then one matrix, W_O, mixes them "
        "into the layer's output; each head's share of the output is drawn on its own row, and the "
        "shares add up to it. Formulas: concat = [o_1 | ... | o_H] (1 x D, head h in columns "
        "h*d_head..(h+1)*d_head-1); y = concat W_O = sum_h o_h W_O[h rows]."),
     "the concatenation of the heads' outputs, and W_O's mix of it"},
    {ViewId::Steps, "steps", N_("Steps"), "steps", "##steps", N_("Step through the forward pass"),
     N_("The layer's work for the selected token, one step at a time, with the engine's own numbers: "
        "queries and keys, their match scores, the weights, each head's weighted average, the heads "
        "side by side, and the final mix. Formulas: Q_h = X W_Q^h, K_h = X W_K^h, V_h = X W_V^h; "
        "S_h = Q_h K_h^T / sqrt(d_head); A_h = softmax(S_h); O_h = A_h V_h; C = [O_1 | ... | O_H]; "
        "Y = C W_O."),
     "the forward pass for the query, step by step"},
    {ViewId::Train, "train", N_("Train"), "train", "##train", N_("Training from random weights"),
     N_("Three small models, with 1, 2 and 4 heads, learn the same task from random weights, side by "
        "side: the same seed, the same examples and the same number of parameters (each head gets "
        "128 / H numbers). The task: the selected token must copy out the contents of its related "
        "tokens, each into its own slot. The curve is the error on examples held out from training "
        "(predicting zero scores 1); the dashed line is the lowest error each head count can reach. "
        "Formulas: loss = sum over masked positions of |y - target|^2 / (positions * T * R/T); floor "
        "= 1 - min(H, R) / R; Adam; x = log10(1 + step)."),
     "training: run buttons, settings, and every run's loss on one chart with its floor dashed"},
    {ViewId::Specialisation, nullptr, nullptr, "train", "##specialisation", N_("Which token each head attends to, as it trains"),
     N_("For every run and each of its heads: how much weight the selected token puts on each of its "
        "related tokens, on average over held-out examples, as training goes on (one line per "
        "relationship, in that relationship's colour everywhere). Each head's title names the "
        "relationship it puts most weight on now, with that weight; once the weight stays at 0.5 or "
        "more the head has picked it (the dashed mark shows from when), and a '?' says it has not "
        "yet. Rows marked tied: query and key share one matrix. In symbols: weightOn[h][r] = mean of "
        "a_{q, target_r}, a = softmax(q k^T / sqrt(d_head)); x = log10(1 + step)."),
     "per run and head, the held-out weight its query puts on each related token, step by step"},
    {ViewId::Controls, nullptr, nullptr, nullptr, "##controls", nullptr,
     N_("Knock out a head: its result is thrown away (set to zero) before the heads' results are mixed, so "
        "the final output no longer sees it. Tie query = key: every head uses one matrix both to ask and to "
        "be found, so token i scores token j exactly as j scores i. Formulas: knocked out, o_h = 0 before "
        "W_O; tied, W_K = W_Q and score(i -> j) = q_i . q_j / sqrt(d_head) = score(j -> i)."),
     "knockout toggles per head, the query/key tie, and what the output still carries of each target"},
    {ViewId::Stress, nullptr, nullptr, nullptr, "##stress", N_("Stress: the engine at real sizes"),
     N_("The sentence repeated up to 512 tokens, and the whole layer worked out again every frame, to "
        "show how fast the engine is at sizes real models use. Time = the median of the last 60 "
        "frames. Formulas: Y = concat_h(softmax(Q_h K_h^T / sqrt(d_head)) V_h) W_O for L tokens; "
        "FLOPs = 2 L D^2 * 4 + 4 L^2 D."),
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
