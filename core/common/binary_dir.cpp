#include "core/common/binary_dir.h"

#include <system_error>

namespace attnviz {

std::filesystem::path binary_dir() {
  std::error_code error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", error);
  return error ? std::filesystem::path() : binary.parent_path();
}

}  // namespace attnviz
