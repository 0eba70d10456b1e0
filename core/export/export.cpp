#include "core/export/export.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/common/json_text.h"
#include "core/common/text_excerpt.h"
#include "core/export/export_content.h"
#include "core/export/file_set.h"
#include "core/export/number_streams.h"
#include "core/export/number_format.h"
#include "core/export/png_writer.h"
#include "core/export/svg_writer.h"

namespace attnviz::exporting {
namespace {

constexpr long long kMaxImagePixels = 120'000'000;  // about 11000 × 11000
std::string head_list(const std::vector<int>& heads) {
  std::string text;
  for (const int head : heads) text += (text.empty() ? "" : ", ") + std::to_string(head);
  return text;
}

std::string heads_text(const std::vector<int>& heads, const ExportSource& source, const Result& result,
                       const Wording& wording) {
  const int count = static_cast<int>(result.heads.size());
  const std::string total = std::to_string(count);
  if (heads.size() == 1) {
    const std::string head = std::to_string(heads.front());
    const int kv = source.caption.num_kv_heads;
    if (kv > 0 && kv < count) {
      return wording.tr("head %1$s of %2$s (key/value head %3$s)",
                        {head, total, std::to_string(heads.front() / (count / kv))});
    }
    return wording.tr("head %1$s of %2$s", {head, total});
  }
  if (static_cast<int>(heads.size()) == count)
    return wording.trn("all %1$s head", "all %1$s heads", static_cast<unsigned long>(count), {total});
  return wording.tr("heads %1$s of %2$s", {head_list(heads), total});
}

// "head 5", or "head 5 · kv 1" when query heads share key/value heads.
std::string panel_heading(int head, const ExportSource& source, const Result& result, const Wording& wording) {
  const int count = static_cast<int>(result.heads.size());
  const int kv = source.caption.num_kv_heads;
  if (kv > 0 && kv < count) {
    return wording.tr("head %1$s · kv %2$s", {std::to_string(head), std::to_string(head / (count / kv))});
  }
  return wording.tr("head %1$s", {std::to_string(head)});
}

struct ValueSpan {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  double max_abs = 0.0;
  [[nodiscard]] bool empty() const { return !(max >= min); }
};

// The span of the values a figure shows in colour.
ValueSpan shown_values(const HeatmapFigure& figure) {
  ValueSpan span;
  for (const FigurePanel& panel : figure.panels) {
    for (std::size_t i = 0; i < panel.values.data.size(); ++i) {
      if (!shown_in_colour(figure, panel, i)) continue;
      const float value = panel.values.data[i];
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
    const double score =
        2.0 * (columns * rows - panels) + std::abs(std::log(static_cast<double>(columns) / rows) - std::log(1.6));
    if (score < best_score) {
      best_score = score;
      best = columns;
    }
  }
  return best;
}

std::vector<std::string> figure_notes(const std::optional<CellWindow>& window, const ExportSource& source,
                                      Quantity quantity, const Result& result, const ValueSpan& span,
                                      const Wording& wording) {
  std::vector<std::string> notes;
  if (quantity != Quantity::Scores && !result.masked_rows.empty()) {
    std::string rows;
    for (const int row : result.masked_rows) {
      const bool shown = !window || (row >= window->row_begin && row < window->row_end);
      if (!shown) continue;
      rows += (rows.empty() ? "" : ", ") +
              wording.tr("%1$s (row %2$s)", {result.tokens.at(static_cast<std::size_t>(row)), std::to_string(row)});
    }
    if (!rows.empty()) notes.push_back(wording.tr("queries that see no key (all weights and context 0): %1$s", {rows}));
  }
  if (quantity == Quantity::Diff && !span.empty()) {
    char text[64];
    std::snprintf(text, sizeof text, "%.2e", span.max_abs);
    notes.push_back(wording.tr("largest |Vulkan - Eigen| shown: %1$s (Vulkan: %2$s)", {text, source.vulkan->device}));
  }
  return notes;
}

bool uses_log_scale(const ExportRequest& request, Quantity quantity, const Result& result) {
  if (quantity != Quantity::Weights) return false;
  if (request.scale != ColourScale::Auto) return request.scale == ColourScale::Log;
  // An explicit linear-looking range (LOW ≤ 0) keeps the automatic scale linear.
  if (request.range && !(request.range->first > 0.0f)) return false;
  const auto tokens = std::max(result.tokens.size(), result.source_tokens.size());
  return tokens > static_cast<std::size_t>(kLogWeightsBeyondTokens);
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
  if (request.scale == ColourScale::Log) {
    if (std::find(request.what.begin(), request.what.end(), Quantity::Weights) == request.what.end()) {
      throw InputError(
          request.origin, "--scale",
          "log applies to the weights only (the other matrices have negative values); add weights to --what");
    }
    if (request.range && !(request.range->first > 0.0f)) {
      throw InputError(request.origin, "--range",
                       "a log scale needs LOW > 0 (e.g. 0.0001,1), not " + fixed_text(request.range->first, 6));
    }
  }
  if (request.grid && !is_image(request.format)) {
    throw InputError(request.origin, "--grid",
                     std::string("applies to png and svg, not ") + format_name(request.format));
  }
  check_title(request.title, request.origin);
  if (request.dpi < 10 || request.dpi > 2400) throw InputError(request.origin, "--dpi", "must be between 10 and 2400");
  if (request.cell_px && (*request.cell_px < 1 || *request.cell_px > 1000)) {
    throw InputError(request.origin, "--cell", "must be between 1 and 1000 pixels");
  }
}

// An explicit --cell so small that the matrix would be a speck beside its own labels and
// colorbar is refused (the default cell size never is).
void check_cell_size(const ExportRequest& request, const HeatmapFigure& figure) {
  if (!request.cell_px) return;
  const Matrix& values = figure.panels.front().values;
  const int n = std::max(values.rows, values.cols);
  const int side = *request.cell_px * n;
  const int least = min_matrix_side_px(figure.dpi);
  if (side >= least) return;
  throw InputError(request.origin, "--cell",
                   std::to_string(*request.cell_px) + " makes the " + std::to_string(values.rows) + " × " +
                       std::to_string(values.cols) + " matrix " + std::to_string(side) +
                       " pixels across, under two thirds of an inch at " + std::to_string(figure.dpi) +
                       " dpi: too small beside its labels and colorbar; use --cell " +
                       std::to_string((least + n - 1) / n) + " or more, or leave --cell out");
}

// A character of the figure's text that the font cannot draw (a tofu box in the PNG).
std::vector<std::string> missing_glyph_warnings(const Scene& scene, const FontPair& fonts) {
  std::vector<char32_t> missing;
  for (const Shape& shape : scene.shapes) {
    const auto* text = std::get_if<TextItem>(&shape);
    if (text == nullptr) continue;
    const Font& font = text->bold ? *fonts.bold : *fonts.regular;
    for (const char32_t code : decode_utf8(text->text)) {
      if (code >= 0x20 && !font.has_glyph(code) && std::find(missing.begin(), missing.end(), code) == missing.end()) {
        missing.push_back(code);
      }
    }
  }
  if (missing.empty()) return {};
  std::string codes;
  for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 5); ++i) {
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(missing[i]));
    codes += (codes.empty() ? "" : ", ") + std::string(code);
  }
  if (missing.size() > 5) codes += ", …";
  return {"the font " + fonts.regular->file().string() + " has no glyph for " + std::to_string(missing.size()) +
          " character(s) in the labels (" + codes +
          "), drawn as boxes; set ATTNVIZ_HANGUL_FONT to a font that has them"};
}

