#include "app/classroom/page_layout.h"

#include <algorithm>
#include <cmath>

namespace attnviz::classroom {
namespace {

// The heatmaps placed left to right at one cell size, wrapping at `area_w`.
struct Flow {
  std::vector<MatrixPlace> places;
  float w = 0.0f;
  float h = 0.0f;
  bool too_wide = false;  // one slot alone is wider than the area
};

// Heatmaps on one line share the height of their column labels, so their cells' tops line up.
void align_line(Flow& f, std::size_t first, float& line_h) {
  float label_h = 0.0f;
  for (std::size_t i = first; i < f.places.size(); ++i) label_h = std::max(label_h, f.places[i].label_h);
  line_h = 0.0f;
  for (std::size_t i = first; i < f.places.size(); ++i) {
    f.places[i].h += label_h - f.places[i].label_h;
    f.places[i].label_h = label_h;
    line_h = std::max(line_h, f.places[i].h);
  }
}

Flow flow(const std::vector<MatrixBox>& boxes, const PageSpace& space, float cell, float area_w) {
  Flow f;
  float x = 0.0f;
  float y = 0.0f;
  float line_h = 0.0f;
  std::size_t line_start = 0;
  for (const MatrixBox& box : boxes) {
    MatrixPlace p;
    // Below the common size, each heatmap stops at its own smallest readable cell: a mask
    // without numbers may shrink further than the scores beside it.
    const float own = std::max(cell, std::ceil(box.min_cell));
    const float cells_w = drawn_extent(box.cols, own);
    const float cells_h = drawn_extent(box.rows, own);
    p.cell_w = cells_w / static_cast<float>(std::max(box.cols, 1));
    p.cell_h = cells_h / static_cast<float>(std::max(box.rows, 1));
    p.label_h = box.col_label_h ? box.col_label_h(p.cell_w) : 0.0f;
    p.w = std::max({box.row_label_w + cells_w + box.side_w, box.caption_w, box.row_label_w + box.min_w});
    p.h = space.caption_h + box.top_h + p.label_h + cells_h + space.colorbar_h;
    if (x > 0.0f && x + p.w > area_w) {  // wrap onto a new line
      align_line(f, line_start, line_h);
      line_start = f.places.size();
      y += line_h + space.gap;
      x = 0.0f;
    }
    if (p.w > area_w) f.too_wide = true;
    p.x = x;
    p.y = y;
    x += p.w + space.gap;
    f.w = std::max(f.w, p.x + p.w);
    f.places.push_back(p);
  }
  align_line(f, line_start, line_h);
  f.h = y + line_h + space.below_h;
  return f;
}

// The smallest cell any heatmap of the page may have (each keeps its own minimum in flow()).
float page_min_cell(const std::vector<MatrixBox>& boxes) {
  float cell = boxes.empty() ? 2.0f : boxes.front().min_cell;
  for (const MatrixBox& box : boxes) cell = std::min(cell, box.min_cell);
  return std::ceil(std::max(cell, 2.0f));
}

// The largest whole-pixel cell from the page's smallest readable one up whose flow fits
// `area_w` and the height; 0 when none does.
float largest_fitting(const std::vector<MatrixBox>& boxes, const PageSpace& space, float area_w, float min_cell) {
  if (area_w <= 0.0f) return 0.0f;
  for (float c = std::floor(std::max(space.max_cell, min_cell)); c >= min_cell; c -= 1.0f) {
    const Flow f = flow(boxes, space, c, area_w);
    if (!f.too_wide && f.w <= area_w && f.h <= space.height) return c;
  }
  return 0.0f;
}

PageLayout make_layout(const std::vector<MatrixBox>& boxes, const PageSpace& space, float cell, float area_w,
                       bool text_below) {
  const Flow f = flow(boxes, space, cell, area_w);
  PageLayout layout;
  layout.cell = cell;
  layout.places = f.places;
  layout.matrices_w = f.w;
  layout.matrices_h = f.h;
  layout.too_wide = f.too_wide;
  layout.text_below = text_below;
  layout.scrolls = f.h > space.height || (text_below && space.text_pref_w > 0.0f);
  if (space.text_pref_w > 0.0f)
    layout.text_w = text_below ? space.width
                               : std::min(space.width - f.w - space.gap, std::max(space.text_pref_w, space.text_min_w));
  // What is left of the text column (or everything): where text under the heatmaps may run.
  layout.area_w = text_below || space.text_pref_w <= 0.0f ? space.width : space.width - layout.text_w - space.gap;
  return layout;
}

}  // namespace

float drawn_extent(int count, float cell) { return static_cast<float>(std::min(count, kNumberedCells)) * cell; }

float readable_cell(int rows, int cols, bool numbers, float number_cell, float label_cell) {
  const bool numbered = numbers && rows <= kNumberedCells && cols <= kNumberedCells;
  return numbered ? std::max(number_cell, label_cell) : label_cell;
}

PageLayout layout_page(const std::vector<MatrixBox>& boxes, const PageSpace& space) {
  const float min_cell = page_min_cell(boxes);
  // When the page scrolls anyway, all heatmaps at the size the largest minimum asks for: a
  // mask beside its scores is not shrunk below them for nothing.
  float uniform_cell = min_cell;
  for (const MatrixBox& box : boxes) uniform_cell = std::max(uniform_cell, std::ceil(box.min_cell));
  const bool has_text = space.text_pref_w > 0.0f;
  if (!has_text) {
    const float c = largest_fitting(boxes, space, space.width, min_cell);
    return make_layout(boxes, space, c > 0.0f ? c : uniform_cell, space.width, false);
  }
  // The text column beside at its preferred width, then narrower: the heatmaps keep their size.
  for (const float text_w : {space.text_pref_w, space.text_min_w}) {
    const float area_w = space.width - text_w - space.gap;
    if (const float c = largest_fitting(boxes, space, area_w, min_cell); c > 0.0f)
      return make_layout(boxes, space, c, area_w, false);
  }
  // Even the smallest readable cells are taller than the window: the page scrolls. The text
  // stays beside unless moving it below spares the heatmaps a quarter of their height (they
  // no longer wrap onto a second line: the mask beside the masked scores, Q beside K and V).
  const float full_c = largest_fitting(boxes, space, space.width, min_cell);
  const PageLayout below = make_layout(boxes, space, full_c > 0.0f ? full_c : uniform_cell, space.width, true);
  const float narrow_area = space.width - space.text_min_w - space.gap;
  if (narrow_area > 0.0f && !flow(boxes, space, uniform_cell, narrow_area).too_wide) {
    const PageLayout beside = make_layout(boxes, space, uniform_cell, narrow_area, false);
    if (below.matrices_h > 0.75f * beside.matrices_h) return beside;
  }
  return below;
}

GridLayout layout_grid(int count, const GridSpace& space) {
  count = std::max(count, 1);
  // The copies share the width evenly (their titles wrap less in wide slots); a slot must
  // still hold its heatmap and a title of min_slot_w.
  const auto measure = [&](int columns, float cell) {
    GridLayout g;
    g.columns = columns;
    g.rows = (count + columns - 1) / columns;
    g.cell = cell;
    const float needed = std::max(drawn_extent(space.cols, cell), space.min_slot_w) + space.gap;
    g.slot_w = std::max(needed, std::floor((space.width - space.row_label_w) / static_cast<float>(columns)));
    g.label_h = space.col_label_h ? space.col_label_h(cell) : 0.0f;
    const float title_h =
        space.title_h ? space.title_h(g.slot_w - (space.title_gap < 0.0f ? space.gap : space.title_gap)) : 0.0f;
    g.slot_h = title_h + g.label_h + drawn_extent(space.rows, cell) + space.gap;
    return g;
  };
  const auto width_of = [&](const GridLayout& g) {
    return space.row_label_w + g.slot_w * static_cast<float>(g.columns);
  };
  const auto height_of = [&](const GridLayout& g) { return g.slot_h * static_cast<float>(g.rows); };
  const float min_cell = std::ceil(std::max(space.min_cell, 2.0f));
  GridLayout best;
  for (int columns = 1; columns <= count; ++columns) {
    for (float c = std::floor(std::max(space.max_cell, min_cell)); c >= min_cell && c > best.cell; c -= 1.0f) {
      const GridLayout g = measure(columns, c);
      if (width_of(g) <= space.width && height_of(g) <= space.height) {
        best = g;
        break;
      }
    }
  }
  if (best.cell > 0.0f) return best;
  // The smallest readable cells do not fit the height: as many columns as fit the width
  // (fewer grid rows to scroll through), and the grid scrolls.
  best = measure(1, min_cell);
  for (int columns = count; columns >= 1; --columns) {
    const GridLayout g = measure(columns, min_cell);
    if (width_of(g) <= space.width) {
      best = g;
      break;
    }
  }
  best.scrolls = true;
  return best;
}

}  // namespace attnviz::classroom
