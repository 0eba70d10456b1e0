#pragma once
// attnviz-scenario/1 files: load, validate, save (docs/design.md "Scenario file").

#include <atomic>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/common/atomic_file.h"
#include "core/common/input_file.h"
#include "core/scenario/scenario.h"

namespace attnviz {

struct LoadedScenario {
  Scenario scenario;
  std::vector<std::string> warnings;  // e.g. "f.json: /colour: unknown field, ignored"
};

// Lists and objects nested deeper than this are refused before the JSON library reads them (a
// scenario needs 4 levels; the library recurses once per level when it writes or compares).
inline constexpr int kMaxJsonDepth = 64;

// Parses and validates everything that can be checked without tokenizing (types, format,
// weight shapes against d_model/heads, heads % kv heads, window >= 0, finite values).
// Throws InputError(origin, json_pointer, problem); messages quote at most a short,
// escaped excerpt of any value. With `cancel`, throws ReadCancelled once it turns true.
LoadedScenario parse_scenario(std::string_view json_text, const std::string& origin);
LoadedScenario parse_scenario(std::string_view json_text, const std::string& origin, const std::atomic<bool>* cancel);

// A file path, or "preset:NAME" for a bundled preset. Throws InputError. Files are read with
// read_input_file: at most 1 GiB from a file and 64 MiB from a pipe or a device; `options` may
// refuse what is not a regular file, report progress and cancel (the window reads off its
// thread).
LoadedScenario load_scenario(const std::string& path_or_preset);
LoadedScenario load_scenario(const std::string& path_or_preset, const ReadOptions& options);

// Deterministic, human-readable JSON (matrices one row per line). Floats are written in
// their shortest form that reads back to the same float, so save → load is bit exact.
std::string scenario_to_json(const Scenario& scenario);

// Writes to a temporary file in the same directory, then renames: never a half-written
// file (write_file_atomically: links followed, a device or FIFO written through). Throws
// FileWriteError naming the path and the OS error.
void save_scenario(const Scenario& scenario, const std::filesystem::path& path, WriteOptions options = {});

std::vector<std::string> preset_names();  // sorted, e.g. {"causal-gpt", "cross-attention", ...}

}  // namespace attnviz
