// Axis labels and colorbars of the heatmap widget.

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "app/heatmap/axis_math.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/i18n/translate.h"
#include "core/common/text_excerpt.h"
#include "core/common/number_text.h"

namespace attnviz::heatmap {
namespace {

// The gap between the labels and the cells: 4 pixels at the normal text size, growing with
// it (presentation mode), where a fixed 4 left "어제" touching its row's first cell.
float label_pad() { return std::max(4.0f, std::round(ImGui::GetFontSize() * 0.25f)); }
// Longer sentences get room for an index before each label ("120 sat"): they are thinned or
// zoomed often enough that a word alone would not say where it is.
constexpr std::size_t kIndexedLabelsAbove = 24;

// A label is at most this many characters of its token before it is fitted to its room: a
// "word" of megabytes (a text without spaces) measured whole each frame took seconds.
constexpr std::size_t kLabelCharacters = 64;

std::string label_text(const std::vector<std::string>* labels, int index) {
  if (labels != nullptr && index < static_cast<int>(labels->size())) {
    return cut_text((*labels)[static_cast<std::size_t>(index)], kLabelCharacters);
  }
  return format_grouped(index);
}

// When only every step-th label is shown, or a long sentence is zoomed, each label says where
// it is: "120 sat". (Short sentences have room for words only; the toolbar says the range.)
std::string thinned_label(const HeatmapSpec& spec, const std::vector<std::string>* labels, int index, int step,
                          bool zoomed) {
  std::string text = label_text(labels, index);
  if (spec.labels_hold_positions) return text;
  const std::string number = format_grouped(index);
  const bool long_sequence = labels != nullptr && labels->size() > kIndexedLabelsAbove;
  if ((step <= 1 && !(zoomed && long_sequence)) || text == number) return text;
  return number + " " + text;
}

// Labels shrink (to 65% of the UI font) before they are thinned, so that up to about 64
// tokens all stay labelled in a large heatmap.
constexpr float kLabelSpacing = 1.0f;
float min_label_size() { return ImGui::GetFontSize() * 0.62f; }
float label_size(float cell_px) { return std::clamp(cell_px / kLabelSpacing, min_label_size(), ImGui::GetFontSize()); }

// UTF-8: the byte length of the code point starting at s[i].
std::size_t code_point_length(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(n, s.size() - i);
}

float text_width(ImFont* font, float size, std::string_view text) {
  return font->CalcTextSizeA(size, 1e9f, 0.0f, text.data(), text.data() + text.size()).x;
}

// The part of a token label_text keeps, without a copy (measured for every label each frame).
std::string_view label_prefix(const std::string& token) {
  std::size_t end = 0;
  for (std::size_t chars = 0; end < token.size() && chars < kLabelCharacters; ++chars)
    end += code_point_length(token, end);
  return std::string_view(token).substr(0, end);
}

// The widest of the labels at the current font: the first few hundred are enough (long
// sequences are thinned anyway), plus room for the index a long sequence's labels carry in
// front ("120 sat").
float widest_label(const std::vector<std::string>& labels) {
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize();
  float widest = 0.0f;
  const std::size_t count = std::min<std::size_t>(labels.size(), 512);
  for (std::size_t i = 0; i < count; ++i) widest = std::max(widest, text_width(font, size, label_prefix(labels[i])));
  if (labels.size() > kIndexedLabelsAbove) {
    widest += text_width(font, size, format_grouped(static_cast<long long>(labels.size())) + " ");
  }
  return widest;
}

void label_background(ImDrawList* list, ImVec2 a, ImVec2 b, ImU32 colour) {
  list->AddRectFilled(ImVec2(a.x - 2, a.y - 1), ImVec2(b.x + 2, b.y + 1), colour, 3.0f);
}

// A label is drawn centred on its row or column when that centre is in view (a row cut in
// half by panning keeps its label only while its middle shows; clamping it to the edge would
// pile it onto the next one). Labels may stick out of the cells by half a text height.
bool centre_in_view(float centre, float from, float to) { return centre >= from - 0.5f && centre <= to + 0.5f; }

void draw_row_labels(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, int hovered_row) {
  if (spec.row_label_width <= 0.0f) return;
  ImFont* font = ImGui::GetFont();
  const float size = label_size(g.cell_h());
  const float right = g.x0 - label_pad();
  const float max_width = spec.row_label_width - 2.0f * label_pad();
  const int step = nice_label_step(g.cell_h(), size * kLabelSpacing);
  const bool zoomed = g.window.rows < static_cast<float>(g.rows) - 1e-3f;
  const float overhang = size * 0.5f;
  list->PushClipRect(ImVec2(g.x0 - spec.row_label_width, g.y0 - overhang), ImVec2(g.x0, g.y1 + overhang), true);
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  auto draw_one = [&](int r, ImU32 colour, bool highlighted) {
    const float centre = g.row_y(static_cast<float>(r) + 0.5f);
    if (!centre_in_view(centre, g.y0, g.y1)) return;
    const std::string label = ellipsize(font, size, thinned_label(spec, spec.row_labels, r, step, zoomed), max_width);
    const float w = text_width(font, size, label);
    const float y = std::round(centre - size * 0.5f);
    if (highlighted) label_background(list, ImVec2(right - w, y), ImVec2(right, y + size), kHighlightColour);
    list->AddText(font, size, ImVec2(right - w, y), colour, label.c_str());
  };
  for (int r = g.first_row() / step * step; r < g.last_row(); r += step) {
    if (r != hovered_row && r >= g.first_row() && !label_gives_way(r, hovered_row, g.cell_h(), size))
      draw_one(r, text, false);
  }
  if (hovered_row >= g.first_row() && hovered_row < g.last_row()) draw_one(hovered_row, 0xffffffffu, true);
  list->PopClipRect();
}

void draw_col_labels(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, int hovered_col) {
  if (spec.col_label_height <= 0.0f) return;
  ImFont* font = ImGui::GetFont();
  const float cell = g.cell_w();
  const float bottom = g.y0 - label_pad();
  const bool zoomed = g.window.cols < static_cast<float>(g.cols) - 1e-3f;
  // Horizontal, staggered on two lines (Hangul reads badly turned) or turned and thinned, as
  // plan_column_labels decides for the visible labels (col_label_height made the room).
  const float full = ImGui::GetFontSize();
  float widest = 0.0f;
  for (int c = g.first_col(); c < g.last_col() && widest <= 4.0f * cell; ++c) {
    widest = std::max(widest, text_width(font, full, label_text(spec.col_labels, c)));
  }
  const ColumnLabelPlan plan =
      plan_column_labels(widest, full, min_label_size(), cell, spec.col_label_height - 2.0f * label_pad(), label_pad());
  enum class Mode { Horizontal, Staggered, Rotated };
  const Mode mode = plan.mode == ColumnLabelMode::Horizontal  ? Mode::Horizontal
                    : plan.mode == ColumnLabelMode::Staggered ? Mode::Staggered
                                                              : Mode::Rotated;
  const float size = plan.size;
  const int step = mode == Mode::Rotated ? nice_label_step(cell, plan.pitch) : 1;
  const float max_length = spec.col_label_height - 2.0f * label_pad();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  // Labels may reach past the cells: left over the row labels' column, right by the
  // overhang the panels leave free (HeatmapWidget::label_overhang), never further, so the
  // last column's label is shortened or moved in rather than cut off by the window.
  const float left_limit = g.x0 - std::max(spec.row_label_width, size * 0.5f);
  const float right_limit = g.x1 + HeatmapWidget::label_overhang();
  list->PushClipRect(ImVec2(left_limit, g.y0 - spec.col_label_height), ImVec2(right_limit, g.y0), true);
  auto draw_one = [&](int c, ImU32 colour, bool highlighted) {
    const float cx = g.col_x(static_cast<float>(c) + 0.5f);
    if (!centre_in_view(cx, g.x0, g.x1)) return;
    const std::string whole = thinned_label(spec, spec.col_labels, c, step, zoomed);
    if (mode == Mode::Rotated) {
      const std::string label = ellipsize(font, size, whole, max_length);
      const float w = text_width(font, size, label);
      const float x = std::clamp(std::round(cx - size * 0.5f), left_limit, right_limit - size);
      if (highlighted) label_background(list, ImVec2(x, bottom - w), ImVec2(x + size, bottom), kHighlightColour);
      add_vertical_text(list, font, size, x, bottom, colour, label);
      return;
    }
    // Horizontal labels own their cell; staggered ones the span up to the neighbours on their
    // line (two cells away), halfway each side.
    const float half = mode == Mode::Horizontal ? 0.5f * cell : cell - 2.0f;
    const float from = std::max(cx - half, left_limit);
    const float to = std::min(cx + half, right_limit);
    const std::string label = ellipsize(font, size, whole, to - from);
    const float w = text_width(font, size, label);
    const float x = std::clamp(cx - w * 0.5f, from, to - w);
    const float line = mode == Mode::Staggered && c % 2 == 1 ? size : 0.0f;  // odd columns on the upper line
    const ImVec2 at(std::round(x), bottom - size - line);
    if (highlighted) label_background(list, at, ImVec2(at.x + w, at.y + size), kHighlightColour);
    list->AddText(font, size, at, colour, label.c_str());
  };
  for (int c = g.first_col() / step * step; c < g.last_col(); c += step) {
    const bool turned_and_thinned = mode == Mode::Rotated && step > 1;
    if (c != hovered_col && c >= g.first_col() &&
        !(turned_and_thinned && label_gives_way(c, hovered_col, cell, size))) {
      draw_one(c, text, false);
    }
  }
  if (hovered_col >= g.first_col() && hovered_col < g.last_col()) draw_one(hovered_col, 0xffffffffu, true);
  list->PopClipRect();
}

}  // namespace

void draw_axis_labels(ImDrawList* list, const HeatmapSpec& spec, const CellGeometry& g, int hovered_row,
                      int hovered_col) {
  draw_row_labels(list, spec, g, hovered_row);
  draw_col_labels(list, spec, g, hovered_col);
}

std::string ellipsize(ImFont* font, float size, const std::string& text, float max_width) {
  if (text_width(font, size, text) <= max_width) return text;
  const std::string dots = "…";
  std::string kept;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = code_point_length(text, i);
    if (text_width(font, size, kept + text.substr(i, n) + dots) > max_width) break;
    kept += text.substr(i, n);
    i += n;
  }
  return kept + dots;
}

