// The overview view (overview_view.h): the pooled image through the heatmap widget, its
// labels and tooltip, zoom and pan as new exact windows, and the side column beside it
// (overview_toolbar.cpp: the controls and the status above it).

#include "app/i18n/translate.h"
#include "app/panels/overview_view.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "app/document/document.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/ui/first_tokens_button.h"
#include "app/panels/overview_labels.h"
#include "app/ui/keys.h"
#include "app/ui/notices.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"
#include "core/scenario/scenario_tokens.h"

namespace attnviz::panels {
namespace {

// Room for the axis labels, in lines of text: "32,427 toward" beside the rows, turned above
// the columns (longer words are cut short with "…").
constexpr float kRowLabelEms = 7.0f;
constexpr float kColumnLabelEms = 5.5f;
constexpr float kSideColumnEms = 12.0f;  // the locator and the pinned query's column, at the least

}  // namespace

// A text typed or pasted past the limit (two words more than a text of 65,536 tokens): one
// click keeps what the overview can show, rather than nothing but "shorten it".
void OverviewView::offer_first_tokens(ui::UiContext& ui) {
  if (!can_keep_first_tokens_) return;
  ui::keep_first_tokens_button(ui, "##overview");
  ImGui::SameLine();
  ImGui::TextDisabled("%s", i18n::tr("(Ctrl+Z brings the rest back)"));
}

bool OverviewView::wanted(const ui::UiContext& ui) {
  const std::uint64_t revision = ui.document.revision();
  if (revision != counted_revision_) {
    counted_revision_ = revision;
    const std::shared_ptr<const ScenarioTokens> tokens = ui.document.tokens();
    tokens_ = tokens->query_count();
    source_tokens_ = tokens->key_count();
    // A text that is not UTF-8 is no longer one: the Sentence panel says where it breaks.
    const auto broken = [](const TextTokens& text) { return !text.error.empty() && !text.too_long; };
    unsplittable_ = broken(tokens->queries) || (tokens->source && broken(*tokens->source));
    const auto cuttable = [](const TextTokens& text) { return text.too_long && !text.explicit_tokens; };
    can_keep_first_tokens_ = cuttable(tokens->queries) || (tokens->source && cuttable(*tokens->source));
    ask_.window = {};  // a new text: the whole matrix
  }
  return !unsplittable_ && !fits_materialised(tokens_, source_tokens_);
}

overview::CellWindow OverviewView::current_window() const {
  if (ask_.window.rows() > 0) return ask_.window;
  return overview::whole(std::max(session_.rows(), 1), std::max(session_.cols(), 1));
}

void OverviewView::draw(ui::UiContext& ui) {
  if (ui.view.pinned_query && *ui.view.pinned_query >= tokens_) ui.view.pinned_query.reset();  // from a longer text
  ImGui::PushTextWrapPos(0.0f);
  ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
  const long long larger = std::max(tokens_, source_tokens_);
  if (larger > overview::kMaxOverviewTokens) {
    ImGui::TextUnformatted(
        source_tokens_ > overview::kMaxOverviewTokens && tokens_ <= overview::kMaxOverviewTokens
            ? i18n::tr("The cross-attention source has more than 65,536 tokens: too long even for the overview.")
            : i18n::tr("This text has more than 65,536 tokens: too long even for the overview."));
    ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    offer_first_tokens(ui);
    return;
  }
  const std::string notice =
      i18n::format(i18n::tr("This text has %s tokens: past the 4,096 whose every matrix the window keeps. Shown "
                            "instead: an exact overview of one head, each pixel pooling a block of cells (zoom in "
                            "for single cells)."),
                   format_grouped(larger).c_str());
  ui::text_lines(notice);
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
  if (ui::keys::ctrl_pressed(ui::keys::kF, false)) {
    find_.focus();
    find_popup_wanted_ = !find_beside_;
  }
  draw_controls(ui);
  draw_status(ui);
  ui.view.overview_status = status_for_the_bar(ui.document.revision(), larger);
  const ImVec2 area = ImGui::GetContentRegionAvail();
  draw_image(ui, area.x, area.y);
}

void OverviewView::refresh_image(const overview::Overview& shown) {
  const overview::PixelGrid& g = shown.grid;
  static const std::vector<std::string> kNoTokens;
  const std::shared_ptr<const Problem> problem = session_.shown_problem();
  row_labels_ = overview_axis_labels(g, true, problem ? problem->tokens : kNoTokens);
  col_labels_ = overview_axis_labels(g, false, problem && col_words_ ? problem->source_tokens : kNoTokens);
  const overview::PooledImage& pooled = shown.heads.front();
  float low = INFINITY;
  float high = -INFINITY;
  for (std::size_t p = 0; p < pooled.values.size(); ++p) {
    if (pooled.hidden[p] != 0) continue;
    const float v = pooled.values[p];
    if (shown.quantity == overview::Quantity::Weights && !(v > 0.0f)) continue;
    low = std::min(low, v);
    high = std::max(high, v);
  }
  if (!(low <= high)) low = high = 0.0f;
  log_scale_ = shown.quantity == overview::Quantity::Weights;
  if (log_scale_) {
    range_max_ = high > 0.0f ? high : 1.0f;
    range_min_ = std::max(low > 0.0f ? low : range_max_ * 1e-4f, range_max_ * 1e-4f);
    if (range_min_ >= range_max_) range_min_ = range_max_ * 0.5f;
  } else {
    range_max_ = std::max({std::fabs(low), std::fabs(high), 1e-6f});
    range_min_ = -range_max_;
  }
  // Hidden blocks are NaN, which the heatmap draws grey into its cached image (nan_hidden):
  // not a rectangle per pixel row over it in every frame.
  image_ = Matrix(g.rows, g.cols);
  any_hidden_ = false;
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      const bool hidden = pooled.hidden_at(g, r, c);
      image_.at(r, c) = hidden ? std::numeric_limits<float>::quiet_NaN() : pooled.at(g, r, c);
      any_hidden_ = any_hidden_ || hidden;
    }
  }
  locator_.remember(shown, problem, session_.shown_ask(), {&image_, range_min_, range_max_, log_scale_});
}

