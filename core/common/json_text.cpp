#include "core/common/json_text.h"

#include <algorithm>
#include <cmath>

#include "core/common/float_text.h"

namespace attnviz {
namespace {

using Json = nlohmann::ordered_json;

bool is_flat(const Json& value) {
  return std::none_of(value.begin(), value.end(), [](const Json& v) { return v.is_structured(); });
}

// A small object of plain values ({"causal": true, "window": 2}) reads best on one line.
bool is_inline_object(const Json& value) {
  return value.is_object() && std::all_of(value.begin(), value.end(), [](const Json& v) {
           return !v.is_structured() || (v.is_array() && is_flat(v));
         });
}

void write(const Json& value, int depth, std::string& out) {
  const std::string inner(static_cast<std::size_t>(depth + 1) * 2, ' ');
  const std::string outer(static_cast<std::size_t>(depth) * 2, ' ');
  if (value.is_array() && is_flat(value)) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + value[i].dump();
    out += ']';
  } else if (is_inline_object(value)) {
    out += '{';
    std::size_t i = 0;
    for (const auto& [key, item] : value.items()) {
      out += (i++ ? ", " : "") + Json(key).dump() + ": ";
      write(item, depth + 1, out);
    }
    out += '}';
  } else if (value.is_array()) {
    out += "[\n";
    for (std::size_t i = 0; i < value.size(); ++i) {
      out += inner;
      write(value[i], depth + 1, out);
      out += i + 1 < value.size() ? ",\n" : "\n";
    }
    out += outer + ']';
  } else if (value.is_object() && !value.empty()) {
    out += "{\n";
    std::size_t i = 0;
    for (const auto& [key, item] : value.items()) {
      out += inner + Json(key).dump() + ": ";
      write(item, depth + 1, out);
      out += ++i < value.size() ? ",\n" : "\n";
    }
    out += outer + '}';
  } else {
    out += value.dump();
  }
}

}  // namespace

std::string readable_json(const Json& value) {
  std::string out;
  write(value, 0, out);
  return out + "\n";
}

nlohmann::ordered_json matrix_to_json(const Matrix& matrix) {
  Json rows = Json::array();
  for (int r = 0; r < matrix.rows; ++r) {
    Json row = Json::array();
    for (int c = 0; c < matrix.cols; ++c) {
      const float value = matrix.at(r, c);
      row.push_back(std::isfinite(value) ? Json(json_number(value)) : Json(nullptr));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace attnviz
