#include "app/classroom/tiled_view_parts.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/classroom/draw_helpers.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/i18n/translate.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "core/common/number_text.h"
#include "core/common/float_text.h"
#include "core/common/input_file.h"
#include "core/tiled/tiled_memory.h"

namespace attnviz::classroom {
namespace {

constexpr std::uint32_t kGold = 0xff00d7ffu;  // ABGR: the current tile (as the step view's selected cell)
constexpr std::uint32_t kBlack = 0xff000000u;
constexpr std::uint32_t kBeforeBar = 0xffc8b4a0u;  // a light steel blue: the value before the tile

std::uint32_t with_alpha(std::uint32_t colour, float alpha) {
  return (colour & 0x00ffffffu) | (static_cast<std::uint32_t>(std::clamp(alpha, 0.0f, 1.0f) * 255.0f) << 24);
}

void centred_text(ImDrawList* list, ImVec2 min, ImVec2 max, std::uint32_t colour, const char* text) {
  const ImVec2 size = ImGui::CalcTextSize(text);
  if (size.x > max.x - min.x - 2.0f || size.y > max.y - min.y) return;
  list->AddText(ImVec2(std::round((min.x + max.x - size.x) * 0.5f), std::round((min.y + max.y - size.y) * 0.5f)),
                colour, text);
}

}  // namespace

std::string state_number(float value) {
  if (std::isinf(value)) return value < 0 ? "\xe2\x88\x92\xe2\x88\x9e" : "\xe2\x88\x9e";
  char text[32];
  const double v = value;
  if (v != 0.0 && (std::fabs(v) < 1e-3 || std::fabs(v) >= 1e4))
    std::snprintf(text, sizeof text, "%.2e", v);
  else
    std::snprintf(text, sizeof text, "%.3f", v);
  return with_minus_signs(text);
}

void draw_tile_overlay(const tiled::TileGrid& grid, const tiled::TiledTrace& trace, int current, const CellsRect& cells,
                       float ui_scale) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float cell_w = (cells.x1 - cells.x0) / static_cast<float>(grid.cols);
  const float cell_h = (cells.y1 - cells.y0) / static_cast<float>(grid.rows);
  const auto x_of = [&](int col) { return std::round(cells.x0 + cell_w * static_cast<float>(col)); };
  const auto y_of = [&](int row) { return std::round(cells.y0 + cell_h * static_cast<float>(row)); };
  const ImVec4 window_bg = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  const std::uint32_t wash = ImGui::ColorConvertFloat4ToU32(ImVec4(window_bg.x, window_bg.y, window_bg.z, 0.62f));
  const std::uint32_t ink = ImGui::GetColorU32(ImGuiCol_Text);
  const float line = std::max(1.0f, std::round(2.0f * ui_scale));
  ImFont* small = cell_font();
  const float small_size = small->FontSize * ImGui::GetIO().FontGlobalScale;
  for (int qb = 0; qb < grid.query_blocks(); ++qb) {
    for (int kb = 0; kb < grid.key_blocks(); ++kb) {
      const int index = grid.tile_index(qb, kb);
      const ImVec2 a(x_of(grid.col_begin(kb)), y_of(grid.row_begin(qb)));
      const ImVec2 b(x_of(grid.col_end(kb)), y_of(grid.row_end(qb)));
      const bool skipped = trace.tiles[static_cast<std::size_t>(index)].skipped;
      if (index > current) list->AddRectFilled(a, b, wash);  // not computed yet
      if (skipped) {
        // The mask hides every cell: nothing is computed. A cross, and the word where it fits.
        list->AddLine(ImVec2(a.x + line, a.y + line), ImVec2(b.x - line, b.y - line), with_alpha(ink, 0.55f), line);
        list->AddLine(ImVec2(b.x - line, a.y + line), ImVec2(a.x + line, b.y - line), with_alpha(ink, 0.55f), line);
        const char* skipped_text = i18n::tr("skipped");
        const ImVec2 size = small->CalcTextSizeA(small_size, 1e9f, 0.0f, skipped_text);
        if (size.x + 6.0f < b.x - a.x && size.y + 4.0f < b.y - a.y) {
          const ImVec2 at(std::round((a.x + b.x - size.x) * 0.5f), std::round((a.y + b.y - size.y) * 0.5f));
          list->AddRectFilled(ImVec2(at.x - 3.0f, at.y - 1.0f), ImVec2(at.x + size.x + 3.0f, at.y + size.y + 1.0f),
                              ImGui::GetColorU32(ImGuiCol_WindowBg));
          list->AddText(small, small_size, at, ink, skipped_text);
        }
      }
    }
  }
  // Block boundaries over everything but the current tile.
  for (int qb = 0; qb <= grid.query_blocks(); ++qb) {
    const float y = y_of(std::min(grid.rows, qb * grid.block_q));
    list->AddLine(ImVec2(cells.x0, y), ImVec2(cells.x1, y), ink, line);
  }
  for (int kb = 0; kb <= grid.key_blocks(); ++kb) {
    const float x = x_of(std::min(grid.cols, kb * grid.block_k));
    list->AddLine(ImVec2(x, cells.y0), ImVec2(x, cells.y1), ink, line);
  }
  // Block numbers: key blocks over the column labels' top, query blocks right of the cells.
  const float font = ImGui::GetFontSize();
  for (int kb = 0; kb < grid.key_blocks(); ++kb) {
    const std::string label = "K" + format_grouped(kb);
    const float x0 = x_of(grid.col_begin(kb));
    const float x1 = x_of(grid.col_end(kb));
    if (ImGui::CalcTextSize(label.c_str()).x < x1 - x0)
      centred_text(list, ImVec2(x0, cells.y1 + 2.0f), ImVec2(x1, cells.y1 + 2.0f + font), ink, label.c_str());
  }
  const tiled::TileVisit& visit = trace.tiles[static_cast<std::size_t>(current)];
  for (int qb = 0; qb < grid.query_blocks(); ++qb) {
    const std::string label = "Q" + format_grouped(qb);
    const float y0 = y_of(grid.row_begin(qb));
    const float y1 = y_of(grid.row_end(qb));
    if (font <= y1 - y0 + 2.0f) {
      const std::uint32_t colour = qb == visit.qb ? ui::palette::strong_blue() : ink;
      list->AddText(ImVec2(cells.x1 + 8.0f * ui_scale, std::round((y0 + y1 - font) * 0.5f)), colour, label.c_str());
    }
  }
  // The current query block: a bracket right of the cells; the current tile: gold.
  const float bx = cells.x1 + 4.0f * ui_scale;
  const float qy0 = y_of(grid.row_begin(visit.qb));
  const float qy1 = y_of(grid.row_end(visit.qb));
  list->AddLine(ImVec2(bx, qy0 + 1.0f), ImVec2(bx, qy1 - 1.0f), ui::palette::strong_blue(), 3.0f * ui_scale);
  const ImVec2 a(x_of(grid.col_begin(visit.kb)), qy0);
  const ImVec2 b(x_of(grid.col_end(visit.kb)), qy1);
  list->AddRect(a, b, kBlack, 0.0f, 0, 6.0f * ui_scale);
  list->AddRect(a, b, kGold, 0.0f, 0, 3.5f * ui_scale);
}

