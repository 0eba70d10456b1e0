#include "core/tokenizers/json_input.h"

#include "core/common/error.h"
#include "core/common/json_depth.h"

namespace attnviz::tokenizers {

nlohmann::json parse_model_json(std::string_view text, const std::string& origin, const std::string& where) {
  if (const std::optional<std::size_t> deep = json_too_deep_at(text, kMaxModelJsonDepth)) {
    throw InputError(origin, where,
                     "is nested more than " + std::to_string(kMaxModelJsonDepth) + " lists or objects deep (" +
                         line_and_column(text, *deep) + ")");
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    std::string message = error.what();
    const std::size_t colon = message.find(": ", message.find("parse error"));
    if (colon != std::string::npos) message = message.substr(colon + 2);
    if (message.size() > 200) message = message.substr(0, 200) + "…";
    const std::size_t at = error.byte > 0 ? error.byte - 1 : 0;
    throw InputError(origin, where, "is not valid JSON: " + message + " (" + line_and_column(text, at) + ")");
  } catch (const nlohmann::json::exception& error) {
    // A number beyond a double ("1e999") is reported as out_of_range, without a position.
    std::string message = error.what();
    const std::size_t bracket = message.find("] ");
    if (bracket != std::string::npos) message = message.substr(bracket + 2);
    if (message.size() > 200) message = message.substr(0, 200) + "…";
    throw InputError(origin, where, "is not valid JSON: " + message);
  }
}

std::string json_field(const std::string& parent, const std::string& key) {
  std::string escaped;
  for (const char c : key) {
    if (c == '~')
      escaped += "~0";
    else if (c == '/')
      escaped += "~1";
    else
      escaped += c;
  }
  return parent + "/" + escaped;
}

}  // namespace attnviz::tokenizers
