// view_state.h: the display choices that last across frames but are not the
// demo's state (which step is open, the 1 -> H heads animation, ...).
//
// Does: hold them in one struct, one instance (view_state()).
// Does not: hold anything a link or the JS API can set (that is app::Demo's),
// or anything ImGui keeps itself (open popups, scroll).
#pragma once
#include <string>
#include <vector>

namespace headroom::ui {

struct ViewState {
  int reassign = -1;            // Relation armed for reassignment by the next token click, -1: none
  int step = 0;                 // step-through: which step is open
  int step_head = 0;            // step-through: which head
  bool zoom_targets = true;     // value space: fit the targets and outputs, other tokens at the rim
  // The 1 -> H heads animation: when it started (ImGui time, < 0: none).
  double split_started = -1;
  int last_heads = 0;
  // The one head's output as last drawn with one head: its targets (the
  // animation starts at their midpoint), whether it measured as a midpoint
  // (app::measure_output), and the sentence and query it was for. With 2+
  // heads a faint labelled marker stays at that midpoint until the sentence
  // or the query changes.
  std::vector<int> split_from;
  bool split_from_midpoint = false;
  std::string split_from_key;
};

inline ViewState& view_state() {
  static ViewState s;
  return s;
}

}  // namespace headroom::ui
