#include "app/compute/model_messages.h"

#include <cstdio>
#include <filesystem>
#include <new>

#include "app/i18n/translate.h"
#include "core/common/number_text.h"
#include "core/model/forward.h"

namespace attnviz::compute {

std::string window_message(const InputError& error) {
  if (error.origin() != "<text>") return error.what();  // not translated: the core's origin name
  // The core's advice for the command line (--layers) names an option the window does not
  // have: it keeps every layer.
  if (const auto* large = dynamic_cast<const model::KeptAttentionTooLarge*>(&error)) {
    // TRANSLATORS: tokens, layers, heads, MiB needed, MiB the window keeps; "\u00D7" is a multiplication sign.
    return i18n::format(
        i18n::tr("The text makes %s tokens; keeping the attention of %s layers \u00D7 %s heads for them "
                 "takes %s MiB, more than the window keeps (%s MiB): use a shorter text"),
        format_grouped(large->tokens()).c_str(), format_grouped(large->kept_layers()).c_str(),
        format_grouped(large->heads()).c_str(), format_grouped(large->mebibytes()).c_str(),
        format_grouped(model::kMaxKeptCells * 8 >> 20).c_str());
  }
  // The core's problem is English (the command line's words); the window says whose it is.
  const std::string problem = group_whole_numbers(error.problem());
  const bool makes = problem.starts_with("makes ");  // not translated: the core's English
  return i18n::format(makes ? i18n::tr("The text %s") : i18n::tr("The text: %s"), problem.c_str());
}

std::string window_message_of(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const InputError& error) {
    return window_message(error);
  } catch (const std::bad_alloc&) {
    return i18n::tr("not enough memory for this model and text");
  } catch (const std::exception& error) {
    return i18n::tr(error.what());  // the window's own (N_), translated; the core's, as it is
  } catch (...) {
    return i18n::tr("an unknown error");
  }
}

std::string model_caption(const std::string& path, const std::string& architecture, int layers, int heads) {
  std::filesystem::path where(path);
  if (where.filename().empty()) where = where.parent_path();  // "models/gpt2/"
  const std::string extension = where.extension().string();
  // A file inside a model folder stands for the folder; a GGUF file is the model itself.
  if (extension == ".json" || extension == ".safetensors") where = std::filesystem::absolute(where).parent_path();
  std::string name = where.filename().string();
  if (name.empty()) name = path;
  const std::string shape =
      i18n::format(i18n::trn("%d layer", "%d layers", static_cast<unsigned long>(layers)), layers) + " \u00D7 " +
      i18n::format(i18n::trn("%d head", "%d heads", static_cast<unsigned long>(heads)), heads);
  return name + "  \u2014  " + architecture + ", " + shape;
}

std::string model_description(const model::Model& model) {
  const model::ModelConfig& c = model.config();
  std::string shape =
      i18n::format(i18n::trn("%d layer", "%d layers", static_cast<unsigned long>(c.num_layers)), c.num_layers) +
      " \u00D7 " + i18n::format(i18n::trn("%d head", "%d heads", static_cast<unsigned long>(c.num_heads)), c.num_heads);
  if (c.num_kv_heads != c.num_heads) {
    shape += i18n::format(
        i18n::trn(" (%d key/value head)", " (%d key/value heads)", static_cast<unsigned long>(c.num_kv_heads)),
        c.num_kv_heads);
  }
  const std::string family = c.architecture == model::Architecture::Llama ? i18n::tr("Llama family") : c.family();
  return i18n::format(i18n::tr("%s (%s), %s, d_model %d, %s parameters, %s %s"), c.architecture_name.c_str(),
                      family.c_str(), shape.c_str(), c.d_model,
                      model::parameter_count_text(model.parameter_count()).c_str(), c.format.c_str(),
                      model.weight_types().c_str());
}

std::string head_switch_label(int layer, int head, std::optional<float> factor) {
  if (!factor) return i18n::format(i18n::tr("Layer %d head %d on"), layer, head);
  if (*factor == 0.0f) return i18n::format(i18n::tr("Layer %d head %d off"), layer, head);
  char scaled[32];
  std::snprintf(scaled, sizeof scaled, "%.3g", static_cast<double>(*factor));
  // TRANSLATORS: a head's attention scaled by a factor ("Layer 3 head 1 × 0.5").
  return i18n::format(i18n::tr("Layer %d head %d \u00D7 %s"), layer, head, scaled);
}

}  // namespace attnviz::compute
