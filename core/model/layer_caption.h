#pragma once
// How an exported figure of a model's layer is captioned: `attnviz export --model` and the
// window's Export dialog (while its Heatmaps view shows a model) write the same.

#include <string>

#include "core/export/export.h"
#include "core/model/model_config.h"

namespace attnviz::model {

// "the cat sat · GPT2LMHeadModel layer 5", the model's mask (causal, Mistral's window), its
// scale 1/√d_k and its key/value heads.
// In the words of `wording` (the figures' language; English by default).
exporting::ExportCaption layer_caption(const ModelConfig& config, const std::string& text, int layer,
                                       const Wording& wording = {});

}  // namespace attnviz::model
