#pragma once
// The Model view's logit lens (docs/gui.md "Model view"): a table of layers × positions, each
// cell the likeliest token when the residual stream after that layer is read through the final
// norm and unembedding (nostalgebraist 2020) and its probability, coloured by the probability of
// the text's actual next token there; a cell's tooltip lists its five likeliest tokens. The lens
// is computed off the window's thread (app/compute/lens_session.h) after every new result while
// it is shown; the last one stays, with a line saying what is computing or why there is none.

#include "app/compute/lens_session.h"
#include "app/export_ui/export_ui.h"
#include "app/ui/panel.h"

namespace attnviz::panels {

class ModelLens {
 public:
  // Each frame, first: takes a finished lens, and, when `shown`, asks for the shown result's when
  // the lens is not of it yet (a head switch, an edited weight, a new text).
  void update(ui::UiContext& ui, bool shown);

  // The status line, the legend and the table, in `width` × `height` pixels.
  void draw(ui::UiContext& ui, float width, float height);

 private:
  // The lens shown: the last finished, when it fits the shown result's tokens (null when none).
  [[nodiscard]] const compute::LensTable* shown(const ui::UiContext& ui) const;
  void draw_status(const ui::UiContext& ui, float width) const;
  void draw_table(ui::UiContext& ui, const compute::LensTable& lens, float width, float height) const;

  compute::LensSession session_;
  const void* model_ = nullptr;  // the model the session's lens is of
  export_ui::HeadsExport export_;
};

}  // namespace attnviz::panels