RowStateRanges row_state_ranges(const tiled::TiledTrace& trace, const tiled::TileGrid& grid, int qb) {
  RowStateRanges r{0.0f, 0.0f, 0.0f};
  for (int kb = 0; kb < grid.key_blocks(); ++kb) {
    const tiled::TileVisit& visit = trace.tiles[static_cast<std::size_t>(grid.tile_index(qb, kb))];
    for (const float m : visit.m_after) {
      if (!std::isfinite(m)) continue;
      r.m_low = std::min(r.m_low, m);
      r.m_high = std::max(r.m_high, m);
    }
    for (const float l : visit.l_after) r.l_high = std::max(r.l_high, l);
  }
  if (r.m_high - r.m_low <= 0.0f) r.m_high = r.m_low + 1.0f;
  if (r.l_high <= 0.0f) r.l_high = 1.0f;
  return r;
}

void draw_row_states(const tiled::TileStep& step, const std::vector<std::string>& tokens, const RowStateRanges& ranges,
                     float width, float ui_scale) {
  const float font = ImGui::GetFontSize();
  const float gap = font * 0.8f;
  const char* row_header = i18n::tr("row");
  float token_w = ImGui::CalcTextSize(row_header).x;
  for (int i = step.row_begin; i < step.row_end; ++i)
    token_w = std::max(
        token_w,
        std::min(ImGui::CalcTextSize(ui::token_label(tokens[static_cast<std::size_t>(i)]).c_str()).x, font * 6.0f));
  const char* rescale_header = "e^(m\xe2\x88\x92m\xe2\x80\xb2)";
  const float rescale_w = std::max(ImGui::CalcTextSize(rescale_header).x, ImGui::CalcTextSize("0.000").x);
  // Each chart at least as wide as its longest numbers ("−1.234 → −0.567").
  // The numbers in the cells' (smaller) font when the full-size ones would not fit the column.
  ImFont* font_used = ImGui::GetFont();
  float font_size = font;
  const char* widest =
      "\xe2\x88\x92"
      "0.000 \xe2\x86\x92 \xe2\x88\x92"
      "0.000";
  const float room = (width - token_w - rescale_w - 3.0f * gap) * 0.5f;
  if (ImGui::CalcTextSize(widest).x > room) {
    font_used = cell_font();
    font_size = font_used->FontSize * ImGui::GetIO().FontGlobalScale;
  }
  const float numbers_w = font_used->CalcTextSizeA(font_size, 1e9f, 0.0f, widest).x;
  const float chart_w = std::max(numbers_w, room);
  const float x0 = ImGui::GetCursorScreenPos().x;
  const float m_x = x0 + token_w + gap;
  const float l_x = m_x + chart_w + gap;
  const float r_x = l_x + chart_w + gap;
  ImDrawList* list = ImGui::GetWindowDrawList();
  const std::uint32_t ink = ImGui::GetColorU32(ImGuiCol_Text);
  const std::uint32_t dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  // Header: what each column is.
  const float y0_start = ImGui::GetCursorScreenPos().y;
  float y = y0_start;
  list->AddText(ImVec2(x0, y), dim, row_header);
  const auto header = [&](float x, const char* long_text, const char* short_text) {
    list->AddText(ImVec2(x, y), dim, ImGui::CalcTextSize(long_text).x + gap < chart_w ? long_text : short_text);
  };
  header(m_x, i18n::tr("m: running max"), "m");
  header(l_x, i18n::tr("l: running sum"), "l");
  list->AddText(ImVec2(r_x, y), dim, rescale_header);
  y += ImGui::GetTextLineHeightWithSpacing();
  const float bar_h = std::round(font * 0.3f);
  const float row_h = ImGui::GetTextLineHeight() + 2.0f * bar_h + 3.0f * ui_scale + font * 0.35f;
  for (int r = 0; r < step.row_end - step.row_begin; ++r) {
    const auto k = static_cast<std::size_t>(r);
    const std::string token = heatmap::ellipsize(
        ImGui::GetFont(), font, ui::token_label(tokens[static_cast<std::size_t>(step.row_begin + r)]), token_w);
    list->AddText(ImVec2(x0, y), ink, token.c_str());
    const std::string m_text = state_number(step.m_before[k]) + " \xe2\x86\x92 " + state_number(step.m_after[k]);
    const std::string l_text = state_number(step.l_before[k]) + " \xe2\x86\x92 " + state_number(step.l_after[k]);
    list->AddText(font_used, font_size, ImVec2(m_x, y), ink, m_text.c_str());
    list->AddText(font_used, font_size, ImVec2(l_x, y), ink, l_text.c_str());
    const bool rescaled = step.rescale[k] != 1.0f;
    list->AddText(font_used, font_size, ImVec2(r_x, y), rescaled ? ink : dim, state_number(step.rescale[k]).c_str());
    const float by = y + ImGui::GetTextLineHeight() + 2.0f * ui_scale;
    // Before (light) above after (strong): both on the block's axis.
    value_bar(list, m_x, by, m_x + chart_w, by + bar_h, step.m_before[k], ranges.m_low, ranges.m_high, kBeforeBar);
    value_bar(list, m_x, by + bar_h + ui_scale, m_x + chart_w, by + 2.0f * bar_h + ui_scale, step.m_after[k],
              ranges.m_low, ranges.m_high, ui::palette::strong_blue());
    value_bar(list, l_x, by, l_x + chart_w, by + bar_h, step.l_before[k], 0.0f, ranges.l_high, kBeforeBar);
    value_bar(list, l_x, by + bar_h + ui_scale, l_x + chart_w, by + 2.0f * bar_h + ui_scale, step.l_after[k], 0.0f,
              ranges.l_high, ui::palette::strong_blue());
    if (ranges.m_low < 0.0f) {  // where 0 is on the m axis
      const float zx = m_x + (0.0f - ranges.m_low) / (ranges.m_high - ranges.m_low) * chart_w;
      list->AddLine(ImVec2(zx, by - 1.0f), ImVec2(zx, by + 2.0f * bar_h + ui_scale + 1.0f), dim);
    }
    y += row_h;
  }
  // The legend of the bars and of the columns.
  const float sw = font * 0.8f;
  float lx = m_x;
  list->AddRectFilled(ImVec2(lx, y + font * 0.3f), ImVec2(lx + sw, y + font * 0.3f + bar_h), kBeforeBar);
  lx += sw + 4.0f;
  const char* before = i18n::tr("before this tile");
  list->AddText(ImVec2(lx, y), dim, before);
  lx += ImGui::CalcTextSize(before).x + gap;
  list->AddRectFilled(ImVec2(lx, y + font * 0.3f), ImVec2(lx + sw, y + font * 0.3f + bar_h),
                      ui::palette::strong_blue());
  lx += sw + 4.0f;
  list->AddText(ImVec2(lx, y), dim, i18n::tr("after it"));
  y += ImGui::GetTextLineHeightWithSpacing();
  ImGui::SetCursorScreenPos(ImVec2(x0, y0_start));
  ImGui::Dummy(ImVec2(r_x + rescale_w - x0, y - ImGui::GetCursorScreenPos().y));
}

