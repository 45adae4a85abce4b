// first_picture_tests.cpp: the build-time first picture (src/tools/first_picture)
// says what the engine says, in every language.
//
// Does: for each built-in language, write the picture's markup, read its
// numbers back from the data-* attributes (every token's point in the value
// plane, the one head's output, the weights of the lines, the tokens of the
// chips, the query, which points are the targets) and compare them with a
// Demo of its own in that language (Scene::value_maps(), readout(),
// trace()); check the output is the midpoint the lesson is about, that the
// words are the catalogue's, and that the palette's CSS has every colour of
// palette_colors.h.
// Does not: lay the picture out or look at it (the browser suite
// tests/browser/first_picture.test.mjs does).
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "app/lang/describe.h"
#include "app/lang/lang.h"
#include "app/lang/output_kind.h"
#include "app/state/demo.h"
#include "tools/first_picture/first_picture.h"
#include "ui/palette_colors.h"

namespace {

using headroom::tools::html_escape;

// The engine's numbers and the picture's, written with 9 significant digits.
constexpr double kSame = 1e-6;

struct PointSeen {
  std::string cls;
  double x = 0, y = 0;
};

// Every point mark of the markup: token -> its class and plane coordinates.
std::map<int, PointSeen> points_in(const std::string& html) {
  static const std::regex re(R"re(<circle class="(fp-target|fp-token[^"]*)"[^>]* data-token="(\d+)" data-x="([^"]+)" data-y="([^"]+)")re");
  std::map<int, PointSeen> out;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), re); it != std::sregex_iterator(); ++it)
    out[std::stoi((*it)[2])] = {(*it)[1], std::stod((*it)[3]), std::stod((*it)[4])};
  return out;
}

// The output's mark: its plane coordinates (two numbers), or none.
std::vector<double> output_in(const std::string& html) {
  static const std::regex re(R"re(data-output="1" data-x="([^"]+)" data-y="([^"]+)")re");
  std::smatch m;
  if (!std::regex_search(html, m, re)) return {};
  return {std::stod(m[1]), std::stod(m[2])};
}

// The chips' tokens, in order.
std::vector<std::string> chips_in(const std::string& html) {
  static const std::regex re(R"re(<span class="fp-chip[^"]*" data-token="(\d+)">([^<]*)</span>)re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), re); it != std::sregex_iterator(); ++it) {
    CHECK(std::stoi((*it)[1]) == static_cast<int>(out.size()));
    out.push_back((*it)[2]);
  }
  return out;
}

// The mixing lines: token -> weight.
std::map<int, double> mix_in(const std::string& html) {
  static const std::regex re(R"re(class="fp-mix"[^>]*data-token="(\d+)" data-weight="([^"]+)")re");
  std::map<int, double> out;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), re); it != std::sregex_iterator(); ++it)
    out[std::stoi((*it)[1])] = std::stod((*it)[2]);
  return out;
}

}  // namespace

TEST_CASE("first picture: every language's plane, output and tokens are the engine's") {
  for (const std::string& code : headroom::app::language_code_list()) {
    CAPTURE(code);
    const std::string html = headroom::tools::picture_html(headroom::tools::make_picture(code));
    headroom::app::Demo demo;
    REQUIRE(demo.set_language(code));
    const headroom::Scene& scene = demo.scene;
    const headroom::ValueMap& m = scene.value_maps()[0];
    const headroom::HeadReadout& r = scene.readout()[0];
    REQUIRE(scene.heads() == 1);
    REQUIRE(r.targets.size() == 2);

    // The tokens, the query, one head.
    std::vector<std::string> tokens;
    for (const headroom::Token& t : scene.tokens()) tokens.push_back(html_escape(t.text));
    CHECK(chips_in(html) == tokens);
    CHECK(html.find("data-query=\"" + std::to_string(scene.query()) + "\"") != std::string::npos);
    CHECK(html.find("class=\"fp-head-button fp-on\" data-heads=\"1\"") != std::string::npos);
    CHECK(html.find("lang=\"" + code + "\"") != std::string::npos);

    // Every point, the targets among them, and the output.
    const std::map<int, PointSeen> seen = points_in(html);
    REQUIRE(seen.size() == tokens.size());
    for (const auto& seen_point : seen) {  // (no structured binding: clang 14 cannot capture one in CAPTURE)
      const int j = seen_point.first;
      const PointSeen& pt = seen_point.second;
      CAPTURE(j);
      CHECK(std::fabs(pt.x - m.points(j, 0)) < kSame);
      CHECK(std::fabs(pt.y - m.points(j, 1)) < kSame);
      const bool target = j == r.targets[0] || j == r.targets[1];
      CHECK((pt.cls == "fp-target") == target);
    }
    const std::vector<double> out = output_in(html);
    REQUIRE(out.size() == 2);
    CHECK(std::fabs(out[0] - m.output(0)) < kSame);
    CHECK(std::fabs(out[1] - m.output(1)) < kSame);

    // The lines from the output: the query's weights (those of 0.01 or more).
    const headroom::Mat& w = scene.trace().heads[0].weights;
    for (const auto& [j, wj] : mix_in(html)) CHECK(std::fabs(wj - w(scene.query(), j)) < kSame);
    CHECK(mix_in(html).count(r.targets[0]) == 1);
    CHECK(mix_in(html).count(r.targets[1]) == 1);
    // A strict CSP (style-src without 'unsafe-inline') forbids style attributes.
    CHECK(html.find("style=") == std::string::npos);
  }
}

