#pragma once
// The KV-cache panel's chart: cache size against sequence length for MHA, GQA and MQA, as
// polylines in a rectangle (pure geometry, tested headless), and its drawing.

#include <imgui.h>

#include <cstdint>
#include <vector>

#include "core/decode/kv_cache_size.h"

namespace attnviz::panels {

// The x axis: 0 to twice the chosen length in 8 equal steps (the chosen length in the middle).
std::vector<std::uint64_t> chart_lengths(std::uint64_t seq_len);

// One polyline per curve inside [min, max] (screen coordinates, y down): x from 0 to the last
// length, y from 0 bytes at the bottom to the largest size of any curve at the top.
std::vector<std::vector<ImVec2>> chart_points(const std::vector<decode::SizeCurve>& curves,
                                              const std::vector<std::uint64_t>& lengths, ImVec2 min, ImVec2 max);

// Axes, the curves in the head colours, a marker at the chosen length, into `draw`.
void draw_size_chart(ImDrawList& draw, const std::vector<decode::SizeCurve>& curves,
                     const std::vector<std::uint64_t>& lengths, ImVec2 min, ImVec2 max);

// The colour of curve `index` (MHA, GQA, MQA), shared by the chart and its legend.
std::uint32_t curve_colour(std::size_t index);

}  // namespace attnviz::panels
