#version 300 es
// heatmap_renderer.glsl: one head's L x L attention weights as a grid of
// cells coloured by viridis (perceptually uniform, readable in grey and by
// most colour-blind readers), drawn by src/app/heatmap_renderer.cpp into a
// texture the size of the on-screen image in physical pixels, so cells and
// grid lines are crisp at any devicePixelRatio.
//
// Both stages live here: the C++ side compiles this text twice, inserting
// "#define VERTEX" or "#define FRAGMENT" after the #version line.
// Inputs: u_weights (R32F, texel (j, i) = weight of query row i on key j),
// u_cells (columns, rows), u_size (target size in pixels), u_query (the
// highlighted row, -1 for none), u_grid (grid line width in pixels).
// Does not: compute or rescale weights: the colour of a cell is viridis(w).
precision highp float;
precision highp int;

#ifdef VERTEX
// One triangle covering the target; no vertex buffer needed.
out vec2 v_uv;
void main() {
  vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
  v_uv = p;
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#endif

#ifdef FRAGMENT
uniform sampler2D u_weights;
uniform ivec2 u_cells;
uniform vec2 u_size;
uniform int u_query;
uniform float u_grid;
out vec4 o_color;

// viridis, a degree-6 polynomial fit of matplotlib's map (Matt Zucker, CC0).
vec3 viridis(float t) {
  const vec3 c0 = vec3(0.2777273272234177, 0.005407344544966578, 0.3340998053353061);
  const vec3 c1 = vec3(0.1050930431085774, 1.404613529898575, 1.384590162594685);
  const vec3 c2 = vec3(-0.3308618287255563, 0.214847559468213, 0.09509516302823659);
  const vec3 c3 = vec3(-4.634230498983486, -5.799100973351585, -19.33244095627987);
  const vec3 c4 = vec3(6.228269936347081, 14.17993336680509, 56.69055260068105);
  const vec3 c5 = vec3(4.776384997670288, -13.74514537774601, -65.35303263337234);
  const vec3 c6 = vec3(-5.435455855934631, 4.645852612178535, 26.3124352495832);
  t = clamp(t, 0.0, 1.0);
  return c0 + t * (c1 + t * (c2 + t * (c3 + t * (c4 + t * (c5 + t * c6)))));
}

void main() {
  // Pixel position from the top-left corner (row 0 of the texture is shown on top).
  vec2 px = vec2(gl_FragCoord.x, gl_FragCoord.y);
  vec2 cell_size = u_size / vec2(u_cells);
  ivec2 cell = clamp(ivec2(floor(px / cell_size)), ivec2(0), u_cells - 1);
  float w = texelFetch(u_weights, cell, 0).r;
  vec3 color = viridis(w);

  // Grid lines between cells (only while cells are big enough to need them).
  vec2 in_cell = px - vec2(cell) * cell_size;
  if (min(cell_size.x, cell_size.y) > 4.0 * u_grid &&
      (in_cell.x < u_grid || in_cell.y < u_grid)) {
    color = mix(color, vec3(1.0), 0.55);
  }
  // The query's row: a frame drawn inside it.
  if (cell.y == u_query) {
    float edge = min(min(in_cell.y, cell_size.y - in_cell.y), 1e9);
    float left = px.x, right = u_size.x - px.x;
    if (edge < 2.0 * u_grid || left < 2.0 * u_grid || right < 2.0 * u_grid) color = vec3(1.0, 0.35, 0.2);
  }
  o_color = vec4(color, 1.0);
}
#endif
