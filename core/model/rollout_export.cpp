#include "core/model/rollout_export.h"

#include <stdexcept>
#include <utility>

#include "core/model/layer_caption.h"

namespace attnviz::model {
namespace {

// The rollout as a one-head Result, so that it exports as a weights heatmap.
Result rollout_result(const Matrix& rollout, const Result& first_layer) {
  Result result;
  result.backend = first_layer.backend;
  result.device = first_layer.device;
  result.tokens = first_layer.tokens;
  result.source_tokens = first_layer.source_tokens;
  result.mask = first_layer.mask;
  result.masked_rows = first_layer.masked_rows;
  HeadResult head;
  head.weights = rollout;
  head.scores = rollout;
  head.context = Matrix(rollout.rows, 0);
  result.heads.push_back(std::move(head));
  return result;
}

// weights_head0.png → rollout.png
void name_as_rollout(std::vector<exporting::ExportedFile>& files) {
  for (exporting::ExportedFile& file : files) {
    std::string name = file.name;
    const std::size_t head = name.find("_head0");
    if (head != std::string::npos) name.erase(head, 6);
    if (name.starts_with("weights")) name = "rollout" + name.substr(7);
    file.name = name;
  }
}

}  // namespace

exporting::ExportCaption rollout_caption(const ModelConfig& config, const std::string& text, int last_layer,
                                         const Wording& wording) {
  exporting::ExportCaption caption = layer_caption(config, text, last_layer, wording);
  caption.title = wording.tr("Attention rollout · %1$s", {text});
  caption.scale =
      wording.tr("rollout through layers 0–%1$s (heads averaged, 0.5·A + 0.5·I)", {std::to_string(last_layer)});
  caption.num_kv_heads = 1;
  return caption;
}

std::vector<exporting::ExportedFile> render_rollout(const Matrix& rollout, const ForwardResult& forward,
                                                    const ModelConfig& config, const std::string& text, int last_layer,
                                                    exporting::ExportRequest request) {
  if (forward.layers.empty()) throw std::invalid_argument("render_rollout: the pass kept no layer");
  const Result rolled = rollout_result(rollout, forward.layers.front().attention);
  exporting::ExportSource source;
  source.caption = rollout_caption(config, text, last_layer, request.wording);
  source.result = &rolled;
  request.what = {exporting::Quantity::Weights};
  request.heads = std::vector<int>{0};
  request.grid = false;
  std::vector<exporting::ExportedFile> files = exporting::render_export(request, source);
  name_as_rollout(files);
  return files;
}

}  // namespace attnviz::model
