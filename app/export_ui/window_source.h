#pragma once
// What the window shows, taken from its compute session, view state and document, for
// export_plan.h and core's render_export: the scenario's result, or the model's layer and head
// while the Heatmaps view shows a pretrained model (as `attnviz export --model … --layer L`
// writes it). Valid while a result is shown (session.has_result(), or the model's).

#include "app/export_ui/export_plan.h"
#include "app/ui/panel.h"

namespace attnviz::document {
class Document;
}

namespace attnviz::export_ui {

// Whether the Heatmaps view shows a model's layer (and so the export writes it).
bool exports_model_layer(const ui::UiContext& ui);
// Whether there is a result to export: the model's layer shown, or the scenario's result.
bool has_something_to_export(const ui::UiContext& ui);

ShownState shown_state(const ui::ViewState& view, const compute::ComputeSession& session);
ShownState shown_state(const ui::UiContext& ui);

// The shown result (Vulkan's when it ran, else Eigen's), both results when the two backends
// were compared (for the difference), and the caption from the scenario being edited.
exporting::ExportSource export_source(const compute::ComputeSession& session, const document::Document& document);
exporting::ExportSource export_source(const ui::UiContext& ui);

}  // namespace attnviz::export_ui
