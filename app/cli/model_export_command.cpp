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
#include "core/model/rollout_export.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

}  // namespace

int run_model_export(const ParsedArgs& parsed, exporting::ExportRequest request, bool rollout, std::ostream& out,
                     std::ostream& err) {
  for (const char* option : {"--layers", "--query", "--top"}) {
    if (parsed.has(option))
      throw InputError(kOrigin, option, "applies to attnviz compute --model; export takes --layer L");
  }
  const std::string text = model_text(parsed);
  const std::string backend = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend, {"cpu", "vulkan"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);
  const auto model = open_model(parsed, /*weights=*/true);
  const int layers = model->config().num_layers;
  const int layer =
      parsed.get_int("--layer", 0, layers - 1).value_or(rollout && !parsed.has("--layer") ? layers - 1 : -1);
  if (layer < 0)
    throw InputError(kOrigin, "--layer", "is required: the layer to export, 0 to " + std::to_string(layers - 1));

  const tokenizers::Encoding encoding = model->tokenizer().encode(text, "--text");
  model::ForwardOptions options = forward_options(parsed);
  check_head_scales(model->config(), options);
  options.layers = std::vector<int>{layer};
  if (rollout) {
    options.layers->clear();
    for (int l = 0; l <= layer; ++l) options.layers->push_back(l);
  }
  const bool wants_diff =
      std::find(request.what.begin(), request.what.end(), exporting::Quantity::Diff) != request.what.end();
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
  source.caption = model::layer_caption(model->config(), text, layer, request.wording);
  source.result = &chosen.layer(layer)->attention;
  if (wants_diff) {
    source.cpu = &cpu_result->layer(layer)->attention;
    source.vulkan = &vulkan_result->layer(layer)->attention;
  }
  std::vector<exporting::ExportedFile> files;
  if (!request.what.empty()) files = exporting::render_export(request, source);
  if (rollout) {
    std::vector<exporting::ExportedFile> rolled =
        model::render_rollout(model::attention_rollout(chosen, layer), chosen, model->config(), text, layer, request);
    files.insert(files.end(), rolled.begin(), rolled.end());
  }
  return write_exported_files(files, parsed.get_or("--out", ""), out, err);
}

}  // namespace attnviz::cli
