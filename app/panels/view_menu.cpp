// View menu: layout, colormaps, weight range, numbers in cells, zoom and text size.

#include <imgui.h>

#include <algorithm>

#include "app/heatmap/colormaps.h"
#include "app/panels/panels.h"
#include "app/ui/keys.h"
#include "app/ui/view_state.h"

namespace attnviz::ui {
namespace {

using heatmap::Colormap;

constexpr float kTextScaleStep = 1.15f;

void colormap_items(const char* label, Colormap& chosen, bool diverging) {
  if (!ImGui::BeginMenu(label)) return;
  for (int i = 0; i < heatmap::kColormapCount; ++i) {
    const auto map = static_cast<Colormap>(i);
    if (heatmap::is_diverging(map) != diverging) continue;
    if (ImGui::MenuItem(heatmap::colormap_name(map), nullptr, chosen == map)) chosen = map;
  }
  ImGui::EndMenu();
}

void weights_item(ViewState& view, const char* label, WeightsRange range) {
  if (ImGui::MenuItem(label, nullptr, view.weights_range == range)) view.weights_range = range;
}

void layout_item(ViewState& view, const char* label, const char* shortcut, LayoutMode mode) {
  if (ImGui::MenuItem(label, shortcut, view.layout == mode)) view.layout = mode;
}

class ViewMenu final : public Menu {
 public:
  [[nodiscard]] const char* label() const override { return "View"; }

  void draw_items(UiContext& ui) override {
    ViewState& view = ui.view;
    layout_item(view, "Inputs and heatmaps", "F9", LayoutMode::Full);
    layout_item(view, "Heatmaps only", "F8", LayoutMode::Heatmaps);
    layout_item(view, "Heatmaps and backend comparison", "F10", LayoutMode::CompareReady);
    ImGui::Separator();
    colormap_items("Weights colormap", view.weights_colormap, false);
    if (ImGui::BeginMenu("Weights scale")) {
      weights_item(view, "Automatic (0 to 1; log scale beyond 40 tokens)", WeightsRange::Automatic);
      weights_item(view, "0 to 1", WeightsRange::ZeroToOne);
      weights_item(view, "0 to the largest weight", WeightsRange::Auto);
      weights_item(view, "Log scale, 0.0001 to 1", WeightsRange::Log);
      ImGui::EndMenu();
    }
    ImGui::MenuItem("Values in cells (up to 24 × 24)", nullptr, &view.show_numbers);
    ImGui::Separator();
    if (ImGui::MenuItem("Show the whole matrix", "Home, double-click")) view.head_zoom = {0.0f, 0.0f, 0.0f, 0.0f};
    if (ImGui::MenuItem("Larger text", "Ctrl++")) grow(view);
    if (ImGui::MenuItem("Smaller text", "Ctrl+-")) shrink(view);
    if (ImGui::MenuItem("Normal text size", "Ctrl+0")) view.text_scale = 1.0f;
  }

  void update(UiContext& ui) override {
    ViewState& view = ui.view;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.WantTextInput) return;  // keys belong to the text field being edited
    if (ImGui::IsKeyPressed(keys::kF9, false)) view.layout = layout_after_key(LayoutKey::F9, view.layout, view.presenting);
    if (ImGui::IsKeyPressed(keys::kF10, false)) view.layout = layout_after_key(LayoutKey::F10, view.layout, view.presenting);
    if (ImGui::IsKeyPressed(keys::kF8, false)) view.layout = layout_after_key(LayoutKey::F8, view.layout, view.presenting);
    if (io.KeyCtrl && (ImGui::IsKeyPressed(keys::kEqual, false) ||
                       ImGui::IsKeyPressed(keys::kKeypadAdd, false))) {
      grow(view);
    }
    if (io.KeyCtrl && (ImGui::IsKeyPressed(keys::kMinus, false) ||
                       ImGui::IsKeyPressed(keys::kKeypadSubtract, false))) {
      shrink(view);
    }
    if (io.KeyCtrl && ImGui::IsKeyPressed(keys::kZero, false)) view.text_scale = 1.0f;
  }

 private:
  static void grow(ViewState& view) { view.text_scale = std::min(view.text_scale * kTextScaleStep, 2.5f); }
  static void shrink(ViewState& view) { view.text_scale = std::max(view.text_scale / kTextScaleStep, 0.6f); }
};

}  // namespace

std::unique_ptr<Menu> make_view_menu() { return std::make_unique<ViewMenu>(); }

}  // namespace attnviz::ui
