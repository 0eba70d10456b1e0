#include "app/panels/model_lens.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "app/compute/model_session.h"
#include "app/heatmap/colormaps.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/ui/classroom_state.h"
#include "app/ui/long_text.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/export/heads_figures.h"
#include "core/heads/heads_json.h"
#include "core/heads/stream_pass.h"

namespace attnviz::panels {
namespace {

float text_width(const std::string& text, float font_size) {
  return ImGui::GetFont()->CalcTextSizeA(font_size, FLT_MAX, 0.0f, text.c_str()).x;
}

// `text` cut at a character's boundary, "…" after it, so that it is at most `width` pixels wide
// at `font_size`.
std::string fitted(const std::string& text, float width, float font_size) {
  if (text_width(text, font_size) <= width) return text;
  std::string cut = text;
  while (!cut.empty()) {
    do {  // drop one UTF-8 character
      cut.pop_back();
    } while (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0u) == 0x80u);
    if (!cut.empty() && (static_cast<unsigned char>(cut.back()) & 0xC0u) == 0xC0u) cut.pop_back();
    const std::string shown = cut + "\xE2\x80\xA6";
    if (text_width(shown, font_size) <= width) return shown;
  }
  return "\xE2\x80\xA6";
}

// The row's name: "emb" for the embeddings, "L3" for the stream after layer 3.
std::string row_label(std::size_t row) {
  return row == 0 ? std::string(i18n::tr("emb")) : "L" + std::to_string(row - 1);
}

// What a row is, for the tooltips.
std::string row_meaning(std::size_t row, std::size_t rows) {
  if (row == 0) return i18n::tr("the embeddings, before any layer");
  if (row + 1 == rows) return i18n::format(i18n::tr("after layer %zu: the model's own prediction"), row - 1);
  return i18n::format(i18n::tr("after layer %zu, read as if the model ended there"), row - 1);
}

void cell_tooltip(const compute::LensTable& lens, std::size_t row, std::size_t position) {
  const heads::LensCell& cell = lens.lens.cells[row][position];
  ImGui::BeginTooltip();
  ImGui::TextUnformatted(i18n::format(i18n::tr("position %zu: \xE2\x80\x9C%s\xE2\x80\x9D"), position,
                                      token_text(lens.tokens, static_cast<int>(position)).c_str())
                             .c_str());
  ImGui::TextDisabled("%s", row_meaning(row, lens.lens.cells.size()).c_str());
  ImGui::Separator();
  for (std::size_t k = 0; k < cell.top.size(); ++k) {
    ImGui::Text("%zu. %s", k + 1, ui::token_label(cell.top[k].token).c_str());
    ImGui::SameLine(ImGui::GetFontSize() * 12.0f);
    ImGui::Text("%.4f", cell.top[k].p);
  }
  ImGui::Separator();
  if (cell.p_next && cell.rank_next) {
    ImGui::TextUnformatted(i18n::format(i18n::tr("the text's next token \xE2\x80\x9C%s\xE2\x80\x9D: p = %.3g, rank %d"),
                                        token_text(lens.tokens, static_cast<int>(position + 1)).c_str(), *cell.p_next,
                                        *cell.rank_next + 1)
                               .c_str());
  } else {
    ImGui::TextDisabled("%s", i18n::tr("the last token: the text has no next token to compare"));
  }
  ImGui::EndTooltip();
}

}  // namespace

void ModelLens::update(ui::UiContext& ui, bool shown) {
  if (ui.model.model() != model_) {  // another model (or none): its lens is not this
    session_.clear();
    model_ = ui.model.model();
  }
  if (session_.poll() || session_.busy()) ui.classroom.wants_frames = true;
  if (!shown || ui.model.result() == nullptr) return;
  if (session_.requested() != ui.model.generation()) {
    session_.request(ui.model.shared_model(), ui.model.shared_result(), ui.model.shown_edits(), ui.model.generation());
    ui.classroom.wants_frames = true;
  }
}

