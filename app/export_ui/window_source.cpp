#include "app/export_ui/window_source.h"

#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/ui/model_layer.h"
#include "core/model/layer_caption.h"

namespace attnviz::export_ui {
namespace {

// The model's layer while the Heatmaps view shows it: its Problem made once per result and
// layer (ShownAttention), and the view as the export reads it, with the model's head selected.
struct ModelLayerShown {
  ui::ShownAttention attention;
  ui::ViewState view;
};

ModelLayerShown& model_layer_shown() {
  static ModelLayerShown shown;  // the UI thread's
  return shown;
}

}  // namespace

bool exports_model_layer(const ui::UiContext& ui) { return !ui.view.heatmaps_show_scenario && ui::shows_model(ui); }

bool has_something_to_export(const ui::UiContext& ui) { return exports_model_layer(ui) || ui.session.has_result(); }

ShownState shown_state(const ui::ViewState& view, const compute::ComputeSession& session) {
  return ShownState{view, session.shown_result(), session.problem(), session.compared()};
}

ShownState shown_state(const ui::UiContext& ui) {
  if (!exports_model_layer(ui)) return shown_state(ui.view, ui.session);
  ModelLayerShown& shown = model_layer_shown();
  shown.attention.update(ui);
  shown.view = ui.view;
  shown.view.selected_head = ui.view.model_head;
  shown.view.head_zoom = heatmap::CellWindow{0.0f, 0.0f, 0.0f, 0.0f};  // the model's heatmaps are not zoomed through the scenario's zoom
  return ShownState{shown.view, shown.attention.result(), shown.attention.problem(), false};
}

exporting::ExportSource export_source(const compute::ComputeSession& session, const document::Document& document) {
  exporting::ExportSource source;
  source.result = &session.shown_result();
  if (session.compared()) {
    source.cpu = session.cpu_result();
    source.vulkan = session.vulkan_result();
  }
  // A title written for the content before the user's edits would head a figure of something
  // else: without it, the figure is headed by the sentence.
  source.caption = exporting::describe_for_export(document.scenario_for_saving(), session.problem());
  return source;
}

exporting::ExportSource export_source(const ui::UiContext& ui) {
  if (!exports_model_layer(ui)) return export_source(ui.session, ui.document);
  ModelLayerShown& shown = model_layer_shown();
  shown.attention.update(ui);
  exporting::ExportSource source;
  source.result = &shown.attention.result();
  source.caption = model::layer_caption(ui.model.model()->config(), ui.model.text(), shown.attention.layer());
  return source;
}

}  // namespace attnviz::export_ui