void draw_algorithm(float width) {
  // The loop's body indented; the lines with words translated, the formulas as they are.
  struct Line {
    bool inner;
    const char* text;
  };
  static const Line kLines[] = {
      {false, N_("for each query block i, for each key block j (a tile):")},
      {true,
       N_("S = scale\xc2\xb7Q_i\xc2\xb7K_j\xe1\xb5\x80   (hidden cells \xe2\x88\x92\xe2\x88\x9e; a tile hidden entirely is skipped)")},
      {true, "m\xe2\x80\xb2 = max(m, rowmax S)"},                                    // not translated: a formula
      {true, "P = exp(S \xe2\x88\x92 m\xe2\x80\xb2)"},                               // not translated: a formula
      {true, "l\xe2\x80\xb2 = e^(m\xe2\x88\x92m\xe2\x80\xb2)\xc2\xb7l + rowsum P"},  // not translated: a formula
      {true, "O\xe2\x80\xb2 = e^(m\xe2\x88\x92m\xe2\x80\xb2)\xc2\xb7O + P\xc2\xb7V_j"},
      {false, N_("after block i's last tile: context = O / l")},
  };
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
  const float indent = ImGui::GetFontSize() * 1.2f;
  for (const Line& line : kLines) {
    if (line.inner) ImGui::Indent(indent);
    text_wrapped_at_spaces(i18n::tr(line.text), line.inner ? width - indent : width, true);
    if (line.inner) ImGui::Unindent(indent);
  }
  ImGui::PopStyleColor();
}

