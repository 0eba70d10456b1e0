#include "app/export_ui/export_plan.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "app/heatmap/axis_math.h"
#include "app/heatmap/value_range.h"
#include "app/i18n/translate.h"
#include "core/common/error.h"

namespace attnviz::export_ui {
namespace {

// Names the window's Export in its messages (a msgid).
constexpr const char* kOrigin = N_("Export");

int head_count(const ShownState& shown) { return static_cast<int>(shown.result.heads.size()); }

int selected_head(const ShownState& shown) { return std::clamp(shown.head, 0, std::max(head_count(shown) - 1, 0)); }

std::vector<int> parse_head_list(const std::string& text) {
  std::vector<int> heads;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    std::string part = text.substr(start, comma - start);
    part.erase(0, part.find_first_not_of(' '));
    part.erase(part.find_last_not_of(' ') + 1);
    int head = -1;
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), head);
    if (part.empty() || error != std::errc() || end != part.data() + part.size() || head < 0) {
      throw InputError(
          i18n::tr(kOrigin), i18n::tr("heads"),
          i18n::format(i18n::tr("\xE2\x80\x9C%s\xE2\x80\x9D is not a head number: list them like 0,2"), part.c_str()));
    }
    heads.push_back(head);
    start = comma + 1;
  }
  return heads;
}

// nullopt: all heads.
std::optional<std::vector<int>> chosen_heads(const ExportChoices& choices, const ShownState& shown) {
  switch (choices.heads) {
    case HeadsChoice::Shown: return std::vector<int>{selected_head(shown)};
    case HeadsChoice::All: return std::nullopt;
    case HeadsChoice::List: return parse_head_list(choices.head_list);
  }
  return std::nullopt;
}

// The heads a range is measured over: the listed ones that exist (core reports the others).
std::vector<int> existing_heads(const std::optional<std::vector<int>>& heads, const ShownState& shown) {
  std::vector<int> result;
  for (int h = 0; h < head_count(shown); ++h) {
    if (!heads || std::find(heads->begin(), heads->end(), h) != heads->end()) result.push_back(h);
  }
  return result;
}

// The largest of the heads' ranges (they are all [0, x] or [−x, x]); nullopt when no head
// exists (core's render_export then says which does not).
template <typename RangeOf>
std::optional<std::pair<float, float>> widest(const std::vector<int>& heads, const ShownState& shown,
                                              RangeOf range_of) {
  std::optional<heatmap::ValueRange> widest;
  for (const int h : heads) {
    if (h < 0 || h >= head_count(shown)) continue;
    const heatmap::ValueRange r = range_of(shown.result.heads[static_cast<std::size_t>(h)]);
    widest = heatmap::ValueRange{std::min(widest ? widest->min : r.min, r.min),
                                 std::max(widest ? widest->max : r.max, r.max)};
  }
  if (!widest) return std::nullopt;
  return std::pair{widest->min, widest->max};
}

ui::WeightsRange weights_mode(const ShownState& shown) {
  return ui::resolve(shown.view.weights_range, std::max(shown.problem.n(), shown.problem.m()));
}

std::optional<std::pair<float, float>> weights_range(const ShownState& shown, const std::vector<int>& heads) {
  switch (weights_mode(shown)) {
    case ui::WeightsRange::ZeroToOne: return std::pair{0.0f, 1.0f};
    case ui::WeightsRange::Log: return std::pair{heatmap::kLogWeights.min, heatmap::kLogWeights.max};
    default: return widest(heads, shown, [](const HeadResult& r) { return heatmap::zero_to_max(r.weights); });
  }
}

}  // namespace

Quantity quantity_for(ui::HeadView step) {
  switch (step) {
    case ui::HeadView::RawScores: return Quantity::Scores;
    case ui::HeadView::ScaledScores: return Quantity::Scaled;
    default: return Quantity::Weights;
  }
}

const char* quantity_label(Quantity quantity) {
  switch (quantity) {
    case Quantity::Scores: return i18n::tr("raw scores");
    case Quantity::Scaled: return i18n::tr("scaled + masked scores");
    case Quantity::Weights: return i18n::tr("weights");
    case Quantity::Mask: return i18n::tr("mask");
    case Quantity::Context: return i18n::tr("context");
    case Quantity::Diff: return i18n::tr("Vulkan - Eigen weights");
  }
  return "?";
}

std::optional<ColormapId> shown_colormap(Quantity quantity, const ui::ViewState& view) {
  heatmap::Colormap map = view.scores_colormap;
  if (quantity == Quantity::Weights) map = view.weights_colormap;
  if (quantity == Quantity::Diff) map = view.difference_colormap;
  if (quantity == Quantity::Mask) return std::nullopt;
  switch (map) {
    case heatmap::Colormap::Viridis: return ColormapId::Viridis;
    case heatmap::Colormap::Magma: return ColormapId::Magma;
    case heatmap::Colormap::Cividis: return ColormapId::Cividis;
    case heatmap::Colormap::RdBu: return ColormapId::RdBu;
    default: return std::nullopt;
  }
}

exporting::ColourScale shown_scale(Quantity quantity, const ShownState& shown) {
  if (quantity != Quantity::Weights) return exporting::ColourScale::Linear;
  return weights_mode(shown) == ui::WeightsRange::Log ? exporting::ColourScale::Log : exporting::ColourScale::Linear;
}

