#include "app/classroom/decode_view_parts.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/classroom/draw_helpers.h"
#include "app/classroom/view_widgets.h"
#include "app/i18n/translate.h"
#include "app/ui/palette.h"
#include "app/ui/long_text.h"
#include "app/ui/text_lines.h"
#include "core/common/number_text.h"
#include "core/common/input_file.h"

namespace attnviz::classroom {
namespace {

constexpr std::uint32_t kWithoutCache = 0xff1f6fe0u;  // orange

std::string range_text(const std::vector<int>& heads) {
  if (heads.size() == 1) return std::to_string(heads.front());
  return std::to_string(heads.front()) + "\xe2\x80\x93" + std::to_string(heads.back());
}

float legend_swatch_width(const char* text) { return ImGui::GetFontSize() * 1.2f + ImGui::CalcTextSize(text).x; }

void legend_swatch(std::uint32_t colour, const char* text) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, at.y + font * 0.4f), ImVec2(at.x + font, at.y + font * 0.65f),
                                            colour);
  ImGui::Dummy(ImVec2(font * 1.2f, font));
  ImGui::SameLine(0.0f, 0.0f);
  ImGui::TextUnformatted(text);
}

// One chart: the series of the steps t = first … N − 1 (two lines), t's marker (when t is
// one of them), the axes' extremes written at their ends.
struct Chart {
  const char* title;
  std::vector<std::vector<double>> series;  // with the cache, without it
  std::string top_label;                    // the largest value, written at the axis's top
};

double largest_of(const std::vector<std::vector<double>>& series) {
  double largest = 0.0;
  for (const std::vector<double>& s : series)
    for (const double v : s) largest = std::max(largest, v);
  return largest;
}

// `label_w`: the room left of the axis, the same for the charts one above the other so
// that their steps line up.
void cost_chart(const Chart& chart, int first, int t, float label_w, float width, float height, float ui_scale) {
  const std::vector<std::vector<double>>& series = chart.series;
  ImGui::TextUnformatted(chart.title);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float font = ImGui::GetFontSize();
  const float left = origin.x + label_w;
  const float right = origin.x + width - font * 0.5f;
  const float top = origin.y + font * 0.5f;
  const float bottom = origin.y + height - ImGui::GetTextLineHeightWithSpacing();
  ImDrawList* list = ImGui::GetWindowDrawList();
  const std::uint32_t axis = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const std::uint32_t ink = ImGui::GetColorU32(ImGuiCol_Text);
  list->AddLine(ImVec2(left, bottom), ImVec2(right, bottom), axis);
  list->AddLine(ImVec2(left, top), ImVec2(left, bottom), axis);
  const std::string& top_label = chart.top_label;
  list->AddText(ImVec2(origin.x, top - font * 0.5f), axis, top_label.c_str());
  list->AddText(ImVec2(origin.x, bottom - font), axis, "0");
  const std::vector<std::vector<ChartPoint>> lines = chart_lines(series, left, top, right, bottom);
  const std::uint32_t colours[] = {ui::palette::strong_blue(), kWithoutCache};
  for (std::size_t k = 0; k < lines.size(); ++k) {
    std::vector<ImVec2> points;
    for (const ChartPoint& p : lines[k]) points.emplace_back(p.x, p.y);
    list->AddPolyline(points.data(), static_cast<int>(points.size()), colours[k % 2], ImDrawFlags_None,
                      2.0f * ui_scale);
    if (points.size() == 1) list->AddCircleFilled(points.front(), 3.0f * ui_scale, colours[k % 2]);
  }
  const int count = series.empty() ? 0 : static_cast<int>(series.front().size());
  if (count > 0 && t >= first) {
    const float x =
        count > 1 ? left + (right - left) * static_cast<float>(t - first) / static_cast<float>(count - 1) : left;
    list->AddLine(ImVec2(x, top), ImVec2(x, bottom), ink, 1.5f * ui_scale);
    for (std::size_t k = 0; k < lines.size(); ++k) {
      const ChartPoint& p = lines[k][static_cast<std::size_t>(t - first)];
      list->AddCircleFilled(ImVec2(p.x, p.y), 4.0f * ui_scale, colours[k % 2]);
    }
  }
  const std::string first_label = "t = " + format_grouped(first);
  const std::string last_label = format_grouped(first + count - 1);
  list->AddText(ImVec2(left, bottom + 2.0f), axis, first_label.c_str());
  list->AddText(ImVec2(right - ImGui::CalcTextSize(last_label.c_str()).x, bottom + 2.0f), axis, last_label.c_str());
  ImGui::Dummy(ImVec2(width, height));
}

}  // namespace

