#include "app/heatmap/heatmap_overlay.h"

#include <imgui.h>

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdio>

#include "app/heatmap/axis_math.h"
#include "app/heatmap/value_range.h"
#include "app/window/fonts.h"
#include "core/attention/mask.h"

namespace attnviz::heatmap {

int CellGeometry::first_row() const { return std::max(0, static_cast<int>(std::floor(window.first_row))); }
int CellGeometry::last_row() const {
  return std::min(rows, static_cast<int>(std::ceil(window.first_row + window.rows - 1e-4f)));
}
int CellGeometry::first_col() const { return std::max(0, static_cast<int>(std::floor(window.first_col))); }
int CellGeometry::last_col() const {
  return std::min(cols, static_cast<int>(std::ceil(window.first_col + window.cols - 1e-4f)));
}

namespace {

void draw_grid(ImDrawList* list, const CellGeometry& g) {
  const float min_cell = 0.55f * ImGui::GetFontSize();
  if (g.cell_w() < min_cell || g.cell_h() < min_cell) return;
  const ImU32 line = (ImGui::GetColorU32(ImGuiCol_WindowBg) & 0x00ffffffu) | 0xb0000000u;
  const float thickness = std::clamp(std::min(g.cell_w(), g.cell_h()) / 28.0f, 1.0f, 2.0f);
  for (int r = g.first_row() + 1; r < g.last_row(); ++r) {
    const float y = std::round(g.row_y(static_cast<float>(r)));
    list->AddLine(ImVec2(g.x0, y), ImVec2(g.x1, y), line, thickness);
  }
  for (int c = g.first_col() + 1; c < g.last_col(); ++c) {
    const float x = std::round(g.col_x(static_cast<float>(c)));
    list->AddLine(ImVec2(x, g.y0), ImVec2(x, g.y1), line, thickness);
  }
}

// Every visible cell gets a number in one form and size (cell_numbers_that_fit), or none does: a
// heatmap where only the cells whose number happens to fit show one (positive values, but not
// "-1.23") would say something false about the others.
bool draw_numbers(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, MaskCache& masks) {
  const Matrix* values = spec.values;
  if (!spec.numbers || values == nullptr || values->rows != g.rows || values->cols != g.cols) return false;
  if (g.last_row() - g.first_row() > kMaxNumberedCells || g.last_col() - g.first_col() > kMaxNumberedCells)
    return false;
  ImFont* font = window::fonts().small != nullptr ? window::fonts().small : ImGui::GetFont();
  const float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
  if (g.cell_h() < size + 2.0f) return false;
  const MaskSetting no_mask;
  const Mask& mask = masks.mask(spec.mask != nullptr ? *spec.mask : no_mask, g.rows, g.cols, spec.mask_heads);
  const int head = spec.mask_head;
  // Dropout's dropped cells keep their hatching, like masked ones (known here for host matrices).
  const Matrix* kept = spec.kept.host != nullptr && spec.kept.host->rows == g.rows && spec.kept.host->cols == g.cols
                           ? spec.kept.host
                           : nullptr;
  float low = 0.0f;
  float high = 0.0f;
  bool any = false;
  for (int r = g.first_row(); r < g.last_row(); ++r) {
    for (int c = g.first_col(); c < g.last_col(); ++c) {
      if (spec.mask != nullptr && !mask.visible(head, r, c)) continue;
      const float shown =
          spec.value_scale * values->at(r, c) - spec.distance_bias * static_cast<float>(std::abs(r - c));
      if (std::isnan(shown)) continue;  // hidden by the mask (the overview's NaN cells)
      low = any ? std::min(low, shown) : shown;
      high = any ? std::max(high, shown) : shown;
      any = true;
    }
  }
  const auto width = [&](const std::string& text) { return font->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str()).x; };
  const float room = g.cell_w() - 4.0f;
  // On a log scale (the overview's weights: 0.00007 beside 0.3) fixed decimals would read
  // 0.00: two significant digits instead ("7.1e-05"), when they fit.
  const bool significant = spec.log_scale;
  CellNumbers numbers;
  if (any && !significant) numbers = cell_numbers_that_fit(low, high, room, width);
  const bool fits =
      significant ? width(significant_number(low)) <= room && width(significant_number(high)) <= room : numbers.shown();
  if (!any || !fits) return false;
  for (int r = g.first_row(); r < g.last_row(); ++r) {
    for (int c = g.first_col(); c < g.last_col(); ++c) {
      if (spec.mask != nullptr && !mask.visible(head, r, c)) continue;
      if (kept != nullptr && kept->at(r, c) == 0.0f) continue;
      const float shown =
          spec.value_scale * values->at(r, c) - spec.distance_bias * static_cast<float>(std::abs(r - c));
      if (std::isnan(shown)) continue;
      const std::string text = significant ? significant_number(shown) : numbers.text(shown);
      const ImVec2 extent = font->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str());
      const Rgb background =
          sample(spec.colormap, colormap_position(shown, {spec.range_min, spec.range_max}, spec.log_scale));
      const float cx = g.col_x(static_cast<float>(c) + 0.5f);
      const float cy = g.row_y(static_cast<float>(r) + 0.5f);
      const ImVec2 at(std::round(cx - extent.x * 0.5f), std::round(cy - extent.y * 0.5f));
      // A cell half out of view (zoomed, panned) keeps its colour but not a cut-off number:
      // "-0.71" cut to "71" would be a different value.
      if (at.x < g.x0 || at.y < g.y0 || at.x + extent.x > g.x1 || at.y + extent.y > g.y1) continue;
      list->AddText(font, size, at, contrasting_text_colour(background), text.c_str());
    }
  }
  return true;
}

