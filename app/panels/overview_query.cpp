// The overview's pinned query (overview_query.h).

#include "app/i18n/translate.h"
#include "app/panels/overview_query.h"

#include <imgui_internal.h>  // ImGui::GetItemID, for the widget log

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/heatmap/heatmap_widget.h"
#include "app/panels/heatmaps_parts.h"
#include "app/panels/overview_locator.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "app/window/widget_log.h"
#include "core/common/number_text.h"
#include "core/overview/query_row.h"

namespace attnviz::panels {
namespace {

constexpr int kTopKeys = 10;
constexpr std::uint32_t kQueryMark = 0xff1f8cffu;  // orange, as a hovered token's outline

std::string three_digits(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", static_cast<double>(value));
  return text;
}

}  // namespace

void OverviewQuery::draw_hint() {
  session_.clear();
  strip_row_.reset();
  top_row_.reset();
  note_text(
      i18n::tr("Click a row of the image to pin that query: its weights over every key, and the keys it "
               "attends to most (Down / Up: the next or previous query)."));
}

std::optional<overview::CellWindow> OverviewQuery::draw(ui::UiContext& ui,
                                                        const std::shared_ptr<const Problem>& problem, int head,
                                                        int query, float width) {
  if (!problem || query < 0 || query >= problem->n()) return std::nullopt;
  session_.request(problem, head, query);
  heading(i18n::tr("Query"), "");
  ImGui::SameLine();
  ImGui::TextUnformatted((format_grouped(query) + " " + in_quotes(token_text(problem->tokens, query))).c_str());
  // Beside the token where it fits, else under it (a narrow column must not cut it off).
  const float unpin_w = ImGui::CalcTextSize(i18n::tr("Unpin")).x + 2.0f * ImGui::GetStyle().FramePadding.x;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < unpin_w) ImGui::NewLine();
  if (ImGui::SmallButton(i18n::tr_label("Unpin", "Unpin##overview_query").c_str())) ui.view.pinned_query.reset();
  const std::shared_ptr<const overview::QueryRow> row = session_.row();
  const std::string error = session_.error();
  if (!error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_lines(error);
    ImGui::PopStyleColor();
    return std::nullopt;
  }
  if (!row) {
    ImGui::TextDisabled("%s", i18n::tr("computing its row\xe2\x80\xa6"));
    return std::nullopt;
  }
  note_text(i18n::format(i18n::trn("head %d \u00B7 sees %s of %s key", "head %d \u00B7 sees %s of %s keys",
                                   static_cast<unsigned long>(row->keys())),
                         head, format_grouped(row->visible_count()).c_str(), format_grouped(row->keys()).c_str()));
  draw_strip(row, *problem, width);
  return draw_top_keys(row, *problem);
}

