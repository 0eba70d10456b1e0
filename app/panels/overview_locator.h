#pragma once
// Where a zoomed-in overview lies in the whole matrix: beside the image, a small copy of the
// whole overview last shown (for the same text, head, quantity and pooling) with the window
// outlined on it. Zoomed in to single cells of 65,536 tokens the big image alone no longer
// says whether it shows the beginning of the text or its middle; a click or a drag on the
// small one moves the window there, keeping its size.

#include <imgui.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "app/compute/overview_session.h"
#include "app/ui/panel.h"
#include "core/common/matrix.h"
#include "core/overview/overview.h"

namespace attnviz::panels {

// A key clicked in the pinned query's list, or a token found, is shown with this many cells
// around it each way (its words readable beside the rows).
inline constexpr int kGoToCells = 64;

// The window of `rows` × `cols` cells (at least 8 × 8, as zooming stops there) centred on
// (row, col), kept inside the n × m matrix: what zooming, panning, the locator and the pinned
// query's keys ask the overview for.
overview::CellWindow centred_window(double row, double col, double rows, double cols, int n, int m);

// The whole overview's image as the overview view made it: values (NaN where the mask hides
// the whole block) and its colour range.
struct LocatorImage {
  const Matrix* values = nullptr;
  float range_min = 0.0f;
  float range_max = 1.0f;
  bool log_scale = false;
};

class OverviewLocator {
 public:
  // Keeps `image` when `shown` is the whole matrix, for the windows zoomed in from it.
  void remember(const overview::Overview& shown, const std::shared_ptr<const Problem>& problem,
                const compute::OverviewAsk& ask, const LocatorImage& image);

  // Draws the locator with its top left at `corner`, at most `side` pixels across, for a
  // matrix of n × m cells of which `window` is shown; returns the window a click or drag asked
  // for. `shown` and `ask` say which whole image fits (otherwise only the outline is drawn).
  std::optional<overview::CellWindow> draw(ui::UiContext& ui, ImVec2 corner, float side, int n, int m,
                                           const overview::CellWindow& window,
                                           const std::shared_ptr<const Problem>& problem,
                                           const compute::OverviewAsk& ask);

  // The smallest side worth drawing, in pixels (below it the panel leaves the locator out).
  [[nodiscard]] static float least_side();

 private:
  [[nodiscard]] bool fits(const std::shared_ptr<const Problem>& problem, const compute::OverviewAsk& ask) const;
  void draw_thumbnail(ui::UiContext& ui, ImVec2 size);

  // The whole image kept and what it was computed for.
  Matrix values_;
  float range_min_ = 0.0f;
  float range_max_ = 1.0f;
  bool log_scale_ = false;
  overview::Quantity quantity_ = overview::Quantity::Weights;
  std::weak_ptr<const Problem> problem_;
  int head_ = -1;
  overview::Pooling pooling_ = overview::Pooling::Max;
  std::uint64_t version_ = 0;
  // While the mouse is held on the locator: the window under it, drawn before it is asked for.
  std::optional<overview::CellWindow> dragged_;
};

}  // namespace attnviz::panels
