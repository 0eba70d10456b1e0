#version 450
// One heatmap pixel: which cell(s) of the matrix it covers, their values (straight from the
// result buffer the compute shaders wrote, or from an uploaded host matrix), the colormap,
// and grey hatching for cells the mask hides (never a colour of the colormap); cells dropout
// dropped (their kept value is 0) are hatched the other way in a warm grey, so they read apart.
// When a pixel covers several cells (long sequences, zoomed out) it samples up to 3×3 of them
// ((pc.flags >> kSamplesShift) & 3; thumbnails read one)
// and keeps the most extreme value, so a thin diagonal of high weights stays visible.
#extension GL_GOOGLE_include_directive : require
#define MASK_GLOBALS_BINDING 1
#include "heatmap_push.glsl"

// Texel buffers, not storage buffers: on lavapipe texel fetches are vector gathers while
// storage-buffer loads become a scalar loop over the lanes.
layout(binding = 0) uniform samplerBuffer values;
layout(binding = 2) uniform samplerBuffer colormap_table;
layout(binding = 3) uniform samplerBuffer kept;  // 1.0 / 0.0 per cell, the values' row pitch (kFlagDroppedCells)

layout(location = 0) out vec4 out_colour;

// Specialised per pipeline (app/heatmap/heatmap_pipeline.h, HeatmapVariant): llvmpipe runs both
// sides of every branch, uniform or not, so the common cases get code without the others.
layout(constant_id = 0) const bool kOneSample = false;  // every pixel reads one cell: no sampling loop
layout(constant_id = 1) const bool kFieldsMask = false;  // the mask has no expression: no runs to search

const int kColormapEntries = 256;
// kHiddenShade (app/heatmap/heatmap_widget.h): 0xd4 of 0xff in each channel.
const vec3 kHiddenShade = vec3(212.0 / 255.0);

vec3 colour_of(float shown) {
  if (isnan(shown)) return vec3(1.0, 0.0, 1.0);  // never expected: make it impossible to miss
  float t = (shown - pc.range_min) / max(pc.range_max - pc.range_min, 1e-30);
  if ((pc.flags & kFlagLog) != 0) {  // as heatmap::colormap_position
    const float low = log2(max(pc.range_min, 1e-30));
    const float high = log2(max(pc.range_max, 1e-30));
    t = shown > 0.0 ? (log2(shown) - low) / max(high - low, 1e-30) : 0.0;
  }
  // Entry floor(t · 256), the last one for t = 1: as core/export/colormap.h (and matplotlib).
  const int entry = clamp(int(floor(clamp(t, 0.0, 1.0) * float(kColormapEntries))), 0, kColormapEntries - 1);
  return texelFetch(colormap_table, pc.colormap * kColormapEntries + entry).rgb;
}

vec3 hatch() {
  const float phase = mod(gl_FragCoord.x + gl_FragCoord.y, pc.hatch);
  return phase < pc.hatch * 0.35 ? vec3(0.55) : vec3(0.84);
}

// The same stripes the other way, warmer: dropped by dropout, not hidden by the mask.
vec3 dropped_hatch() {
  const float phase = mod(gl_FragCoord.x - gl_FragCoord.y + 4096.0 * pc.hatch, pc.hatch);
  return phase < pc.hatch * 0.35 ? vec3(0.62, 0.36, 0.30) : vec3(0.93, 0.86, 0.82);
}

bool dropped(int row, int col) {
  return (pc.flags & kFlagDroppedCells) != 0 && texelFetch(kept, pc.kept_first + row * pc.row_pitch + col).r == 0.0;
}

bool hidden_by_mask(int row, int col) {
  if ((pc.flags & kFlagMaskCells) == 0) return false;
  return kFieldsMask ? !mask_fields_visible(pc.mask, row, col) : !mask_visible(pc.mask, pc.mask.head, row, col);
}

void main() {
  const vec2 size = pc.rect.zw - pc.rect.xy;
  const vec2 cells_per_pixel = pc.view.wz / size;  // (columns, rows)
  const ivec2 samples =
      kOneSample ? ivec2(1) : ivec2(clamp(ceil(cells_per_pixel - 1e-3), vec2(1.0), vec2(float((pc.flags >> kSamplesShift) & 3))));
  const bool diverging = (pc.flags & kFlagDiverging) != 0;
  const float centre = 0.5 * (pc.range_min + pc.range_max);

  bool any_cell = false;
  bool any_visible = false;
  bool any_dropped = false;
  bool any_nan_hidden = false;
  const bool nan_hidden = (pc.flags & kFlagNanHidden) != 0;
  float chosen = 0.0;
  for (int sy = 0; sy < samples.y; ++sy) {
    for (int sx = 0; sx < samples.x; ++sx) {
      const vec2 offset = (vec2(sx, sy) + 0.5) / vec2(samples) - 0.5;
      const vec2 cell = pc.view.yx + (gl_FragCoord.xy + offset - pc.rect.xy) / size * pc.view.wz;
      const int col = int(floor(cell.x));
      const int row = int(floor(cell.y));
      if (row < 0 || col < 0 || row >= pc.rows || col >= pc.cols) continue;
      any_cell = true;
      if (hidden_by_mask(row, col)) continue;
      if (dropped(row, col)) {
        any_dropped = true;
        continue;
      }
      const float stored = texelFetch(values, pc.first + row * pc.row_pitch + col).r;
      if (nan_hidden && isnan(stored)) {
        any_nan_hidden = true;
        continue;
      }
      const float shown = pc.value_scale * stored - pc.distance_bias * float(abs(row - col));
      const bool better = diverging ? abs(shown - centre) > abs(chosen - centre) : shown > chosen;
      if (!any_visible || better || isnan(shown)) chosen = shown;
      any_visible = true;
    }
  }
  if (!any_cell) discard;  // outside the matrix (panned past its edge): the panel shows through
  const vec3 unseen = any_dropped ? dropped_hatch() : any_nan_hidden ? kHiddenShade : hatch();
  out_colour = vec4(any_visible ? colour_of(chosen) : unseen, 1.0);
}
