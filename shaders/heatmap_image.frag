#version 450
// Copies the cached heatmap image's texel under this pixel: no filtering, no colour change
// (the image is in the swapchain's 8-bit UNORM encoding already, and opaque: where the matrix
// was panned past its edge it holds the widget's background colour).
layout(push_constant) uniform ImagePush {
  vec4 rect;
  vec2 framebuffer;
} pc;

layout(binding = 0) uniform sampler2D image;

layout(location = 0) out vec4 out_colour;

void main() {
  const ivec2 texel = ivec2(floor(gl_FragCoord.xy - pc.rect.xy));
  out_colour = texelFetch(image, clamp(texel, ivec2(0), textureSize(image, 0) - 1), 0);
}
