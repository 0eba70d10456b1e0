#version 450
// A cached heatmap image (drawn by heatmap.vert/.frag into an image of its own when its data,
// range, zoom or size changed) as a quad on the window, one image texel per framebuffer pixel.
layout(push_constant) uniform ImagePush {
  vec4 rect;         // the image's place in framebuffer pixels: x0, y0, x1, y1 (whole pixels)
  vec2 framebuffer;  // width, height in pixels
} pc;

const vec2 kCorners[6] = vec2[](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                                vec2(1.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0));

void main() {
  const vec2 pixel = mix(pc.rect.xy, pc.rect.zw, kCorners[gl_VertexIndex]);
  gl_Position = vec4(pixel / pc.framebuffer * 2.0 - 1.0, 0.0, 1.0);
}
