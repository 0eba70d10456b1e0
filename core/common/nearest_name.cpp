#include "core/common/nearest_name.h"

#include <algorithm>
#include <cctype>
#include <cstddef>

namespace attnviz {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return lower(x) == lower(y); });
}

// Edits between a and b, where swapping two neighbours counts as one (optimal string alignment).
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t columns = b.size() + 1;
  std::vector<std::size_t> before_previous(columns), previous(columns), current(columns);
  for (std::size_t j = 0; j < columns; ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j < columns; ++j) {
      const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + change});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before_previous[j - 2] + 1);
    }
    std::swap(before_previous, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::size_t edits_allowed(std::string_view name) { return name.size() <= 4 ? 1 : 2; }

// The only name satisfying `near`, or nothing when none or several do.
template <typename Near>
std::optional<std::string> only(const std::vector<std::string>& names, Near near) {
  std::optional<std::string> found;
  for (const std::string& name : names) {
    if (!near(name)) continue;
    if (found) return std::nullopt;
    found = name;
  }
  return found;
}

}  // namespace

std::optional<std::string> nearest_name(std::string_view typed, const std::vector<std::string>& names) {
  if (typed.empty()) return std::nullopt;
  if (auto same = only(names, [&](const std::string& name) { return equal_ignoring_case(typed, name); })) return same;

  // A typed name far longer than every candidate is not a typo of one (and would cost time).
  std::size_t best = static_cast<std::size_t>(-1);
  std::vector<std::string> nearest;
  for (const std::string& name : names) {
    if (name == typed || typed.size() > name.size() + edits_allowed(name)) continue;
    const std::size_t distance = edit_distance(typed, name);
    if (distance > edits_allowed(name) || distance > best) continue;
    if (distance < best) nearest.clear();
    best = distance;
    nearest.push_back(name);
  }
  if (nearest.size() == 1) return nearest.front();
  if (!nearest.empty() || typed.size() < 3) return std::nullopt;
  return only(names, [&](const std::string& name) { return name.size() > typed.size() && name.starts_with(typed); });
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& names, std::string_view prefix) {
  const std::optional<std::string> name = nearest_name(typed, names);
  return name ? "; did you mean " + std::string(prefix) + *name + "?" : "";
}

}  // namespace attnviz