const compute::LensTable* ModelLens::shown(const ui::UiContext& ui) const {
  const compute::LensTable* lens = session_.lens();
  const model::ForwardResult* result = ui.model.result();
  if (lens == nullptr || result == nullptr || lens->tokens.size() != result->tokens.size()) return nullptr;
  for (const std::vector<heads::LensCell>& row : lens->lens.cells)
    if (row.size() != lens->tokens.size()) return nullptr;
  return lens;
}

void ModelLens::draw(ui::UiContext& ui, float width, float height) {
  const float top = ImGui::GetCursorPosY();
  const float line_start = ImGui::GetCursorPosX();
  heading(i18n::tr("Logit lens"), i18n::tr("each layer's stream through the final norm and unembedding"),
          width - export_ui::export_button_room());
  if (const compute::LensTable* exported = shown(ui)) {
    export_.draw(ui, "lens", line_start + width,
                 i18n::tr("The logit lens as shown: layers × positions coloured by the next token's probability "
                          "(PNG, SVG) or every cell's top token and the next token's probability and rank (CSV, "
                          "or JSON as attnviz lens writes it)."),
                 [exported, &ui] {
                   tokenizers::Encoding text = heads::encoding_of(*ui.model.result());
                   text.tokens = exported->tokens;
                   export_ui::HeadsExportContent content;
                   content.json = heads::lens_json(text, exported->lens);
                   content.csv = exporting::lens_csv(exported->lens, exported->tokens);
                   content.figure = exporting::lens_figure(exported->lens, exported->tokens, i18n::wording());
                   return content;
                 });
  }
  draw_status(ui, width);
  const compute::LensTable* lens = shown(ui);
  if (lens == nullptr) return;
  const float bar_w = std::max(40.0f, std::min(width, ImGui::GetFontSize() * 24.0f));
  ui.heatmaps.colorbar(ui.view.weights_colormap, 0.0f, 1.0f, bar_w,
                       i18n::tr("colour: the probability of the text's next token"));
  draw_table(ui, *lens, width, height - (ImGui::GetCursorPosY() - top));
}

// In place of the table when there is none: what is being done or why there is no lens; the
// last lens stays meanwhile.
void ModelLens::draw_status(const ui::UiContext& ui, float width) const {
  const compute::LensTable* lens = shown(ui);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  if (!session_.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped(i18n::tr("No logit lens: %s%s"), session_.error().c_str(),
                     lens ? i18n::tr(" (the last lens is shown)") : "");
    ImGui::PopStyleColor();
  } else if (session_.busy() || session_.requested() != ui.model.generation()) {
    ImGui::TextDisabled(
        "%s", lens ? i18n::tr("recomputing the lens\xE2\x80\xA6") : i18n::tr("computing the lens\xE2\x80\xA6"));
  } else {
    ImGui::TextDisabled("%s",
                        i18n::tr("each cell: the likeliest token there and its probability; hover for the top 5"));
  }
  ImGui::PopTextWrapPos();
}

