#include "core/export/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/json_text.h"
#include "core/export/export_content.h"
#include "core/export/number_format.h"
#include "core/export/png_writer.h"
#include "core/export/svg_writer.h"

namespace attnviz::exporting {
namespace {

using Json = nlohmann::ordered_json;

constexpr long long kMaxImagePixels = 120'000'000;  // about 11000 × 11000

std::string head_list(const std::vector<int>& heads) {
  std::string text;
  for (const int head : heads) text += (text.empty() ? "" : ", ") + std::to_string(head);
  return text;
}

std::string heads_text(const std::vector<int>& heads, const ExportSource& source, const Result& result) {
  const int count = static_cast<int>(result.heads.size());
  if (heads.size() == 1) {
    std::string text = "head " + std::to_string(heads.front()) + " of " + std::to_string(count);
    const int kv = source.caption.num_kv_heads;
    if (kv > 0 && kv < count) text += " (key/value head " + std::to_string(heads.front() / (count / kv)) + ")";
    return text;
  }
  if (static_cast<int>(heads.size()) == count) return "all " + std::to_string(count) + " heads";
  return "heads " + head_list(heads) + " of " + std::to_string(count);
}

// "head 5", or "head 5 · kv 1" when query heads share key/value heads.
std::string panel_heading(int head, const ExportSource& source, const Result& result) {
  const int count = static_cast<int>(result.heads.size());
  const int kv = source.caption.num_kv_heads;
  std::string text = "head " + std::to_string(head);
  if (kv > 0 && kv < count) text += " · kv " + std::to_string(head / (count / kv));
  return text;
}

struct ValueSpan {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double max_abs = 0.0;
  [[nodiscard]] bool empty() const { return !(max >= min); }
};

// The values a figure shows in colour: finite, and not hidden by the mask.
ValueSpan shown_values(const HeatmapFigure& figure) {
  ValueSpan span;
  for (const FigurePanel& panel : figure.panels) {
    for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
      const float value = panel.values.data[i];
      const bool hidden = !panel.masked.empty() && panel.masked[i] != 0 && figure.masked_style == MaskedCellStyle::Replace;
      if (!std::isfinite(value) || hidden) continue;
      span.min = std::min(span.min, static_cast<double>(value));
      span.max = std::max(span.max, static_cast<double>(value));
      span.max_abs = std::max(span.max_abs, std::abs(static_cast<double>(value)));
    }
  }
  return span;
}

std::pair<float, float> auto_range(const HeatmapFigure& figure, Quantity quantity, const ValueSpan& span) {
  if (span.empty()) return colormap(figure.colormap).diverging() ? std::pair{-1.0f, 1.0f} : std::pair{0.0f, 1.0f};
  if (colormap(figure.colormap).diverging()) {
    // Centred on 0, so white means 0 and the two signs get the same scale.
    const auto m = static_cast<float>(span.max_abs > 0.0 ? span.max_abs : 1.0);
    return {-m, m};
  }
  if (quantity == Quantity::Weights || quantity == Quantity::Mask) {
    return {0.0f, static_cast<float>(span.max > 0.0 ? span.max : 1.0)};
  }
  if (span.max > span.min) return {static_cast<float>(span.min), static_cast<float>(span.max)};
  return {static_cast<float>(span.min - 1.0), static_cast<float>(span.max + 1.0)};
}

// Columns for a grid of `panels`: few empty slots first, then close to a slide's 16:10.
int grid_columns(int panels) {
  int best = 1;
  double best_score = std::numeric_limits<double>::infinity();
  for (int columns = 1; columns <= panels; ++columns) {
    const int rows = (panels + columns - 1) / columns;
    const double score = 2.0 * (columns * rows - panels) + std::abs(std::log(static_cast<double>(columns) / rows) - std::log(1.6));
    if (score < best_score) {
      best_score = score;
      best = columns;
    }
  }
  return best;
}

std::vector<std::string> figure_notes(const std::optional<CellWindow>& window, const ExportSource& source, Quantity quantity,
                                      const Result& result, const ValueSpan& span) {
  std::vector<std::string> notes;
  if (quantity != Quantity::Scores && !result.masked_rows.empty()) {
    std::string rows;
    for (const int row : result.masked_rows) {
      const bool shown = !window || (row >= window->row_begin && row < window->row_end);
      if (!shown) continue;
      rows += (rows.empty() ? "" : ", ") + result.tokens.at(static_cast<std::size_t>(row)) + " (row " + std::to_string(row) + ")";
    }
    if (!rows.empty()) notes.push_back("queries that see no key (all weights and context 0): " + rows);
  }
  if (quantity == Quantity::Diff && !span.empty()) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2e", span.max_abs);
    notes.push_back(std::string("largest |Vulkan - Eigen| shown: ") + text + " (Vulkan: " + source.vulkan->device + ")");
  }
  return notes;
}