namespace {

// A long sentence's chips would fill the view and push the step below the window: at most
// this many lines show, in a box that scrolls.
constexpr int kStripLines = 4;

// How many lines the chips take in `width`, counted no further than `most` + 1.
int strip_lines(const std::vector<std::string>& tokens, float width, float spacing, int most) {
  int lines = 1;
  float x = 0.0f;
  for (std::size_t i = 0; i < tokens.size() && lines <= most; ++i) {
    const float w = button_width(ui::token_label(tokens[i]).c_str());
    if (i > 0 && x + spacing + w > width) {
      ++lines;
      x = w;
    } else {
      x += (i > 0 ? spacing : 0.0f) + w;
    }
  }
  return lines;
}

// The chips; the one of step t scrolled into view whenever t changes.
int draw_chips(const std::vector<std::string>& tokens, int prompt, int t, float spacing) {
  int clicked = -1;
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID followed = ImGui::GetID("##followed");
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const int position = static_cast<int>(i);
    ImGui::PushID(position);
    const std::string label = ui::token_label(tokens[i]);
    const float width = button_width(label.c_str());
    if (i > 0) {
      ImGui::SameLine(0.0f, spacing);
      if (ImGui::GetCursorScreenPos().x + width > right) ImGui::NewLine();
    }
    const bool in_prompt = position < prompt;
    const bool current = position == t || (t == prompt - 1 && in_prompt);
    const bool future = position > t;
    int colours = 0;
    if (in_prompt && !current) {
      ImGui::PushStyleColor(ImGuiCol_Button, ui::palette::vec4(ui::palette::head_tint(0)));
      ++colours;
    }
    if (future) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ++colours;
    }
    if (pill(label.c_str(), current)) clicked = std::max(0, position - prompt + 1);
    if (current && position == t && storage->GetInt(followed, -1) != t) {
      ImGui::SetScrollHereY(0.5f);
      storage->SetInt(followed, t);
    }
    if (ImGui::IsItemHovered()) {
      const char* state = in_prompt ? i18n::tr("in the prompt (prefilled at once)")
                          : future  ? i18n::tr("not generated yet (click: go there)")
                                    : i18n::tr("generated (click: go to its step)");
      const std::string where = i18n::format(i18n::tr("token %s: %s"), format_grouped(position).c_str(), state);
      ui::token_tooltip(where, tokens[i]);
    }
    ImGui::PopStyleColor(colours);
    ImGui::PopID();
  }
  return clicked;
}

}  // namespace

int draw_sentence_strip(const std::vector<std::string>& tokens, int prompt, int t) {
  const float spacing = ImGui::GetStyle().ItemSpacing.x * 0.6f;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Sentence"));
  ImGui::SameLine();
  const float width = ImGui::GetContentRegionAvail().x;
  if (strip_lines(tokens, width, spacing, kStripLines) <= kStripLines) return draw_chips(tokens, prompt, t, spacing);
  const float height = kStripLines * ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().WindowPadding.y;
  ImGui::BeginChild("##sentence_strip", ImVec2(width, height), false);
  const int clicked = draw_chips(tokens, prompt, t, spacing);
  ImGui::EndChild();
  return clicked;
}

std::string cache_sharing_text(const Problem& problem, int head) {
  const int g = problem.kv_head_of(head);
  const int heads = problem.num_heads;
  const int kv = problem.num_kv_heads;
  if (heads == 1) return i18n::tr("One head: the cache holds its K and V.");
  if (kv == heads) {
    return i18n::format(i18n::tr("MHA: %d query heads, each with a cache head of its own (G = %d); head %d reads "
                                 "cache head %d."),
                        heads, kv, head, g);
  }
  if (kv == 1) {
    return i18n::format(i18n::tr("MQA: all %d query heads share one cache head (G = 1): the cache is %d times smaller "
                                 "than with MHA."),
                        heads, heads);
  }
  // "query heads 0–1 → cache head 0, query heads 2–3 → cache head 1": one phrase per group.
  std::string groups;
  for (int k = 0; k < kv; ++k) {
    if (k > 0) groups += ", ";
    groups += i18n::format(i18n::tr("query heads %s \xe2\x86\x92 cache head %d"),
                           range_text(decode::heads_sharing(problem, k)).c_str(), k);
  }
  return i18n::format(i18n::tr("GQA: the cache holds G = %d K/V heads for %d query heads: %s. Shown: head %d, cache "
                               "head %d."),
                      kv, heads, groups.c_str(), head, g);
}

std::string cache_mask_text(const decode::DecodeTrace& trace) {
  std::string text;
  if (trace.mask.window) {
    const int r = *trace.mask.window;
    text = i18n::format(i18n::tr("Sliding window r = %d: each token sees itself and the %d before it, so the cache is "
                                 "a rolling buffer of r + 1 = %d slots; a new row takes the slot of the row that "
                                 "leaves."),
                        r, r, r + 1);
    if (trace.cache_capacity > r + 1) {
      text +=
          " " + i18n::format(i18n::tr("Global tokens stay pinned beside it: %d slots in all."), trace.cache_capacity);
    }
  } else {
    text = i18n::tr(
        "Causal: every later token sees every earlier one, so the cache grows by one row a step and nothing leaves.");
  }
  return text;
}

