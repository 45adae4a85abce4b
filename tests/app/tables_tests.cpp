// tables_tests.cpp: the lists the wasm hands to the page's JS (app/state/tables.h)
// are valid JSON, list exactly the values the verbs and the hash accept
// (each listed one accepted, neighbours outside the list refused), and the
// apply order names every key the hash parses, in the order its reasons
// (url_state.h kApplyOrder) require.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>

#include "app/state/demo.h"
#include "app/state/export.h"
#include "app/state/tables.h"
#include "app/state/url_state.h"
#include "json_read.h"

using namespace headroom;
using namespace headroom::app;

namespace {

jsonr::Value tables() {
  std::string out;
  { JsonObject o(out); append_tables(o); }
  jsonr::Value v;
  REQUIRE(jsonr::parse(out, v));
  return v;
}

std::vector<std::string> strings(const jsonr::Value& a) {
  std::vector<std::string> out;
  for (const jsonr::Value& x : a.items) out.push_back(x.str);
  return out;
}

bool parses_clean(const std::string& hash) { return parse_url_hash(hash).messages.empty(); }

}  // namespace

TEST_CASE("tables: the apply order names every key the hash parses, once, in the order its reasons need") {
  const jsonr::Value t = tables();
  const jsonr::Value& order = t["applyOrder"];
  REQUIRE(order.kind == jsonr::Value::Array);
  std::vector<std::string> keys;
  for (const jsonr::Value& step : order.items) {
    keys.push_back(step["key"].str);
    CHECK(!step["field"].str.empty());
    // every key is one the parser knows: an empty value is refused, not "unknown"
    const std::vector<Status> ms = parse_url_hash(step["key"].str + "=").messages;
    REQUIRE(ms.size() == 1);
    CHECK(ms[0].error.find("has no value") != std::string::npos);
  }
  CHECK(std::set<std::string>(keys.begin(), keys.end()).size() == keys.size());
  // and the parser knows no key the order lacks: its list of known keys, from an unknown one
  const std::string m = parse_url_hash("nosuchkey=1").messages.at(0).error;
  const size_t at = m.find("(known: ");
  REQUIRE(at != std::string::npos);
  std::string known = m.substr(at + 8, m.size() - at - 9);
  size_t n = 1;
  for (char c : known) n += c == ',';
  CHECK(n == keys.size());
  for (const std::string& k : keys) CHECK(known.find(k) != std::string::npos);
  // the reasons for the order (url_state.h), each a pair that must not swap
  const auto pos = [&](const char* k) { return std::find(keys.begin(), keys.end(), k) - keys.begin(); };
  CHECK(pos("lang") < pos("sentence"));      // a page on its lesson opens on the new language's
  CHECK(pos("sentence") < pos("query"));     // an index means a token of the new sentence
  CHECK(pos("heads") < pos("knockout"));     // a new head count clears the knockout
  CHECK(pos("tieqk") < pos("seed"));         // the runs a seed or r starts train tied as the link says
  CHECK(pos("r") < pos("weights"));          // the choice applies to the new runs
  CHECK(pos("tour") == static_cast<long>(keys.size()) - 1);  // a step sets the heads and controls last
  // the field names getState() uses
  for (const jsonr::Value& step : order.items)
    if (step["key"].str == "tieqk") CHECK(step["field"].str == "tieQK");
}

TEST_CASE("tables: each value list holds exactly what the verbs and the hash accept") {
  const jsonr::Value t = tables();
  // heads: the Scene takes exactly the listed counts of 0 .. 16
  std::set<int> heads;
  for (const jsonr::Value& h : t["heads"].items) heads.insert(static_cast<int>(h.num));
  Scene scene;
  for (int h = 0; h <= 16; ++h) CHECK(scene.set_heads(h).is_ok() == (heads.count(h) == 1));
  // r: the hash takes exactly the listed numbers of related tokens of 0 .. 8
  std::set<int> rs;
  for (const jsonr::Value& r : t["trainR"].items) rs.insert(static_cast<int>(r.num));
  for (int r = 0; r <= 8; ++r) CHECK(parses_clean("r=" + std::to_string(r)) == (rs.count(r) == 1));
  // the strings: each accepted, and a near miss refused
  Demo d;
  for (const std::string& v : strings(t["views"])) CHECK(d.set_view(v));
  for (const std::string& v : strings(t["themes"])) CHECK(d.set_theme(v));
  for (const std::string& v : strings(t["tabs"])) CHECK(d.set_tab(v));
  for (const std::string& v : strings(t["weights"])) CHECK(parses_clean("weights=" + v));
  for (const std::string& f : strings(t["exportFormats"])) CHECK(check_export("lesson", f).is_ok());
  for (const std::string& c : strings(t["languages"])) CHECK(d.set_language(c));
  CHECK(d.set_language(strings(t["languages"]).at(0)));  // the language is the process's: back to the first
  CHECK(!d.set_view("lessons"));
  CHECK(!parses_clean("weights=train"));
  CHECK(!check_export("lesson", "svg").is_ok());
  CHECK(strings(t["views"]).size() >= 7);
  CHECK(strings(t["languages"]).size() >= 2);
  // the tour's steps: 1 .. tourSteps, and no further
  const int steps = static_cast<int>(t["tourSteps"].num);
  CHECK(parses_clean("tour=" + std::to_string(steps)));
  CHECK(!parses_clean("tour=" + std::to_string(steps + 1)));
  // the seed's cap: the hash takes it, and refuses one more
  const long long max_seed = static_cast<long long>(t["maxSeed"].num);
  CHECK(parses_clean("seed=" + std::to_string(max_seed)));
  CHECK(!parses_clean("seed=" + std::to_string(max_seed + 1)));
  // training's head counts are a subset of the lesson's
  for (const jsonr::Value& h : t["trainHeads"].items) CHECK(heads.count(static_cast<int>(h.num)) == 1);
}
