#include "core/common/json_text.h"

#include <algorithm>

namespace attnviz {
namespace {

using Json = nlohmann::ordered_json;

bool is_flat_array(const Json& value) {
  return value.is_array() && std::none_of(value.begin(), value.end(), [](const Json& v) { return v.is_structured(); });
}

void write(const Json& value, int depth, std::string& out) {
  const std::string inner(static_cast<std::size_t>(depth + 1) * 2, ' ');
  const std::string outer(static_cast<std::size_t>(depth) * 2, ' ');
  if (is_flat_array(value)) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + value[i].dump();
    out += ']';
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

}  // namespace attnviz
