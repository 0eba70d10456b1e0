#pragma once
// The attention rollout as files: `attnviz export --model … --what rollout` and the window's
// Model view write the same rollout.png, rollout.svg, rollout.csv or rollout.npy, drawn as a
// weights heatmap of one head (its own colour range: a rollout's values are not a row's
// weights, and its largest may be far below 1).

#include <string>
#include <vector>

#include "core/export/export.h"
#include "core/model/forward.h"
#include "core/model/model_config.h"

namespace attnviz::model {

// "Attention rollout · the cat sat", "rollout through layers 0–11 (heads averaged, 0.5·A + 0.5·I)".
exporting::ExportCaption rollout_caption(const ModelConfig& config, const std::string& text, int last_layer,
                                         const Wording& wording = {});

// `rollout` (attention_rollout(forward, last_layer)) in `request`'s format and colours, its rows
// and columns labelled with the text's tokens and the first kept layer's mask; the request's
// quantities, heads and grid are the rollout's own (one matrix). Throws InputError for a request
// core's render_export refuses, std::invalid_argument when `forward` kept no layer.
std::vector<exporting::ExportedFile> render_rollout(const Matrix& rollout, const ForwardResult& forward,
                                                    const ModelConfig& config, const std::string& text, int last_layer,
                                                    exporting::ExportRequest request);

}  // namespace attnviz::model
