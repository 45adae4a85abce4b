// heatmap_renderer.h: the GL half of the heatmap views (src/ui/view_heatmap,
// view_stress): draws attention weight matrices into GL textures with
// shaders/heatmap_renderer.glsl, for ImGui::Image.
//
// Does: keep one target (weights texture + colour texture + framebuffer) per
// slot; render(slot, ...) uploads the weights as an R32F texture and runs the
// viridis program into a colour texture of exactly the requested physical
// pixel size, restoring every piece of GL state it changes; a slot asked for
// what it already holds (the same weights, query, size and grid) is returned
// as it is, with no GL call; content_changes() counts the renders that did
// change a texture (web_main.cpp's frame fingerprint: a frame whose draw data
// and textures are unchanged is not painted again).
// Does not: compute or rescale weights, or draw anything on screen itself
// (the view shows the returned texture with ImGui::Image).
//
// Build: web only (WebGL2 / GLES 3.0); cmake/web.cmake.
#pragma once
#include <cstdint>
#include <vector>

#include "engine/core/tensor.h"
#include "imgui.h"
#include "ui/heatmap_textures.h"

namespace headroom::platform {

// Installed with ui::set_heatmap_textures() by web_main.cpp.
class HeatmapRenderer : public ui::HeatmapTextures {
 public:
  ~HeatmapRenderer() override;
  // Renders `weights` (rows x cols, values in [0, 1]) into slot `slot` at
  // px_w x px_h physical pixels, frames row `query` (-1: none). Returns the
  // texture for ImGui::Image, or 0 if GL refused (the view then says so).
  ImTextureID render(int slot, const Mat& weights, int query, int px_w, int px_h, float grid_px) override;
  // Deletes every GL object (call while the context is current, e.g. before
  // re-creating it); the next render() builds them again.
  void release();
  // Renders so far that changed what a slot's texture holds.
  unsigned long long content_changes() const { return content_changes_; }

 private:
  struct Target {
    unsigned fbo = 0, color = 0, weights = 0;
    int w = 0, h = 0;
    uint64_t key = 0;  // input_key() of what the colour texture holds (0: nothing yet)
  };
  bool ensure_program();

  unsigned program_ = 0;
  bool failed_ = false;
  int generation_ = 0;  // Guest::gl_generation (web_app.h) the GL objects belong to
  int u_weights_ = -1, u_cells_ = -1, u_size_ = -1, u_query_ = -1, u_grid_ = -1;
  std::vector<Target> targets_;
  std::vector<float> upload_;  // row-major copy of the weights being uploaded
  unsigned long long content_changes_ = 0;
};

}  // namespace headroom::platform
