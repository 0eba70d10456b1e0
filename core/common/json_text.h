#pragma once
// JSON text people can read: objects indented, but arrays of plain values (a matrix row, a
// token list) and small objects of plain values kept on one line, so an N × M matrix reads
// as N lines.

#include <nlohmann/json.hpp>
#include <string>

#include "core/common/matrix.h"

namespace attnviz {

std::string readable_json(const nlohmann::ordered_json& value);

// A matrix as a list of rows, each float in its shortest round-trip form (json_number).
// A non-finite value (the −∞ of a masked scaled score) becomes null: JSON has no infinity.
nlohmann::ordered_json matrix_to_json(const Matrix& matrix);

}  // namespace attnviz
