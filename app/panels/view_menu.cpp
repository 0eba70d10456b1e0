// View menu: layout (and Reset layout), colormaps, weight range, numbers in cells, zoom, text
// size, theme and language.

#include <imgui.h>

#include <algorithm>

#include "app/heatmap/colormaps.h"
#include "app/i18n/translate.h"
#include "app/panels/language_menu.h"
#include "app/panels/panels.h"
#include "app/ui/classroom_state.h"
#include "app/ui/keys.h"
#include "app/ui/view_state.h"

namespace attnviz::panels {
namespace {

using heatmap::Colormap;

constexpr float kTextScaleStep = 1.15f;

void colormap_items(const char* label, Colormap& chosen, bool diverging) {
  if (!ImGui::BeginMenu(i18n::tr_label(label).c_str())) return;
  for (int i = 0; i < heatmap::kColormapCount; ++i) {
    const auto map = static_cast<Colormap>(i);
    if (heatmap::is_diverging(map) != diverging) continue;
    if (ImGui::MenuItem(heatmap::colormap_name(map), nullptr, chosen == map)) chosen = map;
  }
  ImGui::EndMenu();
}

void weights_item(ui::ViewState& view, const char* label, ui::WeightsRange range) {
  if (ImGui::MenuItem(i18n::tr_label(label).c_str(), nullptr, view.weights_range == range)) view.weights_range = range;
}

void layout_item(ui::ViewState& view, const char* label, const char* shortcut, ui::LayoutMode mode) {
  if (ImGui::MenuItem(i18n::tr_label(label).c_str(), shortcut, view.layout == mode)) view.layout = mode;
}

// Light or dark, switched at once (the frame loop applies it) and remembered in window.json.
void theme_menu(ui::ViewState& view) {
  if (!ImGui::BeginMenu(i18n::tr_label("Theme").c_str())) return;
  if (ImGui::MenuItem(i18n::tr_label("Light").c_str(), nullptr, view.theme == ui::Theme::Light))
    view.theme = ui::Theme::Light;
  if (ImGui::MenuItem(i18n::tr_label("Dark").c_str(), nullptr, view.theme == ui::Theme::Dark))
    view.theme = ui::Theme::Dark;
  ImGui::EndMenu();
}

class ViewMenu final : public ui::Menu {
 public:
  [[nodiscard]] const char* label() const override { return N_("View"); }

  void draw_items(ui::UiContext& ui) override {
    ui::ViewState& view = ui.view;
    layout_item(view, N_("Inputs and heatmaps"), "F9", ui::LayoutMode::Full);
    layout_item(view, N_("Heatmaps only"), "F8", ui::LayoutMode::Heatmaps);
    layout_item(view, N_("Heatmaps and backend comparison"), "F10", ui::LayoutMode::CompareReady);
    if (ImGui::MenuItem(i18n::tr_label("Reset layout").c_str())) view.reset_layout_requested = true;
    ImGui::Separator();
    colormap_items(N_("Weights colormap"), view.weights_colormap, false);
    if (ImGui::BeginMenu(i18n::tr_label("Weights scale").c_str())) {
      weights_item(view, N_("Automatic (0 to 1; log scale beyond 40 tokens)"), ui::WeightsRange::Automatic);
      weights_item(view, N_("0 to 1"), ui::WeightsRange::ZeroToOne);
      weights_item(view, N_("0 to the largest weight"), ui::WeightsRange::Auto);
      weights_item(view, N_("Log scale, 0.0001 to 1"), ui::WeightsRange::Log);
      ImGui::EndMenu();
    }
    ImGui::MenuItem(i18n::tr_label("Values in cells (up to 24 × 24)").c_str(), nullptr, &view.show_numbers);
    ImGui::Separator();
    if (ImGui::MenuItem(i18n::tr_label("Show the whole matrix").c_str(), i18n::tr("Home, double-click")))
      view.head_zoom = {0.0f, 0.0f, 0.0f, 0.0f};
    if (ImGui::MenuItem(i18n::tr_label("Larger text").c_str(), "Ctrl++")) grow(view);
    if (ImGui::MenuItem(i18n::tr_label("Smaller text").c_str(), "Ctrl+-")) shrink(view);
    if (ImGui::MenuItem(i18n::tr_label("Normal text size").c_str(), "Ctrl+0")) view.text_scale = 1.0f;
    ImGui::Separator();
    theme_menu(view);
    draw_language_menu();
  }

  void update(ui::UiContext& ui) override {
    ui::ViewState& view = ui.view;
    const ImGuiIO& io = ImGui::GetIO();
    const bool presenting = ui.classroom.presenting;
    if (ui::keys::modal_open()) return;  // a dialog's keys are its own
    if (io.KeyCtrl &&
        (ImGui::IsKeyPressed(ui::keys::kEqual, false) || ImGui::IsKeyPressed(ui::keys::kKeypadAdd, false))) {
      grow(view);
    }
    if (io.KeyCtrl &&
        (ImGui::IsKeyPressed(ui::keys::kMinus, false) || ImGui::IsKeyPressed(ui::keys::kKeypadSubtract, false))) {
      shrink(view);
    }
    if (io.KeyCtrl && ImGui::IsKeyPressed(ui::keys::kZero, false)) view.text_scale = 1.0f;
    if (!ui::keys::plain_keys_free()) return;  // keys belong to the text field being edited
    if (ImGui::IsKeyPressed(ui::keys::kF9, false))
      view.layout = ui::layout_after_key(ui::LayoutKey::F9, view.layout, presenting);
    if (ImGui::IsKeyPressed(ui::keys::kF10, false))
      view.layout = ui::layout_after_key(ui::LayoutKey::F10, view.layout, presenting);
    if (ImGui::IsKeyPressed(ui::keys::kF8, false))
      view.layout = ui::layout_after_key(ui::LayoutKey::F8, view.layout, presenting);
  }

 private:
  static void grow(ui::ViewState& view) { view.text_scale = std::min(view.text_scale * kTextScaleStep, 2.5f); }
  static void shrink(ui::ViewState& view) { view.text_scale = std::max(view.text_scale / kTextScaleStep, 0.6f); }
};

}  // namespace

std::unique_ptr<ui::Menu> make_view_menu() { return std::make_unique<ViewMenu>(); }

}  // namespace attnviz::panels
