#pragma once
// The list behind cpu_features_required_by_build(), null-terminated (see the .cpp for why it
// lives apart).

namespace attnviz::detail {
extern const char* const kCpuFeaturesRequiredByBuild[];
}