TEST_CASE("first picture: the output it draws is the midpoint of the two targets") {
  for (const std::string& code : headroom::app::language_code_list()) {
    CAPTURE(code);
    const headroom::tools::Picture p = headroom::tools::make_picture(code);
    headroom::app::Demo demo;
    REQUIRE(demo.set_language(code));
    CHECK(headroom::app::measure_output(demo.scene, demo.scene.readout()[0]).kind == headroom::app::OutputKind::Midpoint);
    const auto& a = p.points[static_cast<size_t>(p.targets[0])];
    const auto& b = p.points[static_cast<size_t>(p.targets[1])];
    const float mid_x = (a.x + b.x) / 2, mid_y = (a.y + b.y) / 2;
    const float gap = std::hypot(b.x - a.x, b.y - a.y);
    CAPTURE(gap);
    CHECK(std::hypot(p.output.x - mid_x, p.output.y - mid_y) < 0.15f * gap);
  }
}

TEST_CASE("first picture: the end mark is the picture's last child, so the page shows it only once parsed whole") {
  const std::string html = headroom::tools::picture_html(headroom::tools::make_picture("en"));
  const std::string end = "<i class=\"fp-end\"></i></div>";
  REQUIRE(html.size() > end.size());
  CHECK(html.compare(html.size() - end.size(), end.size(), end) == 0);
  CHECK(html.find("fp-end") == html.rfind("fp-end"));  // once
}

TEST_CASE("first picture: its words are the catalogue's, in its language") {
  for (const std::string& code : headroom::app::language_code_list()) {
    CAPTURE(code);
    const headroom::tools::Picture p = headroom::tools::make_picture(code);
    const std::string html = headroom::tools::picture_html(p);
    headroom::app::Demo demo;
    REQUIRE(demo.set_language(code));
    CHECK(p.words.heads == headroom::app::tr("Heads"));
    CHECK(p.words.readout == headroom::app::readout_sentence(demo.scene, true));
    CHECK(html.find(html_escape(p.words.readout)) != std::string::npos);
    CHECK(html.find(html_escape(p.words.output_label)) != std::string::npos);
    CHECK(html.find("aria-label=\"" + html_escape(headroom::app::describe_state(demo.scene)) + "\"") != std::string::npos);
    if (code != "en") CHECK(p.words.heads != "Heads");
  }
  (void)headroom::app::set_language("en");
}

TEST_CASE("first picture: the palette's CSS has every colour of both themes") {
  const std::string css = headroom::tools::palette_css();
  CHECK(css.find("--hr-window:#fafaf7;") != std::string::npos);
  CHECK(css.find("--hr-window:#121214;") != std::string::npos);
  CHECK(css.find(":root[data-theme=\"dark\"]{") != std::string::npos);
  for (const auto& row : headroom::ui::colors::kColorRows) {
    std::string name(row.name);
    for (char& c : name) c = c == '_' ? '-' : c;
    CHECK(css.find("--hr-" + name + ":") != std::string::npos);
  }
  CHECK(css.find("--hr-head1:#3373cc;") != std::string::npos);  // head 1, light
  CHECK(css.find("--hr-accent-bg:") != std::string::npos);
}
