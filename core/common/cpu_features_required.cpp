// Data only: compiled with the build's own -march, so the predefined macros say what the
// compiler may have used. No code here runs, so this file is safe on any x86-64 processor.

#include "core/common/cpu_features_required.h"

namespace attnviz::detail {

// The names __builtin_cpu_supports understands (GCC 12), weakest first.
extern const char* const kCpuFeaturesRequiredByBuild[] = {
#if defined(__SSE3__)
    "sse3",
#endif
#if defined(__SSSE3__)
    "ssse3",
#endif
#if defined(__SSE4_1__)
    "sse4.1",
#endif
#if defined(__SSE4_2__)
    "sse4.2",
#endif
#if defined(__POPCNT__)
    "popcnt",
#endif
#if defined(__AVX__)
    "avx",
#endif
#if defined(__AVX2__)
    "avx2",
#endif
#if defined(__FMA__)
    "fma",
#endif
#if defined(__BMI__)
    "bmi",
#endif
#if defined(__BMI2__)
    "bmi2",
#endif
#if defined(__AVX512F__)
    "avx512f",
#endif
#if defined(__AVX512VL__)
    "avx512vl",
#endif
#if defined(__AVX512BW__)
    "avx512bw",
#endif
#if defined(__AVX512DQ__)
    "avx512dq",
#endif
#if defined(__AVX512CD__)
    "avx512cd",
#endif
    nullptr};

}  // namespace attnviz::detail
