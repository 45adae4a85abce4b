// heatmap_textures.cpp: see heatmap_textures.h.
#include "ui/heatmap_textures.h"

namespace headroom::ui {

namespace {
HeatmapTextures* g_heatmaps = nullptr;
}  // namespace

void set_heatmap_textures(HeatmapTextures* renderer) { g_heatmaps = renderer; }

ImTextureID heatmap_texture(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px) {
  return g_heatmaps ? g_heatmaps->render(slot, weights, query, px_w, px_h, grid_px) : ImTextureID{};
}

}  // namespace headroom::ui
