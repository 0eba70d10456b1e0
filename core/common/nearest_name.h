#pragma once
// "Did you mean …?" for a name a user mistyped: an option, a scenario field, a preset.
// A message that names the likely intent saves a trip to --help.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// The one name in `names` that `typed` most likely meant, or nothing when none is close or two
// are equally close. Close means: the same but for letter case; else at most one edit (a letter
// added, dropped, changed, or two neighbours swapped) for a name of up to four characters and two
// for a longer one; else `typed` (three characters or more) begins exactly one name.
std::optional<std::string> nearest_name(std::string_view typed, const std::vector<std::string>& names);

// "; did you mean X?" with `prefix` before X (e.g. "preset:"), or "" when nothing is near.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& names, std::string_view prefix = "");

}  // namespace attnviz