ExportedFile render_image(const ExportRequest& request, const HeatmapFigure& figure, std::string name) {
  check_cell_size(request, figure);
  const FontPair& fonts = export_fonts();
  const LaidOutFigure laid = lay_out(figure, fonts);
  const long long pixels = static_cast<long long>(laid.scene.width) * laid.scene.height;
  if (pixels > kMaxImagePixels) {
    throw InputError(request.origin, request.cell_px ? "--cell" : "--dpi",
                     "the image would be " + std::to_string(laid.scene.width) + "×" +
                         std::to_string(laid.scene.height) +
                         " pixels; choose a smaller --cell or --dpi, or export a window of rows and columns");
  }
  ExportedFile file{std::move(name), "", fonts.warnings};
  if (figure.title.ends_with("\u2026") && character_count(figure.title) > kMaxTitleCharacters) {
    file.warnings.push_back("the title is cut to its first " + std::to_string(kMaxTitleCharacters) + " characters");
  }
  for (const std::string& warning : laid.warnings) file.warnings.push_back(warning);
  for (const std::string& warning : missing_glyph_warnings(laid.scene, fonts)) file.warnings.push_back(warning);
  file.bytes = request.format == ExportFormat::Svg ? scene_to_svg(laid.scene)
                                                   : encode_png(rasterize(laid.scene, fonts), figure.dpi);
  return file;
}

