#include "app/classroom/decode_view_model.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/classroom/decode_view_parts.h"
#include "app/classroom/draw_helpers.h"
#include "app/classroom/view_steps.h"
#include "app/classroom/view_widgets.h"
#include "app/compute/model_session.h"
#include "app/heatmap/heatmap_overlay.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/ui/classroom_state.h"
#include "app/ui/long_text.h"
#include "app/ui/model_layer.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/common/number_text.h"

namespace attnviz::classroom {
namespace {

constexpr int kMaxTokensAsked = 256;

const model::StepAttention* kept_layer(const model::GenerationStep& step, int layer) {
  for (const model::StepAttention& kept : step.layers)
    if (kept.layer == layer) return &kept;
  return nullptr;
}

}  // namespace

bool ModelDecode::draw(ui::UiContext& ui) {
  if (show_scenario_) {
    if (ImGui::SmallButton(
            i18n::tr_label("Show the model's generation", "Show the model's generation##decode-model").c_str()))
      show_scenario_ = false;
    else
      return false;
  }
  const model::Model* shown = ui.model.model();
  if (generation_.model() != nullptr && generation_.model() != shown) generation_.clear();  // another model opened
  if (generation_.poll() || generation_.busy()) ui.classroom.wants_frames = true;
  draw_generate_bar(ui);
  const model::Generation* g = generation_.result();
  if (g != nullptr) refresh_generation(*g);
  if (g == nullptr || g->steps.empty()) {
    if (!generation_.busy()) {
      ImGui::PushTextWrapPos(0.0f);
      if (ui::model_is_encoder(ui)) {
        ui::text_lines_disabled(
            i18n::tr("BERT is an encoder: every token attends to the whole text at once (no "
                     "causal mask), and it predicts the word hidden as [MASK] (the Model view) "
                     "rather than the next one, so it does not generate. Open GPT-2 or a "
                     "Llama-family model to decode, or step through the scenario (Show the "
                     "scenario)."));
      } else if (ui.model.result() == nullptr) {
        ui::text_lines_disabled(
            ui.model.busy() ? i18n::tr("The model is running on its text: Generate continues it once it has.")
                            : i18n::tr("The model has not run on its text (the Model view says why, and offers the "
                                       "start of a text too long for it): Generate continues a text the model has "
                                       "run on."));
      } else {
        ui::text_wrapped_disabled(
            "%s", i18n::format(i18n::tr("Press Generate: the model continues \xe2\x80\x9c%s\xe2\x80\x9d one token at a "
                                        "time, greedily (the likeliest token each time), with its own KV cache. Then "
                                        "step through the tokens as for a scenario."),
                               ui.model.text().c_str())
                      .c_str());
      }
      ImGui::PopTextWrapPos();
    }
    return true;
  }
  DecodeViewState& state = state_;
  const int steps = static_cast<int>(g->steps.size());
  state.model_steps = steps;
  state.step = moved_step(state.step, 0, steps);
  if (advance_playback(state.playback, state.step, steps, ImGui::GetTime()) || state.playback.playing)
    ui.classroom.wants_frames = true;
  step_toolbar(state.playback, state.step, steps, i18n::tr("Token %s of %s"));
  const model::ModelConfig& c = ui.model.model()->config();
  ui.view.model_layer = std::clamp(ui.view.model_layer, 0, c.num_layers - 1);
  ui.view.model_head = std::clamp(ui.view.model_head, 0, c.num_heads - 1);
  ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
  ui::draw_index_selector(i18n::tr("Layer"), "##decode-layer", &ui.view.model_layer, c.num_layers);
  ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
  ui::draw_index_selector(i18n::tr("Head"), "##decode-head", &ui.view.model_head, c.num_heads);
  const int prompt = static_cast<int>(g->prompt_ids.size());
  ImGui::PushID("decode-strip");
  const int clicked = draw_sentence_strip(tokens_shown_, prompt, prompt + state.step);
  ImGui::PopID();
  if (clicked >= 0) {  // the strip counts the prefill's row as step 0; here step s generates token P + s
    state.step = moved_step(std::max(0, clicked - 1), 0, steps);
    state.playback.playing = false;
  }
  ImGui::Separator();
  draw_step(ui, *g, state.step);
  return true;
}

void ModelDecode::refresh_generation(const model::Generation& g) {
  if (seen_generation_ == generation_.generation()) return;
  seen_generation_ = generation_.generation();
  tokens_shown_ = g.tokens();
  cache_sizes_.clear();
  for (const model::GenerationStep& each : g.steps) cache_sizes_.push_back(static_cast<float>(each.cache_bytes));
  rows_.version = ~std::uint64_t{0};
}

void ModelDecode::refresh_rows(const model::Generation& g, const model::StepAttention& layer, int s, int head,
                               std::uint64_t version) {
  if (rows_.version == version) return;
  rows_.version = version;
  const model::GenerationStep& step = g.steps[static_cast<std::size_t>(s)];
  rows_.labels.clear();
  rows_.scores.reshape(step.cache_length, 1);
  rows_.weights.reshape(step.cache_length, 1);
  rows_.largest = 1e-6f;
  for (int j = 0; j < step.cache_length; ++j) {
    const int position = step.first_cached + j;
    rows_.labels.push_back(format_grouped(position) + " " + tokens_shown_[static_cast<std::size_t>(position)] +
                           (position == step.query_position ? std::string("  ") + i18n::tr("(new)") : std::string()));
    rows_.scores.at(j, 0) = layer.scores.at(head, j);
    rows_.weights.at(j, 0) = layer.weights.at(head, j);
    rows_.largest = std::max(rows_.largest, std::abs(rows_.scores.at(j, 0)));
  }
}

void ModelDecode::draw_generate_bar(ui::UiContext& ui) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Generate"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::PushID("decode-tokens");
  ImGui::InputInt("##tokens", &tokens_, 1, 8);
  ImGui::PopID();
  tokens_ = std::clamp(tokens_, 1, kMaxTokensAsked);
  ImGui::SameLine();
  ImGui::TextUnformatted(i18n::tr("tokens"));
  ImGui::SameLine();
  if (generation_.busy()) {
    const model::Progress progress = generation_.progress();
    ImGui::ProgressBar(static_cast<float>(progress.fraction), ImVec2(ImGui::GetFontSize() * 16.0f, 0.0f),
                       progress.stage.c_str());
    ImGui::SameLine();
    if (ImGui::Button(i18n::tr_label("Cancel", "Cancel##decode-model").c_str())) generation_.cancel();
  } else {
    // Generation continues the model's shown text: none while its text is refused, and none
    // for BERT, an encoder that reads the whole text at once.
    const bool encoder = ui::model_is_encoder(ui);
    ImGui::BeginDisabled(ui.model.busy() || ui.model.result() == nullptr || encoder);
    if (ImGui::Button(i18n::tr_label("Generate", "Generate##decode-model").c_str())) {
      generation_.start(ui.model.shared_model(), ui.model.text(), ui.model.shown_edits(), tokens_);
      state_.step = 0;
      state_.playback.playing = false;
    }
    ImGui::EndDisabled();
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
      ImGui::SetTooltip(
          "%s", encoder ? i18n::tr("BERT does not generate text")
                : ui.model.result() == nullptr && !ui.model.busy()
                    ? i18n::tr("The model has not run on a text yet: its text is mended in the Model view")
                    : i18n::tr("Greedy generation with the model's KV cache, after the model's text (with its heads "
                               "as switched)"));
    }
  }
  ImGui::SameLine(0.0f, 20.0f * ui.ui_scale);
  if (ImGui::SmallButton(i18n::tr_label("Show the scenario", "Show the scenario##decode-model").c_str()))
    show_scenario_ = true;
  if (!generation_.error().empty()) {
    ImGui::PushTextWrapPos(0.0f);
    const bool cancelled = generation_.error() == "cancelled";  // not translated: the session's word for it
    const std::string said = cancelled ? std::string(i18n::tr("Generation cancelled: the last result stays."))
                                       : i18n::format(i18n::tr("Generation failed: %s"), generation_.error().c_str());
    ImGui::TextColored(ImVec4(0.9f, 0.35f, 0.2f, 1.0f), "%s", said.c_str());
    ImGui::PopTextWrapPos();
  }
  if (generation_.result() && generation_.text() != ui.model.text()) {
    ImGui::TextDisabled(
        "%s", i18n::format(i18n::tr("Generated from the earlier text \xe2\x80\x9c%s\xe2\x80\x9d: Generate again for "
                                    "the new one."),
                           generation_.text().c_str())
                  .c_str());
  }
}