void draw_cost_panel(const decode::DecodeTrace& trace, int t, float width, float ui_scale) {
  const decode::DecodeStep& step = trace.steps[static_cast<std::size_t>(t)];
  const decode::StepCost& cost = step.cost;
  heading_text(i18n::tr("Cost of the whole layer"));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ui::text_wrapped_disabled("%s", i18n::tr("Multiply-adds and bytes read (float32). Without the cache every step "
                                           "recomputes K and V of the whole prefix and its whole matrix."));
  ImGui::PopTextWrapPos();
  // Short figures ("28.7 K", "18 KiB") keep the table narrow beside the cache; every digit is
  // in the tooltip.
  if (ImGui::BeginTable("##decode-cost", 3,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit)) {
    ImGui::TableSetupColumn("");
    // Translated headers with fixed IDs: the table keeps its state in every language.
    ImGui::TableSetupColumn(
        (std::string(step.t == trace.prompt - 1 ? i18n::tr("prefill") : i18n::tr("this step")) + "###now").c_str());
    ImGui::TableSetupColumn(i18n::tr_label("so far").c_str());
    ImGui::TableHeadersRow();
    const auto group = [](const char* what) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("%s", what);
    };
    const auto row = [](const char* what, std::uint64_t now, std::uint64_t so_far, bool bytes) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(what);
      for (const std::uint64_t value : {now, so_far}) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted((bytes ? short_bytes(value) : short_count(static_cast<double>(value))).c_str());
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s", i18n::format(bytes ? i18n::tr("%s bytes") : i18n::tr("%s multiply-adds"),
                                               format_grouped(static_cast<long long>(value)).c_str())
                                      .c_str());
      }
    };
    const std::string macs = std::string("  ") + i18n::tr("multiply-adds");
    const std::string read = std::string("  ") + i18n::tr("bytes read");
    group(i18n::tr("with the cache"));
    row(macs.c_str(), cost.with_cache.macs, cost.with_cache_so_far.macs, false);
    row(read.c_str(), cost.with_cache.bytes, cost.with_cache_so_far.bytes, true);
    group(i18n::tr("without it"));
    row(macs.c_str(), cost.without_cache.macs, cost.without_cache_so_far.macs, false);
    row(read.c_str(), cost.without_cache.bytes, cost.without_cache_so_far.bytes, true);
    ImGui::EndTable();
  }
  if (cost.with_cache_so_far.macs > 0 && cost.without_cache_so_far.macs > cost.with_cache_so_far.macs) {
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    ui::text_wrapped("%s", i18n::format(i18n::tr("So far the cache saves %.1f\xc3\x97 the multiply-adds."),
                                        static_cast<double>(cost.without_cache_so_far.macs) /
                                            static_cast<double>(cost.with_cache_so_far.macs))
                               .c_str());
    ImGui::PopTextWrapPos();
  }
  // The two entries side by side, or one under the other where the column is too narrow.
  const float line_end = ImGui::GetCursorScreenPos().x + width;
  legend_swatch(ui::palette::strong_blue(), i18n::tr("with the cache"));
  const char* without = i18n::tr("without (recompute)");
  const float font = ImGui::GetFontSize();
  if (ImGui::GetItemRectMax().x + font + legend_swatch_width(without) <= line_end) ImGui::SameLine(0.0f, font);
  legend_swatch(kWithoutCache, without);
  // The steps after the prefill (the prefill is one pass over the prompt either way: in the
  // table, not on the charts, where its spike would flatten every step after it).
  const int first = trace.prompt;
  if (first >= static_cast<int>(trace.steps.size())) {
    ImGui::TextDisabled("%s", i18n::tr("The prompt is the whole sentence: nothing is left to generate."));
    return;
  }
  Chart macs{i18n::tr("multiply-adds per step"), {{}, {}}, {}};
  Chart bytes{i18n::tr("bytes read per step"), {{}, {}}, {}};
  for (int i = first; i < static_cast<int>(trace.steps.size()); ++i) {
    const decode::StepCost& c = trace.steps[static_cast<std::size_t>(i)].cost;
    macs.series[0].push_back(static_cast<double>(c.with_cache.macs));
    macs.series[1].push_back(static_cast<double>(c.without_cache.macs));
    bytes.series[0].push_back(static_cast<double>(c.with_cache.bytes));
    bytes.series[1].push_back(static_cast<double>(c.without_cache.bytes));
  }
  macs.top_label = short_count(largest_of(macs.series));
  bytes.top_label = byte_size_text(static_cast<std::size_t>(largest_of(bytes.series)));
  // Room for the wider label ("648 bytes" ran into the axis of a column sized for "000 MiB").
  const float label_w =
      std::max(ImGui::CalcTextSize(macs.top_label.c_str()).x, ImGui::CalcTextSize(bytes.top_label.c_str()).x) +
      6.0f * ui_scale;
  const float chart_h = std::max(ImGui::GetFontSize() * 4.5f, 80.0f * ui_scale);
  cost_chart(macs, first, t, label_w, width, chart_h, ui_scale);
  cost_chart(bytes, first, t, label_w, width, chart_h, ui_scale);
}

}  // namespace attnviz::classroom
