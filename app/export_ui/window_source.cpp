#include "app/export_ui/window_source.h"

#include "app/compute/compute_session.h"
#include "app/i18n/translate.h"
#include "app/compute/model_session.h"
#include "app/document/document.h"
#include "app/ui/model_layer.h"
#include "core/model/layer_caption.h"

namespace attnviz::export_ui {
namespace {

// The model's layer while the Heatmaps view shows it: its Problem made once per result and
// layer.
ui::ShownAttention& model_layer_shown() {
  static ui::ShownAttention shown;  // the UI thread's
  return shown;
}

}  // namespace

bool exports_model_layer(const ui::UiContext& ui) { return !ui.view.heatmaps_show_scenario && ui::shows_model(ui); }

bool has_something_to_export(const ui::UiContext& ui) { return exports_model_layer(ui) || ui.session.has_result(); }

ShownState shown_state(const ui::ViewState& view, const compute::ComputeSession& session) {
  return ShownState{view,          session.shown_result(), session.problem(), session.compared(), view.selected_head,
                    view.head_zoom};
}

ShownState shown_state(const ui::UiContext& ui) {
  if (!exports_model_layer(ui)) return shown_state(ui.view, ui.session);
  ui::ShownAttention& shown = model_layer_shown();
  shown.update(ui);
  // The model's heatmaps are not zoomed through the scenario's zoom.
  return ShownState{ui.view, shown.result(),     shown.problem(),
                    false,   ui.view.model_head, heatmap::CellWindow{0.0f, 0.0f, 0.0f, 0.0f}};
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
  source.caption = exporting::describe_for_export(document.scenario_for_saving(), session.problem(), i18n::wording());
  return source;
}

exporting::ExportSource export_source(const ui::UiContext& ui) {
  if (!exports_model_layer(ui)) return export_source(ui.session, ui.document);
  ui::ShownAttention& shown = model_layer_shown();
  shown.update(ui);
  exporting::ExportSource source;
  source.result = &shown.result();
  source.caption = model::layer_caption(ui.model.model()->config(), ui.model.text(), shown.layer(), i18n::wording());
  return source;
}

}  // namespace attnviz::export_ui
