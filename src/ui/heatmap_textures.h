// heatmap_textures.h: the seam between the heatmap views (src/ui) and their
// GL half (src/platform/heatmap_renderer), so src/ui includes no GL and the
// renderer includes no view.
//
// Does: declare the interface the platform implements and installs once,
// and the call the views make (heatmap_textures.cpp).
// Does not: draw, or know GL.
#pragma once
#include "engine/core/tensor.h"
#include "imgui.h"

namespace headroom::ui {

// Texture slots: 0 .. kHeatmapLegendSlot - 1 the heads (one each), then the
// legend's colour bar and the stress view's one head.
constexpr int kHeatmapLegendSlot = 64;
constexpr int kHeatmapStressSlot = 96;

// Renders `weights` (rows x cols, values in [0, 1]) into slot `slot` at
// px_w x px_h physical pixels, frames row `query` (-1: none), and returns the
// texture for ImGui::Image, or 0 when GL refused (the view then says so).
class HeatmapTextures {
 public:
  virtual ~HeatmapTextures() = default;
  virtual ImTextureID render(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px) = 0;
};
// The platform installs its renderer once, after the GL context exists.
void set_heatmap_textures(HeatmapTextures* renderer);
// The installed renderer's render(...), or 0 when none is installed.
ImTextureID heatmap_texture(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px);

}  // namespace headroom::ui
