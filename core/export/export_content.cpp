#include "core/export/export_content.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <string_view>

#include "core/common/error.h"
#include "core/common/text_excerpt.h"
#include "core/export/number_format.h"
#include "core/scenario/positions.h"
#include "core/scenario/preset_titles.h"

namespace attnviz::exporting {
namespace {

// The words are marked for the catalogue here and translated where a figure shows them
// (make_figure, through the request's Wording); JSON's "description" keeps the English.
constexpr std::array<QuantityInfo, 6> kQuantities = {{
    {"scores", N_("raw scores Q·Kᵀ (before scaling and masking)"), N_("raw score"), ColormapId::RdBu,
     MaskedCellStyle::Overlay, N_("faded, hatched: masked pair (its score is computed but not used)"), true, "scores"},
    {"scaled", N_("scaled scores (scale · Q·Kᵀ + ALiBi's bias if any, masked pairs set to -∞)"), N_("scaled score"),
     ColormapId::RdBu, MaskedCellStyle::Replace, N_("masked: -∞, the query cannot see this key"), true, "scaled"},
    {"weights", N_("attention weights (softmax of each row)"), N_("attention weight"), ColormapId::Viridis,
     MaskedCellStyle::Replace, N_("masked: the query cannot see this key (weight 0)"), true, "weights"},
    {"mask", N_("which keys each query can see"), "", ColormapId::Viridis, MaskedCellStyle::Replace,
     N_("masked: the query cannot see this key"), false, "mask"},
    {"context", N_("context vectors A·V (one row per query)"), N_("context value"), ColormapId::RdBu,
     MaskedCellStyle::Replace, "", true, "context"},
    {"diff", N_("attention weights, Vulkan \u2212 Eigen"), N_("Vulkan \u2212 Eigen"), ColormapId::RdBu,
     MaskedCellStyle::Replace, N_("masked: the query cannot see this key"), true, "diff"},
}};

constexpr std::array<const char*, 5> kFormats = {"png", "svg", "csv", "npy", "json"};
constexpr std::array<const char*, 3> kScales = {"auto", "linear", "log"};

std::string trimmed_number(double value) {
  std::string text = fixed_text(value, 3);
  while (text.find('.') != std::string::npos && (text.back() == '0' || text.back() == '.')) {
    const bool dot = text.back() == '.';
    text.pop_back();
    if (dot) break;
  }
  return text;
}

std::string mask_text(const MaskSetting& mask, const Wording& wording) {
  std::vector<std::string> parts;
  if (mask.causal) parts.push_back(wording.tr("causal"));
  if (mask.window) parts.push_back(wording.tr("window %1$s", {std::to_string(*mask.window)}));
  if (!mask.global.empty()) {
    std::string globals;
    for (const int index : mask.global) globals += (globals.empty() ? "" : ", ") + std::to_string(index);
    parts.push_back(wording.tr("global {%1$s}", {globals}));
  }
  if (parts.empty()) return wording.tr("none");
  std::string text = parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) text += ", " + parts[i];
  return text;
}

std::string scale_text(const ScaleSetting& scale, int d_k, float factor, const Wording& wording) {
  switch (scale.kind) {
    case ScaleSetting::Kind::InvSqrtDk:
      return wording.tr("scale 1/√dₖ = 1/√%1$s ≈ %2$s", {std::to_string(d_k), trimmed_number(factor)});
    case ScaleSetting::Kind::None: return wording.tr("no scaling");
    case ScaleSetting::Kind::Value: return wording.tr("scale %1$s", {trimmed_number(factor)});
  }
  return "";
}

void check_window(const CellWindow& window, int rows, int cols, const std::string& origin) {
  const bool rows_ok = window.row_begin >= 0 && window.row_begin < window.row_end && window.row_end <= rows;
  const bool cols_ok = window.col_begin >= 0 && window.col_begin < window.col_end && window.col_end <= cols;
  if (!rows_ok) {
    throw InputError(origin, "--rows",
                     "rows " + std::to_string(window.row_begin) + ":" + std::to_string(window.row_end) +
                         " do not fit the matrix's " + std::to_string(rows) + " rows (FIRST:END, 0-based)");
  }
  if (!cols_ok) {
    throw InputError(origin, "--cols",
                     "columns " + std::to_string(window.col_begin) + ":" + std::to_string(window.col_end) +
                         " do not fit the matrix's " + std::to_string(cols) + " columns (FIRST:END, 0-based)");
  }
}

template <typename T>
std::vector<T> slice(const std::vector<T>& items, int begin, int end) {
  return std::vector<T>(items.begin() + begin, items.begin() + end);
}

void apply_window(SelectedMatrix& selected, const std::optional<CellWindow>& requested, const std::string& origin) {
  if (!requested) return;
  CellWindow window = *requested;
  if (window.row_end == CellWindow::kToEnd) window.row_end = selected.values.rows;
  if (window.col_end == CellWindow::kToEnd) window.col_end = selected.values.cols;
  check_window(window, selected.values.rows, selected.values.cols, origin);
  Matrix cut(window.row_end - window.row_begin, window.col_end - window.col_begin);
  std::vector<std::uint8_t> masked;
  for (int r = 0; r < cut.rows; ++r) {
    for (int c = 0; c < cut.cols; ++c) {
      const std::size_t from = selected.values.index(r + window.row_begin, c + window.col_begin);
      cut.at(r, c) = selected.values.data[from];
      if (!selected.masked.empty()) masked.push_back(selected.masked[from]);
    }
  }
  selected.values = std::move(cut);
  selected.masked = std::move(masked);
  selected.row_labels = slice(selected.row_labels, window.row_begin, window.row_end);
  selected.col_labels = slice(selected.col_labels, window.col_begin, window.col_end);
  selected.window = window;
}

std::vector<std::uint8_t> masked_cells(const MaskMatrix& mask) {
  std::vector<std::uint8_t> masked(mask.visible.size());
  std::transform(mask.visible.begin(), mask.visible.end(), masked.begin(),
                 [](std::uint8_t visible) { return static_cast<std::uint8_t>(visible == 0 ? 1 : 0); });
  return masked;
}

const HeadResult& head_of(const Result& result, int head) { return result.heads.at(static_cast<std::size_t>(head)); }

Matrix weights_difference(const ExportSource& source, int head, const std::string& origin) {
  const Matrix& vulkan = head_of(*source.vulkan, head).weights;
  const Matrix& cpu = head_of(*source.cpu, head).weights;
  if (vulkan.rows != cpu.rows || vulkan.cols != cpu.cols) {
    throw InputError(origin, "--what", "diff needs the Vulkan and Eigen results of the same problem");
  }
  Matrix diff(vulkan.rows, vulkan.cols);
  for (std::size_t i = 0; i < diff.data.size(); ++i) diff.data[i] = vulkan.data[i] - cpu.data[i];
  return diff;
}

}  // namespace