void check_request(const ExportRequest& request) {
  if (request.what.empty()) throw InputError(request.origin, "--what", "names nothing to export");
  for (std::size_t i = 0; i < request.what.size(); ++i) {
    if (std::find(request.what.begin(), request.what.begin() + static_cast<std::ptrdiff_t>(i), request.what[i]) !=
        request.what.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw InputError(request.origin, "--what", std::string("lists ") + quantity_name(request.what[i]) + " twice");
    }
  }
  if (request.range) {
    const auto [low, high] = *request.range;
    if (!std::isfinite(low) || !std::isfinite(high) || !(low < high)) {
      throw InputError(request.origin, "--range", "needs two finite numbers LOW,HIGH with LOW < HIGH");
    }
  }
  if (request.grid && !is_image(request.format)) {
    throw InputError(request.origin, "--grid", std::string("applies to png and svg, not ") + format_name(request.format));
  }
  if (request.dpi < 10 || request.dpi > 2400) throw InputError(request.origin, "--dpi", "must be between 10 and 2400");
  if (request.cell_px && (*request.cell_px < 1 || *request.cell_px > 1000)) {
    throw InputError(request.origin, "--cell", "must be between 1 and 1000 pixels");
  }
}

std::string render_image(const ExportRequest& request, const HeatmapFigure& figure) {
  const FontPair& fonts = export_fonts();
  const LaidOutFigure laid = lay_out(figure, fonts);
  const long long pixels = static_cast<long long>(laid.scene.width) * laid.scene.height;
  if (pixels > kMaxImagePixels) {
    throw InputError(request.origin, request.cell_px ? "--cell" : "--dpi",
                     "the image would be " + std::to_string(laid.scene.width) + "×" + std::to_string(laid.scene.height) +
                         " pixels; choose a smaller --cell or --dpi, or export a window of rows and columns");
  }
  if (request.format == ExportFormat::Svg) return scene_to_svg(laid.scene);
  return encode_png(rasterize(laid.scene, fonts), figure.dpi);
}

std::string render_json(const ExportRequest& request, const ExportSource& source, Quantity quantity, const std::vector<int>& heads) {
  const Result& result = primary_result(source, quantity, request.origin);
  const QuantityInfo& about = info(quantity);
  const SelectedMatrix first = select_matrix(request, source, quantity, heads.front());
  Json json;
  json["format"] = "attnviz-export/1";
  json["what"] = about.name;
  json["description"] = about.description;
  json["backend"] = quantity == Quantity::Diff ? "vulkan - cpu" : result.backend;
  json["device"] = quantity == Quantity::Diff ? source.vulkan->device + " - " + source.cpu->device : result.device;
  json["tokens"] = result.tokens;
  json["source_tokens"] = result.source_tokens;
  if (first.window) {
    json["window"] = {{"rows", {first.window->row_begin, first.window->row_end}},
                      {"cols", {first.window->col_begin, first.window->col_end}}};
  }
  json["row_labels"] = first.row_labels;
  json["column_labels"] = first.col_labels;
  json["masked_rows"] = result.masked_rows;
  if (!about.per_head) {
    json["mask"] = matrix_to_json(first.values);
    return json.dump(1) + "\n";
  }
  Json heads_json = Json::array();
  for (const int head : heads) {
    Json entry;
    entry["head"] = head;
    entry[about.json_key] = matrix_to_json(select_matrix(request, source, quantity, head).values);
    heads_json.push_back(std::move(entry));
  }
  json["heads"] = std::move(heads_json);
  return json.dump(1) + "\n";
}

