// label_place_tests.cpp: the value space's label placer (src/ui/label_place.h),
// natively, with no ImGui. Overlaps are judged here by an intersection area
// computed independently of the placer's own boxes_overlap; positions are
// derived by hand from the anchor, size and gap.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ui/label_place.h"

using headroom::ui::Box;
using headroom::ui::LabelRequest;
using headroom::ui::Placement;
using headroom::ui::place_labels;

namespace {

// Shared area of a and b (0 when they only touch or are apart).
float shared_area(const Box& a, const Box& b) {
  const float w = std::min(a.x1, b.x1) - std::max(a.x0, b.x0);
  const float h = std::min(a.y1, b.y1) - std::max(a.y0, b.y0);
  return w > 0 && h > 0 ? w * h : 0.f;
}

Box grow(const Box& b, float m) { return {b.x0 - m, b.y0 - m, b.x1 + m, b.y1 + m}; }

// Distance from (x, y) to the nearest point of r.
float distance_to(const Box& r, float x, float y) {
  const float dx = std::max({r.x0 - x, 0.f, x - r.x1}), dy = std::max({r.y0 - y, 0.f, y - r.y1});
  return std::hypot(dx, dy);
}

// A marker of radius r at (x, y), as the view reports it.
Box marker(float x, float y, float r) { return {x - r, y - r, x + r, y + r}; }

LabelRequest label(float x, float y, float w, float h, float gap, bool must = false) {
  LabelRequest l;
  l.ax = x, l.ay = y, l.w = w, l.h = h, l.gap = gap, l.must = must;
  return l;
}

// Every placed label inside the bounds, clear of the markers and of each
// other by `margin` (less a rounding hair), and a leader exactly when it
// sits farther from its anchor than its gap.
void check_clear(const std::vector<LabelRequest>& in, const std::vector<Placement>& out,
                 const std::vector<Box>& markers, const Box& bounds, float margin) {
  REQUIRE(out.size() == in.size());
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i].placed) continue;
    const Box& r = out[i].rect;
    CAPTURE(i);
    CHECK(r.x1 - r.x0 == doctest::Approx(in[i].w));
    CHECK(r.y1 - r.y0 == doctest::Approx(in[i].h));
    CHECK((r.x0 >= bounds.x0 && r.y0 >= bounds.y0 && r.x1 <= bounds.x1 && r.y1 <= bounds.y1));
    for (const Box& m : markers) CHECK(shared_area(grow(r, margin - 0.01f), m) == 0.f);
    for (size_t j = 0; j < i; ++j)
      if (out[j].placed) CHECK(shared_area(grow(r, margin - 0.01f), out[j].rect) == 0.f);
    const float d = distance_to(r, in[i].ax, in[i].ay);
    CHECK(d >= in[i].gap - 0.01f);
    CHECK(out[i].leader == (d > in[i].gap * std::sqrt(2.f) + 0.01f));
    // A label that need not show stays within one ring (7 px) of ring 0.
    if (!in[i].must) CHECK(d <= (in[i].gap + 7.f) * std::sqrt(2.f) + 0.01f);
  }
}

}  // namespace

TEST_CASE("a lone label sits right of its anchor, its near edge one gap away, centred, with no leader") {
  const std::vector<Placement> p = place_labels({label(100, 100, 40, 12, 8)}, {}, {0, 0, 300, 200});
  REQUIRE(p[0].placed);
  CHECK(p[0].rect.x0 == doctest::Approx(108));
  CHECK(p[0].rect.y0 == doctest::Approx(94));
  CHECK(p[0].rect.x1 == doctest::Approx(148));
  CHECK(p[0].rect.y1 == doctest::Approx(106));
  CHECK_FALSE(p[0].leader);
}

TEST_CASE("the output's label (below first) goes under its marker") {
  LabelRequest l = label(150, 80, 60, 14, 12);
  l.below_first = true;
  const std::vector<Placement> p = place_labels({l}, {marker(150, 80, 9)}, {0, 0, 300, 200});
  REQUIRE(p[0].placed);
  CHECK(p[0].rect.y0 == doctest::Approx(92));
  CHECK((p[0].rect.x0 + p[0].rect.x1) * 0.5f == doctest::Approx(150));
}

TEST_CASE("at the right edge a label turns to the left of its anchor") {
  const std::vector<Placement> p = place_labels({label(290, 100, 40, 12, 8)}, {}, {0, 0, 300, 200});
  REQUIRE(p[0].placed);
  CHECK(p[0].rect.x1 == doctest::Approx(282));
  CHECK_FALSE(p[0].leader);
}

TEST_CASE("the finding: 'output' and 'researcher' 6 px apart are never drawn into each other") {
  // Sizes of the two words in the 15 px fonts; anchors as the 390 px phone had them.
  const std::vector<Box> markers = {marker(200, 100, 9), marker(206, 103, 6.5f)};
  LabelRequest out = label(200, 100, 44, 15, 12, true);
  out.below_first = true;
  const std::vector<LabelRequest> in = {out, label(206, 103, 70, 15, 9.5f, true)};
  const Box bounds{0, 0, 390, 240};
  const std::vector<Placement> p = place_labels(in, markers, bounds);
  REQUIRE((p[0].placed && p[1].placed));
  check_clear(in, p, markers, bounds, 2.f);
}