// The turned label of the widest position, measured once per text length and font size
// rather than every frame.
float OverviewView::numbers_label_height(int positions, float words_gutter) {
  if (positions != numbers_label_.positions || ImGui::GetFontSize() != numbers_label_.font_size) {
    const std::vector<std::string> widest_position = {format_grouped(std::max(positions, 1) - 1)};
    numbers_label_ = {positions, ImGui::GetFontSize(),
                      heatmap::HeatmapWidget::col_label_height(widest_position, 1.0f, words_gutter)};
  }
  return numbers_label_.height;
}

// The colorbar, and beside it the mask's grey where the image has any: a key of every colour
// the image uses. (On the caption's line the grey's key ran off panels narrower than 1,300 pixels.)
void OverviewView::draw_colour_key(ui::UiContext& ui, heatmap::Colormap colormap, overview::Quantity quantity,
                                   bool exact, float side) {
  const float em = ImGui::GetFontSize();
  const float gap = 1.5f * em;
  const float room = ImGui::GetContentRegionAvail().x;
  const char* hidden = exact ? i18n::tr("the mask hides the cell") : i18n::tr("the mask hides the whole block");
  const auto key_width = [&](const char* words) {
    return gap + em + ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize(words).x;
  };
  float bar = std::min(side, em * 24.0f);
  if (any_hidden_) {
    bar = std::max(std::min(bar, room - key_width(hidden)), std::min(bar, em * 10.0f));
    if (bar + key_width(hidden) > room) hidden = i18n::tr("masked");
  }
  ui.heatmaps.colorbar(colormap, range_min_, range_max_, bar,
                       quantity == overview::Quantity::Weights ? i18n::tr("weight (log scale)") : i18n::tr("score"),
                       log_scale_);
  if (!any_hidden_) return;
  ImGui::SameLine(0.0f, gap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + em, at.y + em), heatmap::kHiddenShade);
  ImGui::Dummy(ImVec2(em, em));
  ImGui::SameLine();
  ImGui::TextDisabled("%s", hidden);
}

// One line for the caption where the widest it can be fits `width`, else two (where the image
// lies; what a pixel holds): decided from the text's length, the head count, pooling and
// quantity, never from the zoom, so zooming cannot move the image.
int OverviewView::caption_lines_for(const ui::UiContext& ui, float width) {
  const CaptionKey key{session_.rows(), session_.cols(), ui.document.scenario().num_heads,
                       ask_.pooling,    ask_.quantity,   ImGui::GetFontSize()};
  if (!(key == caption_width_.key)) {
    caption_width_.key = key;
    const OverviewCaption widest = widest_overview_caption(key.heads, key.rows, key.cols, key.pooling, key.quantity);
    caption_width_.width = ImGui::CalcTextSize(widest.one_line().c_str()).x;
  }
  return caption_width_.width <= width ? 1 : 2;
}