std::string render_npy(const ExportRequest& request, const ExportSource& source, Quantity quantity, const std::vector<int>& heads) {
  if (heads.size() == 1) {
    const Matrix values = select_matrix(request, source, quantity, heads.front()).values;
    return npy_float32(values.data, {static_cast<std::size_t>(values.rows), static_cast<std::size_t>(values.cols)});
  }
  std::vector<float> stacked;
  Matrix last;
  for (const int head : heads) {
    last = select_matrix(request, source, quantity, head).values;
    stacked.insert(stacked.end(), last.data.begin(), last.data.end());
  }
  return npy_float32(stacked, {heads.size(), static_cast<std::size_t>(last.rows), static_cast<std::size_t>(last.cols)});
}

std::string render_csv(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head) {
  const SelectedMatrix selected = select_matrix(request, source, quantity, head);
  return matrix_to_csv(selected.values, selected.row_labels, selected.col_labels);
}

std::string file_name(Quantity quantity, const std::string& suffix, ExportFormat format) {
  return std::string(quantity_name(quantity)) + suffix + "." + format_name(format);
}

void render_quantity(const ExportRequest& request, const ExportSource& source, Quantity quantity, const std::vector<int>& heads,
                     std::vector<ExportedFile>& files) {
  const bool per_head = info(quantity).per_head;
  const std::vector<int> shown = per_head ? heads : std::vector<int>{0};
  const std::string name = quantity_name(quantity);
  switch (request.format) {
    case ExportFormat::Png:
    case ExportFormat::Svg:
      if (!per_head) {
        files.push_back({file_name(quantity, "", request.format), render_image(request, make_figure(request, source, quantity, shown))});
      } else if (request.grid) {
        files.push_back({file_name(quantity, "_grid", request.format), render_image(request, make_figure(request, source, quantity, heads))});
      } else {
        for (const int head : heads) {
          files.push_back({file_name(quantity, "_head" + std::to_string(head), request.format),
                           render_image(request, make_figure(request, source, quantity, {head}))});
        }
      }
      return;
    case ExportFormat::Csv:
      for (const int head : shown) {
        files.push_back({file_name(quantity, per_head ? "_head" + std::to_string(head) : "", request.format),
                         render_csv(request, source, quantity, head)});
      }
      return;
    case ExportFormat::Npy:
      if (!per_head || !request.heads) {
        files.push_back({file_name(quantity, "", request.format), render_npy(request, source, quantity, shown)});
      } else {
        for (const int head : heads) {
          files.push_back({file_name(quantity, "_head" + std::to_string(head), request.format), render_npy(request, source, quantity, {head})});
        }
      }
      return;
    case ExportFormat::Json:
      files.push_back({file_name(quantity, "", request.format), render_json(request, source, quantity, shown)});
      return;
  }
}

}  // namespace

