#pragma once
// The Heatmaps panel's view of a text past the materialised path's 4,096 tokens: the exact
// overview of one head (core/overview through compute::OverviewSession), computed off the UI
// thread with a progress bar and Cancel. The wheel zooms and dragging pans, each recomputing
// the visible window exactly (single cells once they are large enough); a double click shows
// the whole matrix again, and beside a zoomed-in window a small copy of the whole says where it
// lies (overview_locator.h); a click pins a query, whose row over every key is shown there too
// (overview_query.h), and Find above them pins a token by its number or its words
// (overview_find.h; where the panel is too narrow for that column, from a button over the
// image). What the panel shows and why is said above the image.

#include <imgui.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/compute/overview_session.h"
#include "app/export_ui/export_ui.h"
#include "app/panels/overview_find.h"
#include "app/panels/overview_locator.h"
#include "app/panels/overview_query.h"
#include "app/ui/panel.h"
#include "app/ui/view_state.h"
#include "core/common/matrix.h"

namespace attnviz::panels {

class OverviewView {
 public:
  // Whether the document's text is past the materialised path's limit (counted once per
  // revision): then the Heatmaps panel draws this view instead of its own.
  bool wanted(const ui::UiContext& ui);
  void draw(ui::UiContext& ui);

 private:
  void offer_first_tokens(ui::UiContext& ui);
  void draw_controls(ui::UiContext& ui);
  void draw_find_popup(ui::UiContext& ui);
  void draw_status(ui::UiContext& ui);
  void draw_status_line(ui::UiContext& ui);
  void offer_pattern_for_length(ui::UiContext& ui);
  void offer_dropout_off(ui::UiContext& ui);
  [[nodiscard]] ui::OverviewStatus status_for_the_bar(std::uint64_t revision, long long tokens) const;
  void draw_image(ui::UiContext& ui, float width, float height);
  void draw_colour_key(ui::UiContext& ui, heatmap::Colormap colormap, overview::Quantity quantity, bool exact,
                       float side);
  [[nodiscard]] static float image_width(float panel_width);
  [[nodiscard]] static float column_reserved(float image_width);
  [[nodiscard]] static float side_column_width();
  void draw_side_column(ui::UiContext& ui, ImVec2 image_right, bool zoomed, float image_side);
  void outline_pinned(const ui::UiContext& ui, const overview::PixelGrid& g, ImVec2 origin, ImVec2 size) const;
  [[nodiscard]] float numbers_label_height(int positions, float words_gutter);
  void refresh_image(const overview::Overview& shown);
  // Zoom and pan; returns the query row a click (no drag) was on.
  std::optional<int> handle_mouse(const overview::Overview& shown, ImVec2 origin, ImVec2 size, bool hovered);
  void tooltip(const overview::Overview& shown, ImVec2 origin, ImVec2 size) const;
  [[nodiscard]] overview::CellWindow current_window() const;

  compute::OverviewSession session_;
  export_ui::OverviewExport export_;
  OverviewLocator locator_;         // where a zoomed-in window lies in the whole matrix
  OverviewQuery query_;             // the pinned query's row over every key
  OverviewFind find_;               // a token by its number or by what it says
  bool side_column_ = false;        // the locator and the pinned query have room beside the image
  bool find_beside_ = false;        // the side column has room for Find (else a button opens it)
  bool find_popup_wanted_ = false;  // Ctrl+F without Find beside the image: Find over it
  std::uint64_t counted_revision_ = ~std::uint64_t{0};
  int tokens_ = 0;                      // queries (counted up to the overview's limit + 1)
  int source_tokens_ = 0;               // keys
  bool unsplittable_ = false;           // the text or the source is not valid UTF-8
  bool can_keep_first_tokens_ = false;  // a text past 65,536 tokens that edits::keep_first_tokens cuts
  compute::OverviewAsk ask_;
  Matrix image_;  // the shown overview's values, NaN where the mask hides the whole block
  std::uint64_t image_generation_ = ~std::uint64_t{0};
  float range_min_ = 0.0f;
  float range_max_ = 1.0f;
  bool log_scale_ = false;
  std::vector<std::string> row_labels_;  // one per pixel row (overview_labels.h)
  std::vector<std::string> col_labels_;
  bool col_words_ = false;  // the column labels' room holds words (column_label_room)
  struct NumbersLabel {
    int positions = -1;
    float font_size = 0.0f;
    float height = 0.0f;
  } numbers_label_;  // numbers_label_height's cache
  [[nodiscard]] int caption_lines_for(const ui::UiContext& ui, float width);
  struct CaptionKey {
    int rows = -1;
    int cols = -1;
    int heads = 0;
    overview::Pooling pooling = overview::Pooling::Max;
    overview::Quantity quantity = overview::Quantity::Weights;
    float font_size = 0.0f;
    friend bool operator==(const CaptionKey&, const CaptionKey&) = default;
  };
  struct CaptionWidth {
    CaptionKey key;
    float width = 0.0f;      // of the widest caption for `key`
  } caption_width_;          // caption_lines_for's cache
  bool any_hidden_ = false;  // the mask hides some pixel's whole block (the key beside the colorbar says what grey is)
  bool dragging_ = false;
  ImVec2 drag_start_{0.0f, 0.0f};
};

}  // namespace attnviz::panels
