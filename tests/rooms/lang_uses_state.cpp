// lang_uses_state.cpp: the wall between the lang and state rooms of src/app.
// Built against headroom_app_lang only (cmake/app.cmake): it compiles as it
// is, and with HEADROOM_CROSS_THE_WALL it must fail, because the language
// room cannot see the Demo's headers (words never reach up into the state).
#include "app/lang/lang.h"
#ifdef HEADROOM_CROSS_THE_WALL
#include "app/state/demo.h"
#endif

int app_rooms_lang_uses_state() { return static_cast<int>(headroom::app::language_code_list().size()); }