// A numbers file written when its bytes are wanted, a row at a time (number_streams.h). The
// shapes, heads and windows are checked now (MatrixRows throws), so that a bad request fails
// before any file is written.
ExportedFile streamed(std::string name, std::function<void(const ByteSink&)> stream) {
  ExportedFile file{std::move(name), "", {}};
  file.stream = std::move(stream);
  return file;
}

std::string file_name(Quantity quantity, const std::string& suffix, ExportFormat format) {
  return std::string(quantity_name(quantity)) + suffix + "." + format_name(format);
}

void render_quantity(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                     const std::vector<int>& heads, std::vector<ExportedFile>& files) {
  const bool per_head = info(quantity).per_head;
  const std::vector<int> shown = per_head ? heads : std::vector<int>{0};
  const std::string name = quantity_name(quantity);
  switch (request.format) {
    case ExportFormat::Png:
    case ExportFormat::Svg:
      if (!per_head) {
        files.push_back(render_image(request, make_figure(request, source, quantity, shown),
                                     file_name(quantity, "", request.format)));
      } else if (request.grid) {
        files.push_back(render_image(request, make_figure(request, source, quantity, heads),
                                     file_name(quantity, "_grid", request.format)));
      } else {
        for (const int head : heads) {
          files.push_back(render_image(request, make_figure(request, source, quantity, {head}),
                                       file_name(quantity, "_head" + std::to_string(head), request.format)));
        }
      }
      return;
    case ExportFormat::Csv:
      for (const int head : shown) {
        files.push_back(streamed(file_name(quantity, per_head ? "_head" + std::to_string(head) : "", request.format),
                                 [&request, &source, quantity, head](const ByteSink& sink) {
                                   stream_csv(request, source, quantity, head, sink);
                                 }));
      }
      return;
    case ExportFormat::Npy: {
      const auto npy = [&request, &source, quantity](std::vector<int> which, bool heads_axis) {
        return [&request, &source, quantity, which, heads_axis](const ByteSink& sink) {
          stream_npy(request, source, quantity, which, heads_axis, sink);
        };
      };
      if (!per_head) {
        files.push_back(streamed(file_name(quantity, "", request.format), npy(shown, false)));
      } else if (!request.heads) {
        files.push_back(streamed(file_name(quantity, "", request.format), npy(heads, true)));
      } else {
        for (const int head : heads) {
          files.push_back(
              streamed(file_name(quantity, "_head" + std::to_string(head), request.format), npy({head}, false)));
        }
      }
      return;
    }
    case ExportFormat::Json:
      files.push_back(
          streamed(file_name(quantity, "", request.format), [&request, &source, quantity, shown](const ByteSink& sink) {
            stream_json(request, source, quantity, shown, sink);
          }));
      return;
  }
}

FileToWrite to_write(const std::filesystem::path& path, const ExportedFile& file) {
  FileToWrite entry{path, &file.bytes, {}};
  if (file.stream) entry.stream = file.stream;
  return entry;
}

}  // namespace

