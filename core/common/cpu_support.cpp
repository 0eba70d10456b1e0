#include "core/common/cpu_support.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "core/common/cpu_features_required.h"

namespace attnviz {
namespace {

// __builtin_cpu_supports takes only string literals, hence the table.
bool processor_has(const char* feature) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (std::strcmp(feature, "sse3") == 0) return __builtin_cpu_supports("sse3");
  if (std::strcmp(feature, "ssse3") == 0) return __builtin_cpu_supports("ssse3");
  if (std::strcmp(feature, "sse4.1") == 0) return __builtin_cpu_supports("sse4.1");
  if (std::strcmp(feature, "sse4.2") == 0) return __builtin_cpu_supports("sse4.2");
  if (std::strcmp(feature, "popcnt") == 0) return __builtin_cpu_supports("popcnt");
  if (std::strcmp(feature, "avx") == 0) return __builtin_cpu_supports("avx");
  if (std::strcmp(feature, "avx2") == 0) return __builtin_cpu_supports("avx2");
  if (std::strcmp(feature, "fma") == 0) return __builtin_cpu_supports("fma");
  if (std::strcmp(feature, "bmi") == 0) return __builtin_cpu_supports("bmi");
  if (std::strcmp(feature, "bmi2") == 0) return __builtin_cpu_supports("bmi2");
  if (std::strcmp(feature, "avx512f") == 0) return __builtin_cpu_supports("avx512f");
  if (std::strcmp(feature, "avx512vl") == 0) return __builtin_cpu_supports("avx512vl");
  if (std::strcmp(feature, "avx512bw") == 0) return __builtin_cpu_supports("avx512bw");
  if (std::strcmp(feature, "avx512dq") == 0) return __builtin_cpu_supports("avx512dq");
  if (std::strcmp(feature, "avx512cd") == 0) return __builtin_cpu_supports("avx512cd");
#endif
  (void)feature;
  return false;  // a name this check does not know is reported rather than assumed present
}

bool pretended_missing(const char* feature) {
  const char* list = std::getenv("ATTNVIZ_PRETEND_CPU_LACKS");
  if (list == nullptr) return false;
  const std::size_t length = std::strlen(feature);
  for (const char* item = list; *item != '\0';) {
    const char* comma = std::strchr(item, ',');
    const std::size_t item_length = comma != nullptr ? static_cast<std::size_t>(comma - item) : std::strlen(item);
    if (item_length == length && std::strncmp(item, feature, length) == 0) return true;
    if (comma == nullptr) break;
    item = comma + 1;
  }
  return false;
}

}  // namespace

const char* const* cpu_features_required_by_build() { return detail::kCpuFeaturesRequiredByBuild; }

std::size_t find_missing_cpu_features(const char* const* required, const char** missing, std::size_t capacity) {
  std::size_t count = 0;
  for (const char* const* feature = required; *feature != nullptr && count < capacity; ++feature) {
    if (!processor_has(*feature) || pretended_missing(*feature)) missing[count++] = *feature;
  }
  return count;
}

void report_missing_cpu_features(const char* const* missing, std::size_t count) {
  std::fputs("attnviz: this copy was built for processors with ", stderr);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) std::fputs(", ", stderr);
    std::fputs(missing[i], stderr);
  }
  std::fputs(
      ", which this processor lacks, so it cannot run here (it would stop with an illegal instruction).\n"
      "Install the packaged build (made for any x86-64-v2 processor), or build from source on this machine\n"
      "(scripts/build.sh release; cmake -DATTNVIZ_NATIVE=OFF makes a build that runs on any x86-64-v2 processor).\n",
      stderr);
}

}  // namespace attnviz
