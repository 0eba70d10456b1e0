#pragma once
// The Model view's head roles (docs/gui.md "Model view"): a combo colours the layers × heads
// grid by one role of docs/design.md "What the heads do", with a legend, each cell's value in
// its tooltip, and the heads with the highest values, each a click away from its attention in
// the Heatmaps view (where model_parts.cpp outlines the role's key cells). The roles are
// computed off the window's thread (app/compute/head_roles_session.h) after every new result;
// the last ones stay shown, with a message, until newer ones are done.

#include <optional>
#include <string>
#include <utility>

#include "app/compute/head_roles_session.h"
#include "app/export_ui/export_ui.h"
#include "app/ui/panel.h"
#include "core/heads/role_ranking.h"

namespace attnviz::panels {

// The role as the window names it ("previous token"), translated.
const char* role_label(heads::Role role);
// What the Heatmaps view outlines for it ("the previous token"), translated; "" for the roles
// read from whole rows (entropy, mean distance).
const char* role_key_cells_label(heads::Role role);

class ModelRoles {
 public:
  // Each frame, first: takes finished roles, and asks for the shown result's when a role is
  // chosen and they are not of it yet (a head switch, an edited weight, a new text).
  void update(ui::UiContext& ui);

  // The line above the grid: "Colour by" and the role, the legend below it, and in place of
  // values what is missing (computing, a failure, no probe).
  void draw_chooser(ui::UiContext& ui, float width);
  // Its height, whether or not the roles have come (so the grid does not jump when they do).
  [[nodiscard]] static float chooser_height(const ui::UiContext& ui);

  // Whether the grid shows the role's colours (a role chosen, its values there).
  [[nodiscard]] bool colouring(const ui::UiContext& ui) const { return shown(ui) != nullptr; }
  // A grid cell `side` pixels square in the role's colour, its value in it when it fits; an
  // ImGui item, true when clicked. `layer` indexes the result's kept layers.
  bool draw_cell(const ui::UiContext& ui, const char* id, int layer, int head, float side) const;
  // The role's line for a cell's tooltip ("" when the grid is not coloured).
  [[nodiscard]] std::string tooltip_line(const ui::UiContext& ui, int layer, int head) const;

  // The heads with the highest values of the role, each a click away from its attention.
  void draw_strongest(ui::UiContext& ui, float width) const;
  // After the grid's heading, while it is coloured: its export (the chosen role's grid as PNG or
  // SVG, every role as CSV or JSON), the button ending at `line_end`.
  void draw_export(ui::UiContext& ui, float line_end);

 private:
  // The roles shown for the chosen role: the last finished, when they fit the shown result's
  // grid (null when no role is chosen or none fits).
  [[nodiscard]] const compute::HeadRoles* shown(const ui::UiContext& ui) const;
  void draw_status(const ui::UiContext& ui) const;
  void draw_legend(const ui::UiContext& ui, float width) const;

  compute::HeadRolesSession session_;
  const void* model_ = nullptr;                // the model the session's roles are of
  std::pair<double, double> scale_{0.0, 1.0};  // the chosen role's colour scale (update() sets it)
  export_ui::HeadsExport export_;
};

}  // namespace attnviz::panels
