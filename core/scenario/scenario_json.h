#pragma once
// attnviz-scenario/1 files: load, validate, save (docs/design.md "Scenario file").

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/scenario/scenario.h"

namespace attnviz {

struct LoadedScenario {
  Scenario scenario;
  std::vector<std::string> warnings;  // e.g. "f.json: /colour: unknown field, ignored"
};

// Parses and validates everything that can be checked without tokenizing (types, format,
// weight shapes against d_model/heads, heads % kv heads, window >= 0, finite values).
// Throws InputError(origin, json_pointer, problem).
LoadedScenario parse_scenario(std::string_view json_text, const std::string& origin);

// A file path, or "preset:NAME" for a bundled preset. Throws InputError.
LoadedScenario load_scenario(const std::string& path_or_preset);

// Deterministic, human-readable JSON (matrices one row per line). Floats are written in
// their shortest form that reads back to the same float, so save → load is bit exact.
std::string scenario_to_json(const Scenario& scenario);

// Writes to a temporary file in the same directory, then renames: never a half-written
// file. Throws std::runtime_error naming the path and the OS error.
void save_scenario(const Scenario& scenario, const std::filesystem::path& path);

std::vector<std::string> preset_names();  // sorted, e.g. {"causal-gpt", "cross-attention", ...}

}  // namespace attnviz
