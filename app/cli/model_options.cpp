#include "app/cli/model_options.h"

#include <charconv>
#include <cmath>

#include "app/cli/args.h"
#include "core/common/error.h"
#include "core/text/text_file.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

std::optional<long long> whole_number(const std::string& text) {
  long long value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

const std::vector<OptionSpec>& model_option_specs() {
  static const std::vector<OptionSpec> specs = {{"--model"}, {"--text"},       {"--layers"},      {"--query"},
                                                {"--top"},   {"--head-scale"}, {"--memory-limit"}};
  return specs;
}

std::uint64_t parse_byte_size(const std::string& option, const std::string& text) {
  std::string digits = text;
  std::uint64_t unit = 1;
  if (!digits.empty()) {
    switch (digits.back()) {
      case 'K':
      case 'k': unit = 1ull << 10; break;
      case 'M':
      case 'm': unit = 1ull << 20; break;
      case 'G':
      case 'g': unit = 1ull << 30; break;
      case 'T':
      case 't': unit = 1ull << 40; break;
      default: break;
    }
    if (unit != 1) digits.pop_back();
  }
  const auto value = whole_number(digits);
  if (!value || *value <= 0 || static_cast<std::uint64_t>(*value) > UINT64_MAX / unit) {
    throw InputError(
        kOrigin, option,
        "\"" + text.substr(0, 40) + "\" is not a size: give bytes or a number with K, M, G or T (e.g. 8G)");
  }
  return static_cast<std::uint64_t>(*value) * unit;
}

std::unique_ptr<model::Model> open_model(const ParsedArgs& parsed, bool weights) {
  const std::optional<std::string> path = parsed.get("--model");
  if (!path || path->empty()) throw InputError(kOrigin, "--model", "is required (a model folder or a .gguf file)");
  model::LoadOptions options;
  options.weights = weights;
  if (const auto limit = parsed.get("--memory-limit")) options.memory_limit = parse_byte_size("--memory-limit", *limit);
  return model::Model::open(*path, options);
}

std::string model_text(const ParsedArgs& parsed) {
  const std::optional<std::string> text = parsed.get("--text");
  const std::optional<std::string> file = parsed.get("--text-file");
  if (text && file) throw InputError(kOrigin, "--text-file", "give --text or --text-file, not both");
  if (file) {
    if (file->empty()) throw InputError(kOrigin, "--text-file", "needs a file name");
    return read_text_file(*file);
  }
  if (!text) throw InputError(kOrigin, "--text", "is required: the text to run the model on (or --text-file FILE)");
  return *text;
}

int naming_the_text_file(const ParsedArgs& parsed, const std::function<int()>& command) {
  try {
    return command();
  } catch (const InputError& error) {
    const std::optional<std::string> file = parsed.get("--text-file");
    if (!file || error.origin() != "<text>") throw;
    throw InputError(*file, "--text-file", error.problem());
  }
}

std::optional<std::vector<int>> parse_layer_list(const ParsedArgs& parsed) {
  const std::string text = parsed.get_or("--layers", "all");
  if (text == "all") return std::nullopt;
  std::vector<int> layers;
  for (const std::string& part : split_list(text, ',')) {
    const auto layer = whole_number(part);
    if (!layer || *layer < 0 || *layer > 100000)
      throw InputError(kOrigin, "--layers",
                       "\"" + part.substr(0, 40) + "\" is not a layer number: use all or a list like 0,3");
    layers.push_back(static_cast<int>(*layer));
  }
  return layers;
}

model::ForwardOptions forward_options(const ParsedArgs& parsed) {
  model::ForwardOptions options;
  options.layers = parse_layer_list(parsed);
  if (const auto query = parsed.get_int("--query", 0, 1 << 20)) options.query_position = *query;
  options.top_k = parsed.get_int("--top", 1, 1000).value_or(10);
  if (const auto scales = parsed.get("--head-scale")) {
    for (const std::string& item : split_list(*scales, ',')) {
      // LAYER:HEAD=FACTOR, or LAYER:HEAD for 0 (switched off).
      const std::size_t colon = item.find(':');
      const std::size_t equals = item.find('=');
      long long layer = -1;
      long long head = -1;
      float factor = 0.0f;
      bool ok = colon != std::string::npos;
      if (ok) {
        const auto layer_text = whole_number(item.substr(0, colon));
        const auto head_text =
            whole_number(item.substr(colon + 1, equals == std::string::npos ? std::string::npos : equals - colon - 1));
        ok = layer_text.has_value() && head_text.has_value();
        layer = layer_text.value_or(-1);
        head = head_text.value_or(-1);
      }
      if (ok && equals != std::string::npos) {
        const std::string text = item.substr(equals + 1);
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), factor);
        ok = !text.empty() && error == std::errc() && end == text.data() + text.size();
        if (ok && !std::isfinite(factor)) {
          throw InputError(kOrigin, "--head-scale",
                           "\"" + item.substr(0, 40) + "\": the factor must be a finite number (e.g. 0.5)");
        }
      }
      if (!ok || layer < 0 || head < 0 || layer > 100000 || head > 100000) {
        throw InputError(
            kOrigin, "--head-scale",
            "\"" + item.substr(0, 40) +
                "\" is not LAYER:HEAD or LAYER:HEAD=FACTOR (e.g. 3:1 switches head 1 of layer 3 off, 3:1=0.5 halves it)");
      }
      options.edits.head_factors[{static_cast<int>(layer), static_cast<int>(head)}] = factor;
    }
  }
  return options;
}

void check_head_scales(const model::ModelConfig& config, const model::ForwardOptions& options) {
  for (const auto& [key, factor] : options.edits.head_factors) {
    const auto [layer, head] = key;
    const std::string item = "\"" + std::to_string(layer) + ":" + std::to_string(head) + "\": ";
    if (layer >= config.num_layers) {
      throw InputError(kOrigin, "--head-scale",
                       item + "the model has no layer " + std::to_string(layer) + "; its " +
                           std::to_string(config.num_layers) + " layers are 0 to " +
                           std::to_string(config.num_layers - 1));
    }
    if (head >= config.num_heads) {
      throw InputError(kOrigin, "--head-scale",
                       item + "layer " + std::to_string(layer) + " has no head " + std::to_string(head) + "; its " +
                           std::to_string(config.num_heads) + " heads are 0 to " +
                           std::to_string(config.num_heads - 1));
    }
  }
}

}  // namespace attnviz::cli
