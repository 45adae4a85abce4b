// frame.cpp: the one frame context (frame.h).
//
// Does: own the FrameContext and count the frames asked for.
// Does not: draw.
#include "ui/frame.h"

#include <algorithm>

namespace headroom::ui {

FrameContext& frame() {
  static FrameContext context;
  return context;
}

void request_frames(int n) { frame().frames_wanted = std::max(frame().frames_wanted, n); }

}  // namespace headroom::ui