void ModelDecode::draw_step(ui::UiContext& ui, const model::Generation& g, int s) {
  const model::GenerationStep& step = g.steps[static_cast<std::size_t>(s)];
  const model::ModelConfig& c = ui.model.model()->config();
  const int prompt = static_cast<int>(g.prompt_ids.size());
  ImGui::BeginChild("##decode-model-page", ImGui::GetContentRegionAvail(), false);
  const std::string count = format_grouped(static_cast<long long>(g.steps.size()));
  heading_text(s == 0 ? i18n::format(i18n::tr("Token 1 of %s: the prefill"), count.c_str())
                      : i18n::format(i18n::tr("Token %s of %s"), format_grouped(s + 1).c_str(), count.c_str()));
  ImGui::PushTextWrapPos(0.0f);
  if (s == 0) {
    ui::text_wrapped("%s", i18n::format(i18n::trn("The prompt's %d token runs through the model at once: every "
                                                  "layer's k and v fill the cache. It, \xe2\x80\x9c%s\xe2\x80\x9d, "
                                                  "predicts \xe2\x80\x9c%s\xe2\x80\x9d.",
                                                  "The prompt's %d tokens run through the model at once: every "
                                                  "layer's k and v fill the cache. The last one, "
                                                  "\xe2\x80\x9c%s\xe2\x80\x9d, predicts \xe2\x80\x9c%s\xe2\x80\x9d.",
                                                  static_cast<unsigned long>(prompt)),
                                        prompt, step.query_token.c_str(), step.token.c_str())
                               .c_str());
  } else {
    ui::text_wrapped("%s", i18n::format(i18n::tr("\xe2\x80\x9c%s\xe2\x80\x9d (position %d) runs alone through every "
                                                 "layer: its q meets the cached k of every earlier token, its own k "
                                                 "and v join the cache. It predicts \xe2\x80\x9c%s\xe2\x80\x9d."),
                                        step.query_token.c_str(), step.query_position, step.token.c_str())
                               .c_str());
  }
  const int group = c.num_heads / c.num_kv_heads;
  std::string sharing = i18n::format(i18n::tr("Layer %d, head %d."), ui.view.model_layer, ui.view.model_head);
  if (group > 1)
    sharing += " " + i18n::format(i18n::tr("It reads K/V head %d of %d, shared by %d query heads."),
                                  ui.view.model_head / group, c.num_kv_heads, group);
  if (c.sliding_window)
    sharing += " " + i18n::format(i18n::tr("Sliding window of %d: the cache is a rolling buffer."), *c.sliding_window);
  ImGui::TextDisabled("%s", sharing.c_str());
  ImGui::PopTextWrapPos();
  ImGui::Spacing();
  const float page_w = ImGui::GetContentRegionAvail().x;
  const float side_w = std::clamp(page_w * 0.34f, ImGui::GetFontSize() * 16.0f, ImGui::GetFontSize() * 26.0f);
  const float gap = 24.0f * ui.ui_scale;
  const ImVec2 start = ImGui::GetCursorPos();
  ImGui::BeginGroup();
  draw_cache(ui, g, s, page_w - side_w - gap);
  ImGui::EndGroup();
  ImGui::SetCursorPos(ImVec2(start.x + page_w - side_w, start.y));
  ImGui::BeginGroup();
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side_w);
  draw_next_tokens(step, side_w);
  ImGui::Spacing();
  draw_cache_size(c, g, s, side_w, ui.ui_scale);
  ImGui::PopTextWrapPos();
  ImGui::EndGroup();
  ImGui::EndChild();
}

