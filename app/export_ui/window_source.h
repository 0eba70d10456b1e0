#pragma once
// What the window shows, taken from its compute session, view state and document, for
// export_plan.h and core's render_export. Valid while a result is shown (session.has_result()).

#include "app/export_ui/export_plan.h"
#include "app/ui/panel.h"

namespace attnviz::document {
class Document;
}

namespace attnviz::export_ui {

ShownState shown_state(const ui::ViewState& view, const compute::ComputeSession& session);
ShownState shown_state(const ui::UiContext& ui);

// The shown result (Vulkan's when it ran, else Eigen's), both results when the two backends
// were compared (for the difference), and the caption from the scenario being edited.
exporting::ExportSource export_source(const compute::ComputeSession& session, const document::Document& document);
exporting::ExportSource export_source(const ui::UiContext& ui);

}  // namespace attnviz::export_ui
