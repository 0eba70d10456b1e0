// Push constants of the heatmap display pipeline (heatmap.vert, heatmap.frag).
// Mirrors attnviz::heatmap::HeatmapPush (app/heatmap/heatmap_pipeline.h).
// heatmap.frag defines MASK_GLOBALS_BINDING first: it evaluates the mask.
#include "common/mask.glsl"

layout(push_constant) uniform HeatmapPush {
  vec4 rect;         // the cells' area in framebuffer pixels: x0, y0, x1, y1
  vec4 view;         // first row, first column, rows shown, columns shown (in cells, fractional)
  vec2 framebuffer;  // width, height in pixels
  float range_min;   // the shown value drawn with the colormap's first colour
  float range_max;   // ... and with its last colour
  int rows;          // the matrix
  int cols;
  int row_pitch;     // floats from one row to the next
  int first;         // the matrix's first float in the bound buffer
  float value_scale; // shown value = value_scale · stored value (scaled scores)
  int colormap;      // which table of the colormap buffer
  int flags;         // kFlag* below; bits 8..9: cells read per pixel along each axis when a
                     // pixel covers several (1..3)
  float hatch;       // period of the masked cells' stripes, in pixels
  MaskParams mask;   // the mask whose hidden cells are hatched (with kFlagMaskCells)
  float distance_bias;  // shown −= distance_bias · |row − col| (ALiBi's bias on the scaled scores)
  int kept_first;       // with kFlagDroppedCells: the kept matrix's first float in its view (same row pitch)
} pc;

const int kFlagMaskCells = 1;   // hatch the cells pc.mask hides
const int kFlagDroppedCells = 2;  // hatch the cells whose kept value (binding 3) is 0: dropout dropped them
const int kFlagDiverging = 8;   // several cells per pixel: keep the one farthest from the centre
const int kFlagLog = 16;        // the colormap spans log10(range_min) .. log10(range_max)
const int kFlagNanHidden = 32;  // a NaN value is a block the mask hides: the hidden shade
const int kSamplesShift = 8;    // (pc.flags >> kSamplesShift) & 3: cells read per pixel and axis
