// frame.h: the UI's frame context, kept as ImGui keeps its own: one struct
// holding what the frame being drawn knows beyond the views' arguments, and
// one way to reach it (frame()).
//
// Does: hold the demo draw_ui is drawing, the layout it chose (compact or
// full), the room a page message takes, whether the frame is sandboxed (the
// Save menus then say where files go), the export frames' state (a page
// drawn alone for its picture: ui.h begin_export_frames), the card being
// drawn and each page's last card width, the fonts (ui.h setup_fonts), and
// how many more frames an animation wants (request_frames).
// Does not: draw, or change a frame's content: draw_ui sets `demo` and
// `compact` at the start of each frame; the platform reaches the rest
// through ui.h.
#pragma once
#include <map>
#include <string>

#include "app/state/demo.h"
#include "imgui.h"

namespace headroom::ui {

// Fonts set up by setup_fonts() (ui.h): body text, the readout sentence,
// bold, and the big heads control.
struct Fonts {
  ImFont* body = nullptr;
  ImFont* medium = nullptr;
  ImFont* bold = nullptr;
  ImFont* big = nullptr;
};

struct FrameContext {
  app::Demo* demo = nullptr;   // the demo this frame draws (draw_ui)
  bool compact = false;        // this frame's layout: compact (true) or full (ui.cpp)
  float message_room = 0.f;    // CSS px a page message outside the canvas takes (ui.h set_message_room)
  bool sandboxed = false;      // the frame is sandboxed: downloads may be dropped (ui.h set_downloads_note)
  int frames_wanted = 0;       // request_frames / take_frame_request
  Fonts fonts;
  // Export frames: a page alone, as one card, for its picture; where that
  // card was drawn (CSS px).
  struct Export {
    bool on = false;
    std::string page;
    ImVec4 rect{};
  } exporting;
  // The card begin_card opened (its view table page, or nullptr) and, per
  // page, the width its first card last had (an export draws it that wide).
  struct Cards {
    const char* page = nullptr;
    std::map<std::string, float> width;
  } cards;
};

// The one frame context.
FrameContext& frame();

// At least n more frames drawn (a view's animation, or the platform while
// the app ticks); ui.h take_frame_request counts them off.
void request_frames(int n);

}  // namespace headroom::ui
