// tour_uses_state.cpp: the wall between the tour and state rooms of src/app.
// Built against headroom_app_tour only (cmake/app.cmake): it compiles as it
// is, and with HEADROOM_CROSS_THE_WALL it must fail, because the tour sees
// the demo only through TourHost (the Demo holds the tour, not the reverse).
#include "app/tour/tour.h"
#ifdef HEADROOM_CROSS_THE_WALL
#include "app/state/demo.h"
#endif

int app_rooms_tour_uses_state() { return headroom::app::kTourSteps; }