TEST_CASE("earlier labels win: two labels on one anchor take different sides") {
  const std::vector<LabelRequest> in = {label(100, 100, 40, 12, 8), label(100, 100, 40, 12, 8)};
  const std::vector<Placement> p = place_labels(in, {}, {0, 0, 300, 200});
  REQUIRE((p[0].placed && p[1].placed));
  CHECK(p[0].rect.x0 == doctest::Approx(108));  // right, as if alone
  CHECK(p[1].rect.x1 == doctest::Approx(92));   // then left
  CHECK_FALSE(p[1].leader);
}

TEST_CASE("with every near spot taken a label moves out and asks for a leader line") {
  // A wall of markers around the anchor, 16 px out on every side.
  std::vector<Box> markers;
  for (float x = 60; x <= 140; x += 8) markers.push_back(marker(x, 84, 3)), markers.push_back(marker(x, 116, 3));
  for (float y = 84; y <= 116; y += 8) markers.push_back(marker(60, y, 3)), markers.push_back(marker(140, y, 3));
  const std::vector<LabelRequest> in = {label(100, 100, 30, 12, 8, true)};
  const Box bounds{0, 0, 300, 200};
  const std::vector<Placement> p = place_labels(in, markers, bounds);
  REQUIRE(p[0].placed);
  CHECK(p[0].leader);
  check_clear(in, p, markers, bounds, 2.f);
  float nx = 0, ny = 0;
  headroom::ui::nearest_point(p[0].rect, 100, 100, nx, ny);
  CHECK(distance_to(p[0].rect, nx, ny) == doctest::Approx(0.f));  // on the rect
  CHECK(std::hypot(nx - 100, ny - 100) == doctest::Approx(distance_to(p[0].rect, 100, 100)));
}

TEST_CASE("a label that must show finds the one free hole of a crowded panel; one that need not is left out") {
  // Markers every 14 px over the whole panel except a 70 x 34 hole far from the anchor.
  const Box hole{200, 140, 270, 174};
  std::vector<Box> markers;
  for (float y = 5; y < 200; y += 14)
    for (float x = 5; x < 300; x += 14)
      if (shared_area(marker(x, y, 3), grow(hole, 0)) == 0.f) markers.push_back(marker(x, y, 3));
  const Box bounds{0, 0, 300, 200};
  const std::vector<LabelRequest> in = {label(40, 40, 50, 14, 6, false), label(40, 40, 50, 14, 6, true)};
  const std::vector<Placement> p = place_labels(in, markers, bounds);
  CHECK_FALSE(p[0].placed);
  REQUIRE(p[1].placed);
  CHECK(p[1].leader);
  CHECK(shared_area(p[1].rect, hole) > 0.f);  // in the hole (the only room there is)
  check_clear(in, p, markers, bounds, 2.f);
}

TEST_CASE("a label larger than its bounds, or of no size, is not placed") {
  const std::vector<Placement> p =
      place_labels({label(50, 50, 400, 12, 8, true), label(50, 50, 0, 0, 8, true)}, {}, {0, 0, 300, 200});
  CHECK_FALSE(p[0].placed);
  CHECK_FALSE(p[1].placed);
}

TEST_CASE("property: 300 random panels, every placed label inside, clear of markers and of each other") {
  std::mt19937 rng(15);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  int placed = 0, total = 0, leaders = 0;
  for (int scene = 0; scene < 300; ++scene) {
    const Box bounds{10, 20, 10 + 160 + 300 * u(rng), 20 + 100 + 200 * u(rng)};
    const int n = 2 + static_cast<int>(u(rng) * 12);
    std::vector<Box> markers;
    std::vector<LabelRequest> in;
    for (int i = 0; i < n; ++i) {
      // Anchors bunch up in one corner half the time (tokens sharing a spot).
      const float spread = scene % 2 ? 1.f : 0.25f;
      const float x = bounds.x0 + 8 + (bounds.x1 - bounds.x0 - 16) * spread * u(rng);
      const float y = bounds.y0 + 8 + (bounds.y1 - bounds.y0 - 16) * spread * u(rng);
      const float r = 4.f + 5.f * u(rng);
      markers.push_back(marker(x, y, r));
      in.push_back(label(x, y, 20 + 90 * u(rng), 15, r + 3, i < 2));
    }
    const std::vector<Placement> p = place_labels(in, markers, bounds);
    CAPTURE(scene);
    check_clear(in, p, markers, bounds, 2.f);
    for (const Placement& q : p) placed += q.placed, leaders += q.leader;
    total += n;
    // The first two (must) labels are always placed in panels this roomy.
    CHECK((p[0].placed && p[1].placed));
  }
  MESSAGE(placed << " of " << total << " labels placed, " << leaders << " with leader lines");
  CHECK(placed > total / 2);  // a sanity floor: most labels find room even in bunched panels
}
