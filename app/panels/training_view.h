#pragma once
// The Training view (issue 47 item 4, docs/gui.md "Training view"): a small GPT-2 trained in the
// window. Its settings (task, shape, steps, batch, learning rate, folder) and Start / Pause /
// Step / Reset (training_view.cpp), the loss curve, the snapshot slider and every head's
// attention on the run's probe (training_charts.cpp), and what runs every frame whichever tab is
// shown: key 8, taking the run's progress, and the question when the window closes mid-run
// (training_close.cpp). The run itself is app/compute/training_session.h's; nothing is computed
// here.

#include <memory>
#include <string>

#include "app/compute/training_session.h"
#include "app/ui/layout.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

// What the view's parts share: the run and the view's own UI state.
struct TrainingViewState {
  compute::TrainingSession session;
  compute::TrainingSettings settings;
  std::string text_file;         // as typed
  std::string folder;            // as typed ("" until the first frame fills in the default)
  int shown_snapshot = -1;       // the slider's snapshot (-1: follow the newest)
  bool open_when_saved = false;  // Open in Model view: open the folder once it is written
  bool close_answered = false;   // the close question was answered: let the window go
};

// The loss curve (and the repeat loss) in width × height, a marker at `marker_step` (< 0: none).
void draw_loss_curve(const compute::TrainingSession& session, long marker_step, float width, float height);
// The slider over the kept snapshots (state.shown_snapshot) and the layers × heads thumbnails of
// the shown one's attention on the probe, in width × height.
void draw_training_heads(ui::UiContext& ui, TrainingViewState& state, float width, float height);
// The snapshot shown (the newest unless the slider chose one); -1 when there is none.
int shown_snapshot_index(const TrainingViewState& state);

std::unique_ptr<ui::Panel> make_training_panel(std::shared_ptr<TrainingViewState> state);
std::unique_ptr<ui::Dialog> make_training_dialog(std::shared_ptr<TrainingViewState> state);

}  // namespace attnviz::panels