void check_title(const std::optional<std::string>& title, const std::string& origin) {
  if (title && character_count(*title) > kMaxTitleCharacters) {
    throw InputError(origin, "--title",
                     "is " + std::to_string(character_count(*title)) +
                         " characters long; a figure's title takes at most " + std::to_string(kMaxTitleCharacters));
  }
}

ExportedFile render_figure_image(HeatmapFigure figure, ExportFormat format, std::string name,
                                 const std::string& origin) {
  figure.title = cut_text(figure.title, kMaxTitleCharacters);  // a long text's sentence, say
  ExportRequest request;
  request.format = format;
  request.cell_px = figure.cell_px;
  request.dpi = figure.dpi;
  request.origin = origin;
  return render_image(request, figure, std::move(name));
}

HeatmapFigure make_figure(const ExportRequest& request, const ExportSource& source, Quantity quantity,
                          const std::vector<int>& heads) {
  const QuantityInfo& about = info(quantity);
  const Result& result = primary_result(source, quantity, request.origin);
  const Wording& wording = request.wording;
  HeatmapFigure figure;
  figure.wording = wording;
  figure.title = cut_text(request.title ? *request.title : source.caption.title, kMaxTitleCharacters);
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
    figure.panels.push_back({several ? panel_heading(head, source, result, wording) : "", std::move(selected.values),
                             std::move(selected.masked)});
  }
  figure.grid_columns = grid_columns(static_cast<int>(figure.panels.size()));
  if (window) {
    figure.first_row_index = window->row_begin;
    figure.first_col_index = window->col_begin;
  }
  figure.col_labels_are_positions = quantity == Quantity::Context;

  std::string subtitle = wording.tr(about.description);
  if (about.per_head) subtitle += " · " + heads_text(heads, source, result, wording);
  subtitle += " · " + wording.tr("mask: %1$s", {source.caption.mask});
  if (quantity != Quantity::Mask) subtitle += " · " + source.caption.scale;
  if (quantity != Quantity::Mask && !source.caption.positions.empty()) subtitle += " · " + source.caption.positions;
  if ((quantity == Quantity::Weights || quantity == Quantity::Context) && !source.caption.dropout.empty())
    subtitle += " · " + wording.tr("%1$s: dropped weights are 0", {source.caption.dropout});
  if (window) {
    subtitle += " · " + wording.tr("rows %1$s–%2$s, columns %3$s–%4$s",
                                   {std::to_string(window->row_begin), std::to_string(window->row_end - 1),
                                    std::to_string(window->col_begin), std::to_string(window->col_end - 1)});
  }
  figure.subtitle = subtitle;

  figure.colormap = request.colormap.value_or(about.default_colormap);
  figure.colorbar_label = *about.colorbar_label != '\0' ? wording.tr(about.colorbar_label) : "";
  figure.binary = quantity == Quantity::Mask;
  figure.visible_legend = wording.tr("visible: the query can see this key");
  figure.masked_style = about.masked_style;
  figure.masked_legend = *about.masked_legend != '\0' ? wording.tr(about.masked_legend) : "";
  figure.dpi = request.dpi;
  figure.cell_px = request.cell_px;

  const ValueSpan span = shown_values(figure);
  figure.log_scale = uses_log_scale(request, quantity, result);
  if (figure.log_scale) figure.colorbar_label = wording.tr("%1$s (log scale)", {figure.colorbar_label});
  const std::pair<float, float> log_range{kLogWeightsLow, 1.0f};
  const auto [low, high] = request.range.value_or(figure.log_scale ? log_range : auto_range(figure, quantity, span));
  figure.range_low = low;
  figure.range_high = high;
  figure.values = quantity == Quantity::Diff && request.values == ValuesMode::Auto ? ValuesMode::Off : request.values;
  // Weights that differ only in the third decimal (near-uniform attention) get three; tiny
  // values (Vulkan − Eigen, ~1e-7) are written in scientific notation, not as 0.00.
  const bool close_weights = !span.empty() && span.max - span.min < 0.05;
  figure.value_decimals =
      quantity == Quantity::Weights ? (close_weights ? 3 : 2) : cell_decimals(span.empty() ? 0.0 : span.max_abs);
  figure.value_scientific = quantity != Quantity::Weights && !span.empty() && span.max_abs > 0.0 && span.max_abs < 1e-3;
  figure.notes = figure_notes(window, source, quantity, result, span, wording);
  return figure;
}