// Rows: the embeddings, then the stream after each layer; columns: the text's positions.
void ModelLens::draw_table(ui::UiContext& ui, const compute::LensTable& lens, float width, float height) const {
  const std::size_t rows = lens.lens.cells.size();
  const std::size_t cols = lens.tokens.size();
  if (rows == 0 || cols == 0) return;
  const float font = ImGui::GetFontSize();
  const float line = ImGui::GetTextLineHeight();
  const float row_label_w =
      std::max(ImGui::CalcTextSize("L00").x, ImGui::CalcTextSize(i18n::tr("emb")).x) + 0.5f * font;
  const float gap = 1.0f;
  const float room = width - row_label_w - ImGui::GetStyle().ScrollbarSize;
  const float cell_w = std::floor(std::clamp(room / static_cast<float>(cols) - gap, 3.5f * font, 8.0f * font));
  // Two lines a cell (the token, its probability), at a smaller size where the rows would not
  // fit the height at the font's (a model of many layers scrolls).
  const float rows_room = height - line - gap - ImGui::GetStyle().ScrollbarSize;
  float size = font;
  for (const float scale : {1.0f, 0.85f, 0.78f, 0.7f}) {
    size = font * scale;
    if (static_cast<float>(rows) * (2.0f * size + 4.0f + gap) <= rows_room) break;
  }
  const float cell_h = std::floor(2.0f * size + 4.0f);
  if (!ImGui::BeginChild("##model-lens-table", ImVec2(width, std::max(height, 4.0f * line)), false,
                         ImGuiWindowFlags_HorizontalScrollbar)) {
    ImGui::EndChild();
    return;
  }
  const ImVec2 origin = ImGui::GetCursorPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (std::size_t i = 0; i < cols; ++i) {  // the tokens above their columns
    ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(i) * (cell_w + gap), origin.y));
    ImGui::TextDisabled("%s", fitted(token_text(lens.tokens, static_cast<int>(i)), cell_w - 2.0f, font).c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", i18n::format(i18n::tr("position %zu: \xE2\x80\x9C%s\xE2\x80\x9D"), i,
                                           token_text(lens.tokens, static_cast<int>(i)).c_str())
                                  .c_str());
  }
  for (std::size_t r = 0; r < rows; ++r) {
    const float y = origin.y + line + gap + static_cast<float>(r) * (cell_h + gap);
    ImGui::SetCursorPos(ImVec2(origin.x, y + std::max(0.0f, 0.5f * (cell_h - line))));
    ImGui::TextDisabled("%s", row_label(r).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row_meaning(r, rows).c_str());
    for (std::size_t i = 0; i < cols; ++i) {
      const heads::LensCell& cell = lens.lens.cells[r][i];
      if (cell.top.empty()) continue;
      ImGui::SetCursorPos(ImVec2(origin.x + row_label_w + static_cast<float>(i) * (cell_w + gap), y));
      // An item whose ID holds the top token's id and probability and the next token's
      // probability (-1 at the last position), so that the widget log (and a test) reads them.
      char id[96];
      std::snprintf(id, sizeof id, "%d %.6f %.6f##lens-%zu-%zu",  // not translated: an ID
                    cell.top.front().id, cell.top.front().p, cell.p_next.value_or(-1.0), r, i);
      ImGui::InvisibleButton(id, ImVec2(cell_w, cell_h));
      const ImVec2 a = ImGui::GetItemRectMin();
      const ImVec2 b = ImGui::GetItemRectMax();
      std::uint32_t text_colour = ImGui::GetColorU32(ImGuiCol_Text);
      if (cell.p_next) {
        const heatmap::Rgb colour =
            heatmap::sample(ui.view.weights_colormap, static_cast<float>(std::clamp(*cell.p_next, 0.0, 1.0)));
        draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(ImVec4(colour.r, colour.g, colour.b, 1.0f)));
        text_colour = heatmap::contrasting_text_colour(colour);
      } else {
        draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
      }
      const std::string token = fitted(ui::token_label(cell.top.front().token), cell_w - 4.0f, size);
      draw->AddText(ImGui::GetFont(), size, ImVec2(a.x + 2.0f, a.y + 1.0f), text_colour, token.c_str());
      char p[16];
      std::snprintf(p, sizeof p, "%.2f", cell.top.front().p);
      draw->AddText(ImGui::GetFont(), size, ImVec2(a.x + 2.0f, a.y + 1.0f + size), text_colour, p);
      if (cell.rank_next == 0)  // the likeliest token is the text's next one
        draw->AddRect(ImVec2(a.x + 1.0f, a.y + 1.0f), ImVec2(b.x - 1.0f, b.y - 1.0f), text_colour, 0.0f, 0, 1.5f);
      if (ImGui::IsItemHovered()) cell_tooltip(lens, r, i);
    }
  }
  ImGui::EndChild();
}

}  // namespace attnviz::panels