// Its weights, the largest of each block of keys a pixel column, scaled to the row's largest.
void OverviewQuery::draw_strip(const std::shared_ptr<const overview::QueryRow>& shared, const Problem& problem,
                               float width) {
  const overview::QueryRow& row = *shared;
  const int columns = std::max(1, static_cast<int>(width));
  const int keys = row.keys();
  const int block = (keys + columns - 1) / columns;
  const int used = (keys + block - 1) / block;
  if (strip_row_ != shared || strip_columns_ != columns) {
    strip_row_ = shared;
    strip_columns_ = columns;
    strip_.assign(static_cast<std::size_t>(used), 0.0f);
    strip_hidden_.assign(static_cast<std::size_t>(used), 1);
    for (int j = 0; j < keys; ++j) {
      const auto c = static_cast<std::size_t>(j / block);
      if (row.hidden[static_cast<std::size_t>(j)] != 0) continue;
      strip_hidden_[c] = 0;
      strip_[c] = std::max(strip_[c], row.values[static_cast<std::size_t>(j)]);
    }
  }
  const float largest = std::max(*std::max_element(strip_.begin(), strip_.end()), 1e-12f);
  note_text(i18n::format(i18n::tr("its weights over keys 0\u2013%s, the largest per pixel (tallest %s)"),
                         format_grouped(keys - 1).c_str(), three_digits(largest).c_str()));
  const float height = ImGui::GetFontSize() * 4.0f;
  const float column_w = width / static_cast<float>(used);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton("##overview_query_strip", ImVec2(width, height + 6.0f));
  window::widget_log::annotate(ImGui::GetItemID(), "query",
                               std::to_string(row.query));  // for tests that read the window
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddRectFilled(at, ImVec2(at.x + width, at.y + height), ImGui::GetColorU32(ImGuiCol_FrameBg));
  const std::uint32_t bar = ui::palette::head_strong(row.head);
  for (int c = 0; c < used; ++c) {
    const float x0 = at.x + column_w * static_cast<float>(c);
    const float x1 = x0 + std::max(column_w, 1.0f);
    if (strip_hidden_[static_cast<std::size_t>(c)] != 0) {
      list->AddRectFilled(ImVec2(x0, at.y), ImVec2(x1, at.y + height), heatmap::kHiddenShade);
      continue;
    }
    const float h = height * strip_[static_cast<std::size_t>(c)] / largest;
    if (h > 0.0f) list->AddRectFilled(ImVec2(x0, at.y + height - std::max(h, 1.0f)), ImVec2(x1, at.y + height), bar);
  }
  if (!problem.cross_attention) {  // the query's own position among the keys
    const float x = at.x + width * (static_cast<float>(row.query) + 0.5f) / static_cast<float>(keys);
    list->AddTriangleFilled(ImVec2(x, at.y + height), ImVec2(x - 5.0f, at.y + height + 6.0f),
                            ImVec2(x + 5.0f, at.y + height + 6.0f), kQueryMark);
  }
  if (ImGui::IsItemHovered()) {
    const float fx = (ImGui::GetIO().MousePos.x - at.x) / width;
    const int c = std::clamp(static_cast<int>(fx * static_cast<float>(used)), 0, used - 1);
    const int first = c * block;
    const int last = std::min(keys, first + block) - 1;
    if (strip_hidden_[static_cast<std::size_t>(c)] != 0) {
      ImGui::SetTooltip(i18n::tr("keys %s\xe2\x80\x93%s: the mask hides them all"), format_grouped(first).c_str(),
                        format_grouped(last).c_str());
    } else {
      ImGui::SetTooltip(i18n::tr("keys %s\xe2\x80\x93%s: the largest weight %.4g"), format_grouped(first).c_str(),
                        format_grouped(last).c_str(), static_cast<double>(strip_[static_cast<std::size_t>(c)]));
    }
  }
}

std::optional<overview::CellWindow> OverviewQuery::draw_top_keys(
    const std::shared_ptr<const overview::QueryRow>& shared, const Problem& problem) {
  const overview::QueryRow& row = *shared;
  note_text(i18n::tr("the keys it attends to most (click one to show its cell)"));
  std::optional<overview::CellWindow> go_to;
  if (top_row_ != shared) {  // once per row, not every frame: 65,536 keys to rank
    top_ = row.top_keys(kTopKeys);
    top_row_ = shared;
  }
  const std::vector<int>& top = top_;
  for (std::size_t i = 0; i < top.size(); ++i) {
    const int key = top[i];
    char weight[32];
    std::snprintf(weight, sizeof weight, "%.4g", static_cast<double>(row.values[static_cast<std::size_t>(key)]));
    const std::string label = std::string(weight) + "   " + format_grouped(key) + " " +
                              in_quotes(token_text(problem.source_tokens, key)) + "##overview_top_key" +
                              std::to_string(i);
    if (ImGui::Selectable(label.c_str(), false))
      go_to = centred_window(row.query, key, kGoToCells, kGoToCells, problem.n(), problem.m());
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(i18n::tr("query %s, key %s: weight %.6g\nclick to zoom the image onto this cell"),
                        format_grouped(row.query).c_str(), format_grouped(key).c_str(),
                        static_cast<double>(row.values[static_cast<std::size_t>(key)]));
    }
  }
  if (top.empty()) ImGui::TextDisabled("%s", i18n::tr("none: the mask hides every key from it"));
  return go_to;
}

}  // namespace attnviz::panels
