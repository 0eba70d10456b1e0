#include "app/panels/model_roles.h"

#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "app/compute/model_session.h"
#include "app/heatmap/colormaps.h"
#include "app/heatmap/heatmap_widget.h"
#include "app/i18n/translate.h"
#include "app/panels/heatmaps_parts.h"
#include "app/ui/classroom_state.h"
#include "app/ui/palette.h"
#include "app/ui/text_lines.h"
#include "app/ui/view_state.h"
#include "core/export/heads_figures.h"
#include "core/heads/heads_json.h"
#include "core/heads/stream_pass.h"

namespace attnviz::panels {
namespace {

constexpr int kStrongestShown = 8;

// What a role measures, for the combo's tooltips and the legend.
const char* role_help(heads::Role role) {
  switch (role) {
    case heads::Role::PreviousToken: return N_("The share of each token's attention on the token just before it");
    case heads::Role::FirstToken:
      return N_("The share of each token's attention on the first token (an attention sink)");
    case heads::Role::Self: return N_("The share of each token's attention on itself");
    case heads::Role::Induction:
      return N_(
          "On random tokens repeated twice: the share of the second copy's attention on the token after the "
          "same token in the first copy (what an induction head copies forward)");
    case heads::Role::Duplicate:
      return N_(
          "On random tokens repeated twice: the share of the second copy's attention on the same token in the first copy");
    case heads::Role::Entropy: return N_("How spread each token's attention is, in nats (0: all on one token)");
    case heads::Role::MeanDistance: return N_("How many tokens back each token looks, weighted by its attention");
  }
  return "";
}

// Shares with two decimals; nats and tokens with one past 10.
std::string value_text(heads::Role role, double value) {
  char text[32];
  const bool share = role != heads::Role::Entropy && role != heads::Role::MeanDistance;
  std::snprintf(text, sizeof text, share || value < 10.0 ? "%.2f" : "%.1f", value);
  return text;
}

// A head's value as a bar in the role's colour over the rest of the line, the value at its end;
// an item whose ID holds the value (4 decimals), so that the widget log (and a test) reads it.
void draw_value_bar(const ui::UiContext& ui, heads::Role role, double value, std::pair<double, double> scale, int layer,
                    int head) {
  char id[96];
  std::snprintf(id, sizeof id, "%.4f##role-value-%d-%d", value, layer, head);  // not translated: an ID
  ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, ImGui::GetContentRegionAvail().x), ImGui::GetTextLineHeight()));
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  const float t = std::clamp(static_cast<float>((value - scale.first) / (scale.second - scale.first)), 0.0f, 1.0f);
  const heatmap::Rgb colour = heatmap::sample(ui.view.weights_colormap, t);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
  draw->AddRectFilled(a, ImVec2(a.x + (b.x - a.x) * t, b.y),
                      ImGui::ColorConvertFloat4ToU32(ImVec4(colour.r, colour.g, colour.b, 1.0f)));
  const std::string text = value_text(role, value);
  const ImVec2 size = ImGui::CalcTextSize(text.c_str());
  const float text_x = b.x - size.x - 4.0f;
  const bool on_bar = text_x < a.x + (b.x - a.x) * t;  // the bar reaches under the value
  draw->AddText(ImVec2(text_x, a.y),
                on_bar ? heatmap::contrasting_text_colour(colour) : ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
}

bool read_on_probe(heads::Role role) { return role == heads::Role::Induction || role == heads::Role::Duplicate; }

}  // namespace

const char* role_label(heads::Role role) { return i18n::tr(heads::role_name(role)); }

const char* role_key_cells_label(heads::Role role) {
  switch (role) {
    case heads::Role::PreviousToken: return i18n::tr("the previous token");
    case heads::Role::FirstToken: return i18n::tr("the first token");
    case heads::Role::Self: return i18n::tr("the token itself");
    case heads::Role::Induction: return i18n::tr("the token after an earlier occurrence");
    case heads::Role::Duplicate: return i18n::tr("an earlier occurrence");
    case heads::Role::Entropy:
    case heads::Role::MeanDistance: return "";
  }
  return "";
}

void ModelRoles::update(ui::UiContext& ui) {
  if (ui.model.model() != model_) {  // another model (or none): its roles are not these
    session_.clear();
    model_ = ui.model.model();
  }
  if (session_.poll() || session_.busy()) ui.classroom.wants_frames = true;
  if (const compute::HeadRoles* roles = session_.roles(); roles != nullptr && ui.view.model_role)
    scale_ = heads::role_scale(roles->roles, *ui.view.model_role);  // once a frame, not once a cell
  if (!ui.view.model_role || ui.model.result() == nullptr) return;
  if (session_.requested() != ui.model.generation()) {
    session_.request(ui.model.shared_model(), ui.model.shared_result(), ui.model.shown_edits(), ui.model.generation());
    ui.classroom.wants_frames = true;
  }
}

