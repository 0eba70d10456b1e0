#include "app/export_ui/window_source.h"

#include "app/compute/compute_session.h"
#include "app/document/document.h"

namespace attnviz::export_ui {

ShownState shown_state(const ui::ViewState& view, const compute::ComputeSession& session) {
  return ShownState{view, session.shown_result(), session.problem(), session.compared()};
}

ShownState shown_state(const ui::UiContext& ui) { return shown_state(ui.view, ui.session); }

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

exporting::ExportSource export_source(const ui::UiContext& ui) { return export_source(ui.session, ui.document); }

}  // namespace attnviz::export_ui