void OverviewView::draw_image(ui::UiContext& ui, float width, float height) {
  const ImGuiStyle& style = ImGui::GetStyle();
  // Below the image's top: the caption, the colorbar, and the window's bottom padding.
  const int caption_lines = caption_lines_for(ui, width);
  const float caption_h = ImGui::GetTextLineHeightWithSpacing() * static_cast<float>(caption_lines) +
                          heatmap::HeatmapWidget::colorbar_height() + style.ItemSpacing.y + style.WindowPadding.y;
  // The row labels' room is the same whether they show positions or words: were it to change
  // on zooming in, so would the image's pixel count, and the overview be computed again. The
  // column labels' is the words' only where the asked cells are exact (column_label_room).
  const float row_gutter = ImGui::GetFontSize() * kRowLabelEms;
  const float cells_width = image_width(width);
  const float reserved = column_reserved(cells_width);
  const auto side_below = [&](float col_gutter) {
    return std::floor(std::max(std::min(cells_width - reserved, height - caption_h - col_gutter), 64.0f));
  };
  // Pixels in steps of 64, so that resizing the window by a little recomputes nothing.
  const auto pixels_below = [&](float col_gutter) {
    return std::max(64, static_cast<int>(side_below(col_gutter)) / 64 * 64);
  };
  const int n = session_.rows();
  const int m = session_.cols();
  const overview::CellWindow asked = ask_.window.rows() > 0 ? ask_.window : overview::whole(n, m);
  const float words_gutter = ImGui::GetFontSize() * kColumnLabelEms;
  const ColumnLabelRoom room = column_label_room(asked.rows(), asked.cols(), words_gutter,
                                                 numbers_label_height(std::max(n, m), words_gutter), pixels_below);
  const float col_gutter = room.height;
  const float side = side_below(col_gutter);
  ask_.pixel_rows = ask_.pixel_cols = room.pixels;
  session_.request(ui.document.scenario(), ui.document.revision(), ask_);
  if (ui.view.wait_for_work) session_.wait_idle();

  const std::shared_ptr<const overview::Overview> shown = session_.shown();
  if (!shown || shown->heads.empty()) {
    // Nothing computed yet: being computed, or refused (the error above says why).
    if (session_.error().empty() || session_.running())
      ImGui::TextDisabled("%s", i18n::tr("The first overview is being computed."));
    return;
  }
  if (session_.generation() != image_generation_ || room.words != col_words_) {
    image_generation_ = session_.generation();
    col_words_ = room.words;
    refresh_image(*shown);
  }
  const overview::PixelGrid& g = shown->grid;
  const compute::OverviewAsk shown_ask = session_.shown_ask();
  const OverviewCaption caption = overview_caption(shown->heads.front().head, g, shown_ask.pooling, shown_ask.quantity);
  if (caption_lines == 2) {
    ImGui::TextUnformatted(caption.where.c_str());
    ImGui::TextUnformatted(caption.pixel.c_str());
  } else {
    ImGui::TextUnformatted(caption.one_line().c_str());
  }
  const heatmap::Colormap colormap =
      shown->quantity == overview::Quantity::Weights ? ui.view.weights_colormap : ui.view.scores_colormap;
  draw_colour_key(ui, colormap, shown->quantity, g.exact(), side);

  heatmap::HeatmapSpec spec;
  spec.source.host = &image_;
  spec.source.version = image_generation_;
  spec.range_min = range_min_;
  spec.range_max = range_max_;
  spec.colormap = colormap;
  spec.log_scale = log_scale_;
  spec.nan_hidden = true;
  // Zoomed in to exact cells, as few as the materialised heatmaps number, each carries its value.
  spec.values = g.exact() ? &image_ : nullptr;
  spec.numbers = ui.view.show_numbers && g.exact();
  spec.max_samples = 1;
  spec.row_labels = &row_labels_;
  spec.col_labels = &col_labels_;
  spec.row_label_width = row_gutter;
  spec.col_label_height = col_gutter;
  spec.labels_hold_positions = true;
  const float scale = side / static_cast<float>(std::max(g.rows, g.cols));
  spec.cells_width = scale * static_cast<float>(g.cols);
  spec.cells_height = scale * static_cast<float>(g.rows);
  const ImVec2 corner = ImGui::GetCursorScreenPos();
  const ImVec2 origin(corner.x + row_gutter, corner.y + col_gutter);  // the cells' top left
  const heatmap::HeatmapHover hover = ui.heatmaps.draw("##overview_image", spec);
  const ImVec2 size(spec.cells_width, spec.cells_height);
  outline_pinned(ui, g, origin, size);
  if (const std::optional<int> clicked = handle_mouse(*shown, origin, size, hover.hovered)) {
    if (side_column_)
      ui.view.pinned_query = *clicked;
    else
      ui.notices.post(ui::NoticeLevel::Info,
                      i18n::tr("A pinned query is shown beside the image: widen the window, or show the heatmaps "
                               "only (F8)"),
                      "overview");
  }
  if (hover.hovered && !dragging_) tooltip(*shown, origin, size);
  draw_side_column(ui, ImVec2(origin.x + size.x, origin.y), g.window != overview::whole(n, m), side);
}