// The tiles of the block grid in view: empty ones shaded, partial and full ones outlined in
// their colours (inset by half a line, so neighbours' outlines do not overlap). Tiles smaller
// than a few pixels are drawn only when shaded: outlines that close together are noise.
void draw_tiles(ImDrawList* list, const CellGeometry& g, const BlockGrid& grid, float scale) {
  const auto size = static_cast<float>(grid.size);
  const float tile_w = g.cell_w() * size;
  const float tile_h = g.cell_h() * size;
  const bool outlines = std::min(tile_w, tile_h) >= 6.0f * scale;
  if (std::min(tile_w, tile_h) < 1.0f) return;  // more tiles than pixels: the caption says it
  const int tr0 = g.first_row() / grid.size;
  const int tr1 = (g.last_row() + grid.size - 1) / grid.size;
  const int tc0 = g.first_col() / grid.size;
  const int tc1 = (g.last_col() + grid.size - 1) / grid.size;
  const float thickness = std::clamp(std::min(tile_w, tile_h) / 24.0f, 1.0f, 2.0f) * scale;
  for (int tr = tr0; tr < tr1; ++tr) {
    const float y0 = g.row_y(static_cast<float>(tr) * size);
    const float y1 = g.row_y(std::min(static_cast<float>(g.rows), static_cast<float>(tr + 1) * size));
    for (int tc = tc0; tc < tc1; ++tc) {
      const float x0 = g.col_x(static_cast<float>(tc) * size);
      const float x1 = g.col_x(std::min(static_cast<float>(g.cols), static_cast<float>(tc + 1) * size));
      const BlockVisibility kind = grid.at(tr, tc);
      if (kind == BlockVisibility::Hidden) {
        list->AddRectFilled(ImVec2(x0, y0), ImVec2(x1, y1), kEmptyTileFill);
        continue;
      }
      if (!outlines) continue;
      const float inset = thickness * 0.5f;
      list->AddRect(ImVec2(x0 + inset, y0 + inset), ImVec2(x1 - inset, y1 - inset),
                    kind == BlockVisibility::Full ? kFullTileColour : kPartialTileColour, 0.0f, 0, thickness);
    }
  }
}

// The caption in the cells' bottom-left corner, on a dark plate so it reads over any colour.
void draw_tiles_caption(ImDrawList* list, const CellGeometry& g, const BlockGrid& grid) {
  ImFont* font = window::fonts().small != nullptr ? window::fonts().small : ImGui::GetFont();
  const float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
  const std::string text = tiles_skipped_text(grid);
  const ImVec2 extent = font->CalcTextSizeA(size, 1e9f, 0.0f, text.c_str());
  if (extent.x + 8.0f > g.x1 - g.x0 || extent.y + 6.0f > g.y1 - g.y0) return;  // a thumbnail too small to hold it
  const ImVec2 at(g.x0 + 4.0f, g.y1 - extent.y - 4.0f);
  list->AddRectFilled(ImVec2(at.x - 3.0f, at.y - 2.0f), ImVec2(at.x + extent.x + 3.0f, at.y + extent.y + 2.0f),
                      0xc0202020u, 3.0f);
  list->AddText(font, size, at, 0xffffffffu, text.c_str());
}