std::vector<ExportedFile> render_export_streamed(const ExportRequest& request, const ExportSource& source) {
  check_request(request);
  const std::vector<int> heads = requested_heads(request, source);
  std::vector<ExportedFile> files;
  for (const Quantity quantity : request.what) {
    render_quantity(request, source, quantity, heads, files);
    // The numbers are written later: check now that every head and window fits.
    if (!is_image(request.format)) {
      for (const int head : info(quantity).per_head ? heads : std::vector<int>{0})
        (void)MatrixRows(request, source, quantity, head);
    }
  }
  return files;
}

std::vector<ExportedFile> render_export(const ExportRequest& request, const ExportSource& source) {
  std::vector<ExportedFile> files = render_export_streamed(request, source);
  for (ExportedFile& file : files) file.bytes = file_bytes(file);
  for (ExportedFile& file : files) file.stream = nullptr;
  return files;
}

std::string file_bytes(const ExportedFile& file) {
  if (!file.stream) return file.bytes;
  std::string bytes;
  file.stream([&bytes](std::string_view piece) { bytes.append(piece); });
  return bytes;
}

namespace {

// "newdir/" names a directory even before it exists.
bool names_a_directory(const std::filesystem::path& out) {
  std::error_code error;
  return !out.has_filename() || std::filesystem::is_directory(out, error);
}

}  // namespace

void check_export_destination(const std::vector<std::string>& names, const std::filesystem::path& out,
                              const std::string& origin) {
  if (names.empty()) return;
  const bool names_directory = names_a_directory(out);
  if (names.size() == 1) {
    if (names_directory) return;
    const std::optional<ExportFormat> named = format_from_extension(out);
    const std::string extension = std::filesystem::path(names.front()).extension().string();
    if (named && "." + std::string(format_name(*named)) != extension) {
      std::filesystem::path suggestion = out;
      suggestion.replace_extension(extension);
      throw InputError(origin, "--out",
                       "'" + out.string() + "' ends in ." + format_name(*named) + " but the export is " +
                           extension.substr(1) + " (--format " + extension.substr(1) + "): name it " +
                           suggestion.string() + ", or choose --format " + format_name(*named));
    }
    return;
  }
  const std::string list = std::to_string(names.size()) + " files (" + names.front() + ", " + names[1] +
                           (names.size() > 2 ? ", …" : "") + ")";
  if (format_from_extension(out) && !names_directory) {
    throw InputError(origin, "--out",
                     "'" + out.string() + "' names a file, but this export writes " + list +
                         ": give a directory, pick one head with --heads, or use --grid");
  }
  std::error_code error;
  if (std::filesystem::exists(out, error) && !names_directory) {
    throw InputError(origin, "--out",
                     "'" + out.string() + "' is a file, but this export writes " + list + ": give a directory");
  }
}

std::vector<std::filesystem::path> write_export(const std::vector<ExportedFile>& files,
                                                const std::filesystem::path& out, const std::string& origin) {
  std::vector<std::filesystem::path> written;
  if (files.empty()) return written;
  std::vector<std::string> names;
  for (const ExportedFile& file : files) names.push_back(file.name);
  check_export_destination(names, out, origin);
  if (files.size() == 1 && !names_a_directory(out)) {
    write_files_all_or_nothing({to_write(out, files.front())});
    written.push_back(out);
    return written;
  }
  std::error_code error;
  std::filesystem::create_directories(out, error);
  if (error) throw FileWriteError(out, "cannot create the directory: " + error.message(), true);
  std::vector<FileToWrite> set;
  for (const ExportedFile& file : files) {
    written.push_back(out / file.name);
    set.push_back(to_write(written.back(), file));
  }
  write_files_all_or_nothing(set);
  return written;
}

}  // namespace attnviz::exporting