const compute::HeadRoles* ModelRoles::shown(const ui::UiContext& ui) const {
  const compute::HeadRoles* roles = session_.roles();
  const model::ForwardResult* result = ui.model.result();
  if (!ui.view.model_role || roles == nullptr || result == nullptr) return nullptr;
  if (roles->roles.size() != result->layers.size()) return nullptr;
  for (std::size_t l = 0; l < result->layers.size(); ++l)
    if (roles->roles[l].size() != result->layers[l].attention.heads.size()) return nullptr;
  return roles;
}

float ModelRoles::chooser_height(const ui::UiContext& ui) {
  const float line = ImGui::GetFrameHeightWithSpacing();
  return ui.view.model_role ? line + colorbar_height() + ImGui::GetStyle().ItemSpacing.y : line;
}

void ModelRoles::draw_chooser(ui::UiContext& ui, float width) {
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr("Colour by"));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  const std::optional<heads::Role> chosen = ui.view.model_role;
  if (ImGui::BeginCombo("##model-role", chosen ? role_label(*chosen) : i18n::tr("none (the weights)"))) {
    if (ImGui::Selectable((i18n::tr_label("none (the weights)", "role-none")).c_str(), !chosen))
      ui.view.model_role.reset();
    for (const heads::Role role : heads::kRoles) {
      const std::string label = std::string(role_label(role)) + "###role-" + heads::role_key(role);
      if (ImGui::Selectable(label.c_str(), chosen == role)) ui.view.model_role = role;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(role_help(role)));
    }
    ImGui::EndCombo();
  }
  if (chosen && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(role_help(*chosen)));
  if (!chosen) return;
  ImGui::SameLine();
  draw_status(ui);
  draw_legend(ui, width);
}

// In place of values: what is being done or what is missing; the last roles stay meanwhile.
void ModelRoles::draw_status(const ui::UiContext& ui) const {
  const heads::Role role = *ui.view.model_role;
  const compute::HeadRoles* roles = shown(ui);
  if (!session_.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::error_text());
    ui::text_wrapped(i18n::tr("Head roles failed: %s%s"), session_.error().c_str(),
                     roles ? i18n::tr(" (the last roles are shown)") : "");
    ImGui::PopStyleColor();
  } else if (session_.busy() || session_.requested() != ui.model.generation()) {
    ImGui::TextDisabled(
        "%s", roles ? i18n::tr("recomputing the roles\xE2\x80\xA6") : i18n::tr("computing the roles\xE2\x80\xA6"));
  } else if (roles && read_on_probe(role) && roles->probe_repeat == 0) {
    ImGui::PushStyleColor(ImGuiCol_Text, ui::palette::warning_text());
    ui::text_wrapped(i18n::tr("No %s: the model cannot read the repeated probe (%s)"), role_label(role),
                     roles->probe_error.c_str());
    ImGui::PopStyleColor();
  } else if (roles && read_on_probe(role)) {
    ImGui::TextDisabled(i18n::tr("on %d random tokens, twice"), roles->probe_repeat);
  } else {
    ImGui::TextDisabled("%s", i18n::tr("on the text"));
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", i18n::tr(role_help(role)));
}

// The colour scale with its ends, under the chooser; its room is kept while the roles compute.
void ModelRoles::draw_legend(const ui::UiContext& ui, float width) const {
  const heads::Role role = *ui.view.model_role;
  const compute::HeadRoles* roles = shown(ui);
  const float bar_w = std::max(40.0f, std::min(width, ImGui::GetFontSize() * 24.0f));
  if (roles == nullptr) {
    ImGui::Dummy(ImVec2(bar_w, colorbar_height()));
    return;
  }
  const auto [low, high] = scale_;
  const bool share = role != heads::Role::Entropy && role != heads::Role::MeanDistance;
  const std::string caption =
      share ? i18n::format(i18n::tr("%s: share of the attention"), role_label(role))
            : i18n::format(role == heads::Role::Entropy ? i18n::tr("%s: nats, 0 to the largest")
                                                        : i18n::tr("%s: tokens back, 0 to the largest"),
                           role_label(role));
  ui.heatmaps.colorbar(ui.view.weights_colormap, static_cast<float>(low), static_cast<float>(high), bar_w,
                       caption.c_str());
}

