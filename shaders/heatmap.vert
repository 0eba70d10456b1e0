#version 450
// The heatmap's quad: two triangles over the cells' rectangle; the fragment shader does the rest.
#extension GL_GOOGLE_include_directive : require
#include "heatmap_push.glsl"

const vec2 kCorners[6] = vec2[](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));

void main() {
  const vec2 pixel = mix(pc.rect.xy, pc.rect.zw, kCorners[gl_VertexIndex]);
  gl_Position = vec4(pixel / pc.framebuffer * 2.0 - 1.0, 0.0, 1.0);
}