// The query's row over the cache, one line per cached token: its raw score q·k and its weight.
void ModelDecode::draw_cache(ui::UiContext& ui, const model::Generation& g, int s, float width) {
  const model::GenerationStep& step = g.steps[static_cast<std::size_t>(s)];
  const model::StepAttention* layer = kept_layer(step, ui.view.model_layer);
  if (layer == nullptr || ui.view.model_head >= layer->weights.rows) return;
  const int head = ui.view.model_head;
  const std::uint64_t version =
      (static_cast<std::uint64_t>(generation_.generation()) << 32) ^ (static_cast<std::uint64_t>(s) << 16) ^
      (static_cast<std::uint64_t>(ui.view.model_layer) << 8) ^ static_cast<std::uint64_t>(head);
  refresh_rows(g, *layer, s, head, version);
  const std::vector<std::string>& labels = rows_.labels;
  const Matrix& scores = rows_.scores;
  const Matrix& weights = rows_.weights;
  const float largest = rows_.largest;
  const float font = ImGui::GetFontSize();
  const float label_w = std::min(width * 0.5f, heatmap::HeatmapWidget::row_label_width(labels, 200.0f * ui.ui_scale));
  const float cell = std::max(heatmap::number_cell("-0.00"), font * 3.2f);
  const auto small = [&](const char* id, const char* caption, const Matrix& values, heatmap::ValueRange range,
                         heatmap::Colormap colormap, bool with_labels) {
    SmallMatrix m;
    m.id = id;
    m.caption = caption;
    m.values = &values;
    m.version = version;
    m.range = range;
    m.colormap = colormap;
    m.row_labels = with_labels ? &labels : nullptr;
    m.row_label_w = with_labels ? label_w : 0.0f;
    m.cell_w = cell;
    m.cell_h = std::floor(font * 1.4f);
    return m;
  };
  ImGui::TextUnformatted(i18n::format(i18n::trn("KV cache: %s entry, this query's q against each cached k",
                                                "KV cache: %s entries, this query's q against each cached k",
                                                static_cast<unsigned long>(step.cache_length)),
                                      format_grouped(step.cache_length).c_str())
                             .c_str());
  const float y = ImGui::GetCursorPosY();
  const float x = ImGui::GetCursorPosX();
  const CellsRect rows = draw_small_matrix(
      ui, small("##decode-model-scores", "q\xc2\xb7k", scores, {-largest, largest}, ui.view.scores_colormap, true));
  ImGui::SetCursorPos(ImVec2(x + label_w + cell + 12.0f * ui.ui_scale, y));
  (void)draw_small_matrix(ui,
                          small("##decode-model-weights", "w", weights, {0.0f, 1.0f}, ui.view.weights_colormap, false));
  // The weight as a bar after the cells: where the query's attention goes, at a glance.
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float bar_x0 = rows.x1 + cell + 24.0f * ui.ui_scale;
  const float bar_x1 = ImGui::GetWindowPos().x + x + width;
  const float row_h = std::floor(font * 1.4f);
  for (int j = 0; j < step.cache_length && bar_x1 > bar_x0 + font; ++j) {
    const float top = rows.y0 + row_h * static_cast<float>(j) + row_h * 0.2f;
    list->AddRectFilled(ImVec2(bar_x0, top), ImVec2(bar_x0 + (bar_x1 - bar_x0) * weights.at(j, 0), top + row_h * 0.6f),
                        ImGui::GetColorU32(ImGuiCol_PlotHistogram));
  }
  if (step.first_cached > 0) {
    ImGui::TextDisabled(
        "%s", i18n::format(i18n::tr("Positions 0\xe2\x80\x93%d have left the rolling cache: the window no longer sees "
                                    "them."),
                           step.first_cached - 1)
                  .c_str());
  }
}

