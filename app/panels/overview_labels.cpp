#include "app/i18n/translate.h"
#include "app/panels/overview_labels.h"

#include <algorithm>

#include "app/ui/long_text.h"
#include "core/common/number_text.h"

namespace attnviz::panels {
namespace {

// A token can be a whole file without a space in it: labels and the tooltip show its start.
constexpr std::size_t kTokenCharacters = 40;

std::string quoted_token(const std::vector<std::string>& tokens, int index) {
  if (index < 0 || index >= static_cast<int>(tokens.size())) return "";
  return " \xE2\x80\x9C" + ui::shown_text(tokens[static_cast<std::size_t>(index)], kTokenCharacters, 1).text +
         "\xE2\x80\x9D";
}

std::string span(int first, int last) { return format_grouped(first) + "\xE2\x80\x93" + format_grouped(last); }

// "head 0 · queries 0–65,535 × keys 0–65,535"
std::string where_text(int head, int row_first, int row_last, int col_first, int col_last) {
  return i18n::format(i18n::tr("head %d \u00B7 queries %s \u00D7 keys %s"), head, span(row_first, row_last).c_str(),
                      span(col_first, col_last).c_str());
}

}  // namespace

std::vector<std::string> overview_axis_labels(const overview::PixelGrid& grid, bool rows,
                                              const std::vector<std::string>& tokens) {
  const int count = rows ? grid.rows : grid.cols;
  const int end = rows ? grid.window.row_end : grid.window.col_end;
  const bool words = grid.exact() && static_cast<int>(tokens.size()) >= end;
  std::vector<std::string> labels;
  labels.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int first = rows ? grid.row_begin(i) : grid.col_begin(i);
    labels.push_back(words ? format_grouped(first) + " " +
                                 ui::shown_text(tokens[static_cast<std::size_t>(first)], kTokenCharacters, 1).text
                           : format_grouped(first));
  }
  return labels;
}

ColumnLabelRoom column_label_room(int window_rows, int window_cols, float words_height, float numbers_height,
                                  const std::function<int(float)>& pixels_below) {
  const int with_words = pixels_below(words_height);
  if (window_rows <= with_words && window_cols <= with_words) return {words_height, true, with_words};
  return {numbers_height, false, pixels_below(numbers_height)};
}

std::string overview_cell_place(const overview::PixelGrid& grid, int r, int c,
                                const std::vector<std::string>& row_tokens,
                                const std::vector<std::string>& col_tokens) {
  if (grid.exact()) {
    // TRANSLATORS: a query's number and its token in quotes (or nothing), then a key's.
    return i18n::format(i18n::tr("query %s%s, key %s%s"), format_grouped(grid.row_begin(r)).c_str(),
                        quoted_token(row_tokens, grid.row_begin(r)).c_str(), format_grouped(grid.col_begin(c)).c_str(),
                        quoted_token(col_tokens, grid.col_begin(c)).c_str());
  }
  return i18n::format(i18n::tr("queries %s, keys %s"), span(grid.row_begin(r), grid.row_end(r) - 1).c_str(),
                      span(grid.col_begin(c), grid.col_end(c) - 1).c_str());
}

const char* quantity_text(overview::Quantity quantity) {
  if (quantity == overview::Quantity::Weights) return i18n::tr("weight");
  return quantity == overview::Quantity::RawScores ? i18n::tr("raw score") : i18n::tr("scaled score");
}

const char* pooling_text(overview::Pooling pooling, overview::Quantity quantity) {
  const bool weights = quantity == overview::Quantity::Weights;
  if (pooling == overview::Pooling::Max)
    return weights ? i18n::tr("the largest weight") : i18n::tr("the largest score");
  return weights ? i18n::tr("the mean weight") : i18n::tr("the mean of its visible scores");
}

OverviewCaption overview_caption(int head, const overview::PixelGrid& grid, overview::Pooling pooling,
                                 overview::Quantity quantity) {
  const overview::CellWindow& w = grid.window;
  OverviewCaption out;
  out.where = where_text(head, w.row_begin, w.row_end - 1, w.col_begin, w.col_end - 1);
  out.pixel = grid.exact() ? std::string(i18n::tr("each pixel: one cell"))
                           : i18n::format(i18n::tr("each pixel: %s \u00D7 %s cells, %s"),
                                          format_grouped(grid.block_rows).c_str(),
                                          format_grouped(grid.block_cols).c_str(), pooling_text(pooling, quantity));
  return out;
}

OverviewCaption widest_overview_caption(int heads, int n, int m, overview::Pooling pooling,
                                        overview::Quantity quantity) {
  n = std::max(n, 1);
  m = std::max(m, 1);
  const int last_head = std::max(heads, 1) - 1;
  OverviewCaption widest =
      overview_caption(last_head, overview::PixelGrid::fit(overview::whole(n, m), 64, 64), pooling, quantity);
  widest.where = where_text(last_head, n - 1, n - 1, m - 1, m - 1);
  return widest;
}

}  // namespace attnviz::panels
