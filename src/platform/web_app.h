// web_app.h: the one Demo shared by the main loop and the JS API.
//
// Does: give web_main.cpp (drawing) and js_api.cpp (window.headroom's verbs)
// the same Demo, so a JS call and a click change the same state.
// Does not: exist outside the browser build.
#pragma once

#include "app/demo.h"

namespace headroom::platform {

app::Demo& demo();

}  // namespace headroom::platform