void ModelDecode::draw_next_tokens(const model::GenerationStep& step, float width) const {
  ImGui::TextUnformatted(i18n::tr("Next token (greedy: the likeliest)"));
  const float font = ImGui::GetFontSize();
  for (std::size_t i = 0; i < step.next_tokens.size(); ++i) {
    const model::TokenProbability& t = step.next_tokens[i];
    const std::string label = ui::token_label(t.token) + "  " +
                              std::to_string(static_cast<int>(t.p * 1000.0 + 0.5) / 10) + "." +
                              std::to_string(static_cast<int>(t.p * 1000.0 + 0.5) % 10) + "%";
    if (i == 0) ImGui::PushStyleColor(ImGuiCol_PlotHistogram, ImGui::GetStyleColorVec4(ImGuiCol_CheckMark));
    ImGui::ProgressBar(static_cast<float>(t.p), ImVec2(width, font * 1.3f), label.c_str());
    if (i == 0) ImGui::PopStyleColor();
  }
}

// The cache's bytes at this step and a line of them over the steps: it grows by one entry a
// token (until a sliding window holds it at its size).
void ModelDecode::draw_cache_size(const model::ModelConfig& c, const model::Generation& g, int s, float width,
                                  float ui_scale) const {
  const model::GenerationStep& step = g.steps[static_cast<std::size_t>(s)];
  ImGui::TextUnformatted(i18n::format(i18n::tr("KV cache now: %s"), short_bytes(step.cache_bytes).c_str()).c_str());
  ui::text_lines(i18n::format(i18n::tr("2 (K and V) \xc3\x97 %d layers \xc3\x97 %d KV heads \xc3\x97 %d (d_k) \xc3\x97 "
                                       "%s entries \xc3\x97 4 bytes (float32)"),
                              c.num_layers, c.num_kv_heads, c.head_dim, format_grouped(step.cache_length).c_str())
                     .c_str());
  ImGui::TextUnformatted(
      i18n::format(i18n::tr("= %s bytes"), format_grouped(static_cast<long long>(step.cache_bytes)).c_str()).c_str());
  ImGui::TextDisabled("%s", i18n::tr("Its size over the tokens generated:"));
  const std::vector<float>& sizes = cache_sizes_;
  const float largest = *std::max_element(sizes.begin(), sizes.end());
  ImGui::PlotLines("##decode-cache-bytes", sizes.data(), static_cast<int>(sizes.size()), 0, nullptr, 0.0f,
                   largest * 1.1f, ImVec2(width, ImGui::GetFontSize() * 5.0f));
  // This step's point on the line.
  const ImVec2 lo = ImGui::GetItemRectMin();
  const ImVec2 hi = ImGui::GetItemRectMax();
  const float fx = sizes.size() > 1 ? static_cast<float>(s) / static_cast<float>(sizes.size() - 1) : 0.0f;
  const float fy = sizes[static_cast<std::size_t>(s)] / (largest * 1.1f);
  ImGui::GetWindowDrawList()->AddCircleFilled(ImVec2(lo.x + (hi.x - lo.x) * fx, hi.y - (hi.y - lo.y) * fy),
                                              4.0f * ui_scale, ImGui::GetColorU32(ImGuiCol_CheckMark));
  const char* stop = g.stop == model::StopReason::EndOfText       ? i18n::tr("the model's end-of-text token")
                     : g.stop == model::StopReason::PositionTable ? i18n::tr("the end of the model's position table")
                                                                  : i18n::tr("the number of tokens asked for");
  ImGui::TextDisabled("%s", i18n::format(i18n::tr("Generation stopped at %s."), stop).c_str());
}

}  // namespace attnviz::classroom
