// label_place.cpp: see label_place.h.
#include "ui/label_place.h"

#include <algorithm>
#include <cmath>

namespace headroom::ui {

namespace {

constexpr int kRings = 8;          // rings past the first, before the scan
constexpr int kLooseRings = 1;     // rings past the first for a label that need not show
constexpr float kRingStep = 7.f;   // px between rings
constexpr float kScanStep = 4.f;   // px between scan positions
constexpr float kLeaderSlack = 0.01f;  // px of rounding before a label counts as moved away

// The eight directions (dx, dy), y down: right first, or below first.
constexpr int kRightFirst[8][2] = {{1, 0}, {-1, 0}, {0, -1}, {0, 1}, {1, -1}, {1, 1}, {-1, -1}, {-1, 1}};
constexpr int kBelowFirst[8][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

Box inflate(const Box& b, float m) { return {b.x0 - m, b.y0 - m, b.x1 + m, b.y1 + m}; }

bool inside(const Box& r, const Box& bounds) {
  return r.x0 >= bounds.x0 && r.y0 >= bounds.y0 && r.x1 <= bounds.x1 && r.y1 <= bounds.y1;
}

// The label's rect `d` px from the anchor in direction (dx, dy): its near
// edge (or corner) at that distance, centred on the anchor across the other axis.
Box candidate(const LabelRequest& l, int dx, int dy, float d) {
  const float x0 = dx > 0 ? l.ax + d : dx < 0 ? l.ax - d - l.w : l.ax - l.w * 0.5f;
  const float y0 = dy > 0 ? l.ay + d : dy < 0 ? l.ay - d - l.h : l.ay - l.h * 0.5f;
  return {x0, y0, x0 + l.w, y0 + l.h};
}

}  // namespace

bool boxes_overlap(const Box& a, const Box& b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

void nearest_point(const Box& r, float x, float y, float& out_x, float& out_y) {
  out_x = std::clamp(x, r.x0, r.x1);
  out_y = std::clamp(y, r.y0, r.y1);
}

std::vector<Placement> place_labels(const std::vector<LabelRequest>& labels, const std::vector<Box>& obstacles,
                                    const Box& bounds, const PlaceOptions& options) {
  std::vector<Placement> out(labels.size());
  std::vector<Box> taken;  // placed labels, inflated by the margin
  taken.reserve(labels.size());
  const auto clear = [&](const Box& r) {
    if (!inside(r, bounds)) return false;
    const Box grown = inflate(r, options.margin);
    for (const Box& o : obstacles)
      if (boxes_overlap(grown, o)) return false;
    for (const Box& t : taken)
      if (boxes_overlap(grown, t)) return false;
    return true;
  };
  for (size_t i = 0; i < labels.size(); ++i) {
    const LabelRequest& l = labels[i];
    Placement& p = out[i];
    if (l.w <= 0 || l.h <= 0) continue;
    const auto& dirs = l.below_first ? kBelowFirst : kRightFirst;
    // Pass 1 and 2: the rings, nearest first.
    const int rings = l.must ? kRings : kLooseRings;
    for (int ring = 0; ring <= rings && !p.placed; ++ring) {
      for (const auto& d : dirs) {
        const Box r = candidate(l, d[0], d[1], l.gap + ring * kRingStep);
        if (clear(r)) {
          p = {r, true, false};
          break;
        }
      }
    }
    // Pass 3: the whole bounds, nearest clear spot to the anchor.
    if (!p.placed && l.must) {
      float best = INFINITY;
      for (float y = bounds.y0; y + l.h <= bounds.y1; y += kScanStep) {
        for (float x = bounds.x0; x + l.w <= bounds.x1; x += kScanStep) {
          const Box r{x, y, x + l.w, y + l.h};
          float nx, ny;
          nearest_point(r, l.ax, l.ay, nx, ny);
          const float dist = std::hypot(nx - l.ax, ny - l.ay);
          if (dist < best && dist >= l.gap && clear(r)) {
            best = dist;
            p = {r, true, false};
          }
        }
      }
    }
    if (!p.placed) continue;
    // A leader line when the label sits farther out than a corner of ring 0.
    float nx, ny;
    nearest_point(p.rect, l.ax, l.ay, nx, ny);
    p.leader = std::hypot(nx - l.ax, ny - l.ay) > l.gap * std::sqrt(2.f) + kLeaderSlack;
    taken.push_back(p.rect);
  }
  return out;
}

}  // namespace headroom::ui