void add_vertical_text(ImDrawList* list, ImFont* font, float size, float start_x, float start_y, std::uint32_t colour,
                       const std::string& text) {
  // Lay the text out horizontally, then turn it a quarter left around its start and move that
  // to the start point: x' = x0 + (y − y0), y' = y0 − (x − x0). ImGui culls glyphs against
  // the clip rectangle (at most the screen) before we turn them, so the text is laid out at
  // the screen's top left corner, where all of it is on screen (laid out at the start point,
  // a label near the right edge lost its last letters), and the turned box is checked instead.
  const ImVec4 clip = list->_ClipRectStack.back();
  const float width = text_width(font, size, text);
  if (start_x < clip.x - 1.0f || start_x + size > clip.z + 1.0f || start_y - width < clip.y - 1.0f ||
      start_y > clip.w + 1.0f) {
    return;  // would stick out of the visible area: leave it out rather than draw over others
  }
  const ImVec2 layout(0.0f, 0.0f);
  list->PushClipRectFullScreen();
  const int first_vertex = list->VtxBuffer.Size;
  list->AddText(font, size, layout, colour, text.c_str(), text.c_str() + text.size());
  list->PopClipRect();
  for (int v = first_vertex; v < list->VtxBuffer.Size; ++v) {
    ImDrawVert& vertex = list->VtxBuffer[v];
    const float dx = vertex.pos.x - layout.x;
    const float dy = vertex.pos.y - layout.y;
    vertex.pos = ImVec2(start_x + dy, start_y - dx);
  }
}

