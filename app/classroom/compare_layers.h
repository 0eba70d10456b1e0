#pragma once
// The Compare view's "layers" axis, while a pretrained model is shown: one heatmap per layer
// of the model's text, the chosen head's weights (ui.view.model_head) or the heads averaged
// (core's model::heads_averaged), on one 0..1 colour scale. Draws core's results only.

#include <cstdint>
#include <vector>

#include "app/ui/panel.h"
#include "core/common/matrix.h"
#include "core/scenario/problem.h"

namespace attnviz::classroom {

class LayerComparison {
 public:
  // Below the Compare view's toolbar, in the rest of the window. `heads_averaged`: every
  // head's weights averaged, else the chosen head's (the Compare view's choice, set here).
  void draw(ui::UiContext& ui, bool& heads_averaged);

 private:
  void refresh(const ui::UiContext& ui, int head, bool averaged);

  std::uint64_t generation_ = 0;
  int head_ = -1;
  bool averaged_ = false;
  std::vector<Matrix> shown_;  // per layer: the head's weights or the heads' mean, (N, N)
  MaskSetting mask_;           // what hides the cells, every layer alike (causal, a sliding window)
  std::uint64_t version_ = 0;
};

}  // namespace attnviz::classroom
