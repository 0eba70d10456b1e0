#pragma once
// JSON text people can read: objects indented, but arrays of plain values (a matrix row, a
// token list) kept on one line, so an N × M matrix reads as N lines.

#include <nlohmann/json.hpp>
#include <string>

namespace attnviz {

std::string readable_json(const nlohmann::ordered_json& value);

}  // namespace attnviz
