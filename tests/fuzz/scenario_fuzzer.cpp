// The scenario loader (core/scenario/scenario_json) on arbitrary bytes: any input either loads or
// is refused with an InputError, never a crash, a hang or undefined behaviour; and whatever
// loads is written back and read again to the identical scenario (docs/design.md "Saving").
// A scenario that loads is also resolved (tokens, generated values, limits) under small limits,
// so the fuzzer spends its time on the checks rather than on generating large matrices.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/common/error.h"
#include "core/scenario/problem.h"
#include "core/scenario/scenario_json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  attnviz::LoadedScenario loaded;
  try {
    loaded = attnviz::parse_scenario(text, "fuzz.json");
  } catch (const attnviz::InputError&) {
    return 0;
  }
  const attnviz::LoadedScenario again =
      attnviz::parse_scenario(attnviz::scenario_to_json(loaded.scenario), "saved.json");
  if (!(again.scenario == loaded.scenario)) std::abort();  // save → load changed the scenario
  attnviz::ProblemLimits limits;
  limits.max_tokens = 512;
  limits.max_dim = 64;
  limits.max_heads = 8;
  limits.max_attention_cells = 1 << 16;
  try {
    (void)attnviz::build_problem(loaded.scenario, "fuzz.json", limits);
  } catch (const attnviz::InputError&) {
  }
  return 0;
}