float HeatmapWidget::row_label_width(const std::vector<std::string>& labels, float max_width) {
  return std::min(widest_label(labels), max_width) + 2.0f * label_pad();
}

float HeatmapWidget::label_overhang() { return std::round(ImGui::GetFontSize() * 0.5f); }

float HeatmapWidget::col_label_height(const std::vector<std::string>& labels, float cell_px, float max_height) {
  return plan_column_labels(widest_label(labels), ImGui::GetFontSize(), min_label_size(), cell_px, max_height,
                            label_pad())
      .height;
}

void HeatmapWidget::colorbar(Colormap colormap, float range_min, float range_max, float width, const char* caption,
                             bool log_scale) const {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float size = ImGui::GetFontSize();
  const float bar_h = std::round(size * 0.6f);  // colorbar_height() counts it, and what follows
  ImDrawList* list = ImGui::GetWindowDrawList();
  constexpr int kSegments = 48;
  for (int s = 0; s < kSegments; ++s) {
    const float t0 = static_cast<float>(s) / kSegments;
    const float t1 = static_cast<float>(s + 1) / kSegments;
    const Rgb a = sample(colormap, t0);
    const Rgb b = sample(colormap, t1);
    const ImU32 ca = ImGui::ColorConvertFloat4ToU32(ImVec4(a.r, a.g, a.b, 1.0f));
    const ImU32 cb = ImGui::ColorConvertFloat4ToU32(ImVec4(b.r, b.g, b.b, 1.0f));
    list->AddRectFilledMultiColor(ImVec2(origin.x + width * t0, origin.y),
                                  ImVec2(origin.x + width * t1, origin.y + bar_h), ca, cb, cb, ca);
  }
  list->AddRect(ImVec2(origin.x - 1, origin.y - 1), ImVec2(origin.x + width + 1, origin.y + bar_h + 1),
                ImGui::GetColorU32(ImGuiCol_Border));
  ImFont* font = ImGui::GetFont();
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
  const float y = origin.y + bar_h + 2.0f;
  auto tick = [&](float t, const std::string& label, float align) {
    const float x = origin.x + width * t;
    list->AddLine(ImVec2(x, origin.y + bar_h), ImVec2(x, origin.y + bar_h + 3.0f), text);
    const float w = text_width(font, size, label);
    list->AddText(font, size, ImVec2(std::round(std::clamp(x - w * align, origin.x, origin.x + width - w)), y), text,
                  label.c_str());
  };
  // A middle tick: 0 on a diverging map, the geometric middle on a log scale.
  const bool diverging = is_diverging(colormap) || log_scale;
  const float middle_value = log_scale ? std::sqrt(range_min * range_max) : 0.5f * (range_min + range_max);
  std::vector<float> shown = {range_min, range_max};
  if (diverging) shown.push_back(middle_value);
  const std::vector<std::string> labels = distinct_numbers(shown, 7);
  const std::string& low = labels[0];
  const std::string& high = labels[1];
  const std::string middle = diverging ? labels[2] : std::string();
  const float ends_w = text_width(font, size, low) + text_width(font, size, high);
  if (ends_w + size >= width) {  // too narrow for both ends: "±2.07" (diverging) or the top
    const bool symmetric = is_diverging(colormap) && range_min == -range_max;
    const std::string only = symmetric ? "±" + high : high;
    const float w = text_width(font, size, only);
    list->AddText(font, size, ImVec2(std::round(origin.x + (width - w) * 0.5f), y), text, only.c_str());
    ImGui::Dummy(ImVec2(width, colorbar_height()));
    return;
  }
  tick(0.0f, low, 0.0f);
  tick(1.0f, high, 1.0f);
  // The centre (0 for scores) or the caption, when there is room between the ends.
  const std::string centre = log_scale   ? middle + i18n::tr("  (log scale)")
                             : diverging ? middle
                                         : (caption != nullptr ? caption : "");
  if (!centre.empty() && ends_w + text_width(font, size, centre) + 2.0f * size < width) {
    if (diverging) {
      tick(0.5f, centre, 0.5f);
    } else {
      const float w = text_width(font, size, centre);
      list->AddText(font, size, ImVec2(std::round(origin.x + (width - w) * 0.5f), y),
                    ImGui::GetColorU32(ImGuiCol_TextDisabled), centre.c_str());
    }
  }
  ImGui::Dummy(ImVec2(width, colorbar_height()));
}

float HeatmapWidget::colorbar_height() { return std::round(ImGui::GetFontSize() * 0.6f) + 2.0f + ImGui::GetFontSize(); }

}  // namespace attnviz::heatmap