void draw_memory_line(int rows, int cols, int d_v, const tiled::TileGrid& grid, float width) {
  struct Line {
    std::string what;
    tiled::HeadMemory chosen;
    tiled::HeadMemory gpu;
  };
  const auto memory = [](std::uint64_t n, std::uint64_t m, std::uint64_t br, std::uint64_t bc, std::uint64_t d,
                         std::uint64_t bytes) {
    return tiled::head_memory({n, m, br, bc, d, bytes});
  };
  const auto br = static_cast<std::uint64_t>(grid.block_q);
  const auto bc = static_cast<std::uint64_t>(grid.block_k);
  std::vector<Line> lines;
  const auto n = static_cast<std::uint64_t>(rows);
  const auto m = static_cast<std::uint64_t>(cols);
  const auto d = static_cast<std::uint64_t>(d_v);
  const std::string sentence = rows == cols ? i18n::format(i18n::tr("this sentence: N = %s, d = %s, float32"),
                                                           format_grouped(rows).c_str(), format_grouped(d_v).c_str())
                                            : i18n::format(i18n::tr("this sentence: N = %s, M = %s, d = %s, float32"),
                                                           format_grouped(rows).c_str(), format_grouped(cols).c_str(),
                                                           format_grouped(d_v).c_str());
  lines.push_back({sentence, memory(n, m, br, bc, d, 4), memory(n, m, 64, 64, d, 4)});
  for (const std::uint64_t long_n : tiled::kLongContexts) {
    lines.push_back(
        {"N = " + format_grouped(static_cast<long long>(long_n)) + ", d = 128, fp16",  // not translated: a formula
         memory(long_n, long_n, br, bc, tiled::kLongContextHeadDim, tiled::kLongContextBytesPerValue),
         memory(long_n, long_n, 64, 64, tiled::kLongContextHeadDim, tiled::kLongContextBytesPerValue)});
  }
  heading_text(i18n::tr("Memory per head"));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ui::text_wrapped_disabled(
      "%s",
      i18n::tr("Dense holds the N \xc3\x97 M scores and weights (2\xc2\xb7N\xc2\xb7M numbers); tiled holds one Br "
               "\xc3\x97 Bc tile, m and l for its Br rows and O (Br \xc3\x97 d). Q, K, V and the output are the "
               "same for both."));
  ImGui::PopTextWrapPos();
  // Column headers shown translated, with fixed IDs (###): the table keeps its state.
  const std::string chosen_header =
      i18n::format(i18n::tr("tiled, %s \xc3\x97 %s tiles"), format_grouped(grid.block_q).c_str(),
                   format_grouped(grid.block_k).c_str()) +
      "###tiled";
  if (ImGui::BeginTable("##memory", 4,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("");
    ImGui::TableSetupColumn(i18n::tr_label("dense").c_str());
    ImGui::TableSetupColumn(chosen_header.c_str());
    ImGui::TableSetupColumn(i18n::tr_label("tiled, 64 \xc3\x97 64 (a GPU kernel's)").c_str());
    ImGui::TableHeadersRow();
    for (const Line& line : lines) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(line.what.c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(byte_size_text(line.chosen.dense_bytes).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(byte_size_text(line.chosen.tiled_bytes()).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(byte_size_text(line.gpu.tiled_bytes()).c_str());
    }
    ImGui::EndTable();
  }
}

}  // namespace attnviz::classroom