// The widest the image's cells can be in a panel `panel_width` wide: less its row labels.
float OverviewView::image_width(float panel_width) {
  return panel_width - ImGui::GetStyle().ItemSpacing.x - ImGui::GetFontSize() * kRowLabelEms -
         heatmap::HeatmapWidget::label_overhang();
}

// Room for the side column (Find, the locator, the pinned query) where the image fills the
// width, unless the image would be narrower than the column. Decided by the width alone, so
// that what goes where does not change with the image's height.
float OverviewView::column_reserved(float image_width) {
  const float column = side_column_width();
  return image_width - column >= column ? column : 0.0f;
}

// What the side column takes from the panel's width at the least: its gap and its width.
float OverviewView::side_column_width() {
  const ImGuiStyle& style = ImGui::GetStyle();
  return heatmap::HeatmapWidget::label_overhang() + 3.0f * style.ItemSpacing.x + ImGui::GetFontSize() * kSideColumnEms;
}

// Right of the image, where the panel is wider than the image is: the zoomed window's place in
// the whole matrix, and the pinned query (or how to pin one).
void OverviewView::draw_side_column(ui::UiContext& ui, ImVec2 image_right, bool zoomed, float image_side) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 panel_max(ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x,
                         ImGui::GetWindowPos().y + ImGui::GetWindowContentRegionMax().y);
  const float left = image_right.x + heatmap::HeatmapWidget::label_overhang() + 2.0f * style.ItemSpacing.x;
  const float width = std::floor(std::min(panel_max.x - left - style.ItemSpacing.x, ImGui::GetFontSize() * 22.0f));
  side_column_ = width >= ImGui::GetFontSize() * kSideColumnEms - 1.0f;
  if (!side_column_) return;
  const ImVec2 after = ImGui::GetCursorScreenPos();
  ImGui::SetCursorScreenPos(ImVec2(left, image_right.y));
  ImGui::BeginChild("##overview_side", ImVec2(width, std::max(panel_max.y - image_right.y, 1.0f)));
  const int n = session_.rows();
  const int m = session_.cols();
  std::optional<overview::CellWindow> asked;
  if (find_beside_) {
    asked = find_.draw(ui, n, m, width - style.ScrollbarSize);
    ImGui::Spacing();
  }
  if (zoomed) {
    const float side = std::floor(std::min({width, ImGui::GetFontSize() * 14.0f, image_side * 0.5f}));
    if (auto moved = locator_.draw(ui, ImGui::GetCursorScreenPos(), side, n, m, current_window(),
                                   session_.shown_problem(), ask_)) {
      asked = moved;
    }
    ImGui::Spacing();
  }
  if (ui.view.pinned_query) {
    if (auto go_to =
            query_.draw(ui, session_.shown_problem(), ask_.head, *ui.view.pinned_query, width - style.ScrollbarSize)) {
      asked = go_to;
    }
  } else {
    query_.draw_hint();
  }
  ImGui::EndChild();
  ImGui::SetCursorScreenPos(after);
  if (asked) ask_.window = *asked == overview::whole(n, m) ? overview::CellWindow{} : *asked;
}

