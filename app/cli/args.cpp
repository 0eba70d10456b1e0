#include "app/cli/args.h"

#include <charconv>

#include "core/common/error.h"
#include "core/common/nearest_name.h"
#include "core/common/text_excerpt.h"

namespace attnviz::cli {
namespace {

constexpr const char* kOrigin = "<command line>";

const OptionSpec* find_spec(const std::vector<OptionSpec>& specs, const std::string& name) {
  for (const OptionSpec& spec : specs) {
    if (spec.name == name) return &spec;
  }
  return nullptr;
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

std::optional<std::string> ParsedArgs::get(const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::string ParsedArgs::get_or(const std::string& name, const std::string& fallback) const {
  return get(name).value_or(fallback);
}

std::optional<int> ParsedArgs::get_int(const std::string& name, int min, int max) const {
  const std::optional<std::string> text = get(name);
  if (!text) return std::nullopt;
  int value = 0;
  const char* end = text->data() + text->size();
  const auto [stop, error] = std::from_chars(text->data(), end, value);
  if (error != std::errc() || stop != end || value < min || value > max) {
    throw InputError(
        kOrigin, name,
        "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) + ", got \"" + *text + "\"");
  }
  return value;
}

ParsedArgs parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                      const std::string& command) {
  ParsedArgs parsed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg.compare(0, 2, "--") != 0) {
      parsed.positionals_.push_back(arg);
      continue;
    }
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const OptionSpec* spec = find_spec(specs, name);
    if (spec == nullptr) {
      std::vector<std::string> names;
      for (const OptionSpec& known : specs) names.push_back(known.name);
      throw InputError(
          kOrigin, name,
          "unknown option for '" + command + "'" + did_you_mean(name, names) + " (see " + command + " --help)");
    }
    if (parsed.values_.contains(name)) throw InputError(kOrigin, name, "given more than once");
    if (!spec->takes_value) {
      if (equals != std::string::npos) throw InputError(kOrigin, name, "is a flag and takes no value");
      parsed.values_[name] = "";
    } else if (equals != std::string::npos) {
      parsed.values_[name] = arg.substr(equals + 1);
    } else if (i + 1 < args.size()) {
      parsed.values_[name] = args[++i];
    } else {
      throw InputError(kOrigin, name, "needs a value (see " + command + " --help)");
    }
  }
  return parsed;
}

void require_choice(const std::string& option, const std::string& value, const std::vector<std::string>& choices) {
  for (const std::string& choice : choices) {
    if (value == choice) return;
  }
  throw InputError(kOrigin, option,
                   quoted_excerpt(value) + " is not one of: " + join(choices) + did_you_mean(value, choices));
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string::npos) return parts;
    start = end + 1;
  }
}

}  // namespace attnviz::cli
