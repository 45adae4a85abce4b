// host_signals.h: the two things app code tells the platform layer without
// depending on it (layers point down: src/platform reads these, src/app writes).
//
// Does: count frames the app still wants drawn (an animation running), and
// number the GL contexts (bumped by the platform after a lost WebGL context
// is restored, so a renderer knows its textures and programs are gone).
// Does not: draw, or know about the browser. The platform draws nothing while
// nothing changes (no input, no API call, no requested frames).
#pragma once

namespace headroom::app {

// Ask for at least `n` more frames (e.g. while an animation runs, ask for 2
// each frame until it ends). Frames are otherwise drawn only after input.
inline int& frames_requested() {
  static int n = 0;
  return n;
}
inline void request_frames(int n) {
  if (frames_requested() < n) frames_requested() = n;
}

// Increases by one each time the GL context is restored after a loss: a
// renderer that cached GL objects under an older generation recreates them.
inline int& gl_generation() {
  static int g = 0;
  return g;
}

}  // namespace headroom::app