bool ModelRoles::draw_cell(const ui::UiContext& ui, const char* id, int layer, int head, float side) const {
  const bool clicked = ImGui::InvisibleButton(id, ImVec2(side, side));
  const compute::HeadRoles* roles = shown(ui);
  if (roles == nullptr) return clicked;
  const heads::Role role = *ui.view.model_role;
  const ImVec2 a = ImGui::GetItemRectMin();
  const ImVec2 b = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const std::optional<double> value =
      heads::role_value(roles->roles[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)], role);
  if (!value) {
    draw->AddRectFilled(a, b, ImGui::GetColorU32(ImGuiCol_FrameBg));
    return clicked;
  }
  const auto [low, high] = scale_;
  const float t = static_cast<float>((*value - low) / (high - low));
  const heatmap::Rgb colour = heatmap::sample(ui.view.weights_colormap, t);
  draw->AddRectFilled(a, b, ImGui::ColorConvertFloat4ToU32(ImVec4(colour.r, colour.g, colour.b, 1.0f)));
  // The value in the cell, at four fifths of the font size where the whole size does not fit.
  const std::string text = value_text(role, *value);
  for (const float scale : {1.0f, 0.8f}) {
    const float font_size = ImGui::GetFontSize() * scale;
    const ImVec2 size = ImGui::GetFont()->CalcTextSizeA(font_size, FLT_MAX, 0.0f, text.c_str());
    if (size.x + 2.0f > side) continue;
    draw->AddText(ImGui::GetFont(), font_size, ImVec2(a.x + 0.5f * (side - size.x), a.y + 0.5f * (side - size.y)),
                  heatmap::contrasting_text_colour(colour), text.c_str());
    break;
  }
  return clicked;
}

std::string ModelRoles::tooltip_line(const ui::UiContext& ui, int layer, int head) const {
  const compute::HeadRoles* roles = shown(ui);
  if (roles == nullptr) return "";
  const heads::Role role = *ui.view.model_role;
  const std::optional<double> value =
      heads::role_value(roles->roles[static_cast<std::size_t>(layer)][static_cast<std::size_t>(head)], role);
  if (!value) return "\n" + i18n::format(i18n::tr("%s: no value"), role_label(role));
  return "\n" + i18n::format(i18n::tr("%s: %.4f"), role_label(role), *value);
}

void ModelRoles::draw_export(ui::UiContext& ui, float line_end) {
  const compute::HeadRoles* roles = shown(ui);
  if (roles == nullptr) return;
  const heads::Role role = *ui.view.model_role;
  export_.draw(ui, "head-roles", line_end,
               i18n::tr("The grid as shown, coloured by the chosen role (PNG, SVG), or every role of every head "
                        "(CSV, or JSON as attnviz heads writes it)."),
               [roles, role, &ui] {
                 export_ui::HeadsExportContent content;
                 content.json =
                     heads::heads_json(heads::encoding_of(*ui.model.result()), nullptr, roles->layers, roles->roles);
                 content.csv = exporting::roles_csv(roles->roles, roles->layers);
                 content.figure = exporting::roles_figure(roles->roles, roles->layers, role, i18n::wording());
                 return content;
               });
}

void ModelRoles::draw_strongest(ui::UiContext& ui, float width) const {
  const compute::HeadRoles* roles = shown(ui);
  if (roles == nullptr) return;
  const heads::Role role = *ui.view.model_role;
  heading(i18n::tr("Highest heads"), i18n::format(i18n::tr("by %s"), role_label(role)).c_str(), width);
  const std::vector<heads::RankedHead> top = heads::strongest_heads(roles->roles, role, kStrongestShown);
  if (top.empty()) {
    ImGui::TextDisabled("%s", i18n::tr("No head has a value for this role."));
    return;
  }
  const float label_w = std::floor(width * 0.5f);
  for (std::size_t i = 0; i < top.size(); ++i) {
    const int layer = roles->layers[static_cast<std::size_t>(top[i].layer)];
    const int head = top[i].head;
    const std::string label = i18n::format(i18n::tr("%zu. layer %d head %d"), i + 1, layer, head) + "###role-top-" +
                              std::to_string(layer) + "-" + std::to_string(head);
    const bool selected = layer == ui.view.model_layer && head == ui.view.model_head;
    if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_None, ImVec2(label_w, 0.0f))) {
      ui.view.model_layer = layer;
      ui.view.model_head = head;
      ui.view.heatmaps_show_scenario = false;
      ui.view.select_main_tab = "Heatmaps";  // not translated: the tab's ID
    }
    if (ImGui::IsItemHovered()) {
      const char* cells = role_key_cells_label(role);
      ImGui::SetTooltip("%s", *cells ? i18n::format(i18n::tr("click: open its attention, %s outlined"), cells).c_str()
                                     : i18n::tr("click: open its attention in the Heatmaps view"));
    }
    ImGui::SameLine();
    draw_value_bar(ui, role, top[i].value, scale_, layer, head);
  }
}

}  // namespace attnviz::panels
