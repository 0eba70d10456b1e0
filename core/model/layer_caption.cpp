#include "core/model/layer_caption.h"

#include <cmath>
#include <cstdio>

namespace attnviz::model {

exporting::ExportCaption layer_caption(const ModelConfig& config, const std::string& text, int layer,
                                       const Wording& wording) {
  exporting::ExportCaption caption;
  caption.title =
      text + " \xC2\xB7 " + wording.tr("%1$s layer %2$s", {config.architecture_name, std::to_string(layer)});
  caption.mask = !config.causal()        ? wording.tr("none")
                 : config.sliding_window ? wording.tr("causal") + ", " +
                                               wording.tr("window %1$s", {std::to_string(*config.sliding_window - 1)})
                                         : wording.tr("causal");
  caption.scale_factor = 1.0f / std::sqrt(static_cast<float>(config.head_dim));
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.3g", static_cast<double>(caption.scale_factor));
  caption.scale = wording.tr("scale 1/√d_k = %1$s", {scale});
  caption.num_kv_heads = config.num_kv_heads;
  return caption;
}

}  // namespace attnviz::model
