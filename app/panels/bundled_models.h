#pragma once
// The trained models attnviz ships (core/model/bundled.h), offered where models are offered:
// File > Bundled models and the Model view before a model is open.

namespace attnviz::ui {
struct UiContext;
}

namespace attnviz::panels {

// A button for each bundled model, with what it is; a click opens it on its sample text.
void draw_bundled_model_buttons(ui::UiContext& ui);

// A "Bundled models" submenu of the menu being drawn: one item each (its description as the
// tooltip); nothing when none is installed.
void draw_bundled_models_menu(ui::UiContext& ui);

}  // namespace attnviz::panels
