// attnviz export --model: the heatmaps of one layer of a pretrained model, or the attention
// rollout through it, as `attnviz export` writes a scenario's.

#include <algorithm>
#include <ostream>

#include "app/cli/backend_choice.h"
#include "app/cli/export_files.h"
#include "app/cli/model_export.h"
#include "app/cli/model_options.h"
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/model/forward.h"
#include "core/model/layer_caption.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

// The rollout as a one-head Result, so it exports as a weights heatmap.
Result rollout_result(const model::ForwardResult& forward, int layer) {
  const Result& first = forward.layer(0)->attention;
  Result result;
  result.backend = first.backend;
  result.device = first.device;
  result.tokens = first.tokens;
  result.source_tokens = first.source_tokens;
  result.mask = first.mask;
  result.masked_rows = first.masked_rows;
  HeadResult head;
  head.weights = model::attention_rollout(forward, layer);
  head.scores = head.weights;
  head.context = Matrix(head.weights.rows, 0);
  result.heads.push_back(std::move(head));
  return result;
}

// weights_head0.png → rollout.png
void rename_rollout(std::vector<exporting::ExportedFile>& files) {
  for (exporting::ExportedFile& file : files) {
    std::string name = file.name;
    const std::size_t head = name.find("_head0");
    if (head != std::string::npos) name.erase(head, 6);
    if (name.starts_with("weights")) name = "rollout" + name.substr(7);
    file.name = name;
  }
}

}  // namespace

int run_model_export(const ParsedArgs& parsed, exporting::ExportRequest request, bool rollout, std::ostream& out, std::ostream& err) {
  for (const char* option : {"--layers", "--query", "--top"}) {
    if (parsed.has(option)) throw InputError(kOrigin, option, "applies to attnviz compute --model; export takes --layer L");
  }
  const std::string text = model_text(parsed);
  const std::string backend = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend, {"cpu", "vulkan"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);
  const auto model = open_model(parsed, /*weights=*/true);
  const int layers = model->config().num_layers;
  const int layer = parsed.get_int("--layer", 0, layers - 1).value_or(rollout && !parsed.has("--layer") ? layers - 1 : -1);
  if (layer < 0) throw InputError(kOrigin, "--layer", "is required: the layer to export, 0 to " + std::to_string(layers - 1));

  const tokenizers::Encoding encoding = model->tokenizer().encode(text, "--text");
  model::ForwardOptions options = forward_options(parsed);
  options.layers = std::vector<int>{layer};
  if (rollout) {
    options.layers->clear();
    for (int l = 0; l <= layer; ++l) options.layers->push_back(l);
  }
  const bool wants_diff = std::find(request.what.begin(), request.what.end(), exporting::Quantity::Diff) != request.what.end();
  // Vulkan first for diff: when it is unavailable the command stops (exit 3) before any Eigen work.
  std::unique_ptr<Backend> vulkan = wants_diff || backend == "vulkan" ? make_backend("vulkan", device) : nullptr;
  std::unique_ptr<Backend> cpu = wants_diff || backend == "cpu" ? make_backend("cpu", device) : nullptr;
  std::optional<model::ForwardPass> cpu_pass, vulkan_pass;
  const model::ForwardResult* cpu_result = nullptr;
  const model::ForwardResult* vulkan_result = nullptr;
  if (vulkan) vulkan_result = &vulkan_pass.emplace(*model, *vulkan).run(encoding, options);
  if (cpu) cpu_result = &cpu_pass.emplace(*model, *cpu).run(encoding, options);
  const model::ForwardResult& chosen = backend == "vulkan" ? *vulkan_result : *cpu_result;

  exporting::ExportSource source;
  source.caption = model::layer_caption(model->config(), text, layer);
  source.result = &chosen.layer(layer)->attention;
  if (wants_diff) {
    source.cpu = &cpu_result->layer(layer)->attention;
    source.vulkan = &vulkan_result->layer(layer)->attention;
  }
  std::vector<exporting::ExportedFile> files;
  if (!request.what.empty()) files = exporting::render_export(request, source);
  if (rollout) {
    const Result rolled = rollout_result(chosen, layer);
    exporting::ExportSource rollout_source;
    rollout_source.caption = source.caption;
    rollout_source.caption.title = "Attention rollout · " + text;
    rollout_source.caption.scale = "rollout through layers 0–" + std::to_string(layer) + " (heads averaged, 0.5·A + 0.5·I)";
    rollout_source.caption.num_kv_heads = 1;
    rollout_source.result = &rolled;
    exporting::ExportRequest rollout_request = request;
    rollout_request.what = {exporting::Quantity::Weights};
    rollout_request.heads = std::vector<int>{0};
    rollout_request.grid = false;
    std::vector<exporting::ExportedFile> rolled_files = exporting::render_export(rollout_request, rollout_source);
    rename_rollout(rolled_files);
    files.insert(files.end(), rolled_files.begin(), rolled_files.end());
  }
  return write_exported_files(files, parsed.get_or("--out", ""), out, err);
}

}  // namespace attnviz::cli
