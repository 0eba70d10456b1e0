#include "core/tokenizers/json_input.h"

#include "core/common/error.h"

namespace attnviz::tokenizers {
namespace {

// Offset of the first '[' or '{' nested deeper than the limit, outside strings, or npos.
std::size_t too_deep_at(std::string_view text) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxModelJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

std::string line_and_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

nlohmann::json parse_model_json(std::string_view text, const std::string& origin, const std::string& where) {
  const std::size_t deep = too_deep_at(text);
  if (deep != std::string_view::npos) {
    throw InputError(origin, where,
                     "is nested more than " + std::to_string(kMaxModelJsonDepth) + " lists or objects deep (" +
                         line_and_column(text, deep) + ")");
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
    if (c == '~') escaped += "~0";
    else if (c == '/') escaped += "~1";
    else escaped += c;
  }
  return parent + "/" + escaped;
}

}  // namespace attnviz::tokenizers
