// export_tests.cpp: the views' numbers as files (app/state/export.h). The JSON is
// checked against getState()'s own document (the numbers a host already
// reads) and against independent references: softmax of the exported scores
// by a naive loop gives the exported weights, the exported W_O parts add up
// to y recomputed by a naive loop over the Scene's W_O, and every CSV row
// (parsed by a small RFC 4180 reader here) equals its JSON number. Also: a
// bad view or format is refused by name, and the compact layout's tab goes
// through the hash and back.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "app/state/demo.h"
#include "app/state/export.h"
#include "app/state/url_state.h"
#include "json_read.h"

using namespace headroom;
using namespace headroom::app;

namespace {

constexpr double kSoftmaxTol = 1e-5;  // float softmax vs the double loop
constexpr double kSumTol = 1e-4;      // sum of D float products vs the Trace's y

jsonr::Value parse_or_fail(const std::string& text) {
  jsonr::Value v;
  size_t where = 0;
  const bool ok = jsonr::parse(text, v, &where);
  INFO("JSON fails at offset " << where);
  REQUIRE(ok);
  return v;
}

jsonr::Value exported(Demo& d, const char* view, const char* format = "json") {
  std::string text;
  const Status s = export_view(d, view, format, text);
  INFO(s.error);
  REQUIRE(s);
  return parse_or_fail(text);
}

// The same numbers, exactly (both documents print the same floats).
void check_same(const jsonr::Value& a, const jsonr::Value& b, const std::string& where) {
  INFO(where);
  REQUIRE(a.kind == b.kind);
  if (a.kind == jsonr::Value::Number) CHECK(a.num == b.num);
  if (a.kind == jsonr::Value::String) CHECK(a.str == b.str);
  if (a.kind == jsonr::Value::Bool) CHECK(a.b == b.b);
  if (a.kind == jsonr::Value::Array) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) check_same(a[i], b[i], where + "[" + std::to_string(i) + "]");
  }
  if (a.kind == jsonr::Value::Object) {
    REQUIRE(a.size() == b.size());
    for (const auto& [k, v] : a.fields) {
      REQUIRE(b.get(k) != nullptr);
      check_same(v, b[k], where + "." + k);
    }
  }
}

