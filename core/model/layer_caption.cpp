#include "core/model/layer_caption.h"

#include <cmath>
#include <cstdio>

namespace attnviz::model {

exporting::ExportCaption layer_caption(const ModelConfig& config, const std::string& text, int layer) {
  exporting::ExportCaption caption;
  caption.title = text + " \xC2\xB7 " + config.architecture_name + " layer " + std::to_string(layer);
  caption.mask = !config.causal()        ? "none"
                 : config.sliding_window ? "causal, window " + std::to_string(*config.sliding_window - 1)
                                         : "causal";
  caption.scale_factor = 1.0f / std::sqrt(static_cast<float>(config.head_dim));
  char scale[32];
  std::snprintf(scale, sizeof scale, "%.3g", static_cast<double>(caption.scale_factor));
  caption.scale =
      "scale 1/\xE2\x88\x9A"
      "d_k = " +
      std::string(scale);
  caption.num_kv_heads = config.num_kv_heads;
  return caption;
}

}  // namespace attnviz::model