const QuantityInfo& info(Quantity quantity) { return kQuantities.at(static_cast<std::size_t>(quantity)); }

const char* quantity_name(Quantity quantity) { return info(quantity).name; }

std::optional<Quantity> quantity_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kQuantities.size(); ++i) {
    if (name == kQuantities[i].name) return static_cast<Quantity>(i);
  }
  return std::nullopt;
}

const char* format_name(ExportFormat format) { return kFormats.at(static_cast<std::size_t>(format)); }

std::optional<ExportFormat> format_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kFormats.size(); ++i) {
    if (name == kFormats[i]) return static_cast<ExportFormat>(i);
  }
  return std::nullopt;
}

std::optional<ExportFormat> format_from_extension(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  if (extension.size() < 2) return std::nullopt;
  extension.erase(0, 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return format_from_name(extension);
}

const char* scale_name(ColourScale scale) { return kScales.at(static_cast<std::size_t>(scale)); }

std::optional<ColourScale> scale_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kScales.size(); ++i) {
    if (name == kScales[i]) return static_cast<ColourScale>(i);
  }
  return std::nullopt;
}

bool is_image(ExportFormat format) { return format == ExportFormat::Png || format == ExportFormat::Svg; }

namespace {

// A figure's title made from the sentence: its words on one line, cut to this many characters
// at most (at a space, when there is one in the second half).
// A long text (a file of 10,000 words) is named by its opening, not printed whole above the map.
constexpr std::size_t kSentenceTitleCharacters = 100;

std::string sentence_title(std::string_view sentence) {
  std::string line;
  bool gap = false;
  for (const char c : sentence) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      gap = !line.empty();
      continue;
    }
    if (gap) line += ' ';
    gap = false;
    line += c;
  }
  const std::string cut = cut_text(line, kSentenceTitleCharacters);
  if (cut.size() == line.size()) return line;
  // At the last space, unless that drops more than half (a script written without spaces).
  const std::string kept = cut.substr(0, cut.size() - std::string_view("\u2026").size());
  const std::size_t space = kept.rfind(' ');
  return (space != std::string::npos && space >= kept.size() / 2 ? kept.substr(0, space) : kept) + "\u2026";
}

}  // namespace