void outline_row(ImDrawList* list, const CellGeometry& g, int row, ImU32 colour, float thickness) {
  if (row < g.first_row() || row >= g.last_row()) return;
  list->AddRect(ImVec2(g.x0, g.row_y(static_cast<float>(row))), ImVec2(g.x1, g.row_y(static_cast<float>(row + 1))),
                colour, 0.0f, 0, thickness);
}

void outline_col(ImDrawList* list, const CellGeometry& g, int col, ImU32 colour, float thickness) {
  if (col < g.first_col() || col >= g.last_col()) return;
  list->AddRect(ImVec2(g.col_x(static_cast<float>(col)), g.y0), ImVec2(g.col_x(static_cast<float>(col + 1)), g.y1),
                colour, 0.0f, 0, thickness);
}

}  // namespace

float number_cell(const char* widest) {
  ImFont* font = window::fonts().small != nullptr ? window::fonts().small : ImGui::GetFont();
  const float size = font->FontSize * ImGui::GetIO().FontGlobalScale;
  // draw_numbers: the text within the cell less 4 pixels, and a cell at least the text's height.
  return std::ceil(std::max(font->CalcTextSizeA(size, 1e9f, 0.0f, widest).x + 4.0f, size + 4.0f));
}

std::string tiles_skipped_text(const BlockGrid& grid) {
  const double percent =
      grid.total() > 0 ? 100.0 * static_cast<double>(grid.empty) / static_cast<double>(grid.total()) : 0.0;
  char text[128];
  std::snprintf(text, sizeof text, "%lld of %lld tiles skipped (%.0f %%), B = %d", grid.empty, grid.total(), percent,
                grid.size);
  return text;
}

bool draw_overlay(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, int hovered_row, int hovered_col,
                  const OverlayMasks& masks) {
  list->PushClipRect(ImVec2(g.x0, g.y0), ImVec2(g.x1, g.y1), true);
  draw_grid(list, g);
  const bool numbers = draw_numbers(list, spec, g, *masks.cache);
  const float scale = ImGui::GetFontSize() / 17.0f;  // the UI scale (fonts are 17 px at 1×)
  const BlockGrid* grid = nullptr;
  if (masks.block_size > 0 && spec.mask != nullptr) {
    grid = &masks.cache->blocks(*spec.mask, g.rows, g.cols, spec.mask_heads, spec.mask_head, masks.block_size);
    draw_tiles(list, g, *grid, scale);
  }
  if (spec.highlight_token >= 0) {
    if (spec.highlight_token < g.rows) outline_row(list, g, spec.highlight_token, kHighlightColour, 2.0f * scale);
    if (spec.highlight_token < g.cols && spec.zoom_columns && spec.highlight_column)
      outline_col(list, g, spec.highlight_token, kHighlightColour, 2.0f * scale);
  }
  if (spec.pinned_row >= 0 && spec.pinned_row < g.rows)
    outline_row(list, g, spec.pinned_row, kPinnedColour, 2.5f * scale);
  if (hovered_row >= 0 && hovered_col >= 0) {
    const ImVec2 a(g.col_x(static_cast<float>(hovered_col)), g.row_y(static_cast<float>(hovered_row)));
    const ImVec2 b(g.col_x(static_cast<float>(hovered_col + 1)), g.row_y(static_cast<float>(hovered_row + 1)));
    list->AddRect(a, b, 0xff000000u, 0.0f, 0, 3.0f * scale);
    list->AddRect(a, b, 0xffffffffu, 0.0f, 0, 1.5f * scale);
  }
  if (grid != nullptr) draw_tiles_caption(list, g, *grid);
  list->PopClipRect();
  list->AddRect(ImVec2(g.x0 - 1, g.y0 - 1), ImVec2(g.x1 + 1, g.y1 + 1), ImGui::GetColorU32(ImGuiCol_Border));
  return numbers;
}

}  // namespace attnviz::heatmap