// RFC 4180: fields split on commas, quoted fields may hold commas, quotes
// (doubled) and line breaks.
std::vector<std::vector<std::string>> read_csv(const std::string& s) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false, was_quoted = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (quoted) {
      if (c == '"' && i + 1 < s.size() && s[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"' && field.empty() && !was_quoted) {
      quoted = was_quoted = true;
    } else if (c == ',' || c == '\n') {
      rows.back().push_back(field);
      field.clear();
      was_quoted = false;
      if (c == '\n') rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

// CSV rows of `quantity` as (head, row, column) -> value.
std::map<std::tuple<std::string, std::string, std::string>, double> csv_numbers(
    const std::vector<std::vector<std::string>>& rows, const std::string& quantity) {
  std::map<std::tuple<std::string, std::string, std::string>, double> out;
  for (const auto& r : rows)
    if (r.size() == 7 && r[0] == quantity && !r[6].empty()) out[{r[2], r[3], r[4]}] = std::stod(r[6]);
  return out;
}

}  // namespace

TEST_CASE("export: attention's weights and scores are getState()'s, and softmax of the scores gives the weights") {
  Demo d;
  REQUIRE(d.set_heads(2));
  const jsonr::Value state = parse_or_fail(state_json(d));
  const jsonr::Value e = exported(d, "attention");
  CHECK(e["view"].str == "attention");
  check_same(e["weights"], state["weights"], "weights");
  check_same(e["scores"], state["scores"], "scores");
  check_same(e["tokens"], state["tokens"], "tokens");
  CHECK(e["query"].num == state["query"].num);
  const size_t H = e["weightsMatrix"].size(), L = e["tokens"].size();
  REQUIRE(H == 2);
  const size_t q = static_cast<size_t>(e["query"].num);
  double worst = 0;
  for (size_t h = 0; h < H; ++h) {
    check_same(e["weightsMatrix"][h][q], state["weights"][h], "the query's row of the matrix");
    for (size_t i = 0; i < L; ++i) {
      // softmax(scores[i]) by a double loop (max subtracted), against the exported weights
      const jsonr::Value& s = e["scoresMatrix"][h][i];
      double m = -1e300, z = 0;
      for (size_t j = 0; j < L; ++j) m = std::max(m, s[j].num);
      for (size_t j = 0; j < L; ++j) z += std::exp(s[j].num - m);
      for (size_t j = 0; j < L; ++j)
        worst = std::max(worst, std::fabs(std::exp(s[j].num - m) / z - e["weightsMatrix"][h][i][j].num));
    }
  }
  INFO("largest softmax difference " << worst);
  CHECK(worst < kSoftmaxTol);
}

TEST_CASE("export: the value space, targets and readout are getState()'s") {
  Demo d;
  const jsonr::Value state = parse_or_fail(state_json(d));
  const jsonr::Value values = exported(d, "values");
  check_same(values["valueSpace"], state["valueSpace"], "valueSpace");
  check_same(values["targets"], state["targets"], "targets");
  check_same(values["relations"], state["relations"], "relations");
  const jsonr::Value readout = exported(d, "readout");
  for (const char* k : {"readout", "carried", "carriedTargets", "knockout", "tieQK", "sentence", "focus"})
    check_same(readout[k], state[k], k);
}

TEST_CASE("export: concat's blocks are its columns, and the W_O parts add up to y (naive loop)") {
  Demo d;
  REQUIRE(d.set_heads(4));
  const jsonr::Value e = exported(d, "concat");
  const Scene& s = d.scene;
  const int D = s.d_model(), H = s.heads(), dh = D / H;
  REQUIRE(e["concat"].size() == static_cast<size_t>(D));
  REQUIRE(e["blocks"].size() == static_cast<size_t>(H));
  for (int h = 0; h < H; ++h) {
    const jsonr::Value& b = e["blocks"][static_cast<size_t>(h)];
    CHECK(b["columns"][0].num == h * dh);
    for (int c = 0; c < dh; ++c) CHECK(b["values"][static_cast<size_t>(c)].num == e["concat"][static_cast<size_t>(h * dh + c)].num);
  }
  // y_c = sum_k concat_k W_O[k][c] by a plain loop over the Scene's W_O.
  const Mat& wo = d.scene.weights().wo;
  double worst = 0, worst_parts = 0;
  for (int c = 0; c < D; ++c) {
    double y = 0, parts = 0;
    for (int k = 0; k < D; ++k) y += e["concat"][static_cast<size_t>(k)].num * wo(k, c);
    for (int h = 0; h < H; ++h) parts += e["woParts"][static_cast<size_t>(h)][static_cast<size_t>(c)].num;
    worst = std::max(worst, std::fabs(y - e["y"][static_cast<size_t>(c)].num));
    worst_parts = std::max(worst_parts, std::fabs(parts - e["y"][static_cast<size_t>(c)].num));
  }
  INFO("y by the loop vs exported y: " << worst << "; sum of parts vs y: " << worst_parts);
  CHECK(worst < kSumTol);
  CHECK(worst_parts < kSumTol);
}

TEST_CASE("export: train is train.state() itself, and its CSV holds every run's history") {
  Demo d;
  REQUIRE(d.train_step(30));
  const jsonr::Value e = exported(d, "train");
  check_same(e["train"], parse_or_fail(d.training.state_json()), "train");
  std::string csv;
  REQUIRE(export_view(d, "train", "csv", csv));
  const auto rows = read_csv(csv);
  for (const jsonr::Value& run : e["train"]["runs"].items) {
    const std::string name = "h" + std::to_string(static_cast<int>(run["heads"].num)) + (run["tieQK"].b ? "-tied" : "");
    size_t n = 0;
    for (const auto& r : rows) {
      if (r[0] != "loss" || r[1] != name) continue;
      const jsonr::Value& point = run["history"][std::stoul(r[3])];
      CHECK(std::stod(r[4]) == point[0].num);
      CHECK(std::stod(r[6]) == point[1].num);
      ++n;
    }
    CHECK(n == run["history"].size());
  }
}

TEST_CASE("export: every CSV number equals its JSON number; text with commas and quotes is quoted") {
  Demo d;
  REQUIRE(d.set_sentence("Ann said \"no, never\", and left."));
  REQUIRE(d.set_heads(2));
  std::string csv;
  REQUIRE(export_view(d, "lesson", "csv", csv));
  const auto rows = read_csv(csv);
  REQUIRE(rows.size() > 10);
  CHECK(rows[0] == std::vector<std::string>{"quantity", "run", "head", "row", "column", "label", "value"});
  for (const auto& r : rows) REQUIRE(r.size() == 7);
  const jsonr::Value e = exported(d, "lesson");
  // tokens, in order, as labels (a "," token and a quote token survive)
  std::vector<std::string> tokens;
  for (const auto& r : rows)
    if (r[0] == "token") tokens.push_back(r[5]);
  REQUIRE(tokens.size() == e["tokens"].size());
  for (size_t j = 0; j < tokens.size(); ++j) CHECK(tokens[j] == e["tokens"][j].str);
  CHECK(std::find(tokens.begin(), tokens.end(), ",") != tokens.end());
  // weights, scores, the value space's points, W_O parts
  for (const char* quantity : {"weights", "scores"}) {
    const auto numbers = csv_numbers(rows, quantity);
    size_t n = 0;
    for (size_t h = 0; h < e[quantity].size(); ++h)
      for (size_t j = 0; j < e[quantity][h].size(); ++j, ++n)
        CHECK(numbers.at({std::to_string(h + 1), std::to_string(static_cast<int>(e["query"].num)), std::to_string(j)}) ==
              e[quantity][h][j].num);
    CHECK(numbers.size() == n);
  }
  const auto xs = csv_numbers(rows, "valueSpace.x");
  for (size_t h = 0; h < e["valueSpace"].size(); ++h)
    for (size_t j = 0; j < e["tokens"].size(); ++j)
      CHECK(xs.at({std::to_string(h + 1), std::to_string(j), ""}) == e["valueSpace"][h]["points"][j][0].num);
  const auto parts = csv_numbers(rows, "woParts");
  CHECK(parts.size() == 2 * e["concat"].size());
}

TEST_CASE("export: a bad view or format is refused by name; png is the page's") {
  Demo d;
  std::string out = "untouched";
  Status s = export_view(d, "heatmaps", "csv", out);
  CHECK_FALSE(s);
  CHECK(out.empty());
  CHECK(s.error.find("heatmaps") != std::string::npos);
  CHECK(s.error.find("lesson") != std::string::npos);  // the accepted values are named
  s = export_view(d, "values", "xlsx", out);
  CHECK_FALSE(s);
  CHECK(s.error.find("png, csv or json") != std::string::npos);
  CHECK_FALSE(export_view(d, "values", "png", out));
  CHECK(check_export("values", "png"));
  for (const char* view : kViews)
    for (const char* format : {"csv", "json"}) {
      INFO(view << " " << format);
      CHECK(export_view(d, view, format, out));
      CHECK(!out.empty());
    }
  CHECK(export_file_name(d, "attention", "csv") == "headroom-attention-h1.csv");
}

TEST_CASE("tab: the compact layout's open tab goes through the hash and back") {
  Demo d;
  CHECK(d.hash().find("tab=") == std::string::npos);  // the default is left out
  for (const char* tab : kTabs) {
    REQUIRE(d.set_tab(tab));
    Demo other;
    REQUIRE(other.apply_hash(d.hash()));
    CHECK(other.tab == tab);
  }
  REQUIRE(d.set_tab("train"));
  CHECK(d.hash().find("tab=train") != std::string::npos);
  CHECK_FALSE(d.set_tab("loss"));
  CHECK(d.tab == "train");
  CHECK(d.error.find("tab") != std::string::npos);
  CHECK_FALSE(d.apply_hash("tab=Train"));
  CHECK(d.tab == "train");
  const UrlParse p = parse_url_hash("tab=steps&view=train");
  CHECK(p.messages.empty());
  CHECK(p.state.tab == std::optional<std::string>("steps"));
  CHECK(to_url_hash(p.state).find("tab=steps") != std::string::npos);
}