// The pinned query's row of pixels, outlined where the image shows it.
void OverviewView::outline_pinned(const ui::UiContext& ui, const overview::PixelGrid& g, ImVec2 origin,
                                  ImVec2 size) const {
  if (!ui.view.pinned_query) return;
  const int query = *ui.view.pinned_query;
  if (query < g.window.row_begin || query >= g.window.row_end) return;
  const float cell_h = size.y / static_cast<float>(g.rows);
  const float y0 = origin.y + cell_h * static_cast<float>((query - g.window.row_begin) / g.block_rows);
  const float y1 = y0 + std::max(cell_h, 2.0f);
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddRect(ImVec2(origin.x - 1.0f, y0 - 1.0f), ImVec2(origin.x + size.x + 1.0f, y1 + 1.0f), 0xff202020u, 0.0f, 0,
                3.0f);
  list->AddRect(ImVec2(origin.x - 1.0f, y0 - 1.0f), ImVec2(origin.x + size.x + 1.0f, y1 + 1.0f), heatmap::kPinnedColour,
                0.0f, 0, 1.5f);
}

std::optional<int> OverviewView::handle_mouse(const overview::Overview& shown, ImVec2 origin, ImVec2 size,
                                              bool hovered) {
  const ImGuiIO& io = ImGui::GetIO();
  const overview::CellWindow w = shown.grid.window;
  const int n = session_.rows();
  const int m = session_.cols();
  const double fy = static_cast<double>((io.MousePos.y - origin.y) / size.y);  // 0..1 down the image
  const double fx = static_cast<double>((io.MousePos.x - origin.x) / size.x);
  const double at_row = w.row_begin + fy * w.rows();
  const double at_col = w.col_begin + fx * w.cols();
  if (hovered && io.MouseWheel != 0.0f) {
    // Zoom around the cell under the mouse: it stays under the mouse.
    const double factor = std::pow(0.5, static_cast<double>(io.MouseWheel));
    const double rows = w.rows() * factor;
    const double cols = w.cols() * factor;
    ask_.window = centred_window(at_row + (0.5 - fy) * rows, at_col + (0.5 - fx) * cols, rows, cols, n, m);
    if (ask_.window == overview::whole(n, m)) ask_.window = {};
  }
  if (hovered && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) ask_.window = {};
  if (hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    dragging_ = true;
    drag_start_ = io.MousePos;
  }
  if (dragging_ && !ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    dragging_ = false;
    const double drow = static_cast<double>((io.MousePos.y - drag_start_.y) / size.y) * w.rows();
    const double dcol = static_cast<double>((io.MousePos.x - drag_start_.x) / size.x) * w.cols();
    const float threshold = io.MouseDragThreshold;
    const ImVec2 moved(io.MousePos.x - drag_start_.x, io.MousePos.y - drag_start_.y);
    if (moved.x * moved.x + moved.y * moved.y < threshold * threshold) {
      return std::clamp(static_cast<int>(std::floor(at_row)), w.row_begin, w.row_end - 1);  // a click: that query
    }
    if (std::fabs(drow) >= 1.0 || std::fabs(dcol) >= 1.0) {
      ask_.window = centred_window(w.row_begin + w.rows() / 2.0 - drow, w.col_begin + w.cols() / 2.0 - dcol, w.rows(),
                                   w.cols(), n, m);
      if (ask_.window == overview::whole(n, m)) ask_.window = {};
    }
  }
  return std::nullopt;
}

void OverviewView::tooltip(const overview::Overview& shown, ImVec2 origin, ImVec2 size) const {
  const overview::PixelGrid& g = shown.grid;
  const ImGuiIO& io = ImGui::GetIO();
  const int r =
      std::clamp(static_cast<int>((io.MousePos.y - origin.y) / size.y * static_cast<float>(g.rows)), 0, g.rows - 1);
  const int c =
      std::clamp(static_cast<int>((io.MousePos.x - origin.x) / size.x * static_cast<float>(g.cols)), 0, g.cols - 1);
  const overview::PooledImage& pooled = shown.heads.front();
  static const std::vector<std::string> kNoTokens;
  const std::shared_ptr<const Problem> problem = session_.shown_problem();
  const std::string where =
      overview_cell_place(g, r, c, problem ? problem->tokens : kNoTokens, problem ? problem->source_tokens : kNoTokens);
  if (pooled.hidden_at(g, r, c)) {
    ImGui::SetTooltip(i18n::tr("%s\nthe mask hides every cell here"), where.c_str());
    return;
  }
  ImGui::SetTooltip("%s\n%s: %.6g", where.c_str(),
                    g.exact() ? quantity_text(shown.quantity) : pooling_text(shown.pooling, shown.quantity),
                    static_cast<double>(pooled.at(g, r, c)));
}

}  // namespace attnviz::panels
