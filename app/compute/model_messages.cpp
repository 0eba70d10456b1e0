#include "app/compute/model_messages.h"

#include <cstdio>
#include <filesystem>

#include "core/common/number_text.h"
#include "core/model/forward.h"

namespace attnviz::compute {

std::string window_message(const InputError& error) {
  if (error.origin() != "<text>") return error.what();
  // The core's advice for the command line (--layers) names an option the window does not
  // have: it keeps every layer.
  if (const auto* large = dynamic_cast<const model::KeptAttentionTooLarge*>(&error)) {
    return "The text makes " + format_grouped(large->tokens()) + " tokens; keeping the attention of " +
           format_grouped(large->kept_layers()) + " layers \xC3\x97 " + format_grouped(large->heads()) +
           " heads for them takes " + format_grouped(large->mebibytes()) + " MiB, more than the window keeps (" +
           format_grouped(model::kMaxKeptCells * 8 >> 20) + " MiB): use a shorter text";
  }
  const std::string problem = group_whole_numbers(error.problem());
  return problem.starts_with("makes ") ? "The text " + problem : "The text: " + problem;
}

std::string model_caption(const std::string& path, const std::string& architecture, int layers, int heads) {
  std::filesystem::path where(path);
  if (where.filename().empty()) where = where.parent_path();  // "models/gpt2/"
  const std::string extension = where.extension().string();
  // A file inside a model folder stands for the folder; a GGUF file is the model itself.
  if (extension == ".json" || extension == ".safetensors") where = std::filesystem::absolute(where).parent_path();
  std::string name = where.filename().string();
  if (name.empty()) name = path;
  return name + "  \u2014  " + architecture + ", " + std::to_string(layers) + " layers \u00D7 " +
         std::to_string(heads) + " heads";
}

std::string head_switch_label(int layer, int head, std::optional<float> factor) {
  std::string label = "Layer " + std::to_string(layer) + " head " + std::to_string(head);
  if (!factor) return label + " on";
  if (*factor == 0.0f) return label + " off";
  char scaled[32];
  std::snprintf(scaled, sizeof scaled, " \xC3\x97 %.3g", static_cast<double>(*factor));
  return label + scaled;
}

}  // namespace attnviz::compute
