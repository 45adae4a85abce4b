// value_space.h: each head's 2-D value-space picture (engine/value_map.h),
// cached so the PCA runs only when a head's values or output change.
//
// Does: call value_map(head, query) per head and keep the results while the
// Trace's V_h and the query's output rows stay the same.
// Does not: project or average anything itself, or use ImGui (getState reads
// it too).
#pragma once
#include <vector>

#include "engine/scene.h"
#include "engine/value_map.h"

namespace headroom::app {

const std::vector<ValueMap>& value_maps(Scene& scene);

}  // namespace headroom::app
