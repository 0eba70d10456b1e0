#include "app/panels/overview_labels.h"

#include "app/ui/long_text.h"
#include "core/lesson/number_text.h"

namespace attnviz::panels {
namespace {

// A token can be a whole file without a space in it: labels and the tooltip show its start.
constexpr std::size_t kTokenCharacters = 40;

std::string quoted_token(const std::vector<std::string>& tokens, int index) {
  if (index < 0 || index >= static_cast<int>(tokens.size())) return "";
  return " \xE2\x80\x9C" + ui::shown_text(tokens[static_cast<std::size_t>(index)], kTokenCharacters, 1).text + "\xE2\x80\x9D";
}

}  // namespace

std::vector<std::string> overview_axis_labels(const overview::PixelGrid& grid, bool rows, const std::vector<std::string>& tokens) {
  const int count = rows ? grid.rows : grid.cols;
  const int end = rows ? grid.window.row_end : grid.window.col_end;
  const bool words = grid.exact() && static_cast<int>(tokens.size()) >= end;
  std::vector<std::string> labels;
  labels.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    const int first = rows ? grid.row_begin(i) : grid.col_begin(i);
    labels.push_back(words ? lesson::format_grouped(first) + " " + ui::shown_text(tokens[static_cast<std::size_t>(first)], kTokenCharacters, 1).text
                           : lesson::format_grouped(first));
  }
  return labels;
}

ColumnLabelRoom column_label_room(int window_rows, int window_cols, float words_height, float numbers_height,
                                  const std::function<int(float)>& pixels_below) {
  const int with_words = pixels_below(words_height);
  if (window_rows <= with_words && window_cols <= with_words) return {words_height, true, with_words};
  return {numbers_height, false, pixels_below(numbers_height)};
}

std::string overview_cell_place(const overview::PixelGrid& grid, int r, int c, const std::vector<std::string>& row_tokens,
                                const std::vector<std::string>& col_tokens) {
  if (grid.exact()) {
    return "query " + lesson::format_grouped(grid.row_begin(r)) + quoted_token(row_tokens, grid.row_begin(r)) + ", key " +
           lesson::format_grouped(grid.col_begin(c)) + quoted_token(col_tokens, grid.col_begin(c));
  }
  return "queries " + lesson::format_grouped(grid.row_begin(r)) + "\xE2\x80\x93" + lesson::format_grouped(grid.row_end(r) - 1) + ", keys " +
         lesson::format_grouped(grid.col_begin(c)) + "\xE2\x80\x93" + lesson::format_grouped(grid.col_end(c) - 1);
}

}  // namespace attnviz::panels
