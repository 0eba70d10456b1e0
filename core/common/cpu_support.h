#pragma once
// Whether this processor has the instruction-set extensions the build was compiled for.
// A binary built with -march=native on one machine would otherwise die with SIGILL ("illegal
// instruction") on an older one; app/cpu_check.cpp runs the check before anything else.
//
// Everything here is compiled for the x86-64 baseline and written in plain C calls: it runs
// before we know that the processor can execute the rest of the binary, and an inline C++
// template it called could be the copy compiled with -march=native elsewhere.

#include <cstddef>

namespace attnviz {

// The extensions this build's compiler flags let it use (from the predefined __AVX2__ etc.),
// null-terminated, weakest first, in the names GCC's __builtin_cpu_supports uses.
const char* const* cpu_features_required_by_build();

// Writes to `missing` (up to `capacity`) those of the null-terminated `required` this
// processor lacks and returns how many. ATTNVIZ_PRETEND_CPU_LACKS (comma-separated names)
// adds to what is reported missing, so the start-up message can be tested on any machine.
std::size_t find_missing_cpu_features(const char* const* required, const char** missing, std::size_t capacity);

// Writes the start-up message for `missing` to standard error.
void report_missing_cpu_features(const char* const* missing, std::size_t count);

}  // namespace attnviz
