#include "app/ui/model_layer.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/compute/compute_session.h"
#include "app/compute/model_session.h"
#include "app/i18n/translate.h"
#include "app/ui/view_state.h"
#include "core/model/forward.h"

namespace attnviz::ui {

const std::string& shown_model_caption(const UiContext& ui) { return ui.model.caption(); }

void draw_index_selector(const char* label, const char* id, int* value, int count) {
  *value = std::clamp(*value, 0, std::max(count - 1, 0));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(i18n::tr(label));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  ImGui::SliderInt(id, value, 0, count - 1, "%d", ImGuiSliderFlags_AlwaysClamp);
  ImGui::SameLine();
  ImGui::TextDisabled(i18n::tr("of %d"), count);
}

void draw_layer_selector(UiContext& ui, const char* id) {
  if (!ui.model.has_model()) return;
  const std::string widget = std::string("##model-layer-") + id;
  draw_index_selector(N_("Layer"), widget.c_str(), &ui.view.model_layer, ui.model.model()->config().num_layers);
}

bool shows_model(const UiContext& ui) {
  const model::ForwardResult* result = ui.model.result();
  return ui.model.has_model() && result != nullptr && !result->layers.empty();
}

bool model_is_encoder(const UiContext& ui) {
  return ui.model.model() != nullptr && !ui.model.model()->config().causal();
}

bool ShownAttention::update(const UiContext& ui) {
  Key key;
  if (shows_model(ui)) {
    const model::ForwardResult& forward = *ui.model.result();
    const int layers = ui.model.model()->config().num_layers;
    key = {true, ui.model.generation(), std::clamp(ui.view.model_layer, 0, layers - 1)};
    // The window keeps every layer; should a result hold fewer, the nearest kept one.
    if (forward.layer(key.layer) == nullptr) key.layer = forward.layers.front().layer;
  } else {
    if (!ui.session.has_result()) return false;
    key = {false, ui.session.generation(), -1};
  }
  if (key_ != key) {
    key_ = key;
    ++version_;
    layer_ = key.layer;
    if (key.model) {
      const model::ForwardResult& forward = *ui.model.result();
      layer_problem_ = model::layer_problem(ui.model.model()->config(), forward, key.layer);
      problem_ = &*layer_problem_;
      result_ = &forward.layer(key.layer)->attention;
    } else {
      layer_problem_.reset();
    }
  }
  if (!key.model) {  // the session's own, valid this frame
    problem_ = &ui.session.problem();
    result_ = &ui.session.shown_result();
  }
  return true;
}

}  // namespace attnviz::ui