ExportCaption describe_for_export(const Scenario& scenario, const Problem& problem, const Wording& wording) {
  ExportCaption caption;
  caption.title = !scenario.title.empty() ? worded_title(scenario.title, wording) : sentence_title(scenario.sentence);
  if (caption.title.empty()) {
    for (const std::string& token : problem.tokens) caption.title += (caption.title.empty() ? "" : " ") + token;
  }
  caption.mask = mask_text(problem.mask, wording);
  caption.scale = scale_text(scenario.scale, problem.d_k, problem.scale, wording);
  caption.scale_factor = problem.scale;
  caption.slopes = head_slopes(problem);
  switch (problem.positional) {
    case PositionalKind::None: break;
    case PositionalKind::Sinusoidal: caption.positions = wording.tr("sinusoidal positions"); break;
    case PositionalKind::Rope:
      caption.positions = wording.tr("RoPE, θ = %1$s", {trimmed_number(problem.rope_theta)});
      break;
    case PositionalKind::Alibi: caption.positions = "ALiBi"; break;
  }
  if (problem.dropout) {
    caption.dropout = wording.tr("dropout p = %1$s (seed %2$s)",
                                 {trimmed_number(problem.dropout->p), std::to_string(problem.dropout->seed)});
  }
  caption.num_kv_heads = problem.num_kv_heads;
  caption.cross_attention = problem.cross_attention;
  return caption;
}

const Result& primary_result(const ExportSource& source, Quantity quantity, const std::string& origin) {
  if (quantity == Quantity::Diff) {
    if (source.cpu == nullptr || source.vulkan == nullptr) {
      throw InputError(origin, "--what", "diff needs results from both backends (Vulkan and Eigen)");
    }
    return *source.vulkan;
  }
  if (source.result == nullptr) throw std::invalid_argument("export: ExportSource::result is not set");
  return *source.result;
}

std::vector<int> requested_heads(const ExportRequest& request, const ExportSource& source) {
  const bool diff_only =
      std::all_of(request.what.begin(), request.what.end(), [](Quantity q) { return q == Quantity::Diff; });
  const Result& result = primary_result(source, diff_only ? Quantity::Diff : Quantity::Weights, request.origin);
  const int count = static_cast<int>(result.heads.size());
  std::vector<int> heads;
  if (!request.heads) {
    for (int h = 0; h < count; ++h) heads.push_back(h);
    return heads;
  }
  for (const int head : *request.heads) {
    if (head < 0 || head >= count) {
      throw InputError(request.origin, "--heads", missing_head_message(head, count));
    }
    if (std::find(heads.begin(), heads.end(), head) != heads.end()) {
      throw InputError(request.origin, "--heads", "head " + std::to_string(head) + " is listed twice");
    }
    heads.push_back(head);
  }
  if (heads.empty()) throw InputError(request.origin, "--heads", "names no head");
  return heads;
}

SelectedMatrix select_matrix(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head) {
  const Result& result = primary_result(source, quantity, request.origin);
  // The head's own mask when a mask expression gives each head one (Result::mask_of).
  const MaskMatrix& mask = result.mask_of(static_cast<std::size_t>(std::max(head, 0)));
  SelectedMatrix selected;
  selected.row_labels = result.tokens;
  selected.col_labels = result.source_tokens;
  const Wording& wording = request.wording;
  selected.row_axis_title = wording.tr("query tokens (attending)");
  selected.col_axis_title = source.caption.cross_attention ? wording.tr("source tokens (attended to)")
                                                           : wording.tr("key tokens (attended to)");
  switch (quantity) {
    case Quantity::Scores:
      selected.values = head_of(result, head).scores;
      selected.masked = masked_cells(mask);
      break;
    case Quantity::Scaled: {
      selected.values = head_of(result, head).scores;
      selected.masked = masked_cells(mask);
      const float slope = static_cast<std::size_t>(head) < source.caption.slopes.size()
                              ? source.caption.slopes[static_cast<std::size_t>(head)]
                              : 0.0f;
      for (int r = 0; r < selected.values.rows; ++r) {
        for (int c = 0; c < selected.values.cols; ++c) {
          const std::size_t i = selected.values.index(r, c);
          selected.values.data[i] =
              selected.masked[i] != 0 ? -std::numeric_limits<float>::infinity()
                                      : scaled_score(selected.values.data[i], source.caption.scale_factor, slope, r, c);
        }
      }
      break;
    }
    case Quantity::Weights:
      selected.values = head_of(result, head).weights;
      selected.masked = masked_cells(mask);
      break;
    case Quantity::Mask:
      selected.values = Matrix(mask.rows, mask.cols);
      for (std::size_t i = 0; i < selected.values.data.size(); ++i)
        selected.values.data[i] = mask.visible[i] != 0 ? 1.0f : 0.0f;
      selected.masked = masked_cells(mask);
      break;
    case Quantity::Context: {
      selected.values = head_of(result, head).context;
      selected.col_labels.clear();
      for (int c = 0; c < selected.values.cols; ++c) selected.col_labels.push_back("v" + std::to_string(c));
      selected.col_axis_title = wording.tr("value dimensions");
      break;
    }
    case Quantity::Diff:
      selected.values = weights_difference(source, head, request.origin);
      selected.masked = masked_cells(mask);
      break;
  }
  if (static_cast<int>(selected.row_labels.size()) != selected.values.rows ||
      static_cast<int>(selected.col_labels.size()) != selected.values.cols ||
      (!selected.masked.empty() && selected.masked.size() != selected.values.data.size())) {
    throw std::invalid_argument("export: the result's tokens, mask and matrices disagree in shape");
  }
  apply_window(selected, request.window, request.origin);
  return selected;
}

}  // namespace attnviz::exporting

