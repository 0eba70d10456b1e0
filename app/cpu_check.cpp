// Runs before every other static initialiser of the binary (constructor priority 101), since
// any of them may already use the instructions the build was compiled for. Compiled for the
// x86-64 baseline (app/CMakeLists.txt).

#include <unistd.h>

#include "core/common/cpu_support.h"

namespace {

__attribute__((constructor(101))) void refuse_to_start_on_a_processor_that_lacks_the_build_features() {
  constexpr std::size_t kCapacity = 32;
  const char* missing[kCapacity] = {};
  const std::size_t count =
      attnviz::find_missing_cpu_features(attnviz::cpu_features_required_by_build(), missing, kCapacity);
  if (count == 0) return;
  attnviz::report_missing_cpu_features(missing, count);
  _exit(1);
}

}  // namespace
