// attnviz compute --model: a pretrained model's forward pass with every layer's attention and
// the next tokens (docs/design.md "Real models").

#include <iomanip>
#include <ostream>

#include "app/cli/backend_choice.h"
#include "app/cli/commands.h"
#include "app/cli/model_options.h"
#include "core/common/atomic_file.h"
#include "core/common/error.h"
#include "core/model/forward.h"
#include "core/model/model_json.h"

namespace attnviz::cli {
namespace {

void print_layer_differences(const model::ForwardResult& result, std::ostream& err) {
  err << "largest differences per layer, vulkan - cpu (1e-5 absolute where values stay within ±1, relative beyond):\n";
  bool all_agree = true;
  for (const model::LayerAttention& layer : result.layers) {
    const MatrixDifference* worst = nullptr;
    for (const MatrixDifference& d : layer.differences) {
      if (!worst || d.max_abs > worst->max_abs) worst = &d;
    }
    const bool agrees = results_agree(layer.differences);
    all_agree = all_agree && agrees;
    err << "  layer " << std::setw(3) << layer.layer << ": ";
    if (worst) {
      err << std::scientific << std::setprecision(2) << worst->max_abs << " in " << worst->name << std::defaultfloat;
    }
    err << (agrees ? "" : "   DIFFERS") << "\n";
  }
  err << "  overall: " << (all_agree ? "every layer agrees" : "ABOVE the tolerance in the layers marked DIFFERS")
      << "\n";
}

}  // namespace

int run_model_compute(const ParsedArgs& parsed, std::ostream& out, std::ostream& err) {
  for (const char* scenario_only :
       {"--scenario", "--kernel", "--block-q", "--block-k", "--format", "--heads", "--max-output", "--blocks"}) {
    if (parsed.has(scenario_only))
      throw InputError("<command line>", scenario_only, "applies to scenarios, not to --model");
  }
  const std::string text = model_text(parsed);
  const std::string backend_kind = parsed.get_or("--backend", "cpu");
  require_choice("--backend", backend_kind, {"cpu", "vulkan", "both"});
  const std::optional<int> device = parsed.get_int("--device", 0, 1023);
  model::ForwardOptions options = forward_options(parsed);
  options.compute.scores_under_mask = !parsed.has("--skip-masked-scores");

  std::optional<AtomicFileWriter> file;
  if (const auto path = parsed.get("--out")) {
    try {
      file.emplace(*path);
    } catch (const FileWriteError& error) {
      if (error.path_problem()) throw InputError("<command line>", "--out", error.what());
      throw;
    }
  }
  const auto model = open_model(parsed, /*weights=*/true);
  check_head_scales(model->config(), options);
  const tokenizers::Encoding encoding = model->tokenizer().encode(text, "--text");
  const auto primary = make_backend(backend_kind == "both" ? "vulkan" : backend_kind, device);
  const auto reference = backend_kind == "both" ? make_backend("cpu", device) : nullptr;
  model::ForwardPass pass(*model, *primary, reference.get());
  const model::ForwardResult& result = pass.run(encoding, options);

  auto sink = [&](std::string_view piece) {
    if (file)
      file->write(piece);
    else
      out.write(piece.data(), static_cast<std::streamsize>(piece.size()));
  };
  try {
    model::write_model_result_json(*model, result, sink);
    if (file) file->commit();
  } catch (const FileWriteError& error) {
    if (error.path_problem()) throw InputError("<command line>", "--out", error.what());
    throw;
  }
  if (!file && !out.flush()) throw std::runtime_error("cannot write the result to standard output");
  if (reference) print_layer_differences(result, err);
  return 0;
}

}  // namespace attnviz::cli
