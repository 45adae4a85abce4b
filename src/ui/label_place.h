// label_place.h: where labels go so that none covers another or a marker.
//
// Does: a small greedy placer, rects in, rects out. Each label has an anchor
// (the point it names), its size and how far from the anchor it starts (the
// marker's radius plus a gap). Labels are placed one by one in the order
// given (earlier ones win): the first candidate that stays inside the bounds
// and is clear of every obstacle (the markers) and every label placed so far
// is taken. Candidates, in order:
//   1. ring 0: the eight positions touching the anchor's gap (right, left,
//      above, below, then the corners; `below_first` starts below);
//   2. rings 1..kRings: the same eight directions kRingStep px farther out
//      each (a label that need not show tries only kLooseRings of them: a
//      token's name far from its point is more clutter than help);
//   3. only for a label that `must` be shown: a scan of the whole bounds on a
//      kScanStep px grid, the clear rect whose centre is nearest the anchor.
// A label farther from its anchor than ring 0's corners gets a leader line.
// A label with no clear candidate is not placed (the caller leaves it out:
// a missing label is better than one that hides another).
// Does not: draw, measure text, or know about ImGui (so native tests cover
// it: tests/ui/label_place_tests.cpp); move markers or anchors.
#pragma once
#include <vector>

namespace headroom::ui {

// An axis-aligned rectangle, x0 <= x1, y0 <= y1 (screen px, y down).
struct Box {
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

// Whether a and b share any area (touching edges do not count).
bool boxes_overlap(const Box& a, const Box& b);

struct LabelRequest {
  float ax = 0, ay = 0;  // the anchor: the point the label names
  float w = 0, h = 0;    // the label's size
  float gap = 0;         // clear distance from the anchor to the label (marker radius + margin)
  bool must = false;     // scan the whole bounds before giving up
  bool below_first = false;  // prefer below the anchor (the output's label), else right of it
};

struct Placement {
  Box rect;             // where the label goes (valid when placed)
  bool placed = false;  // false: no clear spot, leave the label out
  bool leader = false;  // farther out than ring 0: draw a line from the anchor to it
};

struct PlaceOptions {
  float margin = 2.f;  // space kept between a label and anything else
};

// Places `labels` in order inside `bounds`, clear of `obstacles` (markers)
// and of each other. Returns one Placement per label, in the same order.
std::vector<Placement> place_labels(const std::vector<LabelRequest>& labels, const std::vector<Box>& obstacles,
                                    const Box& bounds, const PlaceOptions& options = {});

// The point of `r` nearest to (x, y): where a leader line from the anchor ends.
void nearest_point(const Box& r, float x, float y, float& out_x, float& out_y);

}  // namespace headroom::ui