namespace attnviz::exporting {

MatrixRows::MatrixRows(const ExportRequest& request, const ExportSource& source, Quantity quantity, int head)
    : result_(&primary_result(source, quantity, request.origin)), source_(&source), quantity_(quantity), head_(head) {
  int rows = result_->mask.rows;
  int cols = result_->mask.cols;
  row_labels_ = result_->tokens;
  col_labels_ = result_->source_tokens;
  if (quantity != Quantity::Mask) {
    const Matrix& shape =
        quantity == Quantity::Context ? head_of(*result_, head).context : head_of(*result_, head).scores;
    rows = shape.rows;
    cols = shape.cols;
  }
  if (quantity == Quantity::Context) {
    col_labels_.clear();
    for (int c = 0; c < cols; ++c) col_labels_.push_back("v" + std::to_string(c));
  }
  if (quantity == Quantity::Diff) {
    const Matrix& cpu = head_of(*source.cpu, head).weights;
    if (cpu.rows != rows || cpu.cols != cols) {
      throw InputError(request.origin, "--what", "diff needs the Vulkan and Eigen results of the same problem");
    }
  }
  const bool masked = quantity != Quantity::Context;
  if (static_cast<int>(row_labels_.size()) != rows || static_cast<int>(col_labels_.size()) != cols ||
      (masked && (result_->mask.rows != rows || result_->mask.cols != cols))) {
    throw std::invalid_argument("export: the result's tokens, mask and matrices disagree in shape");
  }
  row_end_ = rows;
  col_end_ = cols;
  if (request.window) {
    CellWindow window = *request.window;
    if (window.row_end == CellWindow::kToEnd) window.row_end = rows;
    if (window.col_end == CellWindow::kToEnd) window.col_end = cols;
    check_window(window, rows, cols, request.origin);
    row_begin_ = window.row_begin;
    row_end_ = window.row_end;
    col_begin_ = window.col_begin;
    col_end_ = window.col_end;
    row_labels_ = slice(row_labels_, row_begin_, row_end_);
    col_labels_ = slice(col_labels_, col_begin_, col_end_);
    window_ = window;
  }
  buffer_.resize(static_cast<std::size_t>(this->cols()));
}

std::span<const float> MatrixRows::row(int r) {
  const int i = row_begin_ + r;
  const auto cells = [&](const Matrix& m) { return m.row(i) + col_begin_; };
  const MaskMatrix& mask =
      result_->mask_of(static_cast<std::size_t>(head_));  // a head's own under an expression using h
  const auto visible = [&](int c) { return mask.at(i, col_begin_ + c); };
  const int count = cols();
  switch (quantity_) {
    case Quantity::Scores: std::copy_n(cells(head_of(*result_, head_).scores), count, buffer_.begin()); break;
    case Quantity::Weights: std::copy_n(cells(head_of(*result_, head_).weights), count, buffer_.begin()); break;
    case Quantity::Context: std::copy_n(cells(head_of(*result_, head_).context), count, buffer_.begin()); break;
    case Quantity::Scaled: {
      // What the softmax sees: scale · raw, less ALiBi's bias (docs/design.md "Positions").
      const float* scores = cells(head_of(*result_, head_).scores);
      const std::vector<float>& slopes = source_->caption.slopes;
      const float slope =
          static_cast<std::size_t>(head_) < slopes.size() ? slopes[static_cast<std::size_t>(head_)] : 0.0f;
      for (int c = 0; c < count; ++c) {
        buffer_[static_cast<std::size_t>(c)] =
            visible(c) ? scaled_score(scores[c], source_->caption.scale_factor, slope, i, col_begin_ + c)
                       : -std::numeric_limits<float>::infinity();
      }
      break;
    }
    case Quantity::Mask:
      for (int c = 0; c < count; ++c) buffer_[static_cast<std::size_t>(c)] = visible(c) ? 1.0f : 0.0f;
      break;
    case Quantity::Diff: {
      const float* vulkan = cells(head_of(*source_->vulkan, head_).weights);
      const float* cpu = cells(head_of(*source_->cpu, head_).weights);
      for (int c = 0; c < count; ++c) buffer_[static_cast<std::size_t>(c)] = vulkan[c] - cpu[c];
      break;
    }
  }
  return {buffer_.data(), buffer_.size()};
}

}  // namespace attnviz::exporting
