// view_table_tests.cpp: the view table keeps the names the page's contract
// fixes (links, course pages and the JS API use them): the hash's view= and
// tab= values, the compact buttons' labels, the training page's tabs, and
// which page each card's Save menu exports. The expected lists are written
// out here, as they were before the table existed, not read from it.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "app/state/demo.h"
#include "app/lang/lang.h"
#include "app/state/url_state.h"
#include "app/state/view_rows.h"

using namespace headroom;
using namespace headroom::app;

TEST_CASE("view table: view= accepts the seven pages, in the order its refusal lists them") {
  const std::vector<std::string> want = {"lesson", "attention", "values", "readout", "concat", "steps", "train"};
  CHECK(std::vector<std::string>(kViews.begin(), kViews.end()) == want);
  Demo d;
  CHECK(d.view == "lesson");
  for (const std::string& v : want) CHECK(d.set_view(v));
  CHECK_FALSE(d.set_view("heatmap"));
  CHECK(d.error == "view=\"heatmap\" is not a view (lesson, attention, values, readout, concat, steps or train)");
}

TEST_CASE("view table: tab= accepts the compact buttons' tabs, labelled as before, values first") {
  const std::vector<std::string> tabs = {"values", "tokens", "attention", "heatmap", "heads", "concat", "steps", "train"};
  const std::vector<std::string> labels = {"Value space", "Tokens", "Attention", "Heatmap",
                                           "Heads hold",  "Concat", "Steps",     "Train"};
  CHECK(std::vector<std::string>(kTabs.begin(), kTabs.end()) == tabs);
  std::vector<std::string> got_tabs, got_labels;
  for (const ViewRow& r : kViewTable)
    if (r.tab) {
      got_tabs.push_back(r.tab);
      got_labels.push_back(r.label);
    }
  CHECK(got_tabs == tabs);
  CHECK(got_labels == labels);
  Demo d;
  CHECK(d.tab == "values");
  for (const std::string& t : tabs) CHECK(d.set_tab(t));
  CHECK_FALSE(d.set_tab("loss"));
  UrlParse p = parse_url_hash("#view=values&tab=heads");
  CHECK(p.messages.empty());
  CHECK(p.state.view == std::optional<std::string>("values"));
  CHECK(p.state.tab == std::optional<std::string>("heads"));
}

TEST_CASE("view table: the training page's tabs and every card's page") {
  const std::vector<std::string> train = {"train:Loss", "heads:Heads over time", "attention:Attention"};
  std::vector<std::string> got;
  for (const PageTab& t : kTrainTabs) got.push_back(std::string(t.tab) + ":" + t.label);
  CHECK(got == train);
  // Which page each card's Save menu exports (none: no Save button).
  const std::vector<std::string> cards = {
      "##sentence:lesson", "##value_space:values", "##attention:attention", "##heatmap:attention",
      "##heads_hold:readout", "##concat:concat", "##steps:steps", "##train:train", "##specialisation:train",
      "##controls:", "##stress:"};
  for (const std::string& c : cards) {
    const std::string card = c.substr(0, c.find(':')), page = c.substr(c.find(':') + 1);
    const ViewRow* row = nullptr;
    for (const ViewRow& r : kViewTable)
      if (card == r.card) row = &r;
    REQUIRE_MESSAGE(row, card);
    CHECK_MESSAGE(std::string(row->page ? row->page : "") == page, card);
  }
  CHECK(kViewCount == cards.size());
}

TEST_CASE("view table: every view's help starts in words, and every language carries its title and help") {
  // "Words first": the first four words hold no formula (no '_', '^', '=' or
  // "sum"); a symbol may come later, after the sentence that says it in words.
  auto first_words = [](const std::string& s) {
    std::string out;
    int words = 0;
    for (char c : s) {
      if (c == ' ' && ++words == 4) break;
      out += c;
    }
    return out;
  };
  int helps = 0;
  for (const app::ViewRow& row : app::kViewTable) {
    CAPTURE(row.card);
    REQUIRE(row.help != nullptr);
    ++helps;
    const std::string head = first_words(row.help);
    CAPTURE(head);
    CHECK(head.find_first_of("_^=") == std::string::npos);
    CHECK(head.find("sum") == std::string::npos);
    for (const app::Language& l : app::languages()) {
      if (l.code == "en") continue;
      CAPTURE(l.code);
      CHECK(l.strings.count(std::string(row.help)) == 1);
      if (row.title) CHECK(l.strings.count(std::string(row.title)) == 1);
    }
  }
  CHECK(helps == static_cast<int>(app::kViewCount));
  // The check itself: the old value-space help, which opened with its formula, fails it.
  CHECK(first_words("o_h = sum_j a_j v_j: each head outputs ONE weighted average").find_first_of("_^=") !=
        std::string::npos);
}