HeatmapFigure make_figure(const ExportRequest& request, const ExportSource& source, Quantity quantity, const std::vector<int>& heads) {
  const QuantityInfo& about = info(quantity);
  const Result& result = primary_result(source, quantity, request.origin);
  HeatmapFigure figure;
  figure.title = request.title ? *request.title : source.caption.title;
  const bool several = heads.size() > 1 || (request.grid && about.per_head);
  std::optional<CellWindow> window;
  for (const int head : heads) {
    SelectedMatrix selected = select_matrix(request, source, quantity, head);
    if (figure.panels.empty()) {
      window = selected.window;
      figure.row_labels = selected.row_labels;
      figure.col_labels = selected.col_labels;
      figure.row_axis_title = selected.row_axis_title;
      figure.col_axis_title = selected.col_axis_title;
    }
    figure.panels.push_back({several ? panel_heading(head, source, result) : "", std::move(selected.values), std::move(selected.masked)});
  }
  figure.grid_columns = grid_columns(static_cast<int>(figure.panels.size()));

  std::string subtitle = about.description;
  if (about.per_head) subtitle += " · " + heads_text(heads, source, result);
  subtitle += " · mask: " + source.caption.mask;
  if (quantity != Quantity::Mask) subtitle += " · " + source.caption.scale;
  if (window) {
    subtitle += " · rows " + std::to_string(window->row_begin) + "–" + std::to_string(window->row_end - 1) + ", columns " +
                std::to_string(window->col_begin) + "–" + std::to_string(window->col_end - 1);
  }
  figure.subtitle = subtitle;

  figure.colormap = request.colormap.value_or(about.default_colormap);
  figure.colorbar_label = about.colorbar_label;
  figure.binary = quantity == Quantity::Mask;
  figure.visible_legend = "visible: the query can see this key";
  figure.masked_style = about.masked_style;
  figure.masked_legend = about.masked_legend;
  figure.dpi = request.dpi;
  figure.cell_px = request.cell_px;

  const ValueSpan span = shown_values(figure);
  const auto [low, high] = request.range.value_or(auto_range(figure, quantity, span));
  figure.range_low = low;
  figure.range_high = high;
  figure.values = quantity == Quantity::Diff && request.values == ValuesMode::Auto ? ValuesMode::Off : request.values;
  // Weights that differ only in the third decimal (near-uniform attention) get three.
  const bool close_weights = !span.empty() && span.max - span.min < 0.05;
  figure.value_decimals = quantity == Quantity::Weights ? (close_weights ? 3 : 2) : cell_decimals(span.empty() ? 0.0 : span.max_abs);
  figure.notes = figure_notes(window, source, quantity, result, span);
  return figure;
}

std::vector<ExportedFile> render_export(const ExportRequest& request, const ExportSource& source) {
  check_request(request);
  const std::vector<int> heads = requested_heads(request, source);
  std::vector<ExportedFile> files;
  for (const Quantity quantity : request.what) render_quantity(request, source, quantity, heads, files);
  return files;
}

std::vector<std::filesystem::path> write_export(const std::vector<ExportedFile>& files, const std::filesystem::path& out,
                                                const std::string& origin) {
  std::vector<std::filesystem::path> written;
  std::error_code error;
  if (files.empty()) return written;
  if (files.size() == 1) {
    const std::filesystem::path path = std::filesystem::is_directory(out, error) ? out / files.front().name : out;
    write_file_atomically(path, files.front().bytes);
    written.push_back(path);
    return written;
  }
  const std::string extension = out.extension().string();
  const bool looks_like_a_file = extension.size() > 1 && format_from_name(extension.substr(1)).has_value();
  if (looks_like_a_file && !std::filesystem::is_directory(out, error)) {
    throw InputError(origin, "--out",
                     "'" + out.string() + "' names a file, but this export writes " + std::to_string(files.size()) +
                         " files (" + files.front().name + ", " + files[1].name + (files.size() > 2 ? ", …" : "") +
                         "): give a directory, pick one head with --heads, or use --grid");
  }
  if (std::filesystem::exists(out, error) && !std::filesystem::is_directory(out, error)) {
    throw InputError(origin, "--out",
                     "'" + out.string() + "' is a file, but this export writes " + std::to_string(files.size()) + " files (" +
                         files.front().name + ", " + files[1].name + (files.size() > 2 ? ", …" : "") + "): give a directory");
  }
  std::filesystem::create_directories(out, error);
  if (error) throw std::runtime_error("cannot create the directory " + out.string() + ": " + error.message());
  for (const ExportedFile& file : files) {
    write_file_atomically(out / file.name, file.bytes);
    written.push_back(out / file.name);
  }
  return written;
}

}  // namespace attnviz::exporting