std::optional<std::pair<float, float>> shown_range(Quantity quantity, const ShownState& shown,
                                                   const std::vector<int>& heads) {
  if (heads.empty()) return std::nullopt;
  const float scale = shown.problem.scale;
  const MaskMatrix* mask = &shown.result.mask;
  switch (quantity) {
    case Quantity::Weights: return weights_range(shown, heads);
    case Quantity::Scores:
      return widest(heads, shown, [](const HeadResult& r) { return heatmap::symmetric_range(r.scores); });
    case Quantity::Scaled:
      return widest(heads, shown, [&](const HeadResult& r) { return heatmap::symmetric_range(r.scores, scale, mask); });
    case Quantity::Context:
      return widest(heads, shown, [](const HeadResult& r) { return heatmap::symmetric_range(r.context); });
    case Quantity::Mask:
    case Quantity::Diff: return std::nullopt;  // export's automatic range is the window's
  }
  return std::nullopt;
}

std::optional<exporting::CellWindow> shown_window(Quantity quantity, const ShownState& shown) {
  const int rows = shown.problem.n();
  const int cols = shown.problem.m();
  // The zoom is kept per axis: an axis with a count of 0 shows all of it, the other may still
  // be zoomed (rows only, columns only). The widget clamps it the same way before drawing.
  if (rows <= 0 || cols <= 0 || !heatmap::is_zoomed(shown.zoom, rows, cols)) return std::nullopt;
  const heatmap::CellWindow w = heatmap::clamp_window(shown.zoom, rows, cols);
  // A cell counts when any of it shows; 1e-3 keeps float noise from adding a sliver.
  constexpr float kSliver = 1e-3f;
  const auto begin_of = [&](float first) { return static_cast<int>(std::floor(first + kSliver)); };
  const auto end_of = [&](float first, float count, int total) {
    return std::clamp(static_cast<int>(std::ceil(first + count - kSliver)), 1, total);
  };
  exporting::CellWindow window;
  window.row_begin = std::clamp(begin_of(w.first_row), 0, rows - 1);
  window.row_end = std::max(end_of(w.first_row, w.rows, rows), window.row_begin + 1);
  if (quantity != Quantity::Context) {  // context's columns are its d_v dimensions, never zoomed
    window.col_begin = std::clamp(begin_of(w.first_col), 0, cols - 1);
    window.col_end = std::max(end_of(w.first_col, w.cols, cols), window.col_begin + 1);
  }
  const bool all_rows = window.row_begin == 0 && window.row_end == rows;
  const bool all_cols =
      window.col_begin == 0 && (window.col_end == cols || window.col_end == exporting::CellWindow::kToEnd);
  if (all_rows && all_cols) return std::nullopt;
  if (window.col_end == cols) window.col_end = exporting::CellWindow::kToEnd;
  if (window.row_end == rows) window.row_end = exporting::CellWindow::kToEnd;
  return window;
}

ExportChoices choices_for_heatmap(Quantity quantity, const ShownState& shown) {
  ExportChoices choices;
  choices.what = {quantity};
  choices.values = shown.view.show_numbers ? ValuesMode::Auto : ValuesMode::Off;
  return choices;
}

ExportChoices choices_for_all(const ShownState& shown) {
  ExportChoices choices = choices_for_heatmap(Quantity::Weights, shown);
  choices.what = {Quantity::Scores, Quantity::Scaled, Quantity::Weights, Quantity::Mask, Quantity::Context};
  if (shown.has_difference) choices.what.push_back(Quantity::Diff);
  return choices;
}

ExportPlan plan_export(const ExportChoices& choices, const ShownState& shown) {
  ExportPlan plan;
  const std::optional<std::vector<int>> heads = chosen_heads(choices, shown);
  if (heads && heads->empty()) throw InputError(i18n::tr(kOrigin), i18n::tr("heads"), i18n::tr("names no head"));
  const std::vector<int> measured = existing_heads(heads, shown);
  for (const Quantity quantity : choices.what) {
    ExportRequest request;
    request.origin = i18n::tr(kOrigin);
    request.wording = i18n::wording();  // the figures speak the window's language
    request.what = {quantity};
    request.heads = heads;
    request.format = choices.format;
    request.colormap = choices.colormap ? choices.colormap : shown_colormap(quantity, shown.view);
    if (choices.range == RangeChoice::AsShown) {
      request.range = shown_range(quantity, shown, measured);
      request.scale = shown_scale(quantity, shown);
    }
    if (choices.range == RangeChoice::Custom) request.range = std::pair{choices.range_low, choices.range_high};
    if (choices.cell_px > 0) request.cell_px = choices.cell_px;
    request.dpi = choices.dpi;
    request.values = choices.values;
    if (!choices.title.empty()) request.title = choices.title;
    request.grid = choices.grid && exporting::is_image(choices.format);
    if (choices.zoom_as_shown) request.window = shown_window(quantity, shown);
    plan.requests.push_back(std::move(request));
  }
  return plan;
}

std::string csv_as_shown(Quantity quantity, const ShownState& shown, const exporting::ExportSource& source) {
  ExportChoices choices = choices_for_heatmap(quantity, shown);
  choices.format = ExportFormat::Csv;
  const ExportPlan plan = plan_export(choices, shown);
  const std::vector<exporting::ExportedFile> files = exporting::render_export(plan.requests.front(), source);
  return files.empty() ? std::string() : files.front().bytes;
}

}  // namespace attnviz::export_ui
