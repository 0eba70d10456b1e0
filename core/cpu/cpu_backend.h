#pragma once
// The Eigen backend: the attention of a Problem computed on the host with Eigen's GEMMs, the
// reference the Vulkan path is checked against.

#include <memory>

#include "core/attention/backend.h"

namespace attnviz {

std::unique_ptr<Backend> make_cpu_backend();

}  // namespace attnviz
