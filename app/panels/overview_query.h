#pragma once
// The overview's pinned query ("which of the 65,536 tokens does token 40,000 attend to?"):
// beside the image, its exact weights over every key as a strip (the largest per pixel, keys
// the mask hides in grey, the query's own position marked) and the keys it attends to most,
// each a click away from the image zoomed onto that cell. The row is computed off the
// window's thread (compute::QueryRowSession).

#include <imgui.h>

#include <memory>
#include <optional>
#include <vector>

#include "app/compute/query_row_session.h"
#include "app/ui/panel.h"
#include "core/overview/pixel_grid.h"

namespace attnviz::panels {

class OverviewQuery {
 public:
  // Draws query `query` of head `head` of `problem` in `width` pixels at the cursor; returns
  // the window of cells a click on one of its keys asks the image to show.
  std::optional<overview::CellWindow> draw(ui::UiContext& ui, const std::shared_ptr<const Problem>& problem, int head,
                                           int query, float width);
  // The hint shown while no query is pinned; lets go of the last row and its problem.
  void draw_hint();

 private:
  void draw_strip(const std::shared_ptr<const overview::QueryRow>& row, const Problem& problem, float width);
  std::optional<overview::CellWindow> draw_top_keys(const std::shared_ptr<const overview::QueryRow>& row,
                                                    const Problem& problem);

  compute::QueryRowSession session_;
  // The strip's columns: the largest weight of each block of keys, cached per row and width.
  std::vector<float> strip_;
  std::vector<unsigned char> strip_hidden_;
  std::shared_ptr<const overview::QueryRow> strip_row_;
  int strip_columns_ = 0;
  // The keys it attends to most, ranked once per row.
  std::vector<int> top_;
  std::shared_ptr<const overview::QueryRow> top_row_;
};

}  // namespace attnviz::panels
