#include "core/common/cpu_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace attnviz {
namespace {

std::vector<std::string> names(const char* const* list) {
  std::vector<std::string> result;
  for (; *list != nullptr; ++list) result.emplace_back(*list);
  return result;
}

std::vector<std::string> missing_of(std::vector<const char*> required) {
  required.push_back(nullptr);
  const char* missing[16] = {};
  const std::size_t count = find_missing_cpu_features(required.data(), missing, 16);
  return std::vector<std::string>(missing, missing + count);
}

class ScopedPretend {
 public:
  explicit ScopedPretend(const char* value) { ::setenv("ATTNVIZ_PRETEND_CPU_LACKS", value, 1); }
  ~ScopedPretend() { ::unsetenv("ATTNVIZ_PRETEND_CPU_LACKS"); }
  ScopedPretend(const ScopedPretend&) = delete;
  ScopedPretend& operator=(const ScopedPretend&) = delete;
};

// This test is compiled with the build's own -march, so the macros say what the build uses.
TEST(CpuSupport, TheRequiredListNamesWhatTheCompilerWasAllowedToUse) {
  const std::vector<std::string> required = names(cpu_features_required_by_build());
  auto listed = [&](const std::string& name) {
    return std::find(required.begin(), required.end(), name) != required.end();
  };
#if defined(__SSE4_2__)
  EXPECT_TRUE(listed("sse4.2"));
#else
  EXPECT_FALSE(listed("sse4.2"));
#endif
#if defined(__AVX2__)
  EXPECT_TRUE(listed("avx2"));
#else
  EXPECT_FALSE(listed("avx2"));
#endif
#if defined(__FMA__)
  EXPECT_TRUE(listed("fma"));
#else
  EXPECT_FALSE(listed("fma"));
#endif
#if defined(__AVX512F__)
  EXPECT_TRUE(listed("avx512f"));
#else
  EXPECT_FALSE(listed("avx512f"));
#endif
}

TEST(CpuSupport, TheMachineThatRunsTheTestsHasWhatTheBuildRequires) {
  const char* missing[32] = {};
  EXPECT_EQ(find_missing_cpu_features(cpu_features_required_by_build(), missing, 32), 0u) << missing[0];
}

TEST(CpuSupport, PretendedAbsencesAreReportedInTheOrderRequired) {
  const ScopedPretend pretend("avx2,sse3");
  EXPECT_EQ(missing_of({"sse3", "sse4.1", "avx2"}), (std::vector<std::string>{"sse3", "avx2"}));
}

TEST(CpuSupport, APrefixOfAPretendedNameDoesNotCount) {
  const ScopedPretend pretend("sse4.1x,avx");
  EXPECT_EQ(missing_of({"sse4.1", "avx2"}), (std::vector<std::string>{}));
}

TEST(CpuSupport, AnUnknownFeatureIsReportedMissingRatherThanAssumed) {
  EXPECT_EQ(missing_of({"sse3", "quantum-simd"}), (std::vector<std::string>{"quantum-simd"}));
}

}  // namespace
}  // namespace attnviz
